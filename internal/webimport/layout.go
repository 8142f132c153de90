package webimport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/quire-docs/quire/store"
)

// Doc is one page to write: its title, its markdown, and where it came from.
type Doc struct {
	Title     string
	Markdown  string
	SourceURL string
}

// WriteLayout writes docs into dir as pages of the Git Sync layout, in order: one file per doc
// (named by its title's slug, made unique) and a SUMMARY.md listing them. It answers the files.
func WriteLayout(dir string, docs []Doc) ([]string, error) {
	var summary strings.Builder
	summary.WriteString("# Summary\n\n")
	taken := map[string]bool{"readme": true, "summary": true}
	files := make([]string, 0, len(docs))
	for _, d := range docs {
		title := strings.TrimSpace(strings.ReplaceAll(d.Title, "\n", " "))
		if title == "" {
			title = "Untitled"
		}
		base := store.Slugify(title)
		if base == "" {
			base = "page"
		}
		name := base
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		taken[name] = true
		file := name + ".md"
		body := d.Markdown
		if !strings.HasPrefix(strings.TrimLeft(body, "\n"), "# ") {
			body = "# " + title + "\n\n" + body
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(&summary, "* [%s](%s)\n", escapeLinkText(title), file)
		files = append(files, file)
	}
	return files, os.WriteFile(filepath.Join(dir, "SUMMARY.md"), []byte(summary.String()), 0o644)
}

func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// FromMarkdown is an uploaded markdown file as a Doc: its title the first "# " heading (taken out
// of the body), else its file name in words.
func FromMarkdown(name string, src []byte) Doc {
	body := strings.TrimPrefix(string(src), "\ufeff")
	lines := strings.SplitN(strings.TrimLeft(body, "\r\n"), "\n", 2)
	if t, ok := strings.CutPrefix(lines[0], "# "); ok {
		rest := ""
		if len(lines) == 2 {
			rest = lines[1]
		}
		return Doc{Title: strings.TrimSpace(t), Markdown: strings.TrimLeft(rest, "\r\n")}
	}
	base := filepath.Base(name)
	words := strings.NewReplacer("-", " ", "_", " ").Replace(strings.TrimSuffix(base, filepath.Ext(base)))
	if words == "" {
		words = "Untitled"
	}
	return Doc{Title: strings.ToUpper(words[:1]) + words[1:], Markdown: body}
}
