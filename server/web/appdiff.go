package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// maxDiffLines bounds the line diff of one page (its cost is the product of the two sizes).
const maxDiffLines = 2000

// appChangeRequest shows a change request and its diff against its base.
func (s *Server) appChangeRequest(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	sp, _, err := s.Access.FindSpace(ctx, c.Param("spaceId"), store.RoleRead)
	if err != nil {
		return err
	}
	cr, err := s.Store.FindChangeRequest(ctx, sp.ID, c.Param("cr"))
	if err != nil {
		return err
	}
	base, err := s.Store.FindRevision(ctx, sp.ID, cr.Base())
	if err != nil {
		return err
	}
	head, err := s.Store.FindRevision(ctx, sp.ID, cr.RevisionID)
	if err != nil {
		return err
	}
	v.Kind, v.Title, v.CR = "cr", cr.Subject, cr
	if v.Threads, err = s.threads(ctx, store.CommentScope{SpaceID: sp.ID, ChangeRequestID: &cr.ID}, nil); err != nil {
		return err
	}
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + sp.OrganizationID},
		{Title: sp.Title, URL: "/app/s/" + sp.ID}}
	asked, err := s.Store.FindRequestedReviewers(ctx, sp.ID, cr.ID, store.Page{Limit: 100})
	if err != nil {
		return err
	}
	reviews, err := s.Store.FindReviews(ctx, sp.ID, cr.ID, store.ReviewFilter{}, store.Page{Limit: 100})
	if err != nil {
		return err
	}
	v.Reviewers, v.Reviews = asked.Items, reviews.Items
	before := map[string]*store.RevisionPage{}
	for _, p := range base.Pages {
		before[p.ID] = p
	}
	after := map[string]bool{}
	var changed []string
	for _, p := range head.Pages {
		after[p.ID] = true
		old := before[p.ID]
		switch {
		case old == nil:
			v.Diff = append(v.Diff, pageDiff{Title: p.Title, Path: p.Path, Kind: "added"})
			changed = append(changed, p.ID)
		case old.BodyID != p.BodyID || old.Title != p.Title:
			v.Diff = append(v.Diff, pageDiff{Title: p.Title, Path: p.Path, Kind: "changed"})
			changed = append(changed, p.ID)
		case old.Path != p.Path:
			v.Diff = append(v.Diff, pageDiff{Title: p.Title, Path: old.Path + " → " + p.Path, Kind: "moved"})
		}
	}
	for _, p := range base.Pages {
		if !after[p.ID] {
			v.Diff = append(v.Diff, pageDiff{Title: p.Title, Path: p.Path, Kind: "removed"})
			changed = append(changed, p.ID)
		}
	}
	// Bodies of both sides, in one query each.
	oldBodies, newBodies := map[string]string{}, map[string]string{}
	if len(changed) > 0 {
		olds, err := s.Store.FindPagesWithBodies(ctx, base.ID, changed)
		if err != nil {
			return err
		}
		for _, p := range olds {
			oldBodies[p.ID] = p.Markdown
		}
		news, err := s.Store.FindPagesWithBodies(ctx, head.ID, changed)
		if err != nil {
			return err
		}
		for _, p := range news {
			newBodies[p.ID] = p.Markdown
		}
	}
	k := 0
	for i := range v.Diff {
		if v.Diff[i].Kind == "moved" {
			continue
		}
		id := changed[k]
		k++
		v.Diff[i].Lines = lineDiff(splitLines(oldBodies[id]), splitLines(newBodies[id]))
	}
	return s.sendApp(c, http.StatusOK, v)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// lineDiff is the longest-common-subsequence diff of two texts' lines; past maxDiffLines on a
// side, the whole old text is removed and the new one added.
func lineDiff(a, b []string) []diffLine {
	var out []diffLine
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		for _, l := range a {
			out = append(out, diffLine{"-", l})
		}
		for _, l := range b {
			out = append(out, diffLine{"+", l})
		}
		return out
	}
	// lcs[i][j] is the length of the LCS of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, diffLine{" ", a[i]})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, diffLine{"-", a[i]})
			i++
		default:
			out = append(out, diffLine{"+", b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, diffLine{"-", a[i]})
	}
	for ; j < len(b); j++ {
		out = append(out, diffLine{"+", b[j]})
	}
	return out
}
