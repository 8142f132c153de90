package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/condition"
	"github.com/quire-docs/quire/store"
)

// apiAdaptiveSchema answers a site's visitor schema; before one is set, the empty schema as of
// the site's creation.
func apiAdaptiveSchema(site *store.Site) (gen.SiteAdaptiveSchema, error) {
	m, err := site.AdaptiveSchemaObject()
	if err != nil {
		return gen.SiteAdaptiveSchema{}, err
	}
	updated := site.CreatedAt
	if site.AdaptiveSchemaUpdatedAt != nil {
		updated = *site.AdaptiveSchemaUpdatedAt
	}
	return gen.SiteAdaptiveSchema{Object: gen.SiteAdaptiveSchemaObjectSiteAdaptiveSchema, JsonSchema: m, UpdatedAt: updated}, nil
}

func (s *Server) GetSiteAdaptiveSchema(ctx context.Context, req gen.GetSiteAdaptiveSchemaRequestObject) (gen.GetSiteAdaptiveSchemaResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := apiAdaptiveSchema(site)
	if err != nil {
		return nil, err
	}
	return gen.GetSiteAdaptiveSchema200JSONResponse(out), nil
}

func (s *Server) UpdateSiteAdaptiveSchema(ctx context.Context, req gen.UpdateSiteAdaptiveSchemaRequestObject) (gen.UpdateSiteAdaptiveSchemaResponseObject, error) {
	if _, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate); err != nil {
		return nil, err
	}
	site, err := s.Store.SetSiteAdaptiveSchema(ctx, req.SiteId, req.Body.JsonSchema)
	if err != nil {
		return nil, err
	}
	out, err := apiAdaptiveSchema(site)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSiteAdaptiveSchema200JSONResponse(out), nil
}

func (s *Server) ListSiteAdaptiveTemplateConditions(ctx context.Context, req gen.ListSiteAdaptiveTemplateConditionsRequestObject) (gen.ListSiteAdaptiveTemplateConditionsResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	claims, err := site.AdaptiveClaims()
	if err != nil {
		return nil, err
	}
	items := []gen.SiteTemplateCondition{}
	for _, c := range claims {
		items = append(items, templateConditions(c)...)
	}
	return gen.ListSiteAdaptiveTemplateConditions200JSONResponse{Items: items}, nil
}

// templateConditions are the ready-made conditions of one claim, each a condition a section,
// site space or page can carry as it is:
//
//	boolean                 visitor.claims.beta === true
//	string with enum        visitor.claims.unsigned.plan === "pro"       (one per value)
//	string                  visitor.claims.name !== undefined
//	number                  visitor.claims.seats > 0
//	array of enum strings   visitor.claims.roles.includes("admin")      (one per value)
//	array of booleans       visitor.claims.flags.includes(true)
//	other arrays            visitor.claims.tags.length > 0
//
// A nested object's claims read through it (visitor.claims.company.tier === "gold").
func templateConditions(c store.AdaptiveClaim) []gen.SiteTemplateCondition {
	ref := "visitor.claims." + strings.Join(c.Path, ".")
	one := func(cond, what string) gen.SiteTemplateCondition {
		return gen.SiteTemplateCondition{Condition: cond, Description: c.Description + what}
	}
	switch c.Kind {
	case store.ClaimBoolean:
		return []gen.SiteTemplateCondition{one(ref+" === true", "")}
	case store.ClaimNumber:
		return []gen.SiteTemplateCondition{one(ref+" > 0", " (more than 0)")}
	case store.ClaimString:
		if len(c.Enum) == 0 {
			return []gen.SiteTemplateCondition{one(ref+" !== undefined", " (any value)")}
		}
		out := make([]gen.SiteTemplateCondition, 0, len(c.Enum))
		for _, v := range c.Enum {
			out = append(out, one(ref+" === "+condition.Quote(v), fmt.Sprintf(": %s", v)))
		}
		return out
	case store.ClaimArray:
		switch {
		case len(c.Enum) > 0:
			out := make([]gen.SiteTemplateCondition, 0, len(c.Enum))
			for _, v := range c.Enum {
				out = append(out, one(ref+".includes("+condition.Quote(v)+")", fmt.Sprintf(" (includes %s)", v)))
			}
			return out
		case c.Items == store.ClaimBoolean:
			return []gen.SiteTemplateCondition{one(ref+".includes(true)", " (includes true)")}
		default:
			return []gen.SiteTemplateCondition{one(ref+".length > 0", " (not empty)")}
		}
	}
	return nil
}
