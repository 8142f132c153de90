package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/condition"
)

// kindsSchema is a visitor schema with a claim of every kind the public API allows, at the top
// level, under unsigned, and inside nested objects.
func kindsSchema() map[string]any {
	str := func(desc string, enum ...any) map[string]any {
		m := map[string]any{"type": "string", "description": desc}
		if len(enum) > 0 {
			m["enum"] = enum
		}
		return m
	}
	claim := func(kind, desc string) map[string]any { return map[string]any{"type": kind, "description": desc} }
	array := func(desc string, items map[string]any) map[string]any {
		return map[string]any{"type": "array", "description": desc, "items": items}
	}
	object := func(desc string, props map[string]any) map[string]any {
		return map[string]any{"type": "object", "description": desc, "properties": props, "additionalProperties": false}
	}
	return map[string]any{
		"type": "object", "additionalProperties": false,
		"properties": map[string]any{
			"staff":  claim("boolean", "Staff"),
			"plan":   str("Plan", "free", "pro"),
			"name":   str("Name"),
			"seats":  claim("number", "Seats"),
			"roles":  array("Roles", str("A role", "admin", "editor")),
			"flags":  array("Flags", claim("boolean", "A flag")),
			"scores": array("Scores", claim("number", "A score")),
			"company": object("Company", map[string]any{
				"tier": str("Tier", "gold"),
				"size": claim("number", "Size"),
				"hq":   object("Headquarters", map[string]any{"country": str("Country")}),
			}),
			"unsigned": map[string]any{
				"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
				"properties": map[string]any{
					"theme": str("Theme", "dark"),
					"prefs": object("Preferences", map[string]any{"langs": array("Languages", str("A language"))}),
				},
			},
		},
	}
}

func TestAdaptiveSchemaOfEveryClaimKind(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := w.createSite(t, map[string]any{"title": "Docs"})
	path := w.sitesPath(s.Id) + "/adaptive-schema"

	var put, got gen.SiteAdaptiveSchema
	w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"jsonSchema": kindsSchema()}).Decode(t, &put)
	w.Expect(t, http.StatusOK, w.reader, "GET", path, nil).Decode(t, &got)
	if !reflect.DeepEqual(map[string]any(got.JsonSchema), roundTrip(t, kindsSchema())) || !reflect.DeepEqual(put, got) {
		t.Fatalf("stored %+v", got.JsonSchema)
	}

	t.Run("TemplateConditionsPerKind", func(t *testing.T) {
		l := getJSON[gen.SiteTemplateConditionList](t, w.testServer, w.reader, path+"/template-conditions")
		want := []gen.SiteTemplateCondition{
			{Condition: `visitor.claims.company.hq.country !== undefined`, Description: "Country (any value)"},
			{Condition: `visitor.claims.company.size > 0`, Description: "Size (more than 0)"},
			{Condition: `visitor.claims.company.tier === "gold"`, Description: "Tier: gold"},
			{Condition: `visitor.claims.flags.includes(true)`, Description: "Flags (includes true)"},
			{Condition: `visitor.claims.name !== undefined`, Description: "Name (any value)"},
			{Condition: `visitor.claims.plan === "free"`, Description: "Plan: free"},
			{Condition: `visitor.claims.plan === "pro"`, Description: "Plan: pro"},
			{Condition: `visitor.claims.roles.includes("admin")`, Description: "Roles (includes admin)"},
			{Condition: `visitor.claims.roles.includes("editor")`, Description: "Roles (includes editor)"},
			{Condition: `visitor.claims.scores.length > 0`, Description: "Scores (not empty)"},
			{Condition: `visitor.claims.seats > 0`, Description: "Seats (more than 0)"},
			{Condition: `visitor.claims.staff === true`, Description: "Staff"},
			{Condition: `visitor.claims.unsigned.prefs.langs.length > 0`, Description: "Languages (not empty)"},
			{Condition: `visitor.claims.unsigned.theme === "dark"`, Description: "Theme: dark"},
		}
		if !reflect.DeepEqual(l.Items, want) {
			t.Fatalf("conditions =\n%+v\nwant\n%+v", l.Items, want)
		}
		for _, c := range want {
			if _, err := condition.Parse(c.Condition); err != nil {
				t.Fatalf("%s does not parse: %v", c.Condition, err)
			}
		}
	})

	t.Run("UnsignedDescriptionFilledIn", func(t *testing.T) {
		schema := kindsSchema()
		delete(schema["properties"].(map[string]any)["unsigned"].(map[string]any), "description")
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"jsonSchema": schema}).Decode(t, &got)
		if !reflect.DeepEqual(map[string]any(got.JsonSchema), roundTrip(t, kindsSchema())) {
			t.Fatalf("stored %+v", got.JsonSchema)
		}
	})

	t.Run("EnumQuotedInConditions", func(t *testing.T) {
		schema := map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
			"q": map[string]any{"type": "string", "description": "Q", "enum": []any{`say "hi"`, `C:\dir`}}}}
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"jsonSchema": schema})
		l := getJSON[gen.SiteTemplateConditionList](t, w.testServer, w.reader, path+"/template-conditions")
		for i, v := range []string{`say "hi"`, `C:\dir`} {
			e, err := condition.Parse(l.Items[i].Condition)
			if err != nil || !e.Eval(map[string]any{"q": v}) || e.Eval(map[string]any{"q": "x"}) {
				t.Fatalf("%s: %v", l.Items[i].Condition, err)
			}
		}
	})
}

