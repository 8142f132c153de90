package server

import (
	"context"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): GetMemberInOrganizationById,
// UpdateMemberInOrganizationById, RemoveMemberFromOrganizationById and
// SetUserAsSSOMemberForOrganization check the role and make one store call.

func (s *Server) toAPIMember(m *store.Member) gen.Member {
	out := gen.Member{
		Object:     gen.MemberObjectMember,
		Id:         m.User.ID,
		Role:       apiRole(m.Role),
		User:       s.toAPIUser(&m.User),
		Disabled:   m.Disabled,
		JoinedAt:   m.JoinedAt,
		LastSeenAt: m.LastSeenAt,
		Sso:        m.SSO,
		Spaces:     m.Spaces,
		Teams:      m.Teams,
		Sites:      m.Sites,
	}
	return out
}

func (s *Server) ListMembersInOrganizationById(ctx context.Context, req gen.ListMembersInOrganizationByIdRequestObject) (gen.ListMembersInOrganizationByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	p := req.Params
	f := store.MemberFilter{
		ByLastSeen: p.Sort != nil && *p.Sort == gen.MemberSortLastSeenAt,
		Asc:        p.Order != nil && *p.Order == gen.Asc,
	}
	if p.Role != nil {
		r := string(*p.Role)
		f.Role = &r
	}
	if p.Search != nil {
		f.Search = *p.Search
	}
	list, err := s.Store.FindMembers(ctx, req.OrganizationId, f, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.Member, len(list.Items))
	for i, m := range list.Items {
		items[i] = s.toAPIMember(m)
	}
	return gen.ListMembersInOrganizationById200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) GetMemberInOrganizationById(ctx context.Context, req gen.GetMemberInOrganizationByIdRequestObject) (gen.GetMemberInOrganizationByIdResponseObject, error) {
	if err := s.requireSelfOrRole(ctx, req.OrganizationId, req.UserId, store.RoleRead); err != nil {
		return nil, err
	}
	m, err := s.Store.FindMember(ctx, req.OrganizationId, req.UserId)
	if err != nil {
		return nil, err
	}
	return gen.GetMemberInOrganizationById200JSONResponse(s.toAPIMember(m)), nil
}

// requireSelfOrRole lets members read about themselves, and others' details with role min.
func (s *Server) requireSelfOrRole(ctx context.Context, orgID, userID string, min store.Role) error {
	role, err := s.Access.MemberRole(ctx, orgID)
	if err != nil {
		return err
	}
	if userID != access.Caller(ctx).ID && !role.AtLeast(min) {
		return forbidden("This needs the " + string(min) + " role in the organization.")
	}
	return nil
}

func (s *Server) UpdateMemberInOrganizationById(ctx context.Context, req gen.UpdateMemberInOrganizationByIdRequestObject) (gen.UpdateMemberInOrganizationByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	m, err := s.Store.UpdateMemberRole(ctx, req.OrganizationId, req.UserId, storeRole(req.Body.Role))
	if err != nil {
		return nil, err
	}
	return gen.UpdateMemberInOrganizationById200JSONResponse(s.toAPIMember(m)), nil
}

func (s *Server) RemoveMemberFromOrganizationById(ctx context.Context, req gen.RemoveMemberFromOrganizationByIdRequestObject) (gen.RemoveMemberFromOrganizationByIdResponseObject, error) {
	// Anyone may leave; removing someone else takes an admin.
	if err := s.requireSelfOrRole(ctx, req.OrganizationId, req.UserId, store.RoleAdmin); err != nil {
		return nil, err
	}
	if err := s.Store.RemoveMember(ctx, req.OrganizationId, req.UserId); err != nil {
		return nil, err
	}
	return gen.RemoveMemberFromOrganizationById204Response{}, nil
}

// VisitorClaims are the claims of the token ping answers: who the member is, in which
// organization, with which role. Sites with visitor authentication read them as visitor claims.
type VisitorClaims struct {
	Organization string `json:"organization"`
	Email        string `json:"email,omitempty"`
	Name         string `json:"name,omitempty"`
	Role         string `json:"role,omitempty"`
	jwt.RegisteredClaims
}

