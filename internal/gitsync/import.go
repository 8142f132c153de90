package gitsync

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/quire-docs/quire/store"
)

// ImportPage is a page read from the layout, ready for an insert_page change. Its markdown links
// to the import's pages by /pages/<ref> (the store turns refs into ids) and to its files by
// /files/<file ref> (Import.Markdown gives what to write).
type ImportPage struct {
	Ref      string
	Parent   int // index of the parent in Import.Pages; -1 at the top level
	Title    string
	Slug     string
	Meta     Meta
	Markdown string
	File     string // relative to the directory read
	Kind     string // "" a document, KindGroup or KindLink (which opens URL, LinkPage or LinkSpace)
	URL      string
	// A link opening a page: LinkPage is its Ref in the import, or its id in LinkSpace when set.
	// A link opening a space: LinkSpace alone.
	LinkPage, LinkSpace string
}

// ImportFile is a file the pages link to, or one under .gitbook/assets/.
type ImportFile struct {
	Ref         string
	Name        string
	Path        string // relative to the directory read
	ContentType string
	Data        []byte
}

// Import is a layout read: its pages, the files they link to, and what was kept as it was.
type Import struct {
	Title string // SUMMARY.md's title, else the folder's name
	Pages []*ImportPage
	Files []*ImportFile
	Links int
	// Notes are what the import kept as written or left out, file:line: a relative link to
	// nothing (kept as written), a page SUMMARY.md lists without its file (an empty page), a file
	// neither listed nor linked (not imported). None of them refuses the import.
	Notes []*LineError
	// Layout lists the files the import read (relative to the directory read): what an export
	// replaces.
	Layout []string
	// Reusable are the reusable contents under IncludesDir; the pages' include tags name them by
	// their refs (includes.go).
	Reusable []*ImportReusable
}

// maxNotes bounds the notes an import keeps; the last one counts the rest.
const maxNotes = 200

func (im *Import) note(file string, line int, format string, args ...any) {
	switch {
	case len(im.Notes) < maxNotes:
		im.Notes = append(im.Notes, lineErrorf(file, line, format, args...))
	case len(im.Notes) == maxNotes:
		im.Notes = append(im.Notes, lineErrorf(file, line, "and more notes, left out"))
	}
}

// relPlaceholder marks, in an imported page's markdown, a link to a page of the import that the
// store does not rewrite by ref (a reference definition, an HTML attribute): Markdown writes it
// as the relative path the store resolves from the linking page's path.
const relPlaceholder = "gitsync-rel:"

var relRef = regexp.MustCompile(relPlaceholder + `(gitsync-page-\d{6})`)

// Markdown returns the pages' markdown to write, in order: file refs replaced by the ids the files
// were given, links marked relPlaceholder by relative paths between the pages' paths (from their
// slugs, as they are now: a caller may change top-level slugs first).
func (im *Import) Markdown(fileIDs map[string]string) []string {
	rewrite, paths := im.rewriter(fileIDs)
	out := make([]string, len(im.Pages))
	for i, p := range im.Pages {
		out[i] = rewrite(p.Markdown, paths[i])
	}
	return out
}

// ReusableMarkdown is Markdown for the reusable contents, whose relative links are read from the
// root.
func (im *Import) ReusableMarkdown(fileIDs map[string]string) []string {
	rewrite, _ := im.rewriter(fileIDs)
	out := make([]string, len(im.Reusable))
	for i, r := range im.Reusable {
		out[i] = rewrite(r.Markdown, "")
	}
	return out
}

