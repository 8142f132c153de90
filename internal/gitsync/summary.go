// Package gitsync reads and writes a space in GitBook's Git Sync layout: one markdown file per
// page in folders following the page tree, SUMMARY.md as the table of contents, .gitbook.yaml
// naming the root and the structure files, and files under .gitbook/assets/.
//
// The layout quire writes (GitBook's own convention):
//   - the first top-level page is the root README.md (the space's landing page), unless its slug
//     is not the one its title gives: then it is written like the others and .gitbook.yaml's
//     structure.readme names its file;
//   - a page with subpages is <slug>/README.md, its subpages inside <slug>/; a leaf is <slug>.md
//     (the root README's subpages go in <slug>/ too); names come from slugs, never titles;
//   - each file starts with its frontmatter (only the metadata the page carries: description,
//     icon, emoji, hidden, noIndex, noRobotsIndex, if), then "# Title", a blank line, the body;
//   - SUMMARY.md nests "* [Title](path.md)" items two spaces per level under "# Table of contents";
//     a group page is a "## Title" heading over its pages (which go in a folder of its slug), a
//     link page an item "* [Title](https://…)" linking to its URL, or, when it opens a page or a
//     space, "* [Title](page.md "link")", "* [Title](/spaces/<id> "link")" or
//     "* [Title](/spaces/<id>/pages/<id> "link")": neither has a file;
//   - files go under .gitbook/assets/ by name, a repeated name as "name (1).ext", "name (2).ext";
//   - links to pages (/pages/<id or path>, or relative .md paths) and to files (/files/<id>), in
//     markdown links, reference definitions, HTML src/href and GitBook's url="…", become paths
//     relative to the file; links to nothing in the space are kept as written (and counted).
//
// On import SUMMARY.md decides the tree; a "## " heading becomes a group page holding its items,
// an item linking to an http(s) or mailto URL a link page.
// A page's slug comes from its file (<name>.md) or folder (<name>/README.md), the root README's
// from its title; its title from frontmatter "title", else a leading "# " heading, else the
// SUMMARY.md link text. A relative link leads to a listed page or a file inside the root; one
// leading to nothing is kept as written and noted (Import.Notes), as are pages SUMMARY.md lists
// without a file and files nothing uses; other frontmatter keys (layout, metaLinks…) are ignored.
//
// Export, import, export gives byte-identical files. A first export normalizes: frontmatter keys
// in the order above, blank lines around the body trimmed, one newline at the end, links
// rewritten as above; an import of a GitBook repository also moves files linked from outside
// .gitbook/assets/ in there.
package gitsync

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// LineError is a problem at a line of a file of the layout.
type LineError struct {
	Path string // slash-separated, relative to the directory read
	Line int    // 0: the file as a whole
	Msg  string
}

