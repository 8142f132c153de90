package server

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Comments come in two families with the same operations: on a space's content
// (/spaces/{id}/comments…) and on a change request's (/spaces/{id}/change-requests/{cr}/comments…).
// Each handler resolves its thread and hands over to the shared code below.

// thread is where a comment request operates, and what the caller may do there.
type thread struct {
	sp       *store.Space
	scope    store.CommentScope
	revision string     // the revision comments are posted against
	role     store.Role // the caller's role on the space
	base     string     // the API path of the thread's comments
}

// findThread resolves a comment thread for a caller with at least read; crID nil is the space's.
func (s *Server) findThread(ctx context.Context, spaceID string, crID *string) (*thread, error) {
	if crID == nil {
		sp, role, err := s.Access.FindSpace(ctx, spaceID, store.RoleRead)
		if err != nil {
			return nil, err
		}
		return &thread{sp: sp, scope: store.CommentScope{SpaceID: sp.ID}, revision: sp.RevisionID, role: role,
			base: "/spaces/" + sp.ID}, nil
	}
	sp, role, err := s.Access.FindSpace(ctx, spaceID, store.RoleRead)
	if err != nil {
		return nil, err
	}
	cr, err := s.Store.FindChangeRequest(ctx, sp.ID, *crID)
	if err != nil {
		return nil, err
	}
	return &thread{sp: sp, scope: store.CommentScope{SpaceID: sp.ID, ChangeRequestID: &cr.ID}, revision: cr.RevisionID,
		role: role, base: "/spaces/" + sp.ID + "/change-requests/" + cr.ID}, nil
}

func (t *thread) requireComment() error {
	if !t.role.AtLeast(store.RoleComment) {
		return forbidden("This needs the comment role on this space.")
	}
	return nil
}

// commentBody is a stored (markdown) body as the API answers it: markdown, or with format=document
// the rich-text document derived from it.
func (t *thread) commentBody(md string, format *gen.PageFormat) gen.CommentBody {
	if format != nil && *format == gen.PageFormatDocument {
		return gen.CommentBody{Document: markdown.Options{SpaceID: t.sp.ID}.FromMarkdown(md)}
	}
	return gen.CommentBody{Markdown: &md}
}

// maxCommentMarkdown is the longest body stored, as CommentBodyInput.markdown allows it.
const maxCommentMarkdown = 65536

// bodyMarkdown is the markdown to store for a body given as markdown or as a document (written
// as markdown, so that page, file and anchor links stay links).
func (t *thread) bodyMarkdown(b gen.CommentBodyInput) (string, error) {
	if b.Markdown != nil {
		return *b.Markdown, nil
	}
	if b.Document == nil {
		return "", store.FieldErrorf("body", `give "markdown" or "document"`)
	}
	return t.documentMarkdown("body.document", b.Document)
}

// documentMarkdown is the markdown to store for a comment given as a rich-text document (field).
func (t *thread) documentMarkdown(field string, doc *markdown.Document) (string, error) {
	md := strings.TrimSpace(markdown.Options{SpaceID: t.sp.ID}.ToMarkdown(doc))
	if md == "" {
		return "", store.FieldErrorf(field, "the document has no content")
	}
	if utf8.RuneCountInString(md) > maxCommentMarkdown {
		return "", store.FieldErrorf(field, "longer than %d characters as markdown", maxCommentMarkdown)
	}
	return md, nil
}

func (s *Server) toAPIReactions(rs []store.Reaction) []gen.EmojiReaction {
	out := make([]gen.EmojiReaction, 0, len(rs))
	for _, r := range rs {
		er := gen.EmojiReaction{Emoji: r.Emoji, Count: len(r.Users)}
		for _, u := range r.Users {
			er.Users = append(er.Users, struct {
				ReactedAt gen.Timestamp `json:"reactedAt"`
				User      gen.User      `json:"user"`
			}{ReactedAt: u.ReactedAt, User: s.toAPIUser(&u.User)})
		}
		out = append(out, er)
	}
	return out
}

func (s *Server) commentPermissions(ctx context.Context, t *thread, author string) gen.CommentPermissions {
	mine := author == access.Caller(ctx).ID
	return gen.CommentPermissions{
		View:   true,
		Edit:   mine && t.role.AtLeast(store.RoleComment),
		Reply:  t.role.AtLeast(store.RoleComment),
		Delete: (mine && t.role.AtLeast(store.RoleComment)) || t.role == store.RoleAdmin,
	}
}

