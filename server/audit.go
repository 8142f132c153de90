package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	openapi_types "github.com/oapi-codegen/runtime/types"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// The audit log. auditWrites describes each write request (who, which action, on what) in its
// context; the store records that description in the transaction of the write (store.WithAudit),
// so only writes that commit are logged, each once. Admins read the log through the three
// operations below; the jobs purge events past the retention (auditpurge.go).

// auditWrites puts an audit record in the context of every non-GET operation that changes
// something (auditActions); operations maps "METHOD /echo/path" to operation ids.
func (s *Server) auditWrites(operations map[string]string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.Method == http.MethodGet || req.Method == http.MethodHead {
				return next(c)
			}
			op := operations[req.Method+" "+c.Path()]
			action, ok := auditActions[op]
			u := access.Caller(req.Context())
			if !ok || u == nil {
				return next(c)
			}
			r := s.auditRecord(req.Context(), u, action)
			r.Payload["operation"] = op
			params := map[string]any{}
			for _, name := range c.ParamNames() {
				v := c.Param(name)
				params[name] = v
				r.Target = store.AuditParty{Type: auditTargetType(name), ID: v}
				switch name {
				case "organizationId":
					r.OrganizationID = v
				case "spaceId":
					r.SpaceID = v
				case "collectionId":
					r.CollectionID = v
				case "installationId":
					r.InstallationID = v
				case "integrationName":
					r.IntegrationName = v
				case "hostname":
					r.Hostname = v
				}
			}
			if len(params) > 0 {
				r.Payload["parameters"] = params
			}
			if r.Target.ID == "" && op == "updateUserById" {
				r.Target = store.AuditParty{Type: "user", ID: u.ID}
			}
			c.SetRequest(req.WithContext(store.WithAudit(req.Context(), r)))
			if kind := auditCreates[op]; kind != "" {
				return s.auditCreated(c, next, r, kind)
			}
			return next(c)
		}
	}
}

// auditRecord starts the record of a write by u: an installation acts as itself (the user it
// writes as goes in the payload), anyone else as the user.
func (s *Server) auditRecord(ctx context.Context, u *store.User, action auditAction) *store.AuditRecord {
	r := &store.AuditRecord{ID: store.NewAuditID(), RequestID: RequestID(ctx), Action: action.ID, Source: "api", Payload: map[string]any{}}
	switch {
	case u.InstallationID != "":
		r.Source = "integration"
		r.Actor = store.AuditParty{Type: "installation", ID: u.InstallationID}
		if g := access.Grant(ctx); g != nil {
			r.Actor.Label = g.IntegrationName
		}
		if u.ID != u.InstallationID {
			r.Payload["user"] = u.ID
		}
	default:
		r.Actor = store.AuditParty{Type: "user", ID: u.ID, Label: u.DisplayName}
	}
	return r
}

// auditTargetType names the kind of resource a path parameter identifies: spaceId a space,
// changeRequestId a change-request, specSlug an openapi-spec.
func auditTargetType(param string) string {
	switch param {
	case "specSlug":
		return "openapi-spec"
	case "integrationName":
		return "integration"
	case "hostname":
		return "custom-hostname"
	}
	name := strings.TrimSuffix(param, "Id")
	var b strings.Builder
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// auditLimit is the page size of the audit log when the request gives none.
const auditLimit = 20

func (s *Server) ListOrganizationAuditEvents(ctx context.Context, req gen.ListOrganizationAuditEventsRequestObject) (gen.ListOrganizationAuditEventsResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	p := req.Params
	if p.From != nil && p.To != nil && p.From.After(*p.To) {
		return nil, store.FieldErrorf("from", "is after to: no event can match")
	}
	f := store.AuditFilter{From: p.From, To: p.To}
	for dst, v := range map[*string]*string{&f.Action: p.Action, &f.Actor: p.Actor, &f.Target: p.Target} {
		if v != nil {
			*dst = *v
		}
	}
	pg := page(p.Page, p.Limit)
	if pg.Limit == 0 {
		pg.Limit = auditLimit
	}
	list, err := s.Store.FindAuditEvents(ctx, req.OrganizationId, f, pg)
	if err != nil {
		return nil, err
	}
	items, err := convertItems(list.Items, func(e *store.AuditEvent) (gen.AuditEvent, error) {
		d, err := s.toAPIAuditEvent(e)
		return gen.AuditEvent{Object: d.Object, Id: d.Id, OccurredAt: d.OccurredAt, Action: d.Action, Actor: d.Actor,
			Source: d.Source, Target: d.Target, Urls: d.Urls}, err
	})
	if err != nil {
		return nil, err
	}
	return gen.ListOrganizationAuditEvents200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) GetOrganizationAuditEvent(ctx context.Context, req gen.GetOrganizationAuditEventRequestObject) (gen.GetOrganizationAuditEventResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	e, err := s.Store.FindAuditEvent(ctx, req.OrganizationId, req.AuditEventId)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIAuditEvent(e)
	if err != nil {
		return nil, err
	}
	return gen.GetOrganizationAuditEvent200JSONResponse(out), nil
}

func (s *Server) ListOrganizationAuditEventActions(ctx context.Context, req gen.ListOrganizationAuditEventActionsRequestObject) (gen.ListOrganizationAuditEventActionsResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	out := gen.ListOrganizationAuditEventActions200JSONResponse{Items: []gen.AuditEventAction{}}
	for _, a := range auditActionList() {
		out.Items = append(out.Items, gen.AuditEventAction{Object: gen.AuditEventActionObjectAuditEventAction, Id: a.ID, Label: a.Label})
	}
	return out, nil
}

// toAPIAuditEvent answers an event with its details (a list item leaves them out).
func (s *Server) toAPIAuditEvent(e *store.AuditEvent) (gen.AuditEventDetails, error) {
	var id openapi_types.UUID
	if err := id.UnmarshalText([]byte(e.ID)); err != nil {
		return gen.AuditEventDetails{}, err
	}
	out := gen.AuditEventDetails{Object: gen.AuditEventObjectAuditEvent, Id: id, OccurredAt: e.OccurredAt, Action: e.Action,
		Source: gen.AuditEventSource(e.Source), SchemaVersion: 1, Payload: e.Payload,
		Actor:  gen.AuditEventActor{Type: gen.AuditEventActorType(e.Actor.Type), Id: e.Actor.ID, Label: labelOf(e.Actor.Label)},
		Target: gen.AuditEventTarget{Type: e.Target.Type, Id: e.Target.ID, Label: labelOf(e.Target.Label)}}
	out.Urls.Location = s.apiURL("/orgs/" + e.OrganizationID + "/audit-events/" + e.ID)
	if e.RequestID != "" {
		out.ExecutionId = &e.RequestID
	}
	return out, nil
}

// labelOf is an event's label: nil when none was captured.
func labelOf(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
