package translate

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// A result space is a space of its own: a translated page's links into the source space (to a
// page, a heading of a page, a file) are rewritten to the result space's page, heading and file
// standing for them, so none breaks that was not broken in the source. A link to another space,
// to a page the source does not hold, or to a URL stays as it was.
//
// Pages: each source page's result page is known before the batch runs (its id, or the batch ref
// it is inserted with, which the batch turns into its id). Files: the source files the result
// revision lacks (by name and bytes) are inserted by the run's batch, sharing the stored bytes;
// the others are the result's own files with that name and bytes. Headings: the anchors of a
// source page's headings map in order to those of its translation (the same structure), so
// /pages/<id>#installing becomes /pages/<result>#instalando.

// destLink matches a link destination into the source space as markdown writes it: "](" or a
// reference definition's "]: ", then /pages/<id>, /spaces/<space>/pages/<id> or /files/<id>, with
// an anchor.
var destLink = regexp.MustCompile(`(\]\(\s*<?|\]:[ \t]*<?)(/spaces/([^/)\s>#?]+)/pages/|/pages/|/files/)([^/)\s>#?]+)(#[^)\s>]*)?`)

// relinker rewrites a run's translated markdown.
type relinker struct {
	sourceSpace string
	pages       map[string]string            // source page id -> result page id or batch ref
	files       map[string]string            // source file id -> result file id or batch ref
	anchors     map[string]map[string]string // source page id -> source anchor -> translated anchor
	// anchorsOf reads the anchors of a page not translated by this run (its source and result
	// markdown), nil when they cannot be paired.
	anchorsOf func(sourcePage string) map[string]string
}

func (l *relinker) rewrite(md string) string {
	return destLink.ReplaceAllStringFunc(md, func(m string) string {
		sub := destLink.FindStringSubmatch(m)
		lead, kind, space, id, frag := sub[1], sub[2], sub[3], sub[4], sub[5]
		if kind == "/files/" {
			if to, ok := l.files[id]; ok && frag == "" {
				return lead + "/files/" + to
			}
			return m
		}
		if space != "" && space != l.sourceSpace {
			return m
		}
		to, ok := l.pages[id]
		if !ok {
			return m
		}
		if frag != "" {
			frag = "#" + l.anchor(id, frag[1:])
		}
		return lead + "/pages/" + to + frag
	})
}

// anchor is the translated page's anchor standing for a source anchor (the same when unknown).
func (l *relinker) anchor(page, a string) string {
	m, ok := l.anchors[page]
	if !ok && l.anchorsOf != nil {
		m = l.anchorsOf(page)
		l.anchors[page] = m
	}
	if to, ok := m[a]; ok {
		return to
	}
	return a
}

// pairAnchors maps a source markdown's heading anchors to its translation's, in order; nil when
// the two do not have as many headings.
func pairAnchors(source, translated string) map[string]string {
	var from, to []string
	for _, s := range markdown.Sections("", source, math.MaxInt) {
		if s.Anchor != "" {
			from = append(from, s.Anchor)
		}
	}
	for _, s := range markdown.Sections("", translated, math.MaxInt) {
		if s.Anchor != "" {
			to = append(to, s.Anchor)
		}
	}
	if len(from) != len(to) || len(from) == 0 {
		return nil
	}
	out := make(map[string]string, len(from))
	for i := range from {
		out[from[i]] = to[i]
	}
	return out
}

// fileRef is the batch ref a source file is inserted into the result space with.
func fileRef(sourceFile string) string { return "translation-file:" + sourceFile }

// planFiles maps each source file to the result's file with the same name and bytes, and makes
// the insert_files change of those the result lacks (nil when none), their bytes read from the
// blob store (shared: the same SHA-256).
func (r *Runner) planFiles(ctx context.Context, srcRev, resRev *store.Revision) (map[string]string, *store.PageChange, error) {
	srcFiles, err := r.Store.FindAllFiles(ctx, srcRev.ID)
	if err != nil {
		return nil, nil, err
	}
	if len(srcFiles) == 0 {
		return map[string]string{}, nil, nil
	}
	resFiles, err := r.Store.FindAllFiles(ctx, resRev.ID)
	if err != nil {
		return nil, nil, err
	}
	have := map[[2]string]string{}
	for _, f := range resFiles {
		have[[2]string{f.Name, f.SHA256}] = f.ID
	}
	out := map[string]string{}
	var insert *store.PageChange
	for _, f := range srcFiles {
		if id, ok := have[[2]string{f.Name, f.SHA256}]; ok {
			out[f.ID] = id
			continue
		}
		data, contentType, err := r.Store.FindBlob(ctx, f.SHA256, f.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("copying the file %q into the result space: %w", f.Name, err)
		}
		if contentType == "" {
			contentType = f.ContentType
		}
		if insert == nil {
			insert = &store.PageChange{Type: "insert_files"}
		}
		ref := fileRef(f.ID)
		insert.Files = append(insert.Files, store.FileUpload{Ref: &ref, Name: f.Name, ContentType: contentType, Data: data})
		out[f.ID] = ref
		have[[2]string{f.Name, f.SHA256}] = ref
	}
	return out, insert, nil
}

// resultAnchors pairs the anchors of a source page not translated by this run with its result
// page's, reading both bodies.
func (r *Runner) resultAnchors(ctx context.Context, srcRev, resRev *store.Revision, key map[string]string) func(string) map[string]string {
	return func(page string) map[string]string {
		res, ok := key[page]
		if !ok || strings.HasPrefix(res, "translation:") {
			return nil
		}
		src, err := r.Store.FindPagesWithBodies(ctx, srcRev.ID, []string{page})
		if err != nil || len(src) != 1 {
			return nil
		}
		dst, err := r.Store.FindPagesWithBodies(ctx, resRev.ID, []string{res})
		if err != nil || len(dst) != 1 {
			return nil
		}
		return pairAnchors(src[0].Markdown, dst[0].Markdown)
	}
}
