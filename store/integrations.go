package store

import (
	"context"
	"encoding/json"
	"time"
)

// Integration is a published integration: its manifest, owned by an organization. Its secrets and
// signing secret are kept sealed (encrypted by the server); the store never sees them in clear.
type Integration struct {
	ID             string
	Name           string
	OrganizationID string
	Version        int
	Title          string
	Description    string
	Summary        string
	Visibility     string
	Target         string
	Runtime        string
	Scopes         []string
	Categories     []string
	// Manifest is the rest of what was published, kept as the server gave it: blocks, content
	// sources, configurations and external links.
	Manifest              json.RawMessage
	ContentSecurityPolicy string
	Script                string
	HasIcon               bool
	PreviewImages         int
	SealedSecrets         string
	SealedSigningSecret   string
	DevTunnelURL          *string
	DevAll                bool
	CreatedAt             time.Time
	UpdatedAt             time.Time
}

// IntegrationAsset is an image published with an integration (its icon, its preview images).
type IntegrationAsset struct {
	ContentType string
	Data        []byte
}

// IntegrationPublish is what publishing stores. The index fields (BlockDomains, HasBlocks,
// HasContentSources) are derived from the manifest by the server, for the list filters.
type IntegrationPublish struct {
	Integration
	Icon              *IntegrationAsset
	Previews          []IntegrationAsset
	BlockDomains      []string
	HasBlocks         bool
	HasContentSources bool
}

// IntegrationFilter narrows a list of integrations; nil fields do not filter. Visibility: the
// public integrations, and every integration of an organization in MemberOf.
type IntegrationFilter struct {
	Search            *string
	Category          *string
	BlockDomain       *string
	HasBlocks         *bool
	HasContentSources *bool
	Owner             *string
	Scope             *string
	// Target keeps the integrations installable on a target: those of that target and of `all`.
	Target   *string
	MemberOf []string
}

// Installation kinds of content an installation is set up on.
const (
	InstallOnSpace = "space"
	InstallOnSite  = "site"
)

