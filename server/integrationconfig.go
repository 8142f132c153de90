package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/quire-docs/quire/gen"
)

// levelConfiguration is how an integration configures one level (account, space, site): with
// a schema of properties quire checks configurations against, or with a component of the
// integration's own (ContentKit, rendered by the integration), which owns the configuration's
// shape: quire then takes any configuration object. Neither: no configuration at all.
type levelConfiguration struct {
	schema    *gen.IntegrationConfigurationSchema
	component string
}

func toLevelConfiguration(c *gen.IntegrationConfiguration) (levelConfiguration, error) {
	if c == nil {
		return levelConfiguration{}, nil
	}
	// The validator let exactly one branch through; a component has a non-empty componentId.
	if comp, err := c.AsIntegrationConfigurationComponent(); err == nil && comp.ComponentId != "" {
		return levelConfiguration{component: comp.ComponentId}, nil
	}
	schema, err := c.AsIntegrationConfigurationSchema()
	if err != nil {
		return levelConfiguration{}, err
	}
	return levelConfiguration{schema: &schema}, nil
}

// cspHeader is a published content security policy as one header value: the string as given,
// or the directives by name in name order ("default-src 'self'; script-src …"; a directive
// without a value, upgrade-insecure-requests, is its name alone).
func cspHeader(p gen.IntegrationContentSecurityPolicy) (string, error) {
	raw, err := p.MarshalJSON()
	if err != nil {
		return "", err
	}
	var header string
	if json.Unmarshal(raw, &header) == nil {
		return header, nil
	}
	var directives map[string]string
	if err := json.Unmarshal(raw, &directives); err != nil {
		return "", err
	}
	names := make([]string, 0, len(directives))
	for name := range directives {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, name := range names {
		parts = append(parts, strings.TrimSpace(name+" "+strings.TrimSpace(directives[name])))
	}
	return strings.Join(parts, "; "), nil
}

// checkConfigurationSchema checks what the spec cannot of a published configuration schema: a
// default of the property's type, an enum only on strings (holding the default), buttons with
// their callback and text, and `required` naming properties.
func checkConfigurationSchema(field string, c *gen.IntegrationConfigurationSchema) error {
	if c == nil {
		return nil
	}
	names := make([]string, 0, len(c.Properties))
	for name := range c.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := c.Properties[name]
		at := field + ".properties." + name
		if p.Type == gen.IntegrationConfigurationPropertyTypeButton && (p.CallbackUrl == nil || p.ButtonText == nil) {
			return badRequest(fmt.Sprintf(`Invalid body field %q: a button needs callback_url and button_text.`, at))
		}
		if p.Enum != nil && p.Type != gen.IntegrationConfigurationPropertyTypeString {
			return badRequest(fmt.Sprintf(`Invalid body field "%s.enum": only string properties take an enum.`, at))
		}
		if p.Default != nil {
			if msg := configValueError(p, p.Default); msg != "" {
				return badRequest(fmt.Sprintf(`Invalid body field "%s.default": %s`, at, msg))
			}
		}
	}
	if c.Required != nil {
		for _, r := range *c.Required {
			if _, ok := c.Properties[r]; !ok {
				return badRequest(fmt.Sprintf(`Invalid body field "%s.required": %q is not one of its properties.`, field, r))
			}
		}
	}
	return nil
}

// configValueError says what is wrong with a value for a configuration property ("" when fine).
func configValueError(p gen.IntegrationConfigurationProperty, v any) string {
	switch p.Type {
	case gen.IntegrationConfigurationPropertyTypeString:
		s, ok := v.(string)
		if !ok {
			return "a string is needed."
		}
		if p.Enum != nil && !slices.Contains(*p.Enum, s) {
			return fmt.Sprintf("one of %q is needed.", *p.Enum)
		}
	case gen.IntegrationConfigurationPropertyTypeNumber:
		if _, ok := v.(float64); !ok {
			return "a number is needed."
		}
	case gen.IntegrationConfigurationPropertyTypeBoolean:
		if _, ok := v.(bool); !ok {
			return "a boolean is needed."
		}
	case gen.IntegrationConfigurationPropertyTypeButton:
		return "a button takes no value."
	}
	return ""
}

// checkConfiguration validates an installation's configuration against the integration's schema
// for that level ("account", "space", "site") and returns the status it gives the installation:
// active when every required property has a value, pending otherwise. A level configured by a
// component takes any configuration and is active.
func checkConfiguration(level string, lc levelConfiguration, config map[string]any) (gen.IntegrationInstallationStatus, error) {
	if lc.component != "" {
		return gen.IntegrationInstallationStatusActive, nil
	}
	c := lc.schema
	keys := make([]string, 0, len(config))
	for k := range config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var p gen.IntegrationConfigurationProperty
		ok := false
		if c != nil {
			p, ok = c.Properties[k]
		}
		if !ok {
			return "", badRequest(fmt.Sprintf(`Invalid body field "configuration.%s": the integration's %s configuration has no such property.`, k, level))
		}
		if msg := configValueError(p, config[k]); msg != "" {
			return "", badRequest(fmt.Sprintf(`Invalid body field "configuration.%s": %s`, k, msg))
		}
	}
	if c != nil && c.Required != nil {
		for _, r := range *c.Required {
			if _, ok := config[r]; !ok {
				return gen.IntegrationInstallationStatusPending, nil
			}
		}
	}
	return gen.IntegrationInstallationStatusActive, nil
}
