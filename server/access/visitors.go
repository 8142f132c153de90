package access

import (
	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/internal/condition"
	"github.com/quire-docs/quire/store"
)

// VisitorClaims verifies a visitor token (HS256, signed with the server's visitor secret, not
// expired by the store's clock) and returns its claims.
func (r *Rules) VisitorClaims(token string) (map[string]any, error) {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) { return r.VisitorSecret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(r.Store.Now))
	if err != nil {
		return nil, err
	}
	return claims, nil
}

// Visible decides a condition for a visitor: no condition shows; a stored condition that no
// longer parses hides (conditions are parsed when saved, so this is only a safety net).
func Visible(cond *string, claims map[string]any) bool {
	if cond == nil {
		return true
	}
	e, err := condition.Parse(*cond)
	if err != nil {
		return false
	}
	return e.Eval(claims)
}

// ForVisitor keeps the parts of a site's structure a visitor sees: the live ones (not drafts,
// nor in a draft group) whose condition holds, sections with at least one site space left, groups
// with something left. Hidden site spaces stay: they are published, only out of the navigation.
func ForVisitor(st *store.SiteStructure, claims map[string]any) *store.SiteStructure {
	out := &store.SiteStructure{}
	shown := func(ss *store.SiteSpace) bool { return !ss.Draft && Visible(ss.Condition, claims) }
	for _, ss := range st.RootSiteSpaces {
		if shown(ss) {
			out.RootSiteSpaces = append(out.RootSiteSpaces, ss)
		}
	}
	parent := map[string]*string{}
	draft := map[string]bool{}
	for _, g := range st.Groups {
		parent[g.ID], draft[g.ID] = g.ParentID, g.Draft
	}
	inDraft := func(g *string) bool {
		for depth := 0; g != nil && depth < 64; depth, g = depth+1, parent[*g] {
			if draft[*g] {
				return true
			}
		}
		return false
	}
	for _, sec := range st.Sections {
		if sec.Draft || inDraft(sec.GroupID) || !Visible(sec.Condition, claims) {
			continue
		}
		kept := *sec
		kept.SiteSpaces = nil
		for _, ss := range sec.SiteSpaces {
			if shown(ss) {
				kept.SiteSpaces = append(kept.SiteSpaces, ss)
			}
		}
		if len(kept.SiteSpaces) > 0 {
			out.Sections = append(out.Sections, &kept)
		}
	}
	for _, l := range st.ExternalLinks {
		if !l.Draft && !inDraft(l.GroupID) && Visible(l.Condition, claims) {
			out.ExternalLinks = append(out.ExternalLinks, l)
		}
	}
	// A group stays when a kept section or link is in it or in one of its subgroups.
	keep := map[string]bool{}
	for _, sec := range out.Sections {
		for g := sec.GroupID; g != nil && !keep[*g]; g = parent[*g] {
			keep[*g] = true
		}
	}
	for _, l := range out.ExternalLinks {
		for g := l.GroupID; g != nil && !keep[*g]; g = parent[*g] {
			keep[*g] = true
		}
	}
	for _, g := range st.Groups {
		if keep[g.ID] {
			out.Groups = append(out.Groups, g)
		}
	}
	return out
}
