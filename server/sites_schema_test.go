package server_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/condition"
)

// validSiteSchema is a visitor schema with signed and unsigned claims.
func validSiteSchema() map[string]any {
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type":    "object",
		"properties": map[string]any{
			"isBeta": map[string]any{"type": "boolean", "description": "Beta testers"},
			"admin":  map[string]any{"type": "boolean", "description": "Administrators"},
			"unsigned": map[string]any{
				"type":        "object",
				"description": "Unsigned claims of the site visitor.",
				"properties": map[string]any{
					"wantsDark": map[string]any{"type": "boolean", "description": "Prefers the dark theme"},
					"_lang_en":  map[string]any{"type": "boolean", "description": "Reads English"},
				},
				"additionalProperties": false,
			},
		},
		"additionalProperties": false,
	}
}

func TestSiteAdaptiveSchema(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	creator := w.memberWith(t, "create")
	s := w.createSite(t, map[string]any{"title": "Docs"})
	path := w.sitesPath(s.Id) + "/adaptive-schema"
	conditions := func(t *testing.T, u *testUser) []gen.SiteTemplateCondition {
		t.Helper()
		l := getJSON[gen.SiteTemplateConditionList](t, w.testServer, u, path+"/template-conditions")
		return l.Items
	}

	t.Run("EmptyBeforeAnyPut", func(t *testing.T) {
		got := getJSON[gen.SiteAdaptiveSchema](t, w.testServer, w.admin, path)
		want := gen.SiteAdaptiveJSONSchema{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
		if got.Object != "site-adaptive-schema" || !reflect.DeepEqual(got.JsonSchema, want) || !got.UpdatedAt.Equal(s.CreatedAt) {
			t.Fatalf("schema before any put: %+v (site created %s)", got, s.CreatedAt)
		}
		if c := conditions(t, w.admin); len(c) != 0 {
			t.Fatalf("conditions of the empty schema: %+v", c)
		}
	})

	t.Run("RoundTrip", func(t *testing.T) {
		var put, got gen.SiteAdaptiveSchema
		w.Expect(t, http.StatusOK, creator, "PUT", path, map[string]any{"jsonSchema": validSiteSchema()}).Decode(t, &put)
		w.Expect(t, http.StatusOK, w.reader, "GET", path, nil).Decode(t, &got)
		if !reflect.DeepEqual(map[string]any(got.JsonSchema), validSiteSchema()) || !reflect.DeepEqual(put, got) {
			t.Fatalf("stored %+v, put answered %+v", got.JsonSchema, put)
		}
		if !got.UpdatedAt.After(s.CreatedAt) {
			t.Fatalf("updatedAt %s, site created %s", got.UpdatedAt, s.CreatedAt)
		}
	})

	t.Run("TemplateConditionsOnePerClaimSignedFirst", func(t *testing.T) {
		want := []gen.SiteTemplateCondition{
			{Condition: "visitor.claims.admin === true", Description: "Administrators"},
			{Condition: "visitor.claims.isBeta === true", Description: "Beta testers"},
			{Condition: "visitor.claims.unsigned._lang_en === true", Description: "Reads English"},
			{Condition: "visitor.claims.unsigned.wantsDark === true", Description: "Prefers the dark theme"},
		}
		for i := 0; i < 3; i++ {
			if got := conditions(t, w.reader); !reflect.DeepEqual(got, want) {
				t.Fatalf("conditions = %+v, want %+v", got, want)
			}
		}
		// They are conditions a section or site space can be given as they are.
		for _, c := range want {
			if _, err := condition.Parse(c.Condition); err != nil {
				t.Fatalf("%s does not parse: %v", c.Condition, err)
			}
		}
	})

	t.Run("SchemaWithoutUnsignedOrSchemaKeyword", func(t *testing.T) {
		schema := map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"paid": map[string]any{"type": "boolean", "description": "Paying"}}}
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"jsonSchema": schema})
		want := []gen.SiteTemplateCondition{{Condition: "visitor.claims.paid === true", Description: "Paying"}}
		if got := conditions(t, w.admin); !reflect.DeepEqual(got, want) {
			t.Fatalf("conditions = %+v", got)
		}
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"jsonSchema": validSiteSchema()})
	})

	with := func(edit func(m map[string]any)) map[string]any {
		m := validSiteSchema()
		edit(m)
		return m
	}
	props := func(m map[string]any) map[string]any { return m["properties"].(map[string]any) }
	unsigned := func(m map[string]any) map[string]any { return props(m)["unsigned"].(map[string]any) }
	for _, tc := range []struct {
		name    string
		schema  map[string]any
		message string
	}{
		{"TypeNotObject", with(func(m map[string]any) { m["type"] = "array" }), `Invalid body field "jsonSchema.type": must be "object".`},
		{"TypeMissing", with(func(m map[string]any) { delete(m, "type") }), `Invalid body field "jsonSchema.type": must be "object".`},
		{"OtherDraft", with(func(m map[string]any) { m["$schema"] = "https://json-schema.org/draft/2020-12/schema" }),
			`Invalid body field "jsonSchema.$schema": must be "http://json-schema.org/draft-07/schema#".`},
		{"AdditionalPropertiesMissing", with(func(m map[string]any) { delete(m, "additionalProperties") }),
			`Invalid body field "jsonSchema.additionalProperties": must be false.`},
		{"AdditionalPropertiesTrue", with(func(m map[string]any) { m["additionalProperties"] = true }),
			`Invalid body field "jsonSchema.additionalProperties": must be false.`},
		{"UnsupportedKeyword", with(func(m map[string]any) { m["required"] = []any{"admin"} }),
			`Invalid body field "jsonSchema.required": not supported: a visitor schema has only $schema, type, properties, additionalProperties.`},
		{"TopLevelDescription", with(func(m map[string]any) { m["description"] = "Visitors" }),
			`Invalid body field "jsonSchema.description": not supported: a visitor schema has only $schema, type, properties, additionalProperties.`},
		{"PropertiesNotAnObject", with(func(m map[string]any) { m["properties"] = []any{} }), `Invalid body field "jsonSchema.properties": must be an object.`},
		{"PropertiesMissing", with(func(m map[string]any) { delete(m, "properties") }), `Invalid body field "jsonSchema.properties": must be an object.`},
		{"ClaimOfUnknownType", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"type": "integer", "description": "Plan"} }),
			`Invalid body field "jsonSchema.properties.plan.type": must be one of "boolean", "string", "number", "array", "object".`},
		{"ClaimWithoutType", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"description": "Plan"} }),
			`Invalid body field "jsonSchema.properties.plan.type": must be one of "boolean", "string", "number", "array", "object".`},
		{"ClaimNotASchema", with(func(m map[string]any) { props(m)["plan"] = true }), `Invalid body field "jsonSchema.properties.plan": must be an object.`},
		{"ClaimWithOtherKeyword", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "boolean", "description": "x", "default": true}
		}),
			`Invalid body field "jsonSchema.properties.plan.default": not supported: a boolean claim has only type, description.`},
		{"ClaimWithoutDescription", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"type": "boolean"} }),
			`Invalid body field "jsonSchema.properties.plan.description": is required (every claim describes itself).`},
		{"ClaimDescriptionNotAString", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"type": "boolean", "description": 3} }),
			`Invalid body field "jsonSchema.properties.plan.description": must be a string of at most 1024 bytes.`},
		{"BooleanWithEnum", with(func(m map[string]any) {
			props(m)["b"] = map[string]any{"type": "boolean", "description": "x", "enum": []any{true}}
		}),
			`Invalid body field "jsonSchema.properties.b.enum": not supported: a boolean claim has only type, description.`},
		{"NumberWithMinimum", with(func(m map[string]any) {
			props(m)["n"] = map[string]any{"type": "number", "description": "x", "minimum": 1}
		}),
			`Invalid body field "jsonSchema.properties.n.minimum": not supported: a number claim has only type, description.`},
		{"EnumEmpty", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum": must be a list of 1 to 100 strings.`},
		{"EnumNotStrings", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{"a", 2}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum[1]": must be a string of at most 256 bytes, on one line.`},
		{"EnumRepeated", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{"a", "a"}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum[1]": repeats "a".`},
		{"EnumLineBreak", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{"a\nb"}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum[0]": must be a string of at most 256 bytes, on one line.`},
		{"ArrayWithoutItems", with(func(m map[string]any) { props(m)["tags"] = map[string]any{"type": "array", "description": "x"} }),
			`Invalid body field "jsonSchema.properties.tags.items": must be an object.`},
		{"ArrayOfArrays", with(func(m map[string]any) {
			props(m)["tags"] = map[string]any{"type": "array", "description": "x", "items": map[string]any{"type": "array", "description": "y"}}
		}), `Invalid body field "jsonSchema.properties.tags.items.type": must be one of "boolean", "string", "number".`},
		{"ArrayItemsWithoutDescription", with(func(m map[string]any) {
			props(m)["tags"] = map[string]any{"type": "array", "description": "x", "items": map[string]any{"type": "string"}}
		}), `Invalid body field "jsonSchema.properties.tags.items.description": is required (every claim describes itself).`},
		{"ArrayItemsNumberEnum", with(func(m map[string]any) {
			props(m)["ids"] = map[string]any{"type": "array", "description": "x", "items": map[string]any{"type": "number", "description": "y", "enum": []any{"1"}}}
		}), `Invalid body field "jsonSchema.properties.ids.items.enum": not supported: the items of an array claim has only type, description.`},
		{"ObjectOpen", with(func(m map[string]any) {
			props(m)["company"] = map[string]any{"type": "object", "description": "x", "properties": map[string]any{}}
		}), `Invalid body field "jsonSchema.properties.company.additionalProperties": must be false.`},
		{"ObjectWithoutProperties", with(func(m map[string]any) {
			props(m)["company"] = map[string]any{"type": "object", "description": "x", "additionalProperties": false}
		}), `Invalid body field "jsonSchema.properties.company.properties": must be an object.`},
		{"ObjectBadNestedClaim", with(func(m map[string]any) {
			props(m)["company"] = map[string]any{"type": "object", "description": "x", "additionalProperties": false,
				"properties": map[string]any{"tier": map[string]any{"type": "string"}}}
		}), `Invalid body field "jsonSchema.properties.company.properties.tier.description": is required (every claim describes itself).`},
		{"ObjectTooDeep", with(func(m map[string]any) {
			var o any = map[string]any{"type": "boolean", "description": "leaf"}
			for i := 0; i < 5; i++ {
				o = map[string]any{"type": "object", "description": "level", "additionalProperties": false, "properties": map[string]any{"x": o}}
			}
			props(m)["deep"] = o
		}), `Invalid body field "jsonSchema.properties.deep.properties.x.properties.x.properties.x.properties.x": nests objects deeper than 4 levels.`},
		{"BadClaimName", with(func(m map[string]any) { props(m)["is-beta"] = map[string]any{"type": "boolean", "description": "x"} }),
			`Invalid body field "jsonSchema.properties": claim name "is-beta" must match ^[a-zA-Z_][a-zA-Z0-9_]*$.`},
		{"ClaimNameStartingWithADigit", with(func(m map[string]any) { props(m)["1st"] = map[string]any{"type": "boolean", "description": "x"} }),
			`Invalid body field "jsonSchema.properties": claim name "1st" must match ^[a-zA-Z_][a-zA-Z0-9_]*$.`},
		{"UnsignedAsBoolean", with(func(m map[string]any) { props(m)["unsigned"] = map[string]any{"type": "boolean"} }),
			`Invalid body field "jsonSchema.properties.unsigned.type": must be "object".`},
		{"UnsignedOpen", with(func(m map[string]any) { delete(unsigned(m), "additionalProperties") }),
			`Invalid body field "jsonSchema.properties.unsigned.additionalProperties": must be false.`},
		{"UnsignedWithoutProperties", with(func(m map[string]any) { delete(unsigned(m), "properties") }),
			`Invalid body field "jsonSchema.properties.unsigned.properties": must be an object.`},
		{"UnsignedOtherDescription", with(func(m map[string]any) { unsigned(m)["description"] = "Claims the visitor sets" }),
			`Invalid body field "jsonSchema.properties.unsigned.description": must be "Unsigned claims of the site visitor.".`},
		{"UnsignedClaimOfUnknownType", with(func(m map[string]any) {
			unsigned(m)["properties"].(map[string]any)["n"] = map[string]any{"type": "null", "description": "x"}
		}), `Invalid body field "jsonSchema.properties.unsigned.properties.n.type": must be one of "boolean", "string", "number", "array", "object".`},
		{"UnsignedBadClaimName", with(func(m map[string]any) {
			unsigned(m)["properties"].(map[string]any)["a b"] = map[string]any{"type": "boolean", "description": "x"}
		}), `Invalid body field "jsonSchema.properties.unsigned.properties": claim name "a b" must match ^[a-zA-Z_][a-zA-Z0-9_]*$.`},
	} {
		t.Run("Invalid"+tc.name, func(t *testing.T) {
			w.wantError(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{"jsonSchema": tc.schema}, tc.message)
			got := getJSON[gen.SiteAdaptiveSchema](t, w.testServer, w.admin, path)
			if !reflect.DeepEqual(map[string]any(got.JsonSchema), validSiteSchema()) {
				t.Fatalf("a refused put changed the schema: %+v", got.JsonSchema)
			}
		})
	}

	t.Run("JSONSchemaRequired", func(t *testing.T) {
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{}), "jsonSchema")
		w.Expect(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{"jsonSchema": "x"})
	})

	t.Run("MissingSiteIs404", func(t *testing.T) {
		p := w.sitesPath("nope") + "/adaptive-schema"
		w.wantError(t, http.StatusNotFound, w.admin, "GET", p, nil, "Site not found.")
		w.wantError(t, http.StatusNotFound, w.admin, "PUT", p, map[string]any{"jsonSchema": validSiteSchema()}, "Site not found.")
		w.wantError(t, http.StatusNotFound, w.admin, "GET", p+"/template-conditions", nil, "Site not found.")
	})
}