// rewriter rewrites markdown written from a path of the space as Markdown says, and answers the
// pages' paths.
func (im *Import) rewriter(fileIDs map[string]string) (func(md, from string) string, []string) {
	pairs := make([]string, 0, 2*len(im.Files))
	for _, f := range im.Files {
		// Refs have one width: none is the prefix of another.
		pairs = append(pairs, "/files/"+f.Ref, "/files/"+fileIDs[f.Ref])
	}
	files := strings.NewReplacer(pairs...)
	paths := make([]string, len(im.Pages))
	byRef := make(map[string]int, len(im.Pages))
	for i, p := range im.Pages {
		paths[i] = p.Slug
		if p.Parent >= 0 {
			paths[i] = paths[p.Parent] + "/" + p.Slug
		}
		byRef[p.Ref] = i
	}
	return func(md, from string) string {
		return relRef.ReplaceAllStringFunc(files.Replace(md), func(m string) string {
			to := paths[byRef[strings.TrimPrefix(m, relPlaceholder)]]
			rel := relPath(from, to)
			if strings.EqualFold(path.Base(to), "readme") {
				return rel + "/README.md" // a page whose slug is readme: as its folder
			}
			return rel + ".md"
		})
	}, paths
}

type gitbookYAML struct {
	Root      string `yaml:"root"`
	Structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
}

type reader struct {
	dir, root string // root: relative to dir, slash-separated, "." for dir itself
	realDir   string
	pageRefs  map[string]string      // page file (relative to root) → ref
	files     map[string]*ImportFile // file (relative to root) → the file
	used      map[string]bool        // files read (relative to dir), for unused
	im        *Import
	progress  Progress
}

