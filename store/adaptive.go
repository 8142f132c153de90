package store

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Claim kinds of a visitor schema, as the public API's SiteAdaptiveJSONSchema allows them.
const (
	ClaimBoolean = "boolean"
	ClaimString  = "string"
	ClaimNumber  = "number"
	ClaimArray   = "array"
	ClaimObject  = "object"
)

// AdaptiveClaim is one claim of a site's visitor schema that conditions can test: a boolean,
// a string (with or without enum), a number, or an array of those. Objects are not claims of
// their own: their properties are, with the object's names leading their Path.
type AdaptiveClaim struct {
	Path        []string // property names from visitor.claims, e.g. [unsigned plan]
	Kind        string   // ClaimBoolean, ClaimString, ClaimNumber or ClaimArray
	Items       string   // ClaimArray: the kind of its items (boolean, string or number)
	Enum        []string // ClaimString, or ClaimArray of strings: the values allowed, if listed
	Description string
}

// DraftSchema is the only `$schema` a visitor schema may name.
const DraftSchema = "http://json-schema.org/draft-07/schema#"

// UnsignedDescription is the description the public schema fixes for the `unsigned` object.
const UnsignedDescription = "Unsigned claims of the site visitor."

// Limits that keep a visitor schema, and the conditions derived from it, small.
const (
	maxClaims      = 200
	maxClaimDepth  = 4 // objects nested under the root (or under unsigned)
	maxEnumValues  = 100
	maxEnumValue   = 256
	maxDescription = 1024
)

// EmptyAdaptiveSchema is the visitor schema of a site that has not set one: no claims.
func EmptyAdaptiveSchema() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
}

// upgradeAdaptiveSchema brings a schema stored before claims had to be described (boolean
// claims only, descriptions optional, one on the schema itself) to the public shape: the
// schema's own description goes, a claim without one is described by its name, and unsigned
// gets its fixed description. A schema stored since is left as it is.
func upgradeAdaptiveSchema(m map[string]any) {
	delete(m, "description")
	props, _ := m["properties"].(map[string]any)
	describe := func(props map[string]any) {
		for name, v := range props {
			if c, ok := v.(map[string]any); ok && c["type"] == ClaimBoolean {
				if _, has := c["description"]; !has {
					c["description"] = name
				}
			}
		}
	}
	describe(props)
	if u, ok := props["unsigned"].(map[string]any); ok {
		u["description"] = UnsignedDescription
		inner, _ := u["properties"].(map[string]any)
		describe(inner)
	}
}

var claimName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// ParseAdaptiveSchema checks a visitor schema as the public API defines it — a JSON Schema
// draft-07 object with `additionalProperties: false` whose properties are claims, plus
// `unsigned`, an object of the claims a visitor sets — and returns its claims: the signed ones
// first, then the unsigned ones, each sorted by name (an object's properties in its place).
//
// A claim is a boolean, a string (optionally with `enum`), a number, an array of one of those
// (`items`), or an object of claims closed with `additionalProperties: false`; each has a
// `description`. What is wrong is named by its path under jsonSchema.
func ParseAdaptiveSchema(schema map[string]any) ([]AdaptiveClaim, error) {
	const at = "jsonSchema"
	if err := checkKeywords(at, schema, "a visitor schema", "$schema", "type", "properties", "additionalProperties"); err != nil {
		return nil, err
	}
	if v, ok := schema["$schema"]; ok && v != DraftSchema {
		return nil, schemaError(at+".$schema", `must be "`+DraftSchema+`"`)
	}
	if err := checkObjectSchema(at, schema); err != nil {
		return nil, err
	}
	props, err := schemaProperties(at, schema)
	if err != nil {
		return nil, err
	}
	p := &claimParser{}
	for _, name := range sortedKeys(props) {
		if name != "unsigned" {
			if err := p.claim(at+".properties."+name, []string{name}, props[name], 0); err != nil {
				return nil, err
			}
		}
	}
	if u, ok := props["unsigned"]; ok {
		if err := p.unsigned(at+".properties.unsigned", u); err != nil {
			return nil, err
		}
	}
	return p.claims, nil
}

type claimParser struct{ claims []AdaptiveClaim }

