package translate

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strconv"
	"strings"

	"github.com/quire-docs/quire/store"
)

// Store is what a translation run reads and writes: the run itself, the source and result spaces,
// their revisions and pages, and the change request that carries a result, on the store's clock.
type Store interface {
	store.Translations
	store.Glossary
	store.Spaces
	store.Content
	store.ChangeRequests
	store.GitSync
	store.Clock
}

// Runner runs translations: the handler of store.TranslationRunJob.
type Runner struct {
	Store  Store
	Client Translator
	Log    *slog.Logger
}

// plan is what one run writes: the batch for the result space and the page records it changes.
type plan struct {
	changes []store.PageChange
	upsert  []store.TranslatedPage // ResultPageID is a batch ref for new pages until the batch ran
	deleted []string
	pages   int
	words   int
	newRefs map[string]bool
}

// pageHash identifies what a source page's translation depends on: its fields, its body (by the
// stored body's id: an unchanged page keeps it across revisions), and the glossary.
func pageHash(p *store.RevisionPage, terms []Term) string {
	h := sha256.New()
	str := func(s *string) string {
		if s == nil {
			return "\x01"
		}
		return *s
	}
	for _, f := range []string{p.Title, p.Description, p.Slug, str(p.Emoji), str(p.Icon), str(p.Condition),
		strconv.FormatBool(p.Hidden), strconv.FormatBool(p.NoIndex), strconv.FormatBool(p.NoRobotsIndex),
		strconv.FormatInt(p.BodyID, 10), termsKey(terms)} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	// A link title or a cover (pages without hash as they always did).
	if p.LinkTitle != nil || p.Cover != nil {
		h.Write([]byte("\x02" + str(p.LinkTitle) + "\x00" + coverKey(p.Cover)))
	}
	// A group or a link (documents hash as they always did): its kind and target.
	if p.Kind() != store.PageDocument {
		h.Write([]byte(p.Kind()))
		if t := p.Target; t != nil {
			for _, f := range []string{t.Kind, t.URL, t.Page, t.Space} {
				h.Write([]byte{0})
				h.Write([]byte(f))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// coverKey is a page's cover as pageHash reads it.
func coverKey(c *store.PageCover) string {
	if c == nil {
		return "\x01"
	}
	return strings.Join([]string{c.File, c.URL, c.DarkFile, c.DarkURL, strconv.FormatFloat(c.YPos, 'g', -1, 64),
		strconv.FormatFloat(c.Height, 'g', -1, 64)}, "\x00")
}

// termsKey is the terms as pageHash reads them: kept terms as they always were (so a run keeps
// the hashes of pages translated before terms could be translated), a translated one with its
// translation.
func termsKey(terms []Term) string {
	keys := make([]string, len(terms))
	for i, t := range terms {
		keys[i] = t.From
		if t.To != t.From {
			keys[i] += "\x03" + t.To
		}
	}
	return strings.Join(keys, "\x02")
}

func ptr[T any](v T) *T { return &v }

// orEmpty is an optional field as a change sets it: "" removes it.
func orEmpty(s *string) *string {
	if s == nil {
		return ptr("")
	}
	return s
}
