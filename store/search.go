package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-docs/quire/internal/markdown"
)

// SearchSection is a section of a page that matched.
type SearchSection struct {
	Anchor string // "" for the text before the first heading
	Title  string
	Body   string // the section's text, shortened
	// Score is the section's relevance (see SearchPage.Score); 0 for the section answered for a
	// page found by its title alone (Matched false).
	Score   float64
	Matched bool
}

// SearchPage is a page that matched, with its matching sections, best first.
type SearchPage struct {
	SpaceID     string
	PageID      string
	Title       string
	Description string
	Path        string
	// Ancestors are the page's ancestor pages in the space's current revision, from the top level
	// to its parent.
	Ancestors []SearchAncestor
	// Link is where the page leads when it is a link page (nil for a document or a group), as
	// the space's current revision has it.
	Link *PageTarget
	// Score is the page's relevance, higher is better: the engine's rank r (bm25 on SQLite,
	// ts_rank on PostgreSQL, made positive) as r/(1+r), plus 1 when the title matched (title
	// matches rank first); r is 0 for a query too common to rank, whose pages come in the order
	// they were indexed. Rank is the page's one-based position among all the pages found.
	Score        float64
	Rank         int
	MatchedTitle bool
	Sections     []SearchSection
}

// SearchAncestor is an ancestor page of a search hit.
type SearchAncestor struct {
	PageID string
	Title  string
}

// SearchSpaceHits is a space of an organization search with its best matching pages; its Score
// is its best page's.
type SearchSpaceHits struct {
	SpaceID string
	Score   float64
	Pages   []*SearchPage
}

// SearchScore squashes an engine's relevance r (>= 0, higher is better) into [0, 1).
func SearchScore(r float64) float64 {
	if r <= 0 {
		return 0
	}
	return r / (1 + r)
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
	return searchSections(markdown.Sections(pageTitle, md, maxSections))
}

func searchSections(parts []markdown.Section) []SearchSection {
	out := make([]SearchSection, len(parts))
	for i, p := range parts {
		out[i] = SearchSection{Anchor: p.Anchor, Title: p.Title, Body: p.Body}
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
