package server

import (
	"context"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// GetUserById answers a user's public profile to whoever shares an organization with them (a
// site token: to the members of its site's organization, the authors its content names); to
// anyone else the user is not there.
func (s *Server) GetUserById(ctx context.Context, req gen.GetUserByIdRequestObject) (gen.GetUserByIdResponseObject, error) {
	var u *store.User
	var err error
	if t := access.SiteTokenOf(ctx); t != nil {
		u, err = s.Store.FindOrganizationMemberUser(ctx, t.Organization, req.UserId)
	} else {
		u, err = s.Store.FindUserSharingOrganization(ctx, req.UserId, access.Caller(ctx).ID)
	}
	if err != nil {
		return nil, err
	}
	out := s.toAPIUser(u)
	if access.Caller(ctx).ID != u.ID {
		// The email is the user's own to see; others read the name and photo.
		out.Email = nil
	}
	return gen.GetUserById200JSONResponse(out), nil
}

// UpdateUserById changes the caller's own profile. Another user's answers 403 to those who share
// an organization with them (they know the user exists) and 404 to everyone else.
func (s *Server) UpdateUserById(ctx context.Context, req gen.UpdateUserByIdRequestObject) (gen.UpdateUserByIdResponseObject, error) {
	me := access.Caller(ctx)
	if req.UserId != me.ID {
		if _, err := s.Store.FindUserSharingOrganization(ctx, req.UserId, me.ID); err != nil {
			return nil, err
		}
		return nil, forbidden("A user's profile is theirs alone to change.")
	}
	upd := store.UserUpdate{DisplayName: req.Body.DisplayName, PhotoURL: req.Body.PhotoURL}
	if upd.PhotoURL != nil {
		if err := checkWebURL("photoURL", *upd.PhotoURL); err != nil {
			return nil, err
		}
	}
	if upd.DisplayName != nil && strings.TrimSpace(*upd.DisplayName) == "" {
		return nil, store.FieldErrorf("displayName", "a name is not only spaces")
	}
	u, err := s.Store.UpdateUser(ctx, me.ID, upd)
	if err != nil {
		return nil, err
	}
	if s.tokens != nil {
		s.tokens.forgetUser(me.ID)
	}
	return gen.UpdateUserById200JSONResponse(s.toAPIUser(u)), nil
}
