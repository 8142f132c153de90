package server

import (
	"context"

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
