package web

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// appAuditPage is how many events a page of the app's audit log shows.
const appAuditPage = 50

// appAudit shows an organization's audit log to its admins, newest first, a page at a time.
func (s *Server) appAudit(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	orgID := c.Param("orgId")
	if _, err := s.Access.RequireOrgRole(ctx, orgID, store.RoleAdmin); err != nil {
		return err
	}
	org, err := s.Store.FindOrganizationForMember(ctx, orgID, v.User.ID)
	if err != nil {
		return err
	}
	list, err := s.Store.FindAuditEvents(ctx, orgID, store.AuditFilter{}, store.Page{Cursor: c.QueryParam("page"), Limit: appAuditPage})
	if store.ErrorCode(err) == store.EINVALID {
		v.Kind, v.Title, v.Error = "message", "Not a page", "That page of the audit log does not exist: start again from its first page."
		return s.sendApp(c, http.StatusBadRequest, v)
	}
	if err != nil {
		return err
	}
	v.Kind, v.Title = "audit", "Audit log"
	v.Lead = org.Title + ": every change made, newest first."
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: org.Title, URL: "/app/o/" + orgID}}
	v.Events = list.Items
	if list.Next != "" {
		v.More = "/app/o/" + orgID + "/audit?page=" + url.QueryEscape(list.Next)
	}
	return s.sendApp(c, http.StatusOK, v)
}
