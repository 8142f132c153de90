package server

import (
	"context"
	"strconv"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Semantic changes: what a revision changed from its first parent, or a change request from
// its base, as store.SemanticChanges finds it, in GitBook's RevisionSemanticChanges shape.

const defaultChangesLimit = 10

func (s *Server) GetRevisionSemanticChanges(ctx context.Context, req gen.GetRevisionSemanticChangesRequestObject) (gen.GetRevisionSemanticChangesResponseObject, error) {
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	rev, err := s.Store.FindRevision(ctx, sp.ID, req.RevisionId)
	if err != nil {
		return nil, err
	}
	// A first revision, or one whose parent is another space's (a duplicate's first), changed
	// everything it holds.
	base := &store.Revision{}
	if len(rev.Parents) > 0 {
		if base, err = s.Store.FindRevision(ctx, sp.ID, rev.Parents[0]); store.ErrorCode(err) == store.ENOTFOUND {
			base = &store.Revision{}
		} else if err != nil {
			return nil, err
		}
	}
	out, err := s.semanticChanges(ctx, base, rev, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	if out.MergedFrom, err = s.mergedFrom(ctx, sp, rev); err != nil {
		return nil, err
	}
	return gen.GetRevisionSemanticChanges200JSONResponse(out), nil
}

func (s *Server) GetChangeRequestChanges(ctx context.Context, req gen.GetChangeRequestChangesRequestObject) (gen.GetChangeRequestChangesResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	base, err := s.Store.FindRevision(ctx, sp.ID, cr.Base())
	if err != nil {
		return nil, err
	}
	head, err := s.Store.FindRevision(ctx, sp.ID, cr.RevisionID)
	if err != nil {
		return nil, err
	}
	out, err := s.semanticChanges(ctx, base, head, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.GetChangeRequestChanges200JSONResponse(out), nil
}

// semanticChanges answers at most limit (default 10) of the changes from base to head; more
// counts the rest.
func (s *Server) semanticChanges(ctx context.Context, base, head *store.Revision, limit *int) (gen.RevisionSemanticChanges, error) {
	out := gen.RevisionSemanticChanges{Changes: []gen.RevisionSemanticChange{}}
	var filesBefore, filesAfter []*store.RevisionFile
	var err error
	if base.ID != "" {
		if filesBefore, err = s.Store.FindAllFiles(ctx, base.ID); err != nil {
			return out, err
		}
	}
	if filesAfter, err = s.Store.FindAllFiles(ctx, head.ID); err != nil {
		return out, err
	}
	changes := store.SemanticChanges(base.Pages, head.Pages, filesBefore, filesAfter)
	var reusableBefore, reusableAfter []*store.ReusableContent
	if base.ID != "" {
		if reusableBefore, err = s.Store.FindReusableContents(ctx, base.ID); err != nil {
			return out, err
		}
	}
	if reusableAfter, err = s.Store.FindReusableContents(ctx, head.ID); err != nil {
		return out, err
	}
	changes = append(changes, store.ReusableChanges(reusableBefore, reusableAfter)...)
	n := defaultChangesLimit
	if limit != nil {
		n = *limit
	}
	if len(changes) > n {
		more := len(changes) - n
		out.More, changes = &more, changes[:n]
	}
	before, after := pagesByID(base.Pages), pagesByID(head.Pages)
	for _, c := range changes {
		out.Changes = append(out.Changes, s.toAPISemanticChange(c, before, after))
	}
	return out, nil
}

func pagesByID(pages []*store.RevisionPage) map[string]*store.RevisionPage {
	m := make(map[string]*store.RevisionPage, len(pages))
	for _, p := range pages {
		m[p.ID] = p
	}
	return m
}

func (s *Server) toAPISemanticChange(c store.SemanticChange, before, after map[string]*store.RevisionPage) gen.RevisionSemanticChange {
	out := gen.RevisionSemanticChange{Type: gen.RevisionSemanticChangeType(c.Kind)}
	if c.File != nil {
		f := s.toAPIFile(c.File)
		out.File = &gen.ChangedRevisionFile{Id: f.Id, Name: f.Name, ContentType: f.ContentType, DownloadURL: f.DownloadURL}
		return out
	}
	if c.Reusable != nil {
		out.ReusableContent = changedReusable(c.Reusable)
		if c.ReusableBefore != nil {
			b, a := c.ReusableBefore, c.Reusable
			attrs := &gen.RevisionPageChangeAttributes{}
			if b.Title != a.Title {
				attrs.Title = &gen.ChangeAttributeString{Before: &b.Title, After: &a.Title}
			}
			if b.BodyID != a.BodyID {
				attrs.Document = &gen.ChangeAttributeString{Before: changedReusable(b).Document, After: changedReusable(a).Document}
			}
			out.Attributes = attrs
		}
		return out
	}
	out.Page = changedPage(c.Page)
	switch c.Kind {
	case store.PageMoved:
		out.Parent = &struct {
			After  *gen.ChangedRevisionPage `json:"after,omitempty"`
			Before *gen.ChangedRevisionPage `json:"before,omitempty"`
		}{Before: parentOf(c.Before, before), After: parentOf(c.Page, after)}
	case store.PageEdited:
		out.Attributes = pageEditAttributes(c.Before, c.Page)
	}
	return out
}

func changedReusable(r *store.ReusableContent) *gen.ChangedRevisionReusableContent {
	doc := strconv.FormatInt(r.BodyID, 10)
	return &gen.ChangedRevisionReusableContent{Id: r.ID, Title: r.Title, Document: &doc}
}

func changedPage(p *store.RevisionPage) *gen.ChangedRevisionPage {
	if p == nil {
		return nil
	}
	out := &gen.ChangedRevisionPage{Id: p.ID, Type: gen.PageType(p.Kind()), Title: p.Title}
	if p.HasPage() {
		out.Path = &p.Path
	}
	return out
}

// parentOf is a page's parent in its revision (nil at the top level).
func parentOf(p *store.RevisionPage, pages map[string]*store.RevisionPage) *gen.ChangedRevisionPage {
	if p.ParentID == nil {
		return nil
	}
	return changedPage(pages[*p.ParentID])
}

// pageEditAttributes lists what an edit changed, each as before and after.
func pageEditAttributes(before, after *store.RevisionPage) *gen.RevisionPageChangeAttributes {
	e := store.EditsOf(before, after)
	out := &gen.RevisionPageChangeAttributes{}
	attr := func(changed bool, b, a *string) *gen.ChangeAttributeString {
		if !changed {
			return nil
		}
		return &gen.ChangeAttributeString{Before: b, After: a}
	}
	nonEmpty := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	body := func(p *store.RevisionPage) *string { return nonEmpty(strconv.FormatInt(p.BodyID, 10)) }
	out.Title = attr(e.Title, &before.Title, &after.Title)
	out.Description = attr(e.Description, nonEmpty(before.Description), nonEmpty(after.Description))
	out.Slug = attr(e.Slug, &before.Slug, &after.Slug)
	out.Document = attr(e.Body, body(before), body(after))
	out.Emoji = attr(e.Emoji, before.Emoji, after.Emoji)
	return out
}
