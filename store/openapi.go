package store

import (
	"context"
	"time"
)

// Kinds of job the OpenAPI specifications need; the store enqueues the first in the transaction
// that changes a source, so a change is never left unprocessed.
const (
	// JobProcessOpenAPISpec fetches and parses one specification; its payload is the spec's id.
	JobProcessOpenAPISpec = "process_openapi_spec"
	// JobRefreshOpenAPISpecs is the one recurring job that queues URL-sourced specifications for
	// fetching again.
	JobRefreshOpenAPISpecs = "refresh_openapi_specs"
)

// Processing states of an OpenAPI specification.
const (
	OpenAPIPending  = "pending"
	OpenAPIProgress = "progress"
	OpenAPIComplete = "complete"
)

// Processing error codes of an OpenAPI specification.
const (
	OpenAPIFetchTimeout = "FETCH_TIMEOUT"
	OpenAPIFetchError   = "FETCH_ERROR"
	OpenAPIParseError   = "PARSE_ERROR"
)

// OpenAPIMaxErrors is how many processing errors a specification keeps (the count says how many
// there were).
const OpenAPIMaxErrors = 20

// OpenAPISpec is an organization's OpenAPI specification, known by its slug.
type OpenAPISpec struct {
	ID             string
	OrganizationID string
	Slug           string
	// SourceURL is where the document is fetched from; "" for a specification given as text.
	SourceURL       string
	Visibility      string // private | public
	ProcessingState string // pending | progress | complete
	// LastVersionID is the current version, "" until one was made.
	LastVersionID   string
	LastProcessedAt *time.Time
	// LastErrorCode and LastErrors tell why the last processing failed ("" and none when it did not).
	LastErrorCode  string
	LastErrors     []OpenAPIError
	LastErrorCount int
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// OpenAPIError is one processing error.
type OpenAPIError struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}

// OpenAPISource is where a specification's document comes from: a URL or the text itself.
type OpenAPISource struct {
	URL  string
	Text string
}

// OpenAPIWork is what one processing run reads: the source as it was when the run started, and
// its generation, which every change of source moves on.
type OpenAPIWork struct {
	Spec       *OpenAPISpec
	Source     OpenAPISource
	Generation int
}

// OpenAPIResult is the outcome of one processing run: a parsed document, or errors.
type OpenAPIResult struct {
	// Document is the raw document, Filename its name in the version's files and Format json or
	// yaml; Filesystem the files parsed, as a JSON object keyed by path.
	Document   []byte
	Filename   string
	Format     string
	Filesystem []byte
	// ErrorCode, when set, makes this a failure: Errors say why, ErrorCount how many there were.
	ErrorCode  string
	Errors     []OpenAPIError
	ErrorCount int
}

// OpenAPISpecVersion is one processed document of a specification.
type OpenAPISpecVersion struct {
	ID        string
	SpecID    string
	Hash      string
	Filename  string
	Format    string
	CreatedAt time.Time
}

// OpenAPISpecVersionContent is a version with its document and parsed files.
type OpenAPISpecVersionContent struct {
	OpenAPISpecVersion
	Document   []byte
	Filesystem []byte
}

// OpenAPISpecs are organizations' OpenAPI specifications and their versions.
type OpenAPISpecs interface {
	// CreateOpenAPISpec creates a specification and queues its processing; ECONFLICT when the slug
	// is taken in the organization.
	CreateOpenAPISpec(ctx context.Context, orgID string, slug string, src OpenAPISource) (*OpenAPISpec, error)
	// PutOpenAPISpec sets the source of the specification with a slug, creating it when absent
	// (created says which), and queues its processing.
	PutOpenAPISpec(ctx context.Context, orgID string, slug string, src OpenAPISource) (spec *OpenAPISpec, created bool, err error)
	// FindOpenAPISpec returns an organization's specification by slug.
	FindOpenAPISpec(ctx context.Context, orgID string, slug string) (*OpenAPISpec, error)
	// FindOpenAPISpecByID returns a specification by id, whatever its organization.
	FindOpenAPISpecByID(ctx context.Context, id string) (*OpenAPISpec, error)
	// FindOpenAPISpecs lists an organization's specifications by slug.
	FindOpenAPISpecs(ctx context.Context, orgID string, p Page) (List[*OpenAPISpec], error)
	// UpdateOpenAPISpecVisibility sets who can read a specification's documents.
	UpdateOpenAPISpecVisibility(ctx context.Context, orgID string, slug string, visibility string) (*OpenAPISpec, error)
	// DeleteOpenAPISpec deletes a specification and its versions; deleting a missing one is no error.
	DeleteOpenAPISpec(ctx context.Context, orgID string, slug string) error
	// FindOpenAPISpecVersions lists a specification's versions, newest first.
	FindOpenAPISpecVersions(ctx context.Context, specID string, p Page) (List[*OpenAPISpecVersion], error)
	// FindOpenAPISpecVersion returns a version of a specification.
	FindOpenAPISpecVersion(ctx context.Context, specID string, versionID string) (*OpenAPISpecVersion, error)
	// FindOpenAPISpecVersionContent returns a version with its document and parsed files.
	FindOpenAPISpecVersionContent(ctx context.Context, specID string, versionID string) (*OpenAPISpecVersionContent, error)
	// StartOpenAPIProcessing marks a specification in progress and returns what to process.
	StartOpenAPIProcessing(ctx context.Context, specID string) (*OpenAPIWork, error)
	// FinishOpenAPIProcessing records a run's result unless the source changed since the run
	// started (applied false): a new version when the document differs from the current one's,
	// else only the time and errors; a failure keeps the current version.
	FinishOpenAPIProcessing(ctx context.Context, specID string, generation int, r OpenAPIResult) (applied bool, err error)
	// QueueOpenAPIRefresh queues the processing of every URL-sourced specification last processed
	// before a time and not already queued, and returns how many it queued.
	QueueOpenAPIRefresh(ctx context.Context, processedBefore time.Time) (int, error)
}