func (s *Server) toAPIComment(ctx context.Context, t *thread, c *store.Comment, format *gen.PageFormat) (gen.Comment, error) {
	body := t.commentBody(c.Body, format)
	out := gen.Comment{
		Object: gen.CommentObjectComment, Id: c.ID, PostedBy: s.toAPIUser(&c.PostedBy), PostedAt: c.PostedAt,
		EditedAt: c.EditedAt, Reactions: s.toAPIReactions(c.Reactions), Replies: c.Replies, Body: body,
		Status: gen.CommentStatusOpen, Permissions: s.commentPermissions(ctx, t, c.PostedBy.ID),
		Repliers: make([]gen.UserContributor, 0, len(c.Repliers)),
	}
	for _, r := range c.Repliers {
		out.Repliers = append(out.Repliers, gen.UserContributor{User: s.toAPIUser(&r.User), Count: r.Count, UpdatedAt: r.UpdatedAt})
	}
	if c.ResolvedAt != nil {
		out.Status, out.ResolvedAt = gen.CommentStatusResolved, c.ResolvedAt
		if c.ResolvedBy != nil {
			u := s.toAPIUser(c.ResolvedBy)
			out.ResolvedBy = &u
		}
	}
	out.Target.Space, out.Target.Revision, out.Target.ChangeRequest = c.Scope.SpaceID, c.RevisionID, c.Scope.ChangeRequestID
	if c.PageID != nil {
		out.Target.Page = &struct {
			Id string `json:"id"`
		}{Id: *c.PageID}
	}
	if c.NodeID != nil {
		out.Target.Node = &struct {
			Id string `json:"id"`
		}{Id: *c.NodeID}
	}
	if c.TableRecord != nil && c.TableDefinition != nil {
		out.Target.TableCell = &gen.TableCellTarget{Record: *c.TableRecord, Definition: *c.TableDefinition}
	}
	out.Urls.Location = s.apiURL(t.base + "/comments/" + c.ID)
	return out, nil
}

func (s *Server) toAPIReply(ctx context.Context, t *thread, r *store.Reply, format *gen.PageFormat) (gen.CommentReply, error) {
	body := t.commentBody(r.Body, format)
	out := gen.CommentReply{Object: gen.CommentReplyObjectCommentReply, Id: r.ID, PostedBy: s.toAPIUser(&r.PostedBy),
		PostedAt: r.PostedAt, EditedAt: r.EditedAt, Reactions: s.toAPIReactions(r.Reactions), Body: body,
		Permissions: s.commentPermissions(ctx, t, r.PostedBy.ID)}
	out.Urls.Location = s.apiURL(t.base + "/comments/" + r.CommentID + "/replies/" + r.ID)
	return out, nil
}

// isEmoji reports whether s is one emoji (a pictograph, possibly with skin tone, variation
// selector, ZWJ sequence, keycap or flag).
func isEmoji(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 16 || !utf8.ValidString(s) {
		return false
	}
	// starts counts the emoji s holds: a pictograph starts one unless it follows a zero-width
	// joiner, a skin tone modifies the one before it, and regional indicators pair into a flag.
	starts, flagHalf := 0, false
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case r >= 0x1F1E6 && r <= 0x1F1FF: // a regional indicator
			if !flagHalf {
				starts++
			}
			flagHalf = !flagHalf
		case r >= 0x1F3FB && r <= 0x1F3FF: // a skin tone
			if i == 0 {
				starts++
			}
		case r >= 0x1F000 && r <= 0x1FAFF, r >= 0x2600 && r <= 0x27BF, r >= 0x2300 && r <= 0x23FF,
			r >= 0x2B00 && r <= 0x2BFF, r == 0x00A9, r == 0x00AE, r == 0x203C, r == 0x2049, r == 0x2122,
			r == 0x2139, r >= 0x2194 && r <= 0x21AA, r == 0x3030, r == 0x303D, r == 0x3297, r == 0x3299,
			unicode.Is(unicode.So, r):
			if i == 0 || runes[i-1] != 0x200D {
				starts++
			}
		case r == 0x200D, r == 0xFE0F, r == 0xFE0E, r == 0x20E3, r >= 0xE0020 && r <= 0xE007F:
		case (r >= '0' && r <= '9') || r == '#' || r == '*':
			// a keycap: the digit must be followed by the keycap mark (maybe after VS16)
			if !(i+1 < len(runes) && (runes[i+1] == 0x20E3 || (runes[i+1] == 0xFE0F && i+2 < len(runes) && runes[i+2] == 0x20E3))) {
				return false
			}
			starts++
		default:
			return false
		}
	}
	return starts == 1
}

