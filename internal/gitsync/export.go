package gitsync

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/quire-docs/quire/store"
)

// Page is a page of a space to write, with its subpages.
type Page struct {
	ID       string
	Title    string
	Slug     string
	Path     string // its path in the space (slugs joined by /), for relative links stored as such
	Meta     Meta
	Markdown string
	Children []*Page
	// Kind is "" (a document), "group" (a "## " heading of SUMMARY.md over its pages, which go in
	// a folder of its slug; no file of its own) or "link" (a SUMMARY.md item linking to URL; no
	// file either).
	Kind string
	URL  string
	// A link opening no URL opens LinkPage (a page of this space, or of LinkSpace when set), or
	// the space LinkSpace.
	LinkPage, LinkSpace string
}

// Page kinds other than documents.
const (
	KindGroup = "group"
	KindLink  = "link"
)

// File is a file of a space to write.
type File struct {
	ID   string
	Name string
	Data []byte
}

// Space is what Export writes.
type Space struct {
	Pages    []*Page
	Files    []*File
	Reusable []*store.ReusableContent // in the order they were created (includes.go)
}

// Stats counts what an export or an import carried.
type Stats struct {
	Pages, Files, Links, Reusable int
	// Unresolved counts the relative links export kept as written because they lead to nothing
	// in the space: import keeps them as written too, and notes them.
	Unresolved int
	// SkippedLinks counts the link pages export left out: those opening a page of the space that
	// has no file (a group, another link), or nothing.
	SkippedLinks int
	// PageFiles is where export wrote each page that has a file: page id → its path.
	PageFiles map[string]string
}

// Progress is told how far a long run is: done of total steps.
type Progress func(done, total int)

// AssetsDir is where files go, relative to the root.
const AssetsDir = ".gitbook/assets"

// layout holds where each page and file of a space goes.
type layout struct {
	pageFile map[string]string // page id → its file
	skipped  int               // link pages without a URL, left out
	byPath   map[string]string // page's space path → id
	fileName map[string]string // file id → its name under AssetsDir
	readme   string
	summary  *Summary
}

// plan places a space's pages and files in the layout. Names come from slugs and file names,
// sanitized, never from titles: nothing can land outside the directory.
func plan(sp *Space) *layout {
	l := &layout{pageFile: map[string]string{}, byPath: map[string]string{}, fileName: map[string]string{}, summary: &Summary{}}
	pending := map[*Entry]string{} // links to pages of the space → the page
	var place func(pages []*Page, dir string, root bool) []*Entry
	place = func(pages []*Page, dir string, root bool) []*Entry {
		used := map[string]bool{"readme": true}
		if root {
			used["summary"] = true
		}
		take := func(slug string) string {
			name := store.Slugify(slug)
			base := name
			for n := 2; used[name]; n++ {
				name = base + "-" + strconv.Itoa(n)
			}
			used[name] = true
			return name
		}
		var entries []*Entry
		for i, p := range pages {
			switch p.Kind {
			case KindGroup:
				e := &Entry{Title: p.Title, Children: place(p.Children, path.Join(dir, take(p.Slug)), false)}
				entries = append(entries, e)
				continue
			case KindLink:
				e := &Entry{Title: p.Title, URL: p.URL}
				switch {
				case p.URL != "":
				case p.LinkSpace != "" && p.LinkPage != "":
					e.Link = "/spaces/" + p.LinkSpace + "/pages/" + p.LinkPage
				case p.LinkSpace != "":
					e.Link = "/spaces/" + p.LinkSpace
				case p.LinkPage != "":
					// Its file is known once every page is placed.
					pending[e] = p.LinkPage
				default:
					l.skipped++
					continue
				}
				entries = append(entries, e)
				continue
			}
			l.byPath[p.Path] = p.ID
			var file, sub string
			switch {
			case root && i == 0 && store.Slugify(p.Title) == p.Slug:
				file = "README.md"
				if len(p.Children) > 0 {
					sub = take(p.Slug)
				}
			case len(p.Children) > 0:
				sub = take(p.Slug)
				file = path.Join(dir, sub, "README.md")
			default:
				file = path.Join(dir, take(p.Slug)+".md")
			}
			if root && i == 0 {
				l.readme = file
			}
			l.pageFile[p.ID] = file
			e := &Entry{Title: p.Title, Path: file}
			if len(p.Children) > 0 {
				e.Children = place(p.Children, path.Join(dir, sub), false)
			}
			entries = append(entries, e)
		}
		return entries
	}
	l.summary.Entries = place(sp.Pages, "", true)
	l.summary.Entries = l.linkFiles(l.summary.Entries, pending)
	if l.readme == "" {
		// The space opens on a group or a link: .gitbook.yaml names the first page's file.
		l.readme = firstFile(l.summary.Entries)
	}
	if l.readme == "" {
		l.readme = "README.md"
	}
	// Files by name, de-duplicated as GitBook does: "image.png", "image (1).png"…
	files := append([]*File(nil), sp.Files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	used := map[string]bool{}
	for _, f := range files {
		name := safeFileName(f.Name)
		ext := path.Ext(name)
		stem := strings.TrimSuffix(name, ext)
		for n := 1; used[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s (%d)%s", stem, n, ext)
		}
		used[strings.ToLower(name)] = true
		l.fileName[f.ID] = name
	}
	return l
}

// linkFiles points the links to pages of the space at their files, leaving out (and counting)
// those whose page has none.
func (l *layout) linkFiles(es []*Entry, pending map[*Entry]string) []*Entry {
	out := es[:0]
	for _, e := range es {
		if id, ok := pending[e]; ok {
			if e.Link = l.pageFile[id]; e.Link == "" {
				l.skipped++
				continue
			}
		}
		e.Children = l.linkFiles(e.Children, pending)
		out = append(out, e)
	}
	return out
}

// firstFile is the file of the first page SUMMARY.md lists, "" when it lists none.
func firstFile(es []*Entry) string {
	for _, e := range es {
		if e.Path != "" {
			return e.Path
		}
		if f := firstFile(e.Children); f != "" {
			return f
		}
	}
	return ""
}

// safeFileName keeps a file name's last element, without separators, control characters or a
// leading dot.
func safeFileName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`<>:"|?*#%`, r) {
			return '_'
		}
		return r
	}, name)
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	if name == "" {
		return "file"
	}
	return name
}

