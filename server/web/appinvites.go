package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// Invitations in the app: an invite link's and an emailed invitation's page, where the signed-in
// person sees what they are invited to and joins with one button (a form carrying a token bound
// to their session). Whoever is not signed in signs in first and comes back (appPage).

// joinAction is the audit action of a join (the API's joinOrganizationWithInvite records the same).
const joinAction = "organization.member.joined-with-invite"

func invitePath(orgID, inviteID string) string { return "/app/o/" + orgID + "/invites/" + inviteID }

// appInvite shows an invitation and the button that accepts it.
func (s *Server) appInvite(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	in, err := s.Store.FindInvitation(ctx, c.Param("orgId"), c.Param("inviteId"))
	if err != nil {
		return err
	}
	org, err := s.Store.FindOrganizationByID(ctx, in.OrganizationID)
	if err != nil {
		return err
	}
	v.Kind, v.Title = "invite", "Join "+org.Title
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}}
	role := "a member with the " + string(in.Role) + " role"
	switch {
	case in.Target.Kind != "":
		role = "a guest with the " + string(in.Role) + " role on one " + string(in.Target.Kind)
	case in.Role == store.RoleGuest:
		role = "a guest"
	}
	v.Lead = "You are invited to join " + org.Title + " as " + role + "."
	switch now := s.Store.Now(); {
	case in.UsedAt != nil:
		v.Error = "This invitation was already used."
	case in.ExpiresAt != nil && now.After(*in.ExpiresAt):
		v.Error = "This invitation expired on " + in.ExpiresAt.UTC().Format(time.RFC1123) + "."
	case in.Email != nil:
		v.Email = *in.Email
	}
	v.Next = invitePath(in.OrganizationID, in.ID)
	v.Form = s.formToken("join:"+in.ID, v.session)
	return s.sendApp(c, http.StatusOK, v)
}

// appJoin accepts an invitation for the signed-in person, audited as the API's join is, and
// goes to what it opened.
func (s *Server) appJoin(c echo.Context, v *appView) error {
	orgID, inviteID := c.Param("orgId"), c.Param("inviteId")
	if !s.validFormToken(c, "join:"+inviteID, v.session) {
		v.Kind, v.Title = "message", "Not joined"
		v.Error = "The request did not come from this invitation's Join button, so nothing was done. Open the invitation again."
		return s.sendApp(c, http.StatusForbidden, v)
	}
	ctx := c.Request().Context()
	in, err := s.Store.FindInvitation(ctx, orgID, inviteID)
	if err != nil {
		return err
	}
	rec := &store.AuditRecord{ID: store.NewAuditID(), RequestID: c.Response().Header().Get(echo.HeaderXRequestID),
		Action: joinAction, Source: "ui", OrganizationID: orgID,
		Actor:   store.AuditParty{Type: "user", ID: v.User.ID, Label: v.User.DisplayName},
		Target:  store.AuditParty{Type: "invite", ID: inviteID},
		Payload: map[string]any{"page": invitePath(orgID, inviteID)}}
	err = s.Store.JoinWithInvite(store.WithAudit(ctx, rec), orgID, inviteID, v.User)
	var se *store.Error
	if errors.As(err, &se) && (se.Code == store.ECONFLICT || se.Code == store.EFORBIDDEN || se.Code == store.EINVALID) {
		v.Kind, v.Title, v.Error = "message", "Not joined", se.Reason
		return s.sendApp(c, http.StatusConflict, v)
	}
	if err != nil {
		return err
	}
	to := "/app/o/" + orgID
	if in.Target.Kind == store.GrantSpace {
		to = "/app/s/" + in.Target.ID
	} else if in.Target.Kind == store.GrantCollection {
		to = "/app/o/" + orgID + "/c/" + in.Target.ID
	}
	return c.Redirect(http.StatusSeeOther, to)
}
