package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The page lists are encoded by encoding/json/v2 with v1's rules (server/streamed.go, and kept
// encoded by pagelists.go, so the space's list is asked twice): their
// bytes must be exactly what encoding/json writes for the same tree, on pages using every kind
// of field (nested, emoji, description, hidden, a link with its href, a group, a cover).
func TestStreamedPagesAreEncodingJSON(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	sid := f.MustCreateSpace(t, f.admin, f.org.Id, "Streamed", "").Id
	cr := f.create(t, f.admin, sid, "Pages")
	f.apply(t, f.admin, sid, cr.Id,
		insertMarkdown("Home", "---\ndescription: The <first> page & \"more\"\nemoji: \"1f600\"\n---\nHello.\n", "home"),
		insertPage("Sub", "ref", "sub", "into", "home", "hidden", true, "slug", "sub-page"),
		insertPage("To sub", "type", "link", "target", map[string]any{"kind": "page", "page": "sub"}),
		insertPage("Out", "type", "link", "target", map[string]any{"kind": "url", "url": "https://example.com/a?b=c&d=é"}),
		insertPage("Group", "type", "group", "document", map[string]any{}))
	rev := f.merged(t, sid, cr.Id)
	for _, path := range []string{"/spaces/" + sid + "/content/pages", "/spaces/" + sid + "/change-requests/" + cr.Id + "/content/pages",
		"/spaces/" + sid + "/revisions/" + rev + "/pages", "/spaces/" + sid + "/content/pages"} {
		body := f.Expect(t, http.StatusOK, f.admin, "GET", path, nil).Body
		var tree gen.PageTree
		if err := json.Unmarshal(body, &tree); err != nil {
			t.Fatal(err)
		}
		if len(tree.Pages) != 4 || len(tree.Pages[0].Pages) != 1 {
			t.Fatalf("%s: %s", path, body)
		}
		want, err := json.Marshal(tree)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(bytes.TrimSpace(body), want) {
			t.Fatalf("%s streamed\n%s\nencoding/json\n%s", path, body, want)
		}
	}
}
