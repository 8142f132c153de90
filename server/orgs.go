package server

import (
	"context"
	"encoding/json"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each):
// JoinOrganization and the agent-instruction operations check the role and make one store call, as
// the admin operations of sso.go and members.go do.

func (s *Server) GetApiInformation(ctx context.Context, _ gen.GetApiInformationRequestObject) (gen.GetApiInformationResponseObject, error) {
	return gen.GetApiInformation200JSONResponse{Version: Version, Build: Build}, nil
}

func (s *Server) GetAuthenticatedUser(ctx context.Context, _ gen.GetAuthenticatedUserRequestObject) (gen.GetAuthenticatedUserResponseObject, error) {
	return gen.GetAuthenticatedUser200JSONResponse(s.toAPIUser(access.Caller(ctx))), nil
}

func (s *Server) toAPIUser(u *store.User) gen.User {
	out := gen.User{Object: gen.UserObjectUser, Id: u.ID, DisplayName: u.DisplayName, PhotoURL: u.PhotoURL}
	email := u.Email
	out.Email = &email
	out.Urls.Location = s.apiURL("/users/" + u.ID)
	return out
}

func (s *Server) toAPIOrganization(o *store.Organization) gen.Organization {
	out := gen.Organization{
		Object:       gen.OrganizationObjectOrganization,
		Id:           o.ID,
		Title:        o.Title,
		CreatedAt:    o.CreatedAt,
		EmailDomains: o.EmailDomains,
		Hostname:     o.Hostname,
		Type:         gen.OrganizationType(o.Type),
		DefaultRole:  apiRole(o.DefaultRole),
		Sso:          &o.SSO,
		Ai:           &o.AI,
		InviteLinks:  o.InviteLinks,
		Plan:         gen.BillingPlanFree2024,
		MergeRules:   apiMergeRules(o.MergeRules),
	}
	if out.EmailDomains == nil {
		out.EmailDomains = []string{}
	}
	if o.DefaultContentSite != nil {
		out.DefaultContent = &gen.OrganizationDefaultContent{Type: gen.DefaultContentTypeSite, Site: *o.DefaultContentSite}
	}
	out.Urls.Location = s.apiURL("/orgs/" + o.ID)
	out.Urls.App = s.appURL("/o/" + o.ID)
	out.Urls.Logo = o.Logo
	out.Trial.Status = gen.TrialStatusNotapplicable
	onNewTrial := true
	out.InternalIsOnNewTrial = &onNewTrial
	r := o.CallerRole
	out.Permissions = gen.OrganizationPermissions{
		View:                o.CallerIsMember, // guests too; a non-member listed by email domain does not
		Access:              o.CallerIsMember,
		Admin:               r == store.RoleAdmin,
		OwnTeam:             o.CallerOwnsTeam,
		CreateContent:       r.AtLeast(store.RoleCreate),
		CreateOpenAPISpec:   r.AtLeast(store.RoleCreate),
		IngestConversations: r == store.RoleAdmin,
		ViewBilling:         r == store.RoleAdmin,
		ListMembers:         r.AtLeast(store.RoleRead),
		ListTeams:           r.AtLeast(store.RoleRead),
		ListIntegrations:    r.AtLeast(store.RoleRead),
		ListInstallations:   r == store.RoleAdmin,
		InstallIntegration:  r == store.RoleAdmin,
	}
	return out
}

