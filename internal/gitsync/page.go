package gitsync

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Meta is the page metadata carried in a page file's frontmatter, with GitBook's key names.
// Keys quire does not keep (layout, metaLinks…) are ignored on import.
type Meta struct {
	Description   string `yaml:"description,omitempty"`
	Icon          string `yaml:"icon,omitempty"`
	Emoji         string `yaml:"emoji,omitempty"`
	Hidden        bool   `yaml:"hidden,omitempty"`
	NoIndex       bool   `yaml:"noIndex,omitempty"`
	NoRobotsIndex bool   `yaml:"noRobotsIndex,omitempty"`
	If            string `yaml:"if,omitempty"` // the visitor condition
}

// PageFile is a page file taken apart.
type PageFile struct {
	Meta     Meta
	Title    string // from frontmatter "title" or the leading "# " heading; "" when neither
	Body     string
	BodyLine int // the line of the file the body starts at
}

var heading = regexp.MustCompile(`^#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)

// FormatPage writes a page file: frontmatter when the page carries metadata, its title as a
// "# " heading, then its body (blank lines around it trimmed, one newline at the end).
func FormatPage(meta Meta, title, body string) ([]byte, error) {
	var b bytes.Buffer
	if meta != (Meta{}) {
		y, err := yaml.Marshal(meta)
		if err != nil {
			return nil, err
		}
		b.WriteString("---\n")
		b.Write(unescapeAstral(y))
		b.WriteString("---\n\n")
	}
	b.WriteString("# " + strings.TrimSpace(title) + "\n")
	body = strings.TrimRight(trimLeadingBlankLines(body), " \t\n")
	if body != "" {
		b.WriteString("\n" + body + "\n")
	}
	return b.Bytes(), nil
}

// ParsePage reads a page file (file is its path, for errors).
func ParsePage(file string, src []byte) (*PageFile, error) {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	text = strings.TrimPrefix(text, "\ufeff")
	pf := &PageFile{BodyLine: 1}
	if strings.HasPrefix(text, "---\n") {
		end := strings.Index(text[4:], "\n---")
		if end < 0 || !(len(text) == 4+end+4 || text[4+end+4] == '\n') {
			return nil, lineErrorf(file, 1, "the frontmatter is not closed by a --- line")
		}
		front := text[4 : 4+end+1]
		var fm struct {
			Meta      `yaml:",inline"`
			Title     string `yaml:"title"`
			Condition string `yaml:"condition"` // quire's name for "if"
		}
		var node yaml.Node
		if err := yaml.Unmarshal([]byte(front), &node); err != nil {
			return nil, frontmatterError(file, err)
		}
		if len(node.Content) > 0 && node.Content[0].Kind != yaml.MappingNode {
			return nil, lineErrorf(file, 2, "the frontmatter must be a mapping of keys to values")
		}
		if err := node.Decode(&fm); err != nil {
			return nil, frontmatterError(file, err)
		}
		pf.Meta, pf.Title = fm.Meta, strings.TrimSpace(fm.Title)
		if pf.Meta.If == "" {
			pf.Meta.If = fm.Condition
		}
		rest := text[4+end+4:]
		pf.BodyLine += strings.Count(text[:4+end+4], "\n")
		text = strings.TrimPrefix(rest, "\n")
		if len(rest) > 0 {
			pf.BodyLine++
		}
	}
	// The leading heading is the title (the first one when the frontmatter also names one).
	trimmed := trimLeadingBlankLines(text)
	pf.BodyLine += strings.Count(text[:len(text)-len(trimmed)], "\n")
	text = trimmed
	first, rest, _ := strings.Cut(text, "\n")
	if m := heading.FindStringSubmatch(first); m != nil {
		if pf.Title == "" {
			pf.Title = strings.TrimSpace(m[1])
		}
		pf.BodyLine++
		text = rest
		trimmed = trimLeadingBlankLines(text)
		pf.BodyLine += strings.Count(text[:len(text)-len(trimmed)], "\n")
		text = trimmed
	}
	pf.Body = text
	return pf, nil
}

// astralEscape is a \UXXXXXXXX escape yaml.v3 writes for a character beyond the BMP (an emoji),
// not preceded by an escaped backslash.
var astralEscape = regexp.MustCompile(`(^|[^\\])((?:\\\\)*)\\U([0-9A-Fa-f]{8})`)

// unescapeAstral writes such characters as themselves, which a double-quoted YAML string allows.
func unescapeAstral(y []byte) []byte {
	return astralEscape.ReplaceAllFunc(y, func(m []byte) []byte {
		sub := astralEscape.FindSubmatch(m)
		r, err := strconv.ParseUint(string(sub[3]), 16, 32)
		if err != nil {
			return m
		}
		return append(append(append([]byte{}, sub[1]...), sub[2]...), string(rune(r))...)
	})
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// frontmatterError places a YAML error at its line of the file (the frontmatter starts at line 2).
func frontmatterError(file string, err error) error {
	msg := err.Error()
	line := 2
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line = n + 1
	}
	return lineErrorf(file, line, "frontmatter: %s", strings.TrimPrefix(msg, "yaml: "))
}

func trimLeadingBlankLines(s string) string {
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			if !ok && strings.TrimSpace(line) == "" {
				return ""
			}
			return s
		}
		s = rest
	}
}
