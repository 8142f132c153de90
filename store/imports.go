package store

import (
	"context"
	"time"
)

// ImportRunJob is the kind of the job that does an import run; its payload is the run's id.
const ImportRunJob = "import_run"

// ImportRunTimeout bounds an import run: one still pending or in progress that long after it was
// asked for was left behind by a run that never reported back, and reads as failed.
const ImportRunTimeout = 30 * time.Minute

// Statuses of an import run.
const (
	ImportPending    = "pending"
	ImportInProgress = "in-progress"
	ImportCompleted  = "completed"
	ImportFailed     = "failed"
	ImportCancelled  = "cancelled"
)

// Sources of an import run.
const (
	ImportFromWebsite = "website"
	ImportFromFiles   = "file"
)

// ImportRun imports a website or uploaded files into a space (or a change request, or under a
// page).
type ImportRun struct {
	ID             string
	OrganizationID string
	SpaceID        string
	ChangeRequest  string // "" for the space's primary content
	Page           string // "" for the top level
	Site           string // the site the run is listed under; "" for none
	Source         string // ImportFromWebsite | ImportFromFiles
	URL            string // the website
	Files          []string
	// Enhance is what the request asked for; quire imports without AI whatever it says.
	Enhance     bool
	Status      string
	Reason      string // why it failed
	Pages       []ImportRunPage
	CreatedBy   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	StartedAt   *time.Time
	CompletedAt *time.Time
}

// ImportRunPage is a page a run imported (or is importing).
type ImportRunPage struct {
	ID        string `json:"id"`
	SourceURL string `json:"sourceURL,omitempty"`
	Type      string `json:"type"`   // page | folder
	Status    string `json:"status"` // complete | pending
}

// ImportRunFilter narrows a list of runs; "" matches all. Status "active" is pending and in-progress.
type ImportRunFilter struct {
	Space, ChangeRequest, Site, Status string
}

// ImportRunUpdate moves an active run on: Status (in-progress, completed or failed), its Reason,
// and its Pages when set.
type ImportRunUpdate struct {
	Status string
	Reason string
	Pages  []ImportRunPage
}

// StorageUpload is a file uploaded through a signed URL (generateStorageUploadURL), to be read by
// an import run by its key.
type StorageUpload struct {
	Key            string
	OrganizationID string
	Kind           string
	Name           string
	ContentType    string
	Size           int64 // the size announced; the body uploaded must have it
	CreatedBy      string
	CreatedAt      time.Time
	Uploaded       bool
}

// ImportRuns keeps import runs and the files uploaded for them.
type ImportRuns interface {
	// CreateImportRun records a pending run (its ID, status and times set) and queues its job, in
	// one transaction. Without a Site, the run is listed under the space's site when it belongs
	// to exactly one.
	CreateImportRun(ctx context.Context, r *ImportRun) (*ImportRun, error)
	// FindImportRun returns an organization's run; ENOTFOUND when it has none by that id. A run
	// left behind (see ImportRunTimeout) reads as failed.
	FindImportRun(ctx context.Context, orgID, id string) (*ImportRun, error)
	// FindImportRuns lists an organization's runs, most recent first.
	FindImportRuns(ctx context.Context, orgID string, f ImportRunFilter, p Page) (List[*ImportRun], error)
	// UpdateImportRun moves a pending or in-progress run on; ECONFLICT when it is no longer
	// active (cancelled, or ended), so that a cancelled run stops.
	UpdateImportRun(ctx context.Context, id string, u ImportRunUpdate) (*ImportRun, error)
	// CancelImportRun cancels an active run; ECONFLICT when it has ended.
	CancelImportRun(ctx context.Context, orgID, id string) (*ImportRun, error)
	// CreateStorageUpload records an upload to come (Key set by the caller).
	CreateStorageUpload(ctx context.Context, u *StorageUpload) error
	// PutStorageUpload stores an upload's bytes; ENOTFOUND for an unknown key, ECONFLICT when it
	// was uploaded already.
	PutStorageUpload(ctx context.Context, key string, data []byte) error
	// FindStorageUpload returns an organization's upload and its bytes (nil until uploaded).
	FindStorageUpload(ctx context.Context, orgID, key string) (*StorageUpload, []byte, error)
}
