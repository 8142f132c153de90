package store

import (
	"regexp"
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

// maxSections is how many sections of a page are indexed on their own; later ones join the last.
const maxSections = 64

var headingLine = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$`)

// SplitSections cuts markdown into sections at its headings, each as plain text.
func SplitSections(pageTitle, md string) []SearchSection {
	secs := []SearchSection{{Title: pageTitle}}
	var body strings.Builder
	fence := ""
	flush := func() {
		secs[len(secs)-1].Body = strings.TrimSpace(body.String())
		body.Reset()
	}
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			if fence == "" {
				fence = trimmed[:3]
			} else if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if fence == "" {
			if m := headingLine.FindStringSubmatch(line); m != nil {
				if len(secs) < maxSections {
					flush()
					title := plainMarkdown(m[2])
					secs = append(secs, SearchSection{Anchor: Slugify(title), Title: title})
					continue
				}
			}
		}
		body.WriteString(plainMarkdown(line))
		body.WriteByte('\n')
	}
	flush()
	// The text before the first heading is a section only when there is some, or no heading.
	if secs[0].Body == "" && len(secs) > 1 {
		secs = secs[1:]
	}
	return secs
}

var (
	mdImage  = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink   = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdHTML   = regexp.MustCompile(`<[^>]+>`)
	mdMarks  = regexp.MustCompile("[*_`~]+")
	mdPrefix = regexp.MustCompile(`^\s*(?:>+\s*|[-+*]\s+|\d+[.)]\s+|#{1,6}\s+)`)
)

// plainMarkdown strips the markdown syntax from a line, keeping its words.
func plainMarkdown(s string) string {
	s = mdImage.ReplaceAllString(s, "$1")
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdHTML.ReplaceAllString(s, "")
	s = mdPrefix.ReplaceAllString(s, "")
	return mdMarks.ReplaceAllString(s, "")
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