// Read reads a layout in dir: .gitbook.yaml (optional), the summary, every page it lists and
// every file they link to. It is forgiving where GitBook is (see Import.Notes); what cannot be read
// (a malformed SUMMARY.md or frontmatter, a file that is not UTF-8, a path leading out of the
// tree) is an error naming the file and line.
func Read(dir string, progress Progress) (*Import, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	r := &reader{dir: dir, realDir: real, root: ".", pageRefs: map[string]string{}, files: map[string]*ImportFile{},
		used: map[string]bool{".gitbook.yaml": true}, im: &Import{}, progress: progress}
	cfg := gitbookYAML{}
	if src, err := r.read(".gitbook.yaml"); err == nil {
		if err := yaml.Unmarshal(src, &cfg); err != nil {
			return nil, frontmatterErrorAt(".gitbook.yaml", err, 0)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if cfg.Root != "" {
		root := path.Clean(strings.TrimPrefix(cfg.Root, "/"))
		if root == ".." || strings.HasPrefix(root, "../") {
			return nil, lineErrorf(".gitbook.yaml", 0, "root %q is outside the repository", cfg.Root)
		}
		r.root = root
	}
	readme, summary := "README.md", "SUMMARY.md"
	if cfg.Structure.Readme != "" {
		readme = path.Clean(cfg.Structure.Readme)
	}
	if cfg.Structure.Summary != "" {
		summary = path.Clean(cfg.Structure.Summary)
	}
	summaryFile := r.rel(summary)
	r.used[summaryFile] = true
	src, err := r.read(summaryFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, lineErrorf(summaryFile, 0, "not found: the table of contents is required")
	} else if err != nil {
		return nil, err
	}
	if err := checkUTF8(summaryFile, src); err != nil {
		return nil, err
	}
	sum, err := ParseSummary(summaryFile, src)
	if err != nil {
		return nil, err
	}
	if !listed(sum.Entries, readme) {
		if _, err := r.read(r.rel(readme)); err == nil {
			sum.Entries = append([]*Entry{{Path: readme}}, sum.Entries...)
		}
	}
	if t := strings.TrimSpace(sum.Title); t != "" && !strings.EqualFold(t, "table of contents") {
		r.im.Title = t
	} else {
		abs, _ := filepath.Abs(dir)
		r.im.Title = filepath.Base(abs)
	}
	// Refs first, so that links may point forward; then the pages, in tree order.
	var number func([]*Entry)
	entries := 0
	number = func(es []*Entry) {
		for _, e := range es {
			entries++
			if e.Path != "" {
				r.pageRefs[e.Path] = fmt.Sprintf("gitsync-page-%06d", len(r.pageRefs)+1)
			}
			number(e.Children)
		}
	}
	number(sum.Entries)
	bodies := map[*ImportPage]*PageFile{}
	var walk func(es []*Entry, parent int, top bool) error
	walk = func(es []*Entry, parent int, top bool) error {
		used := map[string]bool{}
		for i, e := range es {
			p := &ImportPage{Parent: parent, Title: e.Title}
			switch {
			case e.URL != "" || e.Link != "": // a link page
				p.Ref, p.Kind, p.URL = fmt.Sprintf("gitsync-link-%06d", len(r.im.Pages)+1), KindLink, e.URL
				p.Slug = store.Slugify(e.Title)
				if rest, ok := strings.CutPrefix(e.Link, "/spaces/"); ok {
					space, page, _ := strings.Cut(rest, "/pages/")
					p.LinkSpace, p.LinkPage = space, page
				} else if e.Link != "" {
					if p.LinkPage = r.pageRefs[e.Link]; p.LinkPage == "" {
						return lineErrorf(summaryFile, e.Line, "the link opens %s, which SUMMARY.md does not list", e.Link)
					}
				}
			case e.Path == "": // a group page holding its items
				p.Ref, p.Kind = fmt.Sprintf("gitsync-group-%06d", len(r.im.Pages)+1), KindGroup
				p.Slug = store.Slugify(e.Title)
			default:
				p.Ref, p.File = r.pageRefs[e.Path], r.rel(e.Path)
				r.used[p.File] = true
				data, err := r.read(p.File)
				if errors.Is(err, fs.ErrNotExist) {
					r.im.note(summaryFile, e.Line, "%s does not exist: the page is imported empty", p.File)
					data, err = nil, nil
				}
				if err != nil {
					return lineErrorf(summaryFile, e.Line, "%s: %v", p.File, err)
				}
				if err := checkUTF8(p.File, data); err != nil {
					return err
				}
				pf, err := ParsePage(p.File, data)
				if err != nil {
					return err
				}
				if pf.Title != "" {
					p.Title = pf.Title
				}
				if p.Title == "" {
					p.Title = titleFromFile(e.Path)
				}
				p.Meta = pf.Meta
				bodies[p] = pf
				p.Slug = pageSlug(e.Path, p.Title, top && i == 0 && e.Path == readme)
			}
			base := p.Slug
			for n := 2; used[p.Slug]; n++ {
				p.Slug = base + "-" + strconv.Itoa(n)
			}
			used[p.Slug] = true
			r.im.Pages = append(r.im.Pages, p)
			if r.progress != nil {
				r.progress(len(r.im.Pages), entries)
			}
			if err := walk(e.Children, len(r.im.Pages)-1, false); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(sum.Entries, -1, true); err != nil {
		return nil, err
	}
	readText := func(rel string) ([]byte, error) {
		data, err := r.read(rel)
		if err == nil {
			err = checkUTF8(rel, data)
		}
		return data, err
	}
	if r.im.Reusable, err = readIncludes(r.realDir, r.root, readText); err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, ir := range r.im.Reusable {
		r.used[ir.File] = true
		refs[ir.File] = ir.Ref
	}
	for _, ir := range r.im.Reusable {
		if ir.Markdown, err = r.links(&ImportPage{File: ir.File}, &PageFile{Body: ir.Markdown, BodyLine: 1}); err != nil {
			return nil, err
		}
		ir.Markdown = includesIn(ir.Markdown, ir.File, refs, r.im.note)
	}
	for _, p := range r.im.Pages {
		if pf := bodies[p]; pf != nil {
			md, err := r.links(p, pf)
			if err != nil {
				return nil, err
			}
			p.Markdown = includesIn(md, p.File, refs, r.im.note)
		}
	}
	if err := r.assets(); err != nil {
		return nil, err
	}
	if err := r.unused(); err != nil {
		return nil, err
	}
	for f := range r.used {
		r.im.Layout = append(r.im.Layout, f)
	}
	sort.Strings(r.im.Layout)
	return r.im, nil
}

// checkUTF8 refuses a text file that is not UTF-8, naming the line of the first bad byte.
func checkUTF8(file string, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return lineErrorf(file, 1+bytes.Count(data[:i], []byte("\n")), "not UTF-8 text (byte 0x%02x at offset %d)", data[i], i)
		}
		i += size
	}
	return nil
}

// unused notes the files under the root that the import leaves out: neither a listed page, nor
// linked, nor an asset, nor the layout's own files. Folders starting with a dot (.git, .github) and
// the root's files outside it are not looked at.
func (r *reader) unused() error {
	top := filepath.Join(r.dir, filepath.FromSlash(r.root))
	return filepath.WalkDir(top, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable folders are not ours to report
		}
		rel, _ := filepath.Rel(r.dir, full)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if full != top && strings.HasPrefix(d.Name(), ".") && rel != r.rel(".gitbook") {
				return filepath.SkipDir
			}
			return nil
		}
		if r.used[rel] || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		if strings.EqualFold(path.Ext(rel), ".md") {
			r.im.note(rel, 0, "not listed in the table of contents: not imported")
		} else {
			r.im.note(rel, 0, "neither linked from a page nor under %s: not imported", AssetsDir)
		}
		return nil
	})
}

