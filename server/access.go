package server

import (
	"context"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// The access rules (DESIGN.md §3), resolved here for organizations and their content:
//   - not a member of the owning organization: 404, as if the resource did not exist;
//   - a member whose role is below what the operation needs: 403;
//   - a member's role on content is the stronger of their organization role and the content's
//     default level (resolved through `inherit` up the collections); guests get no role from it.
// Roles on sites, comments and change requests build on these (findSite, findSpace…).

// memberRole returns the caller's role in an organization, or ENOTFOUND when not a member.
func (s *Server) memberRole(ctx context.Context, orgID string) (store.Role, error) {
	if g := installationGrant(ctx); g != nil {
		if role, ok := grantedOrgRole(g, orgID); ok {
			return role, nil
		}
		return "", store.NotFound("Organization")
	}
	return s.Store.FindMemberRole(ctx, orgID, caller(ctx).ID)
}

// requireOrgRole returns the caller's role in an organization when it is at least min.
func (s *Server) requireOrgRole(ctx context.Context, orgID string, min store.Role) (store.Role, error) {
	role, err := s.memberRole(ctx, orgID)
	if err != nil {
		return "", err
	}
	if !role.AtLeast(min) {
		return role, forbidden("This needs the " + string(min) + " role in the organization.")
	}
	return role, nil
}

// contentRoles resolves the caller's role on the content of one organization, loading the
// collection levels at most once however many items are resolved.
type contentRoles struct {
	s       *Server
	orgID   string
	orgRole store.Role
	levels  store.Levels
}

// newContentRoles returns the resolver for an organization the caller is a member of
// (ENOTFOUND otherwise).
func (s *Server) newContentRoles(ctx context.Context, orgID string) (*contentRoles, error) {
	role, err := s.memberRole(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &contentRoles{s: s, orgID: orgID, orgRole: role}, nil
}

// of returns the caller's role on content with a default level under a parent collection.
func (r *contentRoles) of(ctx context.Context, level store.Role, parent *string) (store.Role, error) {
	if r.orgRole == store.RoleGuest {
		return store.RoleGuest, nil
	}
	if level == store.LevelInherit && parent != nil && r.levels == nil {
		levels, err := r.s.Store.CollectionLevels(ctx, r.orgID)
		if err != nil {
			return "", err
		}
		r.levels = levels
	}
	return r.orgRole.Max(r.levels.Resolve(level, parent)), nil
}

// require returns the caller's role on content when it is at least min (403 otherwise).
func (r *contentRoles) require(ctx context.Context, level store.Role, parent *string, min store.Role, what string) (store.Role, error) {
	role, err := r.of(ctx, level, parent)
	if err != nil {
		return "", err
	}
	if !role.AtLeast(min) {
		return role, forbidden("This needs the " + string(min) + " role on this " + what + ".")
	}
	return role, nil
}

// The wire forms of roles.

func apiRole(r store.Role) nullable.Nullable[gen.MemberRoleOrGuest] {
	if r == store.RoleGuest {
		return nullable.NewNullNullable[gen.MemberRoleOrGuest]()
	}
	return nullable.NewNullableWithValue(gen.MemberRoleOrGuest(r))
}

func apiLevel(r store.Role) nullable.Nullable[gen.DefaultLevel] {
	if r == store.RoleGuest {
		return nullable.NewNullNullable[gen.DefaultLevel]()
	}
	return nullable.NewNullableWithValue(gen.DefaultLevel(r))
}

// storeRole reads an explicit role or null from a request field (only called when it is set).
func storeRole[T ~string](v nullable.Nullable[T]) store.Role {
	if v.IsNull() {
		return store.RoleGuest
	}
	r, _ := v.Get()
	return store.Role(r)
}

// page turns the paging query parameters into a store page.
func page(cursor *string, limit *int) store.Page {
	p := store.Page{}
	if cursor != nil {
		p.Cursor = *cursor
	}
	if limit != nil {
		p.Limit = *limit
	}
	return p
}

func listNext(next string) *gen.ListNext {
	if next == "" {
		return nil
	}
	return &gen.ListNext{Page: next}
}

// convertItems converts the items of a list with a conversion that may fail.
func convertItems[T, U any](items []T, conv func(T) (U, error)) ([]U, error) {
	out := make([]U, 0, len(items))
	for _, it := range items {
		u, err := conv(it)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}
