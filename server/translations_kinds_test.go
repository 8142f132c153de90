package server_test

import (
	"testing"

	"github.com/quire-docs/quire/gen"
)

// A translation keeps groups and links what they are: a group with its pages, a link with its
// target (a link to a page of the source opens its translation once that is there).
func TestTranslationKeepsGroupsAndLinks(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	w.edit(t,
		insertMarkdown("Read me", "Read the page.\n", "read"),
		insertGroup("Guide", "guide"),
		insertMarkdown("Hello world", "Hello world.\n", "hello", "into", "guide"),
		insertLink("Status", "status", urlTarget("https://status.example.com/"), "into", "guide"),
		insertLink("Read me again", "again", map[string]any{"kind": "page", "page": "read"}, "into", "guide"),
	)
	tr := w.create(t, "fr", nil)
	tr = w.run(t, tr.Id)
	pages := getJSON[gen.PageTree](t, w.testServer, w.admin, "/spaces/"+tr.Result.Space+"/content/pages").Pages
	if len(pages) != 2 || pages[1].Type != gen.PageTypeGroup || len(pages[1].Pages) != 3 {
		t.Fatalf("result tree %+v", pages)
	}
	status, again := pages[1].Pages[1], pages[1].Pages[2]
	u, err := status.Target.AsPageLinkTargetURL()
	if status.Type != gen.PageTypeLink || err != nil || u.Url != "https://status.example.com/" {
		t.Fatalf("url link %+v (%v)", status, err)
	}
	pg, err := again.Target.AsPageLinkTargetPage()
	if again.Type != gen.PageTypeLink || err != nil || pg.Page == "" {
		t.Fatalf("page link %+v (%v)", again, err)
	}
	// Its target: the translated page, inserted by the same run.
	if pg.Page != pages[0].Id || (pg.Space != nil && *pg.Space != tr.Result.Space) {
		t.Fatalf("page link target %+v (translated page %s)", pg, pages[0].Id)
	}
}
