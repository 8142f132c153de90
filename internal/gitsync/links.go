package gitsync

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Links are found line by line, outside fenced code blocks: inline links and images
// ("](dest)", "](<dest>)"), reference definitions ("[x]: dest"), the src and href attributes
// of HTML (GitBook writes images as <figure><img src="…">) and the url of GitBook's blocks
// ({% content-ref url="page.md" %}).
var (
	inlineDest = regexp.MustCompile(`\]\([ \t]*(<[^>\n]*>|[^)\s]+)`)
	refDef     = regexp.MustCompile(`^[ ]{0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)`)
	htmlAttr   = regexp.MustCompile(`\b(?:src|href|url)="([^"\n]*)"`)
	fence      = regexp.MustCompile("^[ ]{0,3}(```+|~~~+)")
)

// RewriteFunc is given a link's destination (angle brackets removed), the line it is on and
// whether it is an inline markdown link or image (not a reference definition or an HTML
// attribute); it returns the destination to write instead, or keep true to leave it as it is.
type RewriteFunc func(dest string, line int, inline bool) (repl string, keep bool, err error)

// RewriteLinks rewrites the link destinations of markdown whose first line is line firstLine of
// its file. It stops at the first error fn returns.
func RewriteLinks(md string, firstLine int, fn RewriteFunc) (string, error) {
	lines := strings.Split(md, "\n")
	var open string
	for i, line := range lines {
		if m := fence.FindStringSubmatch(line); m != nil {
			switch {
			case open == "":
				open = m[1]
			case strings.HasPrefix(m[1], open[:1]) && len(m[1]) >= len(open) && strings.TrimSpace(line) == m[1]:
				open = ""
			}
			continue
		}
		if open != "" {
			continue
		}
		n := firstLine + i
		var err error
		replace := func(re *regexp.Regexp, markdown, inline bool) {
			if err != nil {
				return
			}
			line = replaceGroup(re, line, codeSpans(line), func(raw string) string {
				if err != nil {
					return raw
				}
				dest := raw
				if markdown {
					dest, _ = splitDest(raw)
				}
				repl, keep, e := fn(dest, n, inline)
				if e != nil {
					err = e
				}
				if keep || e != nil {
					return raw
				}
				if markdown {
					return FormatDest(repl)
				}
				return repl
			})
		}
		replace(inlineDest, true, true)
		replace(refDef, true, false)
		replace(htmlAttr, false, false)
		if err != nil {
			return "", err
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n"), nil
}

// replaceGroup replaces the first capture group of each match of re in s, but for matches that
// start inside a code span (skip holds their [start, end) offsets).
func replaceGroup(re *regexp.Regexp, s string, skip [][2]int, fn func(string) string) string {
	var b strings.Builder
	last := 0
matches:
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		for _, sp := range skip {
			if m[0] >= sp[0] && m[0] < sp[1] {
				continue matches
			}
		}
		b.WriteString(s[last:m[2]])
		b.WriteString(fn(s[m[2]:m[3]]))
		last = m[3]
	}
	b.WriteString(s[last:])
	return b.String()
}

// codeSpans returns the [start, end) offsets of a line's code spans: a run of backticks up to the
// next run of the same length.
func codeSpans(line string) [][2]int {
	var out [][2]int
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		run := line[i:j]
		end := -1
		for k := j; k < len(line); {
			if line[k] != '`' {
				k++
				continue
			}
			l := k
			for l < len(line) && line[l] == '`' {
				l++
			}
			if l-k == len(run) {
				end = l
				break
			}
			k = l
		}
		if end < 0 {
			i = j
			continue
		}
		out = append(out, [2]int{i, end})
		i = end
	}
	return out
}

// splitDest takes a markdown link destination apart from its optional title.
func splitDest(raw string) (dest, title string) {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "<") {
		if end := strings.Index(raw, ">"); end > 0 {
			return raw[1:end], strings.TrimSpace(raw[end+1:])
		}
	}
	dest, title, _ = strings.Cut(raw, " ")
	return dest, strings.TrimSpace(title)
}

// FormatDest writes a destination for a markdown link: in angle brackets when it holds spaces or
// parentheses, as GitBook does for "image (1).png".
func FormatDest(dest string) string {
	if strings.ContainsAny(dest, " ()<>") {
		return "<" + dest + ">"
	}
	return dest
}

// relPath is the path from the folder of file from to file to, both relative to the root.
func relPath(from, to string) string {
	rel, err := filepath.Rel(filepath.FromSlash(path.Dir(from)), filepath.FromSlash(to))
	if err != nil {
		return to
	}
	return filepath.ToSlash(rel)
}

// isExternal says whether a destination is a URL, an anchor or a root path: not a relative path
// inside the layout.
func isExternal(dest string) bool {
	if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "/") {
		return true
	}
	if i := strings.IndexAny(dest, ":/?#"); i > 0 && dest[i] == ':' {
		return true // a scheme: http:, mailto:, data:…
	}
	return false
}
