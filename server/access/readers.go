package access

import (
	"context"

	"github.com/quire-docs/quire/store"
)

// ReadersOf lists every member of an organization who can read a piece of its content (a space
// or a collection: its id, default level and parent), each with their role on it, ordered by user
// id: the same resolution as Of, from one read of every member's grants on the content and the
// collections above it.
func (r *Rules) ReadersOf(ctx context.Context, orgID, id string, level store.Role, parent *string) ([]*store.UserGrant, error) {
	levels, err := r.Store.CollectionLevels(ctx, orgID)
	if err != nil {
		return nil, err
	}
	members, err := r.Store.MembersAccess(ctx, orgID, append([]string{id}, levels.Ancestors(parent)...), "")
	if err != nil {
		return nil, err
	}
	var out []*store.UserGrant
	for _, m := range members {
		roles := &ContentRoles{rules: r, orgID: orgID, userID: m.User.ID, OrgRole: m.OrgRole, levels: levels, grants: m.Grants}
		role, err := roles.Of(ctx, id, level, parent)
		if err != nil {
			return nil, err
		}
		if role != store.RoleGuest {
			out = append(out, &store.UserGrant{User: m.User, Role: role})
		}
	}
	return out, nil
}
