package gitsync

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/quire-docs/quire/store"
)

// Reusable contents in GitBook's Git Sync layout: a file each under .gitbook/includes/, named by
// the slug of its title, its title in the frontmatter and its markdown below; a page (or another
// reusable content) includes one by a tag naming that file relative to itself:
//
//	{% include "../.gitbook/includes/warning.md" %}
//
// quire stores includes by id: export writes the relative path, import reads it back.

// IncludesDir is where reusable contents go, relative to the root.
const IncludesDir = store.IncludesDir

// ImportReusable is a reusable content read from the layout, for an insert (or, when a git import
// replaces a space's content, an update of the one exported to the same file).
type ImportReusable struct {
	Ref      string // what the import's include tags name it by
	File     string // relative to the directory read
	Slug     string // its file's name without .md
	Title    string
	Markdown string
}

// IncludeSlugs names the file of each reusable content (id → slug), in the order given: the slug
// of its title, numbered from -2 when an earlier one took it.
func IncludeSlugs(all []*store.ReusableContent) map[string]string {
	out := make(map[string]string, len(all))
	taken := map[string]bool{}
	for _, r := range all {
		base := store.ReusableSlug(r.Title)
		slug := base
		for n := 2; taken[slug]; n++ {
			slug = base + "-" + strconv.Itoa(n)
		}
		taken[slug] = true
		out[r.ID] = slug
	}
	return out
}

// includeFile is the file of a reusable content of that slug, relative to the root.
func includeFile(slug string) string { return path.Join(IncludesDir, slug+".md") }

// FormatInclude writes a reusable content's file.
func FormatInclude(title, body string) ([]byte, error) {
	y, err := yaml.Marshal(struct {
		Title string `yaml:"title"`
	}{title})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(unescapeAstral(y))
	b.WriteString("---\n")
	if body = strings.TrimRight(trimLeadingBlankLines(body), " \t\n"); body != "" {
		b.WriteString("\n" + body + "\n")
	}
	return b.Bytes(), nil
}

// ParseInclude reads a reusable content's file: the frontmatter's title ("" when it has none)
// and the markdown after it, a leading heading included (it is the content's, not a title).
func ParseInclude(file string, src []byte) (title, body string, err error) {
	text := strings.TrimPrefix(strings.ReplaceAll(string(src), "\r\n", "\n"), "\ufeff")
	if strings.HasPrefix(text, "---\n") {
		end := strings.Index(text[4:], "\n---")
		if end < 0 || !(len(text) == 4+end+4 || text[4+end+4] == '\n') {
			return "", "", lineErrorf(file, 1, "the frontmatter is not closed by a --- line")
		}
		var fm struct {
			Title string `yaml:"title"`
		}
		if err := yaml.Unmarshal([]byte(text[4:4+end+1]), &fm); err != nil {
			return "", "", frontmatterError(file, err)
		}
		title, text = strings.TrimSpace(fm.Title), text[4+end+4:]
	}
	return title, strings.TrimRight(trimLeadingBlankLines(text), " \t\n") + "\n", nil
}

// includesOut writes the include tags of markdown written at file (relative to the root) naming a
// reusable content by id as the relative path of its file (slugs: id → slug); others are kept.
func includesOut(md, file string, slugs map[string]string) string {
	out, _ := store.RewriteIncludes(md, func(name string) (string, error) {
		if slug, ok := slugs[name]; ok {
			return relPath(file, includeFile(slug)), nil
		}
		return name, nil
	})
	return out
}

// readIncludes reads the reusable contents under IncludesDir of root (relative to dir; read reads
// a file relative to dir, refusing one that is not UTF-8), in the order of their slugs; their links and includes are the caller's
// to rewrite.
func readIncludes(dir, root string, read func(rel string) ([]byte, error)) ([]*ImportReusable, error) {
	folder := path.Join(root, IncludesDir)
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(folder)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	// By slug: warning before warning-2, as export numbered them.
	slug := func(e fs.DirEntry) string { return strings.TrimSuffix(e.Name(), path.Ext(e.Name())) }
	sort.Slice(entries, func(i, j int) bool { return slug(entries[i]) < slug(entries[j]) })
	var out []*ImportReusable
	for _, e := range entries {
		if e.IsDir() || !strings.EqualFold(path.Ext(e.Name()), ".md") {
			continue
		}
		file := path.Join(folder, e.Name())
		data, err := read(file)
		if err != nil {
			return nil, err
		}
		title, body, err := ParseInclude(file, data)
		if err != nil {
			return nil, err
		}
		if title == "" {
			title = slug(e)
		}
		out = append(out, &ImportReusable{Ref: fmt.Sprintf("gitsync-include-%06d", len(out)+1), File: file, Slug: slug(e),
			Title: title, Markdown: body})
	}
	return out, nil
}

// missingInclude stands, while includesIn rewrites, for a tag that includes no reusable content's file.
const missingInclude = "gitsync-missing-include"

var missingIncludeTag = regexp.MustCompile(`(?m)^[ \t]*\{%\s*include\s+"` + missingInclude + `"\s*%\}[ \t]*\r?\n?`)

// includesIn rewrites the include tags of markdown read from file (relative to the directory
// read) naming the file of a reusable content of the import (refs: file → ref) by its ref; a tag
// naming a path that is no such file is left out, and noted. One naming an id is kept.
func includesIn(md, file string, refs map[string]string, note func(file string, line int, format string, args ...any)) string {
	out, _ := store.RewriteIncludes(md, func(name string) (string, error) {
		if _, byPath := store.IncludeSlug(name); !byPath {
			return name, nil
		}
		if ref, ok := refs[path.Clean(path.Join(path.Dir(file), name))]; ok {
			return ref, nil
		}
		note(file, 0, "includes %q, which is not a file under %s: left out", name, IncludesDir)
		return missingInclude, nil
	})
	return missingIncludeTag.ReplaceAllString(out, "")
}
