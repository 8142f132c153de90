package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/mail"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Invitations to organizations: invite links (admins make, list, change and delete them; anyone
// holding one's id reads it and joins with it while the organization allows invite links), and
// invitations by email (a quire user of the address is added at once; any other address gets an
// invitation for that address only, usable once for inviteTTL, emailed through s.Mailer by a
// durable job (invitemail.go) when quire has one, and answered with its link either way).

// inviteTTL is how long an invitation sent by email can be used.
const inviteTTL = 7 * 24 * time.Hour

// toAPIInviteLink answers an invite link; a link to content carries the space or collection, as
// the invited will see it (permissions of the link's level).
func (s *Server) toAPIInviteLink(ctx context.Context, in *store.Invite, redundant bool) (gen.InviteLink, error) {
	out := gen.InviteLink{Object: gen.Invite, Id: in.ID, Redundant: redundant}
	switch in.Target.Kind {
	case store.GrantSpace:
		sp, err := s.Store.FindSpace(ctx, in.Target.ID)
		if err != nil {
			return out, err
		}
		api := s.toAPISpace(sp, in.Role)
		out.Level, out.Space = apiRole(in.Role), &api
	case store.GrantCollection:
		c, err := s.Store.FindCollection(ctx, in.Target.ID)
		if err != nil {
			return out, err
		}
		api := s.toAPICollection(c, in.Role)
		out.Level, out.Collection = apiRole(in.Role), &api
	default:
		out.Role = apiRole(in.Role)
	}
	return out, nil
}

// inviteTarget reads what a new invite link is to: the organization with a role, or a space or
// a collection with a level (a role there, not a guest's none).
func inviteTarget(b *gen.CreateInviteRequest) (store.Role, store.GrantTarget, error) {
	content := b.Space != nil || b.Collection != nil
	switch {
	case b.Role.IsSpecified() && (content || b.Level.IsSpecified()):
		return "", store.GrantTarget{}, store.FieldErrorf("role", "a link is to the organization (role) or to a space or collection (level with space or collection), not both")
	case b.Role.IsSpecified():
		return storeRole(b.Role), store.GrantTarget{}, nil
	case !content:
		return "", store.GrantTarget{}, store.FieldErrorf("role", "is required: the role the link gives in the organization (or level with space or collection)")
	case b.Space != nil && b.Collection != nil:
		return "", store.GrantTarget{}, store.FieldErrorf("collection", "a link is to one space or one collection, not both")
	case !b.Level.IsSpecified() || b.Level.IsNull():
		return "", store.GrantTarget{}, store.FieldErrorf("level", "is required with space or collection: the role the link gives there")
	}
	t := store.GrantTarget{Kind: store.GrantSpace}
	if b.Space != nil {
		t.ID = *b.Space
	} else {
		t.Kind, t.ID = store.GrantCollection, *b.Collection
	}
	return storeRole(b.Level), t, nil
}

// joinURL is where an invitation is used: joinOrganizationWithInvite.
func (s *Server) joinURL(in *store.Invite) string {
	return s.apiURL("/orgs/" + in.OrganizationID + "/invites/" + in.ID)
}

// inviteAppURL is the web page where a signed-in person accepts an invitation.
func (s *Server) inviteAppURL(in *store.Invite) string {
	return s.appURL("/o/" + in.OrganizationID + "/invites/" + in.ID)
}

func (s *Server) CreateOrganizationInvite(ctx context.Context, req gen.CreateOrganizationInviteRequestObject) (gen.CreateOrganizationInviteResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	role, target, err := inviteTarget(req.Body)
	if err != nil {
		return nil, err
	}
	in, err := s.Store.CreateInvite(ctx, req.OrganizationId, access.Caller(ctx).ID, role, target)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIInviteLink(ctx, in, true)
	if err != nil {
		return nil, err
	}
	return gen.CreateOrganizationInvite201JSONResponse(out), nil
}

