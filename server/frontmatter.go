package server

import (
	"fmt"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Markdown given to a content batch may open with a YAML frontmatter block, as Git Sync writes
// pages: its metadata wins over the change's fields and it is not kept in the body. A new page
// takes its title from the frontmatter, else from a leading "# " heading (then the title, not
// body), else from the change's title.

var leadingHeading = regexp.MustCompile(`^#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)

// readMarkdown reads the frontmatter (and for a new page the leading heading) of md into meta
// and leaves md the body to store.
func readMarkdown(i int, md *string, meta *pageMeta, insert bool) error {
	body, front, err := splitFrontmatter(*md)
	if err != nil {
		return batchError(i, "document.markdown", "%s", err.Error())
	}
	if front != nil {
		if err := front.apply(meta); err != nil {
			return batchError(i, "document.markdown", "frontmatter %s", err.Error())
		}
	}
	if insert && (front == nil || front.Title == nil) {
		if title, rest, ok := splitHeading(body); ok {
			meta.Title, body = &title, rest
		}
	}
	*md = body
	return nil
}

// frontmatter holds the fields quire reads; others (layout, metaLinks…) are ignored.
type frontmatter struct {
	Title         *string `yaml:"title"`
	Description   *string `yaml:"description"`
	Emoji         *string `yaml:"emoji"`
	Icon          *string `yaml:"icon"`
	Hidden        *bool   `yaml:"hidden"`
	NoIndex       *bool   `yaml:"noIndex"`
	NoRobotsIndex *bool   `yaml:"noRobotsIndex"`
	Condition     *string `yaml:"condition"`
	If            *string `yaml:"if"` // Git Sync's name for the condition
}

func (f *frontmatter) apply(meta *pageMeta) error {
	if f.Title != nil {
		t := strings.TrimSpace(*f.Title)
		if t == "" || len(t) > 200 {
			return fmt.Errorf("title: must be 1 to 200 characters")
		}
		meta.Title = &t
	}
	for name, v := range map[string]*string{"description": f.Description, "emoji": f.Emoji, "icon": f.Icon} {
		if v != nil && len(*v) > map[string]int{"description": 1000, "emoji": 50, "icon": 50}[name] {
			return fmt.Errorf("%s: too long", name)
		}
	}
	override(&meta.Description, f.Description)
	override(&meta.Emoji, f.Emoji)
	override(&meta.Icon, f.Icon)
	override(&meta.Hidden, f.Hidden)
	override(&meta.NoIndex, f.NoIndex)
	override(&meta.NoRobotsIndex, f.NoRobotsIndex)
	override(&meta.Condition, f.If)
	override(&meta.Condition, f.Condition)
	return nil
}

// override sets a field the frontmatter gives (it wins over the change's own).
func override[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

// splitFrontmatter returns the body after a leading "---" block and the block read; front is
// nil when there is none (an opening rule without a closing one is plain markdown).
func splitFrontmatter(md string) (body string, front *frontmatter, err error) {
	first, rest, ok := strings.Cut(strings.TrimPrefix(md, "\ufeff"), "\n")
	if !ok || strings.TrimRight(first, "\r") != "---" {
		return md, nil, nil
	}
	var lines []string
	for {
		line, after, more := strings.Cut(rest, "\n")
		if t := strings.TrimRight(line, "\r \t"); t == "---" || t == "..." {
			front = &frontmatter{}
			if err := yaml.Unmarshal([]byte(strings.Join(lines, "\n")), front); err != nil {
				return md, nil, fmt.Errorf("the frontmatter is not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
			}
			if !more {
				after = ""
			}
			return strings.TrimLeft(after, "\r\n"), front, nil
		}
		if !more {
			return md, nil, nil
		}
		lines, rest = append(lines, line), after
	}
}

// splitHeading returns the text of a leading level-1 ATX heading and the body after it.
func splitHeading(md string) (title, body string, ok bool) {
	s := strings.TrimLeft(md, " \t\r\n")
	line, rest, _ := strings.Cut(s, "\n")
	m := leadingHeading.FindStringSubmatch(strings.TrimRight(line, "\r"))
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return "", md, false
	}
	return strings.TrimSpace(m[1]), strings.TrimLeft(rest, "\r\n"), true
}