func (e *LineError) Error() string {
	if e.Line == 0 {
		return e.Path + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

func lineErrorf(file string, line int, format string, args ...any) *LineError {
	return &LineError{Path: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Entry is an item of SUMMARY.md: a page, or a group ("## Title" heading, Path "") holding the
// items under it. A link item opening a page or a space has Link: a page's file (relative to the
// root, cleaned), /spaces/<id>, or /spaces/<id>/pages/<id> for a page of another space;
// SUMMARY.md writes it "* [Title](dest "link")".
type Entry struct {
	Title    string
	Path     string // the page's file, relative to the root, cleaned
	URL      string // a link item: the absolute URL it opens (Path "")
	Link     string // a link item opening a page or a space (Path ""): see below
	Line     int
	Children []*Entry
}

// Summary is a parsed SUMMARY.md.
type Summary struct {
	Title   string // its "# " heading
	Entries []*Entry
}

var (
	summaryItem    = regexp.MustCompile(`^([ \t]*)[*+-][ \t]+\[((?:[^\]\\]|\\.)*)\]\((.*)\)[ \t]*$`)
	summaryHeading = regexp.MustCompile(`^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$`)
	bareItem       = regexp.MustCompile(`^[ \t]*[*+-][ \t]`)
)

// ParseSummary reads SUMMARY.md (file is its path, for errors). Items nest by indentation; a
// "## " heading starts a group. Every item must link to a .md file inside the root, once.
func ParseSummary(file string, src []byte) (*Summary, error) {
	s := &Summary{}
	type level struct {
		indent int
		entry  *Entry
	}
	var stack []level
	var group *Entry
	seen := map[string]int{}
	inComment := false
	for i, line := range strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n") {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case inComment:
			inComment = !strings.Contains(trimmed, "-->")
			continue
		case strings.HasPrefix(trimmed, "<!--"):
			inComment = !strings.Contains(trimmed, "-->")
			continue
		case trimmed == "" || trimmed == "---" || trimmed == "***":
			continue
		}
		if m := summaryHeading.FindStringSubmatch(line); m != nil {
			if len(m[1]) == 1 && s.Title == "" && len(s.Entries) == 0 {
				s.Title = m[2]
				continue
			}
			if m[2] == "" {
				return nil, lineErrorf(file, n, "a group heading needs a title")
			}
			group = &Entry{Title: m[2], Line: n}
			s.Entries = append(s.Entries, group)
			stack = nil
			continue
		}
		m := summaryItem.FindStringSubmatch(line)
		if m == nil {
			if bareItem.MatchString(line) {
				return nil, lineErrorf(file, n, "a list item must be a single link: * [Title](page.md)")
			}
			return nil, lineErrorf(file, n, "expected a list item * [Title](page.md), a heading or a blank line")
		}
		indent := indentWidth(m[1])
		title := unescapeText(m[2])
		if strings.TrimSpace(title) == "" {
			return nil, lineErrorf(file, n, "the link has no title")
		}
		var e *Entry
		if d, t := splitDest(m[3]); t == linkTitle {
			link, err := linkTarget(d)
			if err != nil {
				return nil, lineErrorf(file, n, "%s", err.Error())
			}
			e = &Entry{Title: title, Link: link, Line: n}
		} else if u := linkItem(m[3]); u != "" {
			e = &Entry{Title: title, URL: u, Line: n}
		} else {
			target, err := summaryTarget(m[3])
			if err != nil {
				return nil, lineErrorf(file, n, "%s", err.Error())
			}
			if first, dup := seen[target]; dup {
				return nil, lineErrorf(file, n, "%s is already listed at line %d", target, first)
			}
			seen[target] = n
			e = &Entry{Title: title, Path: target, Line: n}
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		switch {
		case len(stack) > 0:
			p := stack[len(stack)-1].entry
			p.Children = append(p.Children, e)
		case indent > 0 && (group == nil && len(s.Entries) > 0 || group != nil && len(group.Children) > 0):
			return nil, lineErrorf(file, n, "inconsistent indentation: the item is under no item above it")
		case group != nil:
			group.Children = append(group.Children, e)
		default:
			s.Entries = append(s.Entries, e)
		}
		stack = append(stack, level{indent, e})
	}
	if inComment {
		return nil, lineErrorf(file, 0, "an HTML comment is not closed")
	}
	return s, nil
}

func indentWidth(ws string) int {
	n := 0
	for _, r := range ws {
		if r == '\t' {
			n += 4 - n%4
		} else {
			n++
		}
	}
	return n
}

// linkItem returns the URL of a SUMMARY.md item that links out of the repository (http, https or
// mailto: a link page), "" for any other.
func linkItem(dest string) string {
	d, _ := splitDest(dest)
	u, err := url.Parse(d)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return d
	}
	return ""
}

// linkTitle marks a SUMMARY.md item that is a link page opening a page or a space.
const linkTitle = `"link"`

// linkTarget checks and cleans what a link item opens: /spaces/<id>, /spaces/<id>/pages/<id>, or
// a page's file in the repository.
func linkTarget(dest string) (string, error) {
	if rest, ok := strings.CutPrefix(dest, "/spaces/"); ok {
		segs := strings.Split(rest, "/")
		if len(segs) == 1 && segs[0] != "" || len(segs) == 3 && segs[0] != "" && segs[1] == "pages" && segs[2] != "" {
			return dest, nil
		}
		return "", fmt.Errorf("%s: a link to a space is /spaces/<id>, to a page of one /spaces/<id>/pages/<id>", dest)
	}
	return summaryTarget(dest)
}

// summaryTarget checks and cleans the destination of a SUMMARY.md link.
func summaryTarget(dest string) (string, error) {
	d, _ := splitDest(dest)
	if d == "" {
		return "", fmt.Errorf("the link has no target")
	}
	if u, err := url.Parse(d); err == nil && u.Scheme != "" {
		return "", fmt.Errorf("%s links outside the repository: only pages (.md files) can be listed", d)
	}
	p, frag, _ := strings.Cut(d, "#")
	_ = frag
	p, err := url.PathUnescape(p)
	if err != nil {
		return "", fmt.Errorf("%s: %v", d, err)
	}
	if !strings.EqualFold(path.Ext(p), ".md") {
		return "", fmt.Errorf("%s is not a markdown (.md) file", p)
	}
	clean := path.Clean(strings.TrimPrefix(p, "/"))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%s is outside the root", p)
	}
	return clean, nil
}

// WriteSummary renders a table of contents as GitBook writes it.
func WriteSummary(s *Summary) []byte {
	var b strings.Builder
	title := s.Title
	if title == "" {
		title = "Table of contents"
	}
	b.WriteString("# " + title + "\n\n")
	var write func(es []*Entry, depth int)
	write = func(es []*Entry, depth int) {
		for _, e := range es {
			if e.URL != "" {
				fmt.Fprintf(&b, "%s* [%s](%s)\n", strings.Repeat("  ", depth), escapeText(e.Title), FormatDest(e.URL))
				continue
			}
			if e.Link != "" {
				fmt.Fprintf(&b, "%s* [%s](%s %s)\n", strings.Repeat("  ", depth), escapeText(e.Title), FormatDest(e.Link), linkTitle)
				continue
			}
			if e.Path == "" {
				b.WriteString("\n## " + e.Title + "\n\n")
				write(e.Children, 0)
				continue
			}
			fmt.Fprintf(&b, "%s* [%s](%s)\n", strings.Repeat("  ", depth), escapeText(e.Title), FormatDest(e.Path))
			write(e.Children, depth+1)
		}
	}
	write(s.Entries, 0)
	return []byte(b.String())
}

func escapeText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

func unescapeText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