func claimKind(at string, m map[string]any) (string, error) {
	kind, _ := m["type"].(string)
	switch kind {
	case ClaimBoolean, ClaimString, ClaimNumber, ClaimArray, ClaimObject:
		return kind, nil
	}
	return "", schemaError(at+".type", `must be one of "boolean", "string", "number", "array", "object"`)
}

// arrayItems checks the items of an array claim: a boolean, string (optionally with enum) or
// number schema, described like any claim.
func arrayItems(at string, v any) (string, []string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", nil, schemaError(at, "must be an object")
	}
	kind, _ := m["type"].(string)
	if kind != ClaimBoolean && kind != ClaimString && kind != ClaimNumber {
		return "", nil, schemaError(at+".type", `must be one of "boolean", "string", "number"`)
	}
	allowed := []string{"type", "description"}
	if kind == ClaimString {
		allowed = append(allowed, "enum")
	}
	if err := checkKeywords(at, m, "the items of an array claim", allowed...); err != nil {
		return "", nil, err
	}
	enum, err := claimEnum(at, m)
	if err != nil {
		return "", nil, err
	}
	if _, err := claimDescription(at, m); err != nil {
		return "", nil, err
	}
	return kind, enum, nil
}

// claimEnum reads a string claim's enum, if it has one: distinct strings, at least one.
func claimEnum(at string, m map[string]any) ([]string, error) {
	v, ok := m["enum"]
	if !ok {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 || len(list) > maxEnumValues {
		return nil, schemaError(at+".enum", fmt.Sprintf("must be a list of 1 to %d strings", maxEnumValues))
	}
	out := make([]string, 0, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok || len(s) > maxEnumValue || strings.ContainsAny(s, "\n\r\u2028\u2029") {
			// A line break could not be written in the condition that tests the value.
			return nil, schemaError(fmt.Sprintf("%s.enum[%d]", at, i), fmt.Sprintf("must be a string of at most %d bytes, on one line", maxEnumValue))
		}
		if slices.Contains(out, s) {
			return nil, schemaError(fmt.Sprintf("%s.enum[%d]", at, i), fmt.Sprintf("repeats %q", s))
		}
		out = append(out, s)
	}
	return out, nil
}

// claimDescription reads the description every claim must have.
func claimDescription(at string, m map[string]any) (string, error) {
	v, ok := m["description"]
	if !ok {
		return "", schemaError(at+".description", "is required (every claim describes itself)")
	}
	d, ok := v.(string)
	if !ok || len(d) > maxDescription {
		return "", schemaError(at+".description", fmt.Sprintf("must be a string of at most %d bytes", maxDescription))
	}
	return d, nil
}

func schemaError(path, msg string) error {
	return FieldErrorf(path, "%s", msg)
}

// checkKeywords rejects keywords outside allowed, naming the first (in name order).
func checkKeywords(path string, m map[string]any, what string, allowed ...string) error {
	for _, k := range sortedKeys(m) {
		if !slices.Contains(allowed, k) {
			return schemaError(path+"."+k, "not supported: "+what+" has only "+strings.Join(allowed, ", "))
		}
	}
	return nil
}

// checkObjectSchema checks `type: "object"` and `additionalProperties: false`.
func checkObjectSchema(path string, m map[string]any) error {
	if m["type"] != "object" {
		return schemaError(path+".type", `must be "object"`)
	}
	if m["additionalProperties"] != false {
		return schemaError(path+".additionalProperties", "must be false")
	}
	return nil
}

// schemaProperties returns the `properties` of an object schema, with every name checked.
func schemaProperties(path string, m map[string]any) (map[string]any, error) {
	props, ok := m["properties"].(map[string]any)
	if !ok {
		return nil, schemaError(path+".properties", "must be an object")
	}
	for _, name := range sortedKeys(props) {
		if !claimName.MatchString(name) {
			return nil, schemaError(path+".properties", fmt.Sprintf("claim name %q must match %s", name, claimName))
		}
	}
	return props, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Unsigned reports whether the claim is one the visitor sets (under `unsigned`).
func (c AdaptiveClaim) Unsigned() bool { return len(c.Path) > 1 && c.Path[0] == "unsigned" }

// AdaptiveSchemaObject returns the site's visitor schema, the empty one when none is set.
func (site *Site) AdaptiveSchemaObject() (map[string]any, error) {
	if site.AdaptiveSchema == nil {
		return EmptyAdaptiveSchema(), nil
	}
	var m map[string]any
	if err := json.Unmarshal(site.AdaptiveSchema, &m); err != nil {
		return nil, fmt.Errorf("store: bad adaptive schema of site %s: %w", site.ID, err)
	}
	upgradeAdaptiveSchema(m)
	return m, nil
}

// AdaptiveClaims returns the claims of the site's visitor schema (see ParseAdaptiveSchema).
func (site *Site) AdaptiveClaims() ([]AdaptiveClaim, error) {
	m, err := site.AdaptiveSchemaObject()
	if err != nil {
		return nil, err
	}
	claims, err := ParseAdaptiveSchema(m)
	if err != nil {
		return nil, fmt.Errorf("store: bad adaptive schema of site %s: %w", site.ID, err)
	}
	return claims, nil
}

func (p *claimParser) add(c AdaptiveClaim) error {
	if len(p.claims) == maxClaims {
		return schemaError("jsonSchema", fmt.Sprintf("has more than %d claims", maxClaims))
	}
	p.claims = append(p.claims, c)
	return nil
}

func (p *claimParser) unsigned(at string, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return schemaError(at, "must be an object")
	}
	if err := checkKeywords(at, m, "the unsigned claims", "type", "description", "properties", "additionalProperties"); err != nil {
		return err
	}
	if err := checkObjectSchema(at, m); err != nil {
		return err
	}
	if d, ok := m["description"]; ok && d != UnsignedDescription {
		return schemaError(at+".description", fmt.Sprintf("must be %q", UnsignedDescription))
	}
	props, err := schemaProperties(at, m)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(props) {
		if err := p.claim(at+".properties."+name, []string{"unsigned", name}, props[name], 0); err != nil {
			return err
		}
	}
	return nil
}

// claim checks the claim schema v at path (its property names from visitor.claims) and adds
// it, or, for an object, its properties.
func (p *claimParser) claim(at string, path []string, v any, depth int) error {
	m, ok := v.(map[string]any)
	if !ok {
		return schemaError(at, "must be an object")
	}
	kind, err := claimKind(at, m)
	if err != nil {
		return err
	}
	c := AdaptiveClaim{Path: path, Kind: kind}
	switch kind {
	case ClaimBoolean, ClaimNumber:
		err = checkKeywords(at, m, "a "+kind+" claim", "type", "description")
	case ClaimString:
		if err = checkKeywords(at, m, "a string claim", "type", "description", "enum"); err == nil {
			c.Enum, err = claimEnum(at, m)
		}
	case ClaimArray:
		if err = checkKeywords(at, m, "an array claim", "type", "description", "items"); err == nil {
			c.Items, c.Enum, err = arrayItems(at+".items", m["items"])
		}
	case ClaimObject:
		return p.object(at, path, m, depth)
	}
	if err != nil {
		return err
	}
	if c.Description, err = claimDescription(at, m); err != nil {
		return err
	}
	return p.add(c)
}

func (p *claimParser) object(at string, path []string, m map[string]any, depth int) error {
	if err := checkKeywords(at, m, "an object claim", "type", "description", "properties", "additionalProperties"); err != nil {
		return err
	}
	if depth+1 > maxClaimDepth {
		return schemaError(at, fmt.Sprintf("nests objects deeper than %d levels", maxClaimDepth))
	}
	if err := checkObjectSchema(at, m); err != nil {
		return err
	}
	if _, err := claimDescription(at, m); err != nil {
		return err
	}
	props, err := schemaProperties(at, m)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(props) {
		if err := p.claim(at+".properties."+name, append(slices.Clip(path), name), props[name], depth+1); err != nil {
			return err
		}
	}
	return nil
}

// NormalizeAdaptiveSchema gives `unsigned` the one description the public schema allows when
// it has none, so what is stored is what GitBook's clients validate.
func NormalizeAdaptiveSchema(schema map[string]any) {
	props, _ := schema["properties"].(map[string]any)
	if u, ok := props["unsigned"].(map[string]any); ok {
		if _, has := u["description"]; !has {
			u["description"] = UnsignedDescription
		}
	}
}