// Export writes a space into dir, which must be empty or absent.
func Export(dir string, sp *Space, progress Progress) (Stats, error) {
	var st Stats
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return st, fmt.Errorf("%s is not empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	l := plan(sp)
	st.SkippedLinks, st.PageFiles = l.skipped, l.pageFile
	var all []*Page
	var walk func([]*Page)
	walk = func(ps []*Page) {
		for _, p := range ps {
			all = append(all, p)
			walk(p.Children)
		}
	}
	walk(sp.Pages)
	total := len(all) + len(sp.Files)
	write := func(rel string, data []byte) error {
		full := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, data, 0o644)
	}
	slugs := IncludeSlugs(sp.Reusable)
	for i, p := range all {
		file, ok := l.pageFile[p.ID]
		if !ok { // a group or a link: a line of SUMMARY.md only
			continue
		}
		body, links, unresolved, err := l.exportLinks(p, file)
		if err != nil {
			return st, err
		}
		body = includesOut(body, file, slugs)
		data, err := FormatPage(p.Meta, p.Title, body)
		if err != nil {
			return st, fmt.Errorf("%s: %w", file, err)
		}
		if err := write(file, data); err != nil {
			return st, err
		}
		st.Pages++
		st.Links += links
		st.Unresolved += unresolved
		if progress != nil {
			progress(i+1, total)
		}
	}
	for i, f := range sp.Files {
		if err := write(path.Join(AssetsDir, l.fileName[f.ID]), f.Data); err != nil {
			return st, err
		}
		st.Files++
		if progress != nil {
			progress(len(all)+i+1, total)
		}
	}
	for _, r := range sp.Reusable {
		file := includeFile(slugs[r.ID])
		body, links, unresolved, err := l.exportLinks(&Page{Markdown: r.Markdown}, file)
		if err != nil {
			return st, err
		}
		data, err := FormatInclude(r.Title, includesOut(body, file, slugs))
		if err != nil {
			return st, fmt.Errorf("%s: %w", file, err)
		}
		if err := write(file, data); err != nil {
			return st, err
		}
		st.Reusable++
		st.Links += links
		st.Unresolved += unresolved
	}
	if err := write("SUMMARY.md", WriteSummary(l.summary)); err != nil {
		return st, err
	}
	return st, write(".gitbook.yaml", []byte(fmt.Sprintf("root: ./\n\nstructure:\n  readme: %s\n  summary: SUMMARY.md\n", l.readme)))
}

// exportLinks rewrites the links of a page written at file to relative paths: /pages/<id or
// path> and relative .md paths (as quire resolves them) to the target page's file, /files/<id>
// to the file under AssetsDir. Links to nothing in the space are left as they are.
func (l *layout) exportLinks(p *Page, file string) (string, int, int, error) {
	n, unresolved := 0, 0
	md, err := RewriteLinks(p.Markdown, 1, func(dest string, _ int, _ bool) (string, bool, error) {
		target, frag, _ := strings.Cut(dest, "#")
		if frag != "" {
			frag = "#" + frag
		}
		var to string
		switch {
		case strings.HasPrefix(target, "/pages/"):
			x := strings.Trim(strings.TrimPrefix(target, "/pages/"), "/")
			if f, ok := l.pageFile[x]; ok {
				to = f
			} else if id, ok := l.byPath[x]; ok {
				to = l.pageFile[id]
			}
		case strings.HasPrefix(target, "/files/"):
			if name, ok := l.fileName[strings.Trim(strings.TrimPrefix(target, "/files/"), "/")]; ok {
				to = path.Join(AssetsDir, name)
			}
		case !isExternal(target) && strings.HasSuffix(strings.ToLower(target), ".md"):
			t, err := url.PathUnescape(target)
			if err != nil {
				return "", true, nil
			}
			sp := path.Clean(path.Join(path.Dir(p.Path), strings.TrimSuffix(t, path.Ext(t))))
			if strings.EqualFold(path.Base(sp), "readme") {
				sp = path.Dir(sp)
			}
			if id, ok := l.byPath[sp]; ok {
				to = l.pageFile[id]
			}
		}
		if to == "" {
			if !isExternal(target) {
				unresolved++
			}
			return "", true, nil
		}
		n++
		return relPath(file, to) + frag, false, nil
	})
	return md, n, unresolved, err
}