func (s *Server) ListOrganizationsForAuthenticatedUser(ctx context.Context, req gen.ListOrganizationsForAuthenticatedUserRequestObject) (gen.ListOrganizationsForAuthenticatedUserResponseObject, error) {
	list, err := s.Store.FindOrganizationsForUser(ctx, access.Caller(ctx).ID, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.Organization, len(list.Items))
	for i, o := range list.Items {
		items[i] = s.toAPIOrganization(o)
	}
	return gen.ListOrganizationsForAuthenticatedUser200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateOrganization(ctx context.Context, req gen.CreateOrganizationRequestObject) (gen.CreateOrganizationResponseObject, error) {
	o, err := s.Store.CreateOrganization(ctx, req.Body.Title, access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	// 0.202.0 creates with email domains and onboarding preferences too; the request was
	// validated, so setting them on the organization just made cannot be refused. The preferences
	// are kept for a default site (0.202.0's withDefaultSite, which quire does not serve yet).
	upd := store.OrganizationUpdate{Onboarding: storeOnboarding(req.Body.OnboardingPreferences)}
	if d := req.Body.EmailDomains; d != nil && len(*d) > 0 {
		domains := []string(*d)
		upd.EmailDomains = &domains
	}
	if upd.EmailDomains != nil || upd.Onboarding != nil {
		if o, err = s.Store.UpdateOrganization(ctx, o.ID, access.Caller(ctx).ID, upd); err != nil {
			return nil, err
		}
	}
	return gen.CreateOrganization201JSONResponse(s.toAPIOrganization(o)), nil
}

func (s *Server) GetOrganizationById(ctx context.Context, req gen.GetOrganizationByIdRequestObject) (gen.GetOrganizationByIdResponseObject, error) {
	o, err := s.Store.FindOrganizationForMember(ctx, req.OrganizationId, access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	return gen.GetOrganizationById200JSONResponse(s.toAPIOrganization(o)), nil
}

func (s *Server) UpdateOrganizationById(ctx context.Context, req gen.UpdateOrganizationByIdRequestObject) (gen.UpdateOrganizationByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.OrganizationUpdate{Title: b.Title, Hostname: b.Hostname, SSO: b.Sso, AI: b.Ai, InviteLinks: b.InviteLinks}
	if b.EmailDomains != nil {
		domains := []string(*b.EmailDomains)
		upd.EmailDomains = &domains
	}
	if b.DefaultRole.IsSpecified() {
		upd.SetDefaultRole, upd.DefaultRole = true, storeRole(b.DefaultRole)
	}
	if b.DefaultContent.IsSpecified() {
		upd.SetDefaultContent = true
		if dc, err := b.DefaultContent.Get(); err == nil {
			upd.DefaultContentSite = &dc.Site
		}
	}
	if b.Logo.IsSpecified() {
		upd.SetLogo = true
		if logo, err := b.Logo.Get(); err == nil {
			upd.Logo = &logo
		}
	}
	rules, err := storeMergeRules(b.MergeRules, false)
	if err != nil {
		return nil, err
	}
	upd.MergeRules = rules
	o, err := s.Store.UpdateOrganization(ctx, req.OrganizationId, access.Caller(ctx).ID, upd)
	if err != nil {
		return nil, err
	}
	return gen.UpdateOrganizationById200JSONResponse(s.toAPIOrganization(o)), nil
}

func (s *Server) JoinOrganization(ctx context.Context, req gen.JoinOrganizationRequestObject) (gen.JoinOrganizationResponseObject, error) {
	if _, err := s.Store.FindOrganizationByID(ctx, req.OrganizationId); err != nil {
		return nil, err
	}
	if err := s.Store.JoinOrganization(ctx, req.OrganizationId, access.Caller(ctx)); err != nil {
		return nil, err
	}
	return gen.JoinOrganization204Response{}, nil
}

func (s *Server) GetOrganizationsForEmailDomain(ctx context.Context, req gen.GetOrganizationsForEmailDomainRequestObject) (gen.GetOrganizationsForEmailDomainResponseObject, error) {
	u := access.Caller(ctx)
	out := gen.GetOrganizationsForEmailDomain200JSONResponse{Organizations: []gen.Organization{}}
	// Only the caller's own verified domain is answered: listing who allows some other domain
	// would tell outsiders which organizations exist.
	if !u.EmailVerified || !equalFoldASCII(req.EmailDomain, u.EmailDomain()) {
		return out, nil
	}
	orgs, err := s.Store.FindOrganizationsByEmailDomain(ctx, req.EmailDomain, u.ID)
	if err != nil {
		return nil, err
	}
	for _, o := range orgs {
		out.Organizations = append(out.Organizations, s.toAPIOrganization(o))
	}
	return out, nil
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// emptyDocument is what agent instructions are before anyone writes them.
var emptyDocument = json.RawMessage(`{"object":"document","data":{},"nodes":[]}`)

func (s *Server) toAPIAgentInstructions(orgID string, ai *store.AgentInstructions) (gen.AgentInstructions, error) {
	out := gen.AgentInstructions{Object: gen.AgentInstructionsObjectAgentInstructions, UpdatedAt: ai.UpdatedAt, UpdatedBy: ai.UpdatedBy}
	doc := ai.Instructions
	if doc == nil {
		doc = emptyDocument
	}
	if err := json.Unmarshal(doc, &out.Instructions); err != nil {
		return out, err
	}
	out.Urls.Location = s.apiURL("/orgs/" + orgID + "/agent-instructions")
	return out, nil
}

func (s *Server) GetOrganizationAgentInstructions(ctx context.Context, req gen.GetOrganizationAgentInstructionsRequestObject) (gen.GetOrganizationAgentInstructionsResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	ai, err := s.Store.FindAgentInstructions(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIAgentInstructions(req.OrganizationId, ai)
	if err != nil {
		return nil, err
	}
	return gen.GetOrganizationAgentInstructions200JSONResponse(out), nil
}

func (s *Server) UpdateOrganizationAgentInstructions(ctx context.Context, req gen.UpdateOrganizationAgentInstructionsRequestObject) (gen.UpdateOrganizationAgentInstructionsResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	doc, err := json.Marshal(req.Body.Instructions)
	if err != nil {
		return nil, err
	}
	ai, err := s.Store.UpdateAgentInstructions(ctx, req.OrganizationId, access.Caller(ctx).ID, doc)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIAgentInstructions(req.OrganizationId, ai)
	if err != nil {
		return nil, err
	}
	return gen.UpdateOrganizationAgentInstructions200JSONResponse(out), nil
}

func storeOnboarding(p *gen.OnboardingPreferences) *store.OnboardingPreferences {
	if p == nil {
		return nil
	}
	out := &store.OnboardingPreferences{Interests: make([]string, 0, len(p.Interests))}
	if v, err := p.Source.Get(); err == nil {
		src := string(v)
		out.Source = &src
	}
	if v, err := p.Audience.Get(); err == nil {
		aud := string(v)
		out.Audience = &aud
	}
	for _, i := range p.Interests {
		out.Interests = append(out.Interests, string(i))
	}
	return out
}
