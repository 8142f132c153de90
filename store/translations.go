package store

import (
	"context"
	"encoding/json"
	"time"
)

// TranslationRunJob is the job kind of a translation run; its payload is the translation's id.
const TranslationRunJob = "translation_run"

// Translation statuses: queued, being translated, done (successfully or not: see LastError).
const (
	TranslationPending   = "pending"
	TranslationRunning   = "running"
	TranslationCompleted = "completed"
)

// Translation keeps a result space in one language translated from a source space.
type Translation struct {
	ID             string
	OrganizationID string
	Status         string
	SourceSpaceID  string
	SourceLanguage string
	Language       string
	Instructions   json.RawMessage // a rich-text document, nil when unset
	ResultSpaceID  *string
	ResultRevision *string
	CreatedBy      string
	RunBy          string // the user who queued the latest run: its change request is theirs
	LastError      string // why the latest run failed, "" when it did not
	Pending        *PendingTranslationRun
	Stats          TranslationStats
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// TranslationStats are counts over a translation's runs (durations in milliseconds).
type TranslationStats struct {
	Runs             int
	TotalWords       int
	TotalPages       int // distinct source pages ever translated
	TotalDurationMS  int64
	LatestDurationMS int64
	LatestPages      int
	LatestWords      int
}

// TranslationCreate holds what a new translation starts with.
type TranslationCreate struct {
	SourceSpaceID  string
	SourceLanguage string
	Language       string
	Instructions   json.RawMessage
	CreatedBy      string
}

// TranslatedPage records what a result page was translated from: the source page, the result page
// standing for it, and a hash of the source content last translated, so a later run re-translates
// only pages whose hash changed.
type TranslatedPage struct {
	SourcePageID string
	ResultPageID string
	SourceHash   string
}

// TranslationRun is the outcome of one run, recorded when it ends.
type TranslationRun struct {
	DurationMS int64
	Pages      int // pages translated (sent to the translator) in this run
	NewPages   int // of those, pages never translated before
	Words      int
	Err        string // "" when the run succeeded
	// With a successful run: the result revision it wrote (nil when nothing changed), the pages
	// translated or moved (upserted) and the source pages deleted.
	Revision *string
	Upsert   []TranslatedPage
	Deleted  []string
}

// PageRef names a page of a space.
type PageRef struct {
	SpaceID string
	PageID  string
}

// PendingTranslationRun is a run whose change request was written and is being merged: if the
// run is cut short before it is recorded, the next run records it when the change request was
// merged (and archives it when not).
type PendingTranslationRun struct {
	ChangeRequestID string         `json:"changeRequest"`
	SpaceID         string         `json:"space"`
	Run             TranslationRun `json:"run"`
}

// Translations are an organization's translations and the state of their runs.
type Translations interface {
	// CreateTranslation creates a pending translation that has never run.
	CreateTranslation(ctx context.Context, orgID string, c TranslationCreate) (*Translation, error)
	// DeleteTranslation deletes a translation and its page records; its result space stays.
	// Deleting a missing one is no error.
	DeleteTranslation(ctx context.Context, orgID string, id string) error
	// FindPageAlternates returns the pages of other spaces of an organization that stand for a
	// page in other languages: the result pages translations made of it, the page it was
	// translated from, and that page's other translations; by space id, then page id.
	FindPageAlternates(ctx context.Context, orgID string, spaceID string, pageID string) ([]PageRef, error)
	// FindTranslatedPages returns the page records of a translation, by source page id.
	FindTranslatedPages(ctx context.Context, id string) (map[string]TranslatedPage, error)
	// FindTranslation returns a translation of an organization (any organization when orgID is "").
	FindTranslation(ctx context.Context, orgID string, id string) (*Translation, error)
	// FindTranslations lists an organization's translations, oldest first.
	FindTranslations(ctx context.Context, orgID string, p Page) (List[*Translation], error)
	// FinishTranslationRun records a run's outcome and stats, and with a successful run its result
	// revision and page records, all at once; the translation is completed.
	FinishTranslationRun(ctx context.Context, id string, r TranslationRun) error
	// StageTranslationRun records a run about to be merged (see PendingTranslationRun);
	// FinishTranslationRun clears it.
	StageTranslationRun(ctx context.Context, id string, p PendingTranslationRun) error
	// QueueTranslationRun marks a translation pending and enqueues its run job, at once.
	QueueTranslationRun(ctx context.Context, orgID string, id string, userID string) error
	// SetTranslationResultSpace records the result space a first run created, before it writes
	// anything there, so a failed run does not leave a second space behind the next one.
	SetTranslationResultSpace(ctx context.Context, id string, spaceID string) error
	// StartTranslationRun marks a translation running and returns it.
	StartTranslationRun(ctx context.Context, id string) (*Translation, error)
	// UpdateTranslationInstructions replaces a translation's instructions.
	UpdateTranslationInstructions(ctx context.Context, orgID string, id string, doc json.RawMessage) (*Translation, error)
}

// GlossaryEntry is a term of an organization's translation glossary, by language code: a run
// translates the source language's term as the target language's (or keeps it when the entry
// has none for the target).
type GlossaryEntry struct {
	ID             string
	OrganizationID string
	Translations   map[string]string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// GlossaryOperation is one operation of a glossary batch: Type insert (Translations), update (ID,
// Translations, which replace the entry's) or delete (ID).
type GlossaryOperation struct {
	Type         string
	ID           string
	Translations map[string]string
}

// Glossary is an organization's translation glossary.
type Glossary interface {
	// FindGlossaryEntries lists a glossary's entries: oldest first, or by their term in orderBy
	// (a language code; entries without one first), then by id.
	FindGlossaryEntries(ctx context.Context, orgID string, orderBy string, p Page) (List[*GlossaryEntry], error)
	// FindGlossaryEntry returns an entry of an organization's glossary.
	FindGlossaryEntry(ctx context.Context, orgID string, id string) (*GlossaryEntry, error)
	// FindAllGlossaryEntries returns every entry of a glossary, oldest first (what a run reads).
	FindAllGlossaryEntries(ctx context.Context, orgID string) ([]*GlossaryEntry, error)
	// UpdateGlossary applies operations in order, all or none: an update or delete of an entry the
	// organization lacks is ENOTFOUND naming it (FieldError operations[i].id as EINVALID).
	UpdateGlossary(ctx context.Context, orgID string, ops []GlossaryOperation) error
}
