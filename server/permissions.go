package server

import (
	"context"
	"sort"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Permissions on content (issue 28): the operations of spaces and collections share these,
// each side finding its content with the role the operation needs (permissions_spaces.go,
// permissions_collections.go). Reading who has access needs read on the content; granting,
// changing and removing it needs admin there.

// permTarget is the content a permission operation acts on.
type permTarget struct {
	store.GrantTarget
	level  store.Role
	parent *string
}

// grantTo grants a role (null: removes the grants) to the users and teams of a request.
func (s *Server) grantTo(ctx context.Context, t permTarget, body *gen.InviteToContentRequest) error {
	var users, teams []string
	if body.Users != nil {
		users = *body.Users
	}
	if body.Teams != nil {
		teams = *body.Teams
	}
	if len(users) == 0 && len(teams) == 0 {
		return store.FieldErrorf("users", "name at least one user or team to invite")
	}
	return s.Store.GrantAccess(ctx, t.GrantTarget, users, teams, storeRole(body.Role))
}

// setGrant sets (or, with null, removes) one user's or team's grant.
func (s *Server) setGrant(ctx context.Context, t permTarget, userID, teamID string, role nullable.Nullable[gen.MemberRoleOrGuest]) error {
	var users, teams []string
	if userID != "" {
		users = []string{userID}
	} else {
		teams = []string{teamID}
	}
	return s.Store.GrantAccess(ctx, t.GrantTarget, users, teams, storeRole(role))
}

// userGrants answers a page of the users granted a role on the content.
func (s *Server) userGrants(ctx context.Context, t permTarget, cursor *string, limit *int) (gen.UserContentPermissionList, error) {
	list, err := s.Store.FindUserGrants(ctx, t.GrantTarget, page(cursor, limit))
	if err != nil {
		return gen.UserContentPermissionList{}, err
	}
	out := gen.UserContentPermissionList{Items: make([]gen.UserContentPermission, 0, len(list.Items)), Count: list.Count, Next: listNext(list.Next)}
	for _, g := range list.Items {
		out.Items = append(out.Items, gen.UserContentPermission{Permission: gen.MemberRole(g.Role), User: s.toAPIUser(&g.User)})
	}
	return out, nil
}

// teamGrants answers a page of the teams granted a role on the content.
func (s *Server) teamGrants(ctx context.Context, t permTarget, cursor *string, limit *int) (gen.TeamContentPermissionList, error) {
	role, err := s.Access.MemberRole(ctx, t.OrganizationID)
	if err != nil {
		return gen.TeamContentPermissionList{}, err
	}
	list, err := s.Store.FindTeamGrants(ctx, t.GrantTarget, access.Caller(ctx).ID, page(cursor, limit))
	if err != nil {
		return gen.TeamContentPermissionList{}, err
	}
	out := gen.TeamContentPermissionList{Items: make([]gen.TeamContentPermission, 0, len(list.Items)), Count: list.Count, Next: listNext(list.Next)}
	for _, g := range list.Items {
		out.Items = append(out.Items, gen.TeamContentPermission{Permission: gen.MemberRole(g.Role), Team: toAPITeam(&g.Team, role)})
	}
	return out, nil
}

// readers answers a page of every member who can read the content, with their role on it (only
// those with role when set), ordered by user id; the cursor is the last user id answered.
func (s *Server) readers(ctx context.Context, t permTarget, role *gen.MemberRole, cursor *string, limit *int) (gen.UserContentPermissionList, error) {
	all, err := s.Access.ReadersOf(ctx, t.OrganizationID, t.ID, t.level, t.parent)
	if err != nil {
		return gen.UserContentPermissionList{}, err
	}
	p := page(cursor, limit)
	cur, err := store.DecodeCursor(p.Cursor, 1)
	if err != nil {
		return gen.UserContentPermissionList{}, err
	}
	var kept []*store.UserGrant
	for _, g := range all {
		if role == nil || g.Role == store.Role(*role) {
			kept = append(kept, g)
		}
	}
	start := 0
	if cur != nil {
		start = sort.Search(len(kept), func(i int) bool { return kept[i].User.ID > cur[0] })
	}
	window := kept[start:min(len(kept), start+p.Size()+1)]
	list := store.FinishPage(window, p.Size(), len(kept), func(g *store.UserGrant) []string { return []string{g.User.ID} })
	out := gen.UserContentPermissionList{Items: make([]gen.UserContentPermission, 0, len(list.Items)), Count: list.Count, Next: listNext(list.Next)}
	for _, g := range list.Items {
		out.Items = append(out.Items, gen.UserContentPermission{Permission: gen.MemberRole(g.Role), User: s.toAPIUser(&g.User)})
	}
	return out, nil
}

// revoke removes a user's or team's grant, answering whether there was one.
func (s *Server) revoke(ctx context.Context, t permTarget, userID, teamID string) (bool, error) {
	return s.Store.RevokeAccess(ctx, t.GrantTarget, userID, teamID)
}