func (s *Server) ListOrganizationInviteLinks(ctx context.Context, req gen.ListOrganizationInviteLinksRequestObject) (gen.ListOrganizationInviteLinksResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	list, err := s.Store.FindInvites(ctx, req.OrganizationId, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	// A link to content reads its space or collection: links are few, made by hand.
	items, err := convertItems(list.Items, func(in *store.Invite) (gen.InviteLink, error) { return s.toAPIInviteLink(ctx, in, true) })
	if err != nil {
		return nil, err
	}
	return gen.ListOrganizationInviteLinks200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

// GetOrganizationInviteLink answers anyone holding the link's id: it is how the invited see what
// they are invited to before joining.
func (s *Server) GetOrganizationInviteLink(ctx context.Context, req gen.GetOrganizationInviteLinkRequestObject) (gen.GetOrganizationInviteLinkResponseObject, error) {
	in, err := s.Store.FindInvite(ctx, req.OrganizationId, req.InviteId)
	if err != nil {
		return nil, err
	}
	redundant := false
	if in.Target.Kind != "" {
		// A link to content is redundant for who already holds its level there.
		var role store.Role
		if in.Target.Kind == store.GrantSpace {
			_, role, err = s.Access.FindSpace(ctx, in.Target.ID, store.RoleGuest)
		} else {
			_, role, err = s.Access.FindCollection(ctx, in.Target.ID, store.RoleGuest)
		}
		redundant = err == nil && role.AtLeast(in.Role)
	} else if m, err := s.Store.FindMember(ctx, req.OrganizationId, access.Caller(ctx).ID); err == nil {
		redundant = in.Role == store.RoleGuest || m.Role.AtLeast(in.Role)
	} else if store.ErrorCode(err) != store.ENOTFOUND {
		return nil, err
	}
	out, err := s.toAPIInviteLink(ctx, in, redundant)
	if err != nil {
		return nil, err
	}
	return gen.GetOrganizationInviteLink200JSONResponse(out), nil
}

func (s *Server) UpdateOrganizationInviteById(ctx context.Context, req gen.UpdateOrganizationInviteByIdRequestObject) (gen.UpdateOrganizationInviteByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	in, err := s.Store.FindInvite(ctx, req.OrganizationId, req.InviteId)
	if err != nil {
		return nil, err
	}
	role := req.Body.Role
	switch {
	case in.Target.Kind == "" && (req.Body.Level.IsSpecified() || !role.IsSpecified()):
		return nil, store.FieldErrorf("role", "is required, and level is not taken: the link is to the organization")
	case in.Target.Kind != "" && (role.IsSpecified() || !req.Body.Level.IsSpecified() || req.Body.Level.IsNull()):
		return nil, store.FieldErrorf("level", "is required (a role), and role is not taken: the link is to a %s", in.Target.Kind)
	case in.Target.Kind != "":
		role = req.Body.Level
	}
	if in, err = s.Store.UpdateInvite(ctx, req.OrganizationId, req.InviteId, storeRole(role)); err != nil {
		return nil, err
	}
	out, err := s.toAPIInviteLink(ctx, in, true)
	if err != nil {
		return nil, err
	}
	return gen.UpdateOrganizationInviteById200JSONResponse(out), nil
}

func (s *Server) DeleteOrganizationInviteById(ctx context.Context, req gen.DeleteOrganizationInviteByIdRequestObject) (gen.DeleteOrganizationInviteByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	deleted, err := s.Store.DeleteInvite(ctx, req.OrganizationId, req.InviteId)
	if err != nil {
		return nil, err
	}
	if !deleted {
		return gen.DeleteOrganizationInviteById204Response{}, nil
	}
	return gen.DeleteOrganizationInviteById205Response{}, nil
}

func (s *Server) JoinOrganizationWithInvite(ctx context.Context, req gen.JoinOrganizationWithInviteRequestObject) (gen.JoinOrganizationWithInviteResponseObject, error) {
	if err := s.Store.JoinWithInvite(ctx, req.OrganizationId, req.InviteId, access.Caller(ctx)); err != nil {
		return nil, err
	}
	return gen.JoinOrganizationWithInvite200JSONResponse{}, nil
}

// emailInvites reads the addresses of an invitation request with their roles (an address's own,
// else the request's, else the organization's default role).
func emailInvites(b *gen.InviteUsersRequest, fallback store.Role) ([]store.EmailInvite, error) {
	role := fallback
	if b.Role.IsSpecified() {
		role = storeRole(b.Role)
	}
	sso := b.Sso != nil && *b.Sso
	seen := map[string]bool{}
	out := make([]store.EmailInvite, 0, len(b.Emails))
	for i, e := range b.Emails {
		ei := store.EmailInvite{Role: role, SSO: sso}
		if withRole, err := e.AsInviteEmailWithRole(); err == nil && withRole.Email != "" {
			ei.Email, ei.Role = string(withRole.Email), storeRole(withRole.Role)
		} else if plain, err := e.AsInviteEmail0(); err == nil {
			ei.Email = string(plain)
		}
		key := strings.ToLower(strings.TrimSpace(ei.Email))
		if key == "" {
			return nil, store.FieldErrorf(fmt.Sprintf("emails[%d]", i), "not an email address")
		}
		if seen[key] {
			return nil, store.FieldErrorf(fmt.Sprintf("emails[%d]", i), "the address %q is given twice", ei.Email)
		}
		seen[key] = true
		out = append(out, ei)
	}
	return out, nil
}

func (s *Server) InviteUsersToOrganization(ctx context.Context, req gen.InviteUsersToOrganizationRequestObject) (gen.InviteUsersToOrganizationResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	org, err := s.Store.FindOrganizationByID(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	invites, err := emailInvites(req.Body, org.DefaultRole)
	if err != nil {
		return nil, err
	}
	me := access.Caller(ctx)
	done, err := s.Store.InviteByEmail(ctx, org.ID, me.ID, invites, inviteTTL)
	if err != nil {
		return nil, err
	}
	out := gen.InviteUsersToOrganization200JSONResponse{Users: make([]string, 0, len(done.Added)), Invited: len(invites)}
	for _, u := range done.Added {
		out.Users = append(out.Users, u.ID)
		if _, err := s.queueMail(ctx, mail.Message{To: u.Email, Subject: fmt.Sprintf("You were added to %s on quire", org.Title),
			Body: fmt.Sprintf("%s added you to the organization %q on quire (%s).\n", me.DisplayName, org.Title, s.BaseURL)}); err != nil {
			return nil, err
		}
	}
	list := make([]gen.EmailInvitation, 0, len(done.Invites))
	for _, in := range done.Invites {
		link := s.joinURL(in)
		sent, err := s.queueMail(ctx, mail.Message{To: *in.Email, Subject: fmt.Sprintf("Join %s on quire", org.Title),
			Body: fmt.Sprintf("%s invites you to join the organization %q on quire (%s) as %s.\n\n"+
				"To join, open\n\n    %s\n\nand sign in to quire with this email address before %s. "+
				"(Or send POST %s with your quire API token.) The invitation can be used once.\n",
				me.DisplayName, org.Title, s.BaseURL, roleName(in.Role), s.inviteAppURL(in), in.ExpiresAt.UTC().Format(time.RFC1123), link)})
		if err != nil {
			return nil, err
		}
		list = append(list, gen.EmailInvitation{Id: in.ID, Email: *in.Email, Url: link, ExpiresAt: *in.ExpiresAt, Sent: sent})
	}
	out.Invitations = &list
	return out, nil
}

// roleName words a role for people ("a guest" for none).
func roleName(r store.Role) string {
	if r == store.RoleGuest {
		return "a guest"
	}
	return "a member with the " + string(r) + " role"
}