// checkReactions refuses what is not an emoji, naming the field and index.
func checkReactions(field string, list *gen.Reactions) ([]string, error) {
	if list == nil {
		return nil, nil
	}
	for i, e := range *list {
		if !isEmoji(e) {
			return nil, store.FieldErrorf(fmt.Sprintf("%s.%d", field, i), "%q is not an emoji", e)
		}
	}
	return *list, nil
}

// checkTarget checks that the page (and node) a comment targets exist in the thread's revision.
func (s *Server) checkTarget(ctx context.Context, t *thread, page, node *string) error {
	if page == nil {
		if node != nil {
			return store.FieldErrorf("node", `a node is given with its "page"`)
		}
		return nil
	}
	p, err := s.Store.FindPage(ctx, t.revision, *page)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return store.FieldErrorf("page", "no page %q in the revision commented on", *page)
	}
	if err != nil {
		return err
	}
	if node != nil && !hasNode(markdown.FromMarkdown(p.Markdown).Nodes, *node) {
		return store.FieldErrorf("node", "the page has no node %q", *node)
	}
	return nil
}

func hasNode(nodes []*markdown.Node, key string) bool {
	for _, n := range nodes {
		if n.Key == key || hasNode(n.Nodes, key) || hasNode(n.Fragments, key) {
			return true
		}
	}
	return false
}

