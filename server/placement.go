package server

// Placement: where collections and spaces go when they are created, moved or transferred, and the
// roles each placement needs (shared by collections.go and spaces.go).

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// storeMove reads a move request; a pointer must carry the id its type names.
func storeMove(b *gen.MoveContentRequest) (store.Move, error) {
	m := store.Move{}
	if b.Parent.IsSpecified() {
		m.SetParent = true
		if p, err := b.Parent.Get(); err == nil {
			m.Parent = &p
		}
	}
	if b.Position != nil {
		var err error
		if m.Before, err = storePointer(b.Position.Before, "position.before"); err != nil {
			return m, err
		}
		if m.After, err = storePointer(b.Position.After, "position.after"); err != nil {
			return m, err
		}
	}
	return m, nil
}

// requireCreateIn checks that the caller may create content under a parent collection of an
// organization (nil: its top level): the create role on that collection, which its default
// level can grant, or in the organization. An unknown parent is left to the store's 400.
func (s *Server) requireCreateIn(ctx context.Context, orgID string, parent *string) error {
	roles, err := s.Access.ContentRoles(ctx, orgID)
	if err != nil {
		return err
	}
	if parent != nil {
		c, err := s.Store.FindCollection(ctx, *parent)
		if err == nil && c.OrganizationID == orgID {
			_, err = roles.Require(ctx, c.ID, c.DefaultLevel, c.ParentID, store.RoleCreate, "collection")
			return err
		}
		if store.ErrorCode(err) != store.ENOTFOUND && err != nil {
			return err
		}
	}
	if !roles.OrgRole.AtLeast(store.RoleCreate) {
		return forbidden("This needs the create role in the organization.")
	}
	return nil
}

// requireTransferTarget checks that the caller administers the organization content goes to.
func (s *Server) requireTransferTarget(ctx context.Context, orgID string) error {
	role, err := s.Access.MemberRole(ctx, orgID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return store.FieldErrorf("organization", "no organization %s that you administer", orgID)
	}
	if err != nil {
		return err
	}
	if role != store.RoleAdmin {
		return forbidden("Transferring needs the admin role in the target organization.")
	}
	return nil
}

func storePointer(p *gen.ContentPointer, field string) (*store.Pointer, error) {
	if p == nil {
		return nil, nil
	}
	id := p.Space
	if p.Type == gen.ContentPointerTypeCollection {
		id = p.Collection
	}
	if id == nil || *id == "" {
		return nil, store.FieldErrorf(field+"."+string(p.Type), "required when type is %q", p.Type)
	}
	return &store.Pointer{Kind: string(p.Type), ID: *id}, nil
}
