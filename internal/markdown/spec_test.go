package markdown

import (
	"testing"

	"github.com/quire-docs/quire/internal/publicspec"
)

// The documents this package produces are checked against GitBook's published JSONDocument schema
// itself, of both versions. It is validated directly: the spec's Document "Empty" branch
// (additionalProperties: false) can never match inside RevisionPageDocument's allOf, a modelling
// bug of the public spec.
func validatePublic(t *testing.T, doc *Document) {
	t.Helper()
	for _, version := range []string{publicspec.V146, publicspec.V202} {
		if err := publicspec.Validate(version, "JSONDocument", doc); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRichtextPublicSchema(t *testing.T) {
	eachFixture(t, func(t *testing.T, _, src string) {
		doc := FromMarkdown(src)
		validatePublic(t, doc)
		// What the document reads back as validates too.
		validatePublic(t, FromMarkdown(ToMarkdown(doc)))
	})
}
