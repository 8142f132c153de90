package markdown

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestIncludeTagIsAReusableContentBlock(t *testing.T) {
	src := "Intro\n\n{% include \".gitbook/includes/warning.md\" %}\n\n{% include \"rc123\" %}\n\nAfter\n"
	doc := FromMarkdown(src)
	var types []string
	for _, n := range doc.Nodes {
		types = append(types, n.Type)
	}
	if got := strings.Join(types, " "); got != "paragraph reusable-content reusable-content paragraph" {
		t.Fatalf("blocks: %s", got)
	}
	data, _ := json.Marshal(doc.Nodes[2].Data)
	if string(data) != `{"ref":{"kind":"reusable-content","reusableContent":"rc123"}}` {
		t.Errorf("block: %s", data)
	}
	back := ToMarkdown(doc)
	for _, want := range []string{`{% include ".gitbook/includes/warning.md" %}`, `{% include "rc123" %}`, "After"} {
		if !strings.Contains(back, want) {
			t.Errorf("written back without %q:\n%s", want, back)
		}
	}
}
