package web

import (
	"context"
	"html/template"

	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// maxAppThreads and maxAppReplies bound what a page shows of its comments.
const (
	maxAppThreads = 50
	maxAppReplies = 50
)

// appThread is a comment with its replies, bodies rendered from markdown and sanitized.
type appThread struct {
	Author, When string
	Body         template.HTML
	Resolved     bool
	Replies      []appReply
}

type appReply struct {
	Author, When string
	Body         template.HTML
}

func commentHTML(md string) template.HTML {
	body, _ := markdown.HTMLOptions{}.ToHTML(md)
	return template.HTML(body) // sanitized by ToHTML's policy
}

// threads reads the comment threads of a scope (of one page when pageID is set), oldest first.
func (s *Server) threads(ctx context.Context, scope store.CommentScope, pageID *string) ([]appThread, error) {
	list, err := s.Store.FindComments(ctx, scope, store.CommentFilter{Status: "all", PageID: pageID, Asc: true}, store.Page{Limit: maxAppThreads})
	if err != nil {
		return nil, err
	}
	out := make([]appThread, 0, len(list.Items))
	for _, cm := range list.Items {
		t := appThread{Author: cm.PostedBy.DisplayName, When: cm.PostedAt.UTC().Format("2006-01-02 15:04 UTC"),
			Body: commentHTML(cm.Body), Resolved: cm.ResolvedAt != nil}
		if cm.Replies > 0 {
			replies, err := s.Store.FindReplies(ctx, scope, cm.ID, store.Page{Limit: maxAppReplies})
			if err != nil {
				return nil, err
			}
			for _, r := range replies.Items {
				t.Replies = append(t.Replies, appReply{Author: r.PostedBy.DisplayName,
					When: r.PostedAt.UTC().Format("2006-01-02 15:04 UTC"), Body: commentHTML(r.Body)})
			}
		}
		out = append(out, t)
	}
	return out, nil
}