func (s *Server) listComments(ctx context.Context, t *thread, order *gen.ListOrder, status *gen.CommentStatusFilter,
	format *gen.PageFormat, targetPage *string, authors *[]string, cursor *string, limit *int) (gen.CommentList, error) {
	f := store.CommentFilter{Status: "all", PageID: targetPage, Asc: order != nil && *order == gen.Asc}
	if status != nil {
		f.Status = string(*status)
	}
	if authors != nil {
		f.Authors = *authors
	}
	list, err := s.Store.FindComments(ctx, t.scope, f, page(cursor, limit))
	if err != nil {
		return gen.CommentList{}, err
	}
	items, err := convertItems(list.Items, func(c *store.Comment) (gen.Comment, error) { return s.toAPIComment(ctx, t, c, format) })
	if err != nil {
		return gen.CommentList{}, err
	}
	return gen.CommentList{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) postComment(ctx context.Context, t *thread, b *gen.PostCommentRequest) (gen.Comment, error) {
	if err := t.requireComment(); err != nil {
		return gen.Comment{}, err
	}
	if err := s.checkTarget(ctx, t, b.Page, b.Node); err != nil {
		return gen.Comment{}, err
	}
	body, err := t.bodyMarkdown(b.Body)
	if err != nil {
		return gen.Comment{}, err
	}
	nc := store.NewComment{RevisionID: t.revision, PageID: b.Page, NodeID: b.Node, UserID: access.Caller(ctx).ID, Body: body}
	if b.TableCell != nil {
		nc.TableRecord, nc.TableDefinition = &b.TableCell.Record, &b.TableCell.Definition
	}
	c, err := s.Store.PostComment(ctx, t.scope, nc)
	if err != nil {
		return gen.Comment{}, err
	}
	return s.toAPIComment(ctx, t, c, nil)
}

func (s *Server) getComment(ctx context.Context, t *thread, id string, format *gen.PageFormat) (gen.Comment, error) {
	c, err := s.Store.FindComment(ctx, t.scope, id)
	if err != nil {
		return gen.Comment{}, err
	}
	return s.toAPIComment(ctx, t, c, format)
}

// commentUpdate checks an update's body and reactions against what the caller may do.
func commentUpdate(ctx context.Context, t *thread, author string, resolved *bool, body *gen.CommentBodyInput, added, removed *gen.Reactions) (store.CommentUpdate, error) {
	upd := store.CommentUpdate{Resolved: resolved}
	if err := t.requireComment(); err != nil {
		return upd, err
	}
	if body != nil {
		if author != access.Caller(ctx).ID {
			return upd, forbidden("Only the author may edit a body.")
		}
		md, err := t.bodyMarkdown(*body)
		if err != nil {
			return upd, err
		}
		upd.Body = &md
	}
	var err error
	if upd.Added, err = checkReactions("addedReactions", added); err != nil {
		return upd, err
	}
	if upd.Removed, err = checkReactions("removedReactions", removed); err != nil {
		return upd, err
	}
	return upd, nil
}

func (s *Server) updateComment(ctx context.Context, t *thread, id string, b *gen.UpdateCommentRequest) (gen.Comment, error) {
	c, err := s.Store.FindComment(ctx, t.scope, id)
	if err != nil {
		return gen.Comment{}, err
	}
	upd, err := commentUpdate(ctx, t, c.PostedBy.ID, b.Resolved, b.Body, b.AddedReactions, b.RemovedReactions)
	if err != nil {
		return gen.Comment{}, err
	}
	if c, err = s.Store.UpdateComment(ctx, t.scope, id, access.Caller(ctx).ID, upd); err != nil {
		return gen.Comment{}, err
	}
	return s.toAPIComment(ctx, t, c, nil)
}

// mayDelete lets the author (with the comment role) or a space admin delete.
func mayDelete(ctx context.Context, t *thread, author string) error {
	if t.role == store.RoleAdmin || (author == access.Caller(ctx).ID && t.role.AtLeast(store.RoleComment)) {
		return nil
	}
	return forbidden("Only the author or a space admin may delete this.")
}

func (s *Server) deleteComment(ctx context.Context, t *thread, id string) error {
	c, err := s.Store.FindComment(ctx, t.scope, id)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	if err := mayDelete(ctx, t, c.PostedBy.ID); err != nil {
		return err
	}
	return s.Store.DeleteComment(ctx, t.scope, id)
}

func (s *Server) listReplies(ctx context.Context, t *thread, commentID string, format *gen.PageFormat, cursor *string, limit *int) (gen.CommentReplyList, error) {
	list, err := s.Store.FindReplies(ctx, t.scope, commentID, page(cursor, limit))
	if err != nil {
		return gen.CommentReplyList{}, err
	}
	items, err := convertItems(list.Items, func(r *store.Reply) (gen.CommentReply, error) { return s.toAPIReply(ctx, t, r, format) })
	if err != nil {
		return gen.CommentReplyList{}, err
	}
	return gen.CommentReplyList{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) postReply(ctx context.Context, t *thread, commentID string, b *gen.PostCommentReplyRequest) (gen.CommentReply, error) {
	if err := t.requireComment(); err != nil {
		return gen.CommentReply{}, err
	}
	body, err := t.bodyMarkdown(b.Body)
	if err != nil {
		return gen.CommentReply{}, err
	}
	r, err := s.Store.PostReply(ctx, t.scope, commentID, access.Caller(ctx).ID, body)
	if err != nil {
		return gen.CommentReply{}, err
	}
	return s.toAPIReply(ctx, t, r, nil)
}

func (s *Server) getReply(ctx context.Context, t *thread, commentID, id string, format *gen.PageFormat) (gen.CommentReply, error) {
	r, err := s.Store.FindReply(ctx, t.scope, commentID, id)
	if err != nil {
		return gen.CommentReply{}, err
	}
	return s.toAPIReply(ctx, t, r, format)
}

func (s *Server) updateReply(ctx context.Context, t *thread, commentID, id string, resolved *bool, body *gen.CommentBodyInput, added, removed *gen.Reactions) (gen.CommentReply, error) {
	r, err := s.Store.FindReply(ctx, t.scope, commentID, id)
	if err != nil {
		return gen.CommentReply{}, err
	}
	upd, err := commentUpdate(ctx, t, r.PostedBy.ID, resolved, body, added, removed)
	if err != nil {
		return gen.CommentReply{}, err
	}
	if r, err = s.Store.UpdateReply(ctx, t.scope, commentID, id, access.Caller(ctx).ID, upd); err != nil {
		return gen.CommentReply{}, err
	}
	return s.toAPIReply(ctx, t, r, nil)
}

func (s *Server) deleteReply(ctx context.Context, t *thread, commentID, id string) error {
	r, err := s.Store.FindReply(ctx, t.scope, commentID, id)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	if err := mayDelete(ctx, t, r.PostedBy.ID); err != nil {
		return err
	}
	return s.Store.DeleteReply(ctx, t.scope, commentID, id)
}

func (s *Server) listCommenters(ctx context.Context, t *thread, cursor *string, limit *int) (gen.MemberList, error) {
	list, err := s.Store.FindCommenters(ctx, t.scope, t.sp.OrganizationID, page(cursor, limit))
	if err != nil {
		return gen.MemberList{}, err
	}
	out := gen.MemberList{Items: make([]gen.Member, 0, len(list.Items)), Count: list.Count, Next: listNext(list.Next)}
	for _, m := range list.Items {
		out.Items = append(out.Items, s.toAPIMember(m))
	}
	return out, nil
}
