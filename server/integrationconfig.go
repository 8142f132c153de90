package server

import (
	"fmt"
	"slices"
	"sort"

	"github.com/quire-docs/quire/gen"
)

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
// active when every required property has a value, pending otherwise.
func checkConfiguration(level string, c *gen.IntegrationConfigurationSchema, config map[string]any) (gen.IntegrationInstallationStatus, error) {
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