// roundTrip is v as JSON decodes it (numbers as float64, lists as []any).
func roundTrip(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The published site shows each visitor the sections whose conditions, derived from claims of
// every kind, hold for the visitor's token.
func TestPublishedSiteAdaptsToEveryClaimKind(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/sites", map[string]any{"title": "Docs"})
	base := "/orgs/" + org + "/sites/" + site.Id
	w.Expect(t, http.StatusOK, w.admin, "PUT", base+"/adaptive-schema", map[string]any{"jsonSchema": kindsSchema()})

	sections := []struct{ title, condition string }{
		{"Home", ""},
		{"Staff", `visitor.claims.staff === true`},
		{"Pro", `visitor.claims.plan === "pro"`},
		{"Named", `visitor.claims.name !== undefined`},
		{"Teams", `visitor.claims.seats > 10`},
		{"Admins", `visitor.claims.roles.includes("admin")`},
		{"Flagged", `visitor.claims.flags.includes(true)`},
		{"Scored", `visitor.claims.scores.length > 0`},
		{"Gold", `visitor.claims.company.tier === "gold" && visitor.claims.company.hq.country === "FR"`},
		{"Dark", `visitor.claims.unsigned.theme === "dark"`},
		{"Polyglots", `visitor.claims.unsigned.prefs.langs.length >= 2`},
	}
	for _, sec := range sections {
		sp := w.MustCreateSpace(t, w.admin, org, sec.title+" space", "")
		s := sendJSON[gen.SiteSection](t, w.testServer, http.StatusCreated, w.admin, "POST", base+"/sections", map[string]any{"spaceId": sp.Id, "title": sec.title})
		if sec.condition != "" {
			w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/sections/"+s.Id, map[string]any{"condition": sec.condition})
		}
	}
	// A site space of Home, for big companies: site spaces evaluate conditions too.
	home := getJSON[gen.SiteSectionList](t, w.testServer, w.admin, base+"/sections")
	big := w.MustCreateSpace(t, w.admin, org, "Enterprise space", "")
	bigSS := sendJSON[gen.SiteSpace](t, w.testServer, http.StatusCreated, w.admin, "POST", base+"/site-spaces", map[string]any{"spaceId": big.Id, "sectionId": home.Items[0].Id})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/site-spaces/"+bigSS.Id, map[string]any{"condition": `visitor.claims.company.size >= 1000`})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base, map[string]any{"adaptiveContent": map[string]any{"enabled": true}})
	w.Expect(t, http.StatusOK, w.admin, "POST", base+"/publish", nil)

	seen := func(t *testing.T, claims jwt.MapClaims) []string {
		t.Helper()
		p := getJSON[gen.PublishedContentSite](t, w.testServer, w.reader, base+"/published?visitorToken="+url.QueryEscape(visitorToken(t, w.testServer, claims)))
		// "Section: its site spaces" as publishedTitles writes them, short: the section title,
		// and "+Enterprise" when Home shows the enterprise site space.
		var titles []string
		spaces := 0
		for _, e := range publishedTitles(t, p) {
			title, list, _ := strings.Cut(e, ":")
			spaces += strings.Count(list, " space")
			if title == "Home" && strings.Contains(list, "Enterprise space") {
				title += "+Enterprise"
			}
			titles = append(titles, title)
		}
		if len(p.Customizations.SiteSpaces) != spaces {
			t.Fatalf("customizations for %d site spaces, %d seen", len(p.Customizations.SiteSpaces), spaces)
		}
		return titles
	}
	for _, tc := range []struct {
		name   string
		claims jwt.MapClaims
		want   []string
	}{
		{"Nobody", jwt.MapClaims{}, []string{"Home"}},
		{"Boolean", jwt.MapClaims{"staff": true}, []string{"Home", "Staff"}},
		{"BooleanFalse", jwt.MapClaims{"staff": false}, []string{"Home"}},
		{"Enum", jwt.MapClaims{"plan": "pro"}, []string{"Home", "Pro"}},
		{"OtherEnumValue", jwt.MapClaims{"plan": "free"}, []string{"Home"}},
		{"String", jwt.MapClaims{"name": "Jo"}, []string{"Home", "Named"}},
		{"NumberAbove", jwt.MapClaims{"seats": 25}, []string{"Home", "Teams"}},
		{"NumberBelow", jwt.MapClaims{"seats": 10}, []string{"Home"}},
		{"ArrayMember", jwt.MapClaims{"roles": []any{"editor", "admin"}}, []string{"Home", "Admins"}},
		{"ArrayWithout", jwt.MapClaims{"roles": []any{"editor"}}, []string{"Home"}},
		{"BooleanArray", jwt.MapClaims{"flags": []any{false, true}}, []string{"Home", "Flagged"}},
		{"NumberArray", jwt.MapClaims{"scores": []any{3}}, []string{"Home", "Scored"}},
		{"EmptyArray", jwt.MapClaims{"scores": []any{}}, []string{"Home"}},
		{"Nested", jwt.MapClaims{"company": map[string]any{"tier": "gold", "hq": map[string]any{"country": "FR"}}}, []string{"Home", "Gold"}},
		{"NestedPartly", jwt.MapClaims{"company": map[string]any{"tier": "gold"}}, []string{"Home"}},
		{"NestedNumberOnASiteSpace", jwt.MapClaims{"company": map[string]any{"size": 5000}}, []string{"Home+Enterprise"}},
		{"NestedNumberBelow", jwt.MapClaims{"company": map[string]any{"size": 999}}, []string{"Home"}},
		{"UnsignedEnum", jwt.MapClaims{"unsigned": map[string]any{"theme": "dark"}}, []string{"Home", "Dark"}},
		{"UnsignedNestedArray", jwt.MapClaims{"unsigned": map[string]any{"prefs": map[string]any{"langs": []any{"en", "fr"}}}}, []string{"Home", "Polyglots"}},
		{"Everything", jwt.MapClaims{"staff": true, "plan": "pro", "name": "Jo", "seats": 11, "roles": []any{"admin"}, "flags": []any{true},
			"scores": []any{1.5}, "company": map[string]any{"tier": "gold", "hq": map[string]any{"country": "FR"}},
			"unsigned": map[string]any{"theme": "dark", "prefs": map[string]any{"langs": []any{"en", "de"}}}},
			[]string{"Home", "Staff", "Pro", "Named", "Teams", "Admins", "Flagged", "Scored", "Gold", "Dark", "Polyglots"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := seen(t, tc.claims); !samePublished(got, tc.want) {
				t.Fatalf("sees %q, want %q", got, tc.want)
			}
		})
	}
}