// IntegrationInstallation is an integration installed on an organization.
type IntegrationInstallation struct {
	ID              string
	IntegrationID   string
	IntegrationName string
	OrganizationID  string
	Status          string
	SpaceSelection  string
	SiteSelection   string
	Configuration   json.RawMessage
	ExternalIDs     []string
	Spaces          int
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// InstallationUpdate holds what changes; nil leaves a field alone. Status is the status the
// installation has after the update (computed by the caller from the new configuration).
type InstallationUpdate struct {
	Configuration  json.RawMessage
	ExternalIDs    *[]string
	SpaceSelection *string
	SiteSelection  *string
	Status         string
}

// ContentInstallation is an installation set up on one space or site.
type ContentInstallation struct {
	InstallationID  string
	IntegrationName string
	OrganizationID  string
	Kind            string // InstallOnSpace or InstallOnSite
	TargetID        string
	Status          string
	Configuration   json.RawMessage
	ExternalIDs     []string
	CreatedAt       time.Time
}

// InstallationFilter narrows installation lists: OrgIDs nil is every organization;
// InstallationID keeps one installation's; ExternalID keeps those carrying that external id.
type InstallationFilter struct {
	OrgIDs         []string
	InstallationID *string
	ExternalID     *string
}

// Integration event statuses as stored: pending while a delivery is owed.
const (
	EventPending = "pending"
	EventSuccess = "success"
	EventFailed  = "failed"
)

// DeliverIntegrationEventJob is the kind of job that POSTs an event to its integration's
// development tunnel; its payload is the event id.
const DeliverIntegrationEventJob = "deliver_integration_event"

// DeliveryJob is the payload of a DeliverIntegrationEventJob.
type DeliveryJob struct {
	EventID     string `json:"eventId"`
	Integration string `json:"integration"`
}

// DeliveryAttempts is how many times an event is tried before it is marked failed.
const DeliveryAttempts = 3

// IntegrationEvent is something that happened to an installation, for its integration.
type IntegrationEvent struct {
	ID             string
	IntegrationID  string
	InstallationID string
	Payload        json.RawMessage
	Status         string
	Attempts       int
	Logs           []IntegrationEventLog
	CreatedAt      time.Time
}

// IntegrationEventLog is one line of an event's trace.
type IntegrationEventLog struct {
	Message   string    `json:"message"`
	Timestamp time.Time `json:"timestamp"`
	Level     string    `json:"level"`
}

// InstallationGrant is what an installation token may reach: its installation's organization,
// the integration's scopes, and the spaces and sites it is installed on.
type InstallationGrant struct {
	InstallationID  string
	IntegrationName string
	OrganizationID  string
	Scopes          []string
	SpaceSelection  string
	SiteSelection   string
	SpaceIDs        []string
	SiteIDs         []string
	// InstalledBy is the user who installed the integration ("" when not recorded): the writes
	// of its installation tokens are attributed to them.
	InstalledBy string
}

// InstallationTokenTTL is how long an installation token authenticates.
const InstallationTokenTTL = time.Hour

// Integrations are published integrations, their installations, events and installation tokens.
type Integrations interface {
	// PublishIntegration creates an integration or publishes the next version of it (Version+1),
	// replacing its assets. An existing integration keeps its owner, signing secret and
	// development mode.
	PublishIntegration(ctx context.Context, p *IntegrationPublish) (*Integration, error)
	// FindIntegrationByName returns an integration whatever the caller (ENOTFOUND when none).
	FindIntegrationByName(ctx context.Context, name string) (*Integration, error)
	// FindIntegrations lists integrations by name.
	FindIntegrations(ctx context.Context, f IntegrationFilter, p Page) (List[*Integration], error)
	// FindIntegrationAsset returns an image of an integration: "icon" or "preview-N".
	FindIntegrationAsset(ctx context.Context, name string, asset string) (*IntegrationAsset, error)
	// DeleteIntegration removes an integration with its installations, events and tokens;
	// deleting a missing one is no error.
	DeleteIntegration(ctx context.Context, name string) error
	// FindOrganizationIDByHostname returns the id of the organization with a hostname (subdomain).
	FindOrganizationIDByHostname(ctx context.Context, hostname string) (string, error)
	// SetIntegrationDevMode sets (or with tunnelURL nil, clears) the development tunnel.
	SetIntegrationDevMode(ctx context.Context, name string, tunnelURL *string, all bool) error

	// InstallIntegration installs an integration on an organization and records the
	// installation_setup event (ECONFLICT when it is installed there already).
	InstallIntegration(ctx context.Context, integrationID string, orgID string, status string, installedBy string) (*IntegrationInstallation, error)
	// UpdateInstallation applies an update and records the installation_setup event.
	UpdateInstallation(ctx context.Context, integrationID string, id string, upd InstallationUpdate) (*IntegrationInstallation, error)
	// FindInstallation returns an installation of an integration.
	FindInstallation(ctx context.Context, integrationID string, id string) (*IntegrationInstallation, error)
	// FindInstallations lists an integration's installations, oldest first.
	FindInstallations(ctx context.Context, integrationID string, f InstallationFilter, p Page) (List[*IntegrationInstallation], error)
	// InstallOnContent sets an installation up on a space or site of its organization and records
	// the space_ or site_installation_setup event (ENOTFOUND for content outside the
	// organization, ECONFLICT when set up there already).
	InstallOnContent(ctx context.Context, installationID string, kind string, targetID string, status string) (*ContentInstallation, error)
	// FindContentInstallations lists an integration's space or site installations, oldest first.
	FindContentInstallations(ctx context.Context, integrationID string, kind string, f InstallationFilter, p Page) (List[*ContentInstallation], error)

	// FindIntegrationEvents lists an integration's events, newest first.
	FindIntegrationEvents(ctx context.Context, integrationID string, p Page) (List[*IntegrationEvent], error)
	// FindIntegrationEvent returns an event of an integration with its trace.
	FindIntegrationEvent(ctx context.Context, integrationID string, id string) (*IntegrationEvent, error)
	// FindEventByID returns an event whatever its integration (the delivery job's lookup).
	FindEventByID(ctx context.Context, id string) (*IntegrationEvent, error)
	// RecordEventDelivery counts a delivery attempt, appends a line to the event's trace and sets
	// its status.
	RecordEventDelivery(ctx context.Context, id string, status string, log IntegrationEventLog) error
	// AppendEventLog appends a line to an event's trace and sets its status, counting no attempt.
	AppendEventLog(ctx context.Context, id string, status string, log IntegrationEventLog) error

	// CreateInstallationToken issues a token acting as an installation until InstallationTokenTTL
	// from now, returned in clear this once. FindUserByToken resolves it to a user whose
	// InstallationID is set.
	CreateInstallationToken(ctx context.Context, installationID string) (string, error)
	// FindInstallationGrant returns what an installation may reach (ENOTFOUND once uninstalled).
	FindInstallationGrant(ctx context.Context, installationID string) (*InstallationGrant, error)
}
