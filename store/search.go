package store

import (
	"github.com/quire-docs/quire/internal/markdown"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SearchSection is a section of a page that matched.
type SearchSection struct {
	Anchor string // "" for the text before the first heading
	Title  string
	Body   string // the section's text, shortened
}

// SearchPage is a page that matched, with its matching sections, best first.
type SearchPage struct {
	SpaceID  string
	PageID   string
	Title    string
	Path     string
	Sections []SearchSection
}

// SearchSpaceHits is a space of an organization search with its best matching pages.
type SearchSpaceHits struct {
	SpaceID string
	Pages   []*SearchPage
}

// SearchIndexReport is what a check or a rebuild of the search index found.
type SearchIndexReport struct {
	Backend  string `json:"backend"`
	Spaces   int    `json:"spaces"`   // spaces indexed (rebuild: spaces indexed again)
	Pages    int    `json:"pages"`    // pages in the index
	Sections int    `json:"sections"` // sections in the index
	// StalePages and StaleSections count the index rows whose searchable text is not what the
	// indexed text folds to now (titles and sections); StaleSpaces names their spaces.
	StalePages    int      `json:"stalePages"`
	StaleSections int      `json:"staleSections"`
	StaleSpaces   []string `json:"staleSpaces"`
	// Problems are what the engine's own check of the index reported (SQLite's FTS5).
	Problems []string `json:"problems"`
}

// NeedsRebuild tells whether the report found anything a rebuild mends.
func (r *SearchIndexReport) NeedsRebuild() bool {
	return r.StalePages+r.StaleSections > 0 || len(r.Problems) > 0
}

// maxSections is how many sections of a page are indexed on their own; later ones join the last.
const maxSections = 64

// SplitSections cuts a page into the sections search indexes: markdown.Sections (at its top-level
// headings, as plain text, each anchored by the id its heading has in the page's document).
func SplitSections(pageTitle, md string) []SearchSection {
	parts := markdown.Sections(pageTitle, md, maxSections)
	out := make([]SearchSection, len(parts))
	for i, p := range parts {
		out[i] = SearchSection(p)
	}
	return out
}

// SearchTokens are the words of a query, lower-cased (at most 16).
func SearchTokens(q string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(out) == 16 {
			break
		}
		out = append(out, f)
	}
	return out
}

// Shorten cuts s to at most n runes, at a word boundary where it can, marking the cut.
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	cut := string(r)
	if i := strings.LastIndexAny(cut, " \n\t"); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "…"
}