// visitorTokenTTL is how long a ping's visitor token is valid.
const visitorTokenTTL = time.Hour

func (s *Server) UpdateOrganizationMemberLastSeenAt(ctx context.Context, req gen.UpdateOrganizationMemberLastSeenAtRequestObject) (gen.UpdateOrganizationMemberLastSeenAtResponseObject, error) {
	m, err := s.Store.TouchMember(ctx, req.OrganizationId, access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	now := *m.LastSeenAt
	claims := VisitorClaims{
		Organization: req.OrganizationId,
		Email:        m.User.Email,
		Name:         m.User.DisplayName,
		Role:         string(m.Role),
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   m.User.ID,
			Issuer:    s.BaseURL,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(visitorTokenTTL)),
		},
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.VisitorSecret)
	if err != nil {
		return nil, err
	}
	return gen.UpdateOrganizationMemberLastSeenAt200JSONResponse{PlatformVisitorClaims: token, GitbookVisitorClaims: &token}, nil
}

func (s *Server) SetUserAsSSOMemberForOrganization(ctx context.Context, req gen.SetUserAsSSOMemberForOrganizationRequestObject) (gen.SetUserAsSSOMemberForOrganizationResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	m, err := s.Store.SetMemberSSO(ctx, req.OrganizationId, req.UserId)
	if err != nil {
		return nil, err
	}
	return gen.SetUserAsSSOMemberForOrganization200JSONResponse(s.toAPIMember(m)), nil
}

func (s *Server) ListSpacesForOrganizationMember(ctx context.Context, req gen.ListSpacesForOrganizationMemberRequestObject) (gen.ListSpacesForOrganizationMemberResponseObject, error) {
	if err := s.requireSelfOrRole(ctx, req.OrganizationId, req.UserId, store.RoleAdmin); err != nil {
		return nil, err
	}
	member, err := s.Store.FindMember(ctx, req.OrganizationId, req.UserId)
	if err != nil {
		return nil, err
	}
	out := gen.ListSpacesForOrganizationMember200JSONResponse{Items: []gen.MemberSpace{}}
	// Two resolvers: the member's role decides which spaces and `permission`; the caller's decides
	// `space.permissions`.
	memberRoles := s.Access.ContentRolesFor(req.OrganizationId, req.UserId, member.Role)
	vis, err := memberRoles.Visible(ctx)
	if err != nil {
		return nil, err
	}
	p := req.Params
	list, err := s.Store.FindSpaces(ctx, req.OrganizationId, p.Order == nil || *p.Order == gen.Desc, vis, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	callerRoles, err := s.Access.ContentRoles(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	for _, sp := range list.Items {
		mr, err := memberRoles.Of(ctx, sp.ID, sp.DefaultLevel, sp.ParentID)
		if err != nil {
			return nil, err
		}
		cr, err := callerRoles.Of(ctx, sp.ID, sp.DefaultLevel, sp.ParentID)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, gen.MemberSpace{Permission: gen.MemberRole(mr), Space: s.toAPISpace(sp, cr)})
	}
	out.Count, out.Next = list.Count, listNext(list.Next)
	return out, nil
}

func (s *Server) ListTeamsForOrganizationMember(ctx context.Context, req gen.ListTeamsForOrganizationMemberRequestObject) (gen.ListTeamsForOrganizationMemberResponseObject, error) {
	role, err := s.Access.MemberRole(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	if req.UserId != access.Caller(ctx).ID && !role.AtLeast(store.RoleRead) {
		return nil, forbidden("This needs the read role in the organization.")
	}
	if _, err := s.Store.FindMember(ctx, req.OrganizationId, req.UserId); err != nil {
		return nil, err
	}
	title := ""
	if req.Params.Title != nil {
		title = *req.Params.Title
	}
	list, err := s.Store.FindTeamsForMember(ctx, req.OrganizationId, req.UserId, access.Caller(ctx).ID, title, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.MemberTeam, len(list.Items))
	for i, mt := range list.Items {
		items[i] = gen.MemberTeam{Team: toAPITeam(mt.Team, role), Member: gen.TeamMembership{Role: gen.TeamMemberRole(mt.Role)}}
	}
	return gen.ListTeamsForOrganizationMember200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}