func listed(es []*Entry, file string) bool {
	for _, e := range es {
		if e.Path == file || listed(e.Children, file) {
			return true
		}
	}
	return false
}

// pageSlug is the slug a page file gives: the root README's from its title, a folder's
// README.md's from the folder, another file's from its name.
func pageSlug(file, title string, isReadme bool) string {
	dir, base := path.Split(file)
	switch {
	case isReadme && strings.EqualFold(base, "readme.md"):
		return store.Slugify(title)
	case strings.EqualFold(base, "readme.md") && dir != "":
		return store.Slugify(path.Base(dir))
	case strings.EqualFold(base, "readme.md"):
		return store.Slugify(title)
	}
	return store.Slugify(strings.TrimSuffix(base, path.Ext(base)))
}

// titleFromFile names a page that has no heading and no SUMMARY.md link text (the readme, when
// SUMMARY.md does not list it): "Introduction" for a README.md, else its file name in words.
func titleFromFile(file string) string {
	base := path.Base(file)
	if strings.EqualFold(base, "readme.md") {
		return "Introduction"
	}
	words := strings.NewReplacer("-", " ", "_", " ").Replace(strings.TrimSuffix(base, path.Ext(base)))
	if words == "" {
		return "Untitled"
	}
	return strings.ToUpper(words[:1]) + words[1:]
}

// rel makes a path relative to the root one relative to the directory read.
func (r *reader) rel(p string) string { return path.Join(r.root, p) }

// read reads a regular file of the directory, refusing one that resolves outside it.
func (r *reader) read(rel string) ([]byte, error) {
	full := filepath.Join(r.dir, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return nil, err
	}
	if inside, err := filepath.Rel(r.realDir, real); err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s resolves outside %s", rel, r.dir)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: %w", rel, fs.ErrNotExist)
	}
	if fi.Size() > store.MaxFileSize {
		return nil, fmt.Errorf("%s is %d bytes, over the %d MiB limit", rel, fi.Size(), store.MaxFileSize>>20)
	}
	return os.ReadFile(real)
}

