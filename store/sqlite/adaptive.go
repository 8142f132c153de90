package sqlite

import (
	"github.com/quire-docs/quire/store"
)

// normalizeAdaptiveSchema gives `unsigned` the one description the public schema allows when
// it has none, so what is stored is what GitBook's clients validate.
func normalizeAdaptiveSchema(schema map[string]any) {
	props, _ := schema["properties"].(map[string]any)
	if u, ok := props["unsigned"].(map[string]any); ok {
		if _, has := u["description"]; !has {
			u["description"] = store.UnsignedDescription
		}
	}
}
