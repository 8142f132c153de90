package store

import (
	"context"
	"encoding/json"
)

// ContentInstallationUpdate holds what changes on a space or site installation; nil leaves a
// field alone. Status is the status it has after the update (computed by the caller from the new
// configuration).
type ContentInstallationUpdate struct {
	Configuration json.RawMessage
	ExternalIDs   *[]string
	Status        string
}

// OrganizationInstallation is an installation on an organization with its integration.
type OrganizationInstallation struct {
	Installation *IntegrationInstallation
	Integration  *Integration
}

// InstallationLifecycle is the rest of an installation's life: its space and site installations
// one by one, and uninstalling. Each change records the event its integration receives.
type InstallationLifecycle interface {
	// UninstallIntegration removes an installation of an integration with its space and site
	// installations and its tokens (which authenticate nothing from then on) and records the
	// installation_deleted event; ENOTFOUND when the integration has no such installation.
	UninstallIntegration(ctx context.Context, integrationID string, id string) error
	// FindContentInstallation returns an installation's space or site installation on one
	// target (ENOTFOUND when it is not set up there).
	FindContentInstallation(ctx context.Context, installationID string, kind string, targetID string) (*ContentInstallation, error)
	// UpdateContentInstallation applies an update to a space or site installation and records
	// the space_ or site_installation_setup event with the previous status and configuration.
	UpdateContentInstallation(ctx context.Context, installationID string, kind string, targetID string, upd ContentInstallationUpdate) (*ContentInstallation, error)
	// UninstallFromContent removes an installation from a space or site and records the space_
	// or site_installation_deleted event (ENOTFOUND when it is not set up there).
	UninstallFromContent(ctx context.Context, installationID string, kind string, targetID string) error
	// FindOrganizationInstallations lists the installations on an organization with their
	// integrations, oldest first; search keeps the integrations whose name or title contains it.
	FindOrganizationInstallations(ctx context.Context, orgID string, search *string, p Page) (List[*OrganizationInstallation], error)
}