// links rewrites a page's relative links: to a listed page, /pages/<ref> in inline links (the
// form the store rewrites by ref), a relPlaceholder elsewhere (reference definitions, HTML
// attributes); to any other file, /files/<ref>. A relative link to nothing, out of the root, or
// to a .md file SUMMARY.md does not list is kept as written and noted.
func (r *reader) links(p *ImportPage, pf *PageFile) (string, error) {
	fromRoot := strings.TrimPrefix(strings.TrimPrefix(p.File, r.root), "/")
	if r.root == "." {
		fromRoot = p.File
	}
	return RewriteLinks(pf.Body, pf.BodyLine, func(dest string, line int, inline bool) (string, bool, error) {
		if isExternal(dest) {
			return "", true, nil
		}
		target, frag, _ := strings.Cut(dest, "#")
		target, _, _ = strings.Cut(target, "?")
		if frag != "" {
			frag = "#" + frag
		}
		t, err := url.PathUnescape(target)
		if err != nil {
			r.im.note(p.File, line, "link %q: %v: kept as written", dest, err)
			return "", true, nil
		}
		resolved := path.Clean(path.Join(path.Dir(fromRoot), t))
		if resolved == ".." || strings.HasPrefix(resolved, "../") {
			r.im.note(p.File, line, "link %q points outside the root: kept as written", dest)
			return "", true, nil
		}
		if strings.HasSuffix(t, "/") || !strings.Contains(path.Base(t), ".") {
			if _, ok := r.pageRefs[path.Join(resolved, "README.md")]; ok {
				resolved = path.Join(resolved, "README.md")
			}
		}
		if ref, ok := r.pageRefs[resolved]; ok {
			r.im.Links++
			if !inline {
				return relPlaceholder + ref + frag, false, nil
			}
			return "/pages/" + ref + frag, false, nil
		}
		if strings.EqualFold(path.Ext(resolved), ".md") {
			if _, err := r.read(r.rel(resolved)); err == nil {
				r.im.note(p.File, line, "link %q: %s is not listed in the table of contents: kept as written", dest, r.rel(resolved))
			} else {
				r.im.note(p.File, line, "link %q: %s does not exist: kept as written", dest, r.rel(resolved))
			}
			return "", true, nil
		}
		f, err := r.file(resolved)
		if errors.Is(err, fs.ErrNotExist) {
			r.im.note(p.File, line, "link %q: %s does not exist: kept as written", dest, r.rel(resolved))
			return "", true, nil
		} else if err != nil {
			return "", false, lineErrorf(p.File, line, "link %q: %v", dest, err)
		}
		r.im.Links++
		return "/files/" + f.Ref + frag, false, nil
	})
}

// file returns the import's file at a path relative to the root, reading it the first time.
func (r *reader) file(rel string) (*ImportFile, error) {
	if f, ok := r.files[rel]; ok {
		return f, nil
	}
	data, err := r.read(r.rel(rel))
	if err != nil {
		return nil, err
	}
	r.used[r.rel(rel)] = true
	ct := mime.TypeByExtension(path.Ext(rel))
	if ct == "" {
		ct = http.DetectContentType(data)
	}
	ct, _, _ = strings.Cut(ct, ";")
	f := &ImportFile{Ref: fmt.Sprintf("gitsync-file-%06d", len(r.files)+1), Name: path.Base(rel), Path: r.rel(rel),
		ContentType: ct, Data: data}
	r.files[rel] = f
	r.im.Files = append(r.im.Files, f)
	return f, nil
}

// assets adds the files under .gitbook/assets/ no page links to: they are the space's files too.
func (r *reader) assets() error {
	entries, err := os.ReadDir(filepath.Join(r.dir, filepath.FromSlash(r.rel(AssetsDir))))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			if _, err := r.file(path.Join(AssetsDir, e.Name())); err != nil {
				return lineErrorf(r.rel(path.Join(AssetsDir, e.Name())), 0, "%v", err)
			}
		}
	}
	return nil
}

// frontmatterErrorAt places a YAML error of a file whose YAML starts after line offset.
func frontmatterErrorAt(file string, err error, offset int) error {
	msg := err.Error()
	line := offset + 1
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line = n + offset
	}
	return lineErrorf(file, line, "%s", strings.TrimPrefix(msg, "yaml: "))
}
