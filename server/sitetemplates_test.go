package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestDuplicateSiteSpace(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	sec := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "Guide")})
	orig := sec.SiteSpaces[0]
	r := w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/site-spaces/"+orig.Id+"/duplicate"), map[string]any{"draft": true})
	var dup gen.SiteSpace
	r.Decode(t, &dup)
	if dup.Id == orig.Id || dup.Space.Id == orig.Space.Id || dup.Space.Title != "Guide (copy)" || !dup.Draft ||
		dup.Section == nil || *dup.Section != sec.Id {
		t.Fatalf("duplicate = %+v", dup)
	}
	if !strings.HasSuffix(r.Header.Get("Location"), w.path("/site-spaces/"+dup.Id)) {
		t.Fatalf("Location = %q", r.Header.Get("Location"))
	}
	wantIDs(t, "variants", idsOf(w.section(t, sec.Id).SiteSpaces), orig.Id, dup.Id)
	// The copy has the original's content.
	want := getJSON[map[string]any](t, w.testServer, w.admin, "/spaces/"+orig.Space.Id+"/content")
	got := getJSON[map[string]any](t, w.testServer, w.admin, "/spaces/"+dup.Space.Id+"/content")
	if len(want["pages"].([]any)) != len(got["pages"].([]any)) {
		t.Fatalf("the copy's pages: %v, the original's %v", got["pages"], want["pages"])
	}
	w.Expect(t, http.StatusNotFound, w.admin, "POST", w.path("/site-spaces/nope/duplicate"), nil)
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/site-spaces/"+orig.Id+"/duplicate"), nil)
}

func TestApplyTemplateToSite(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	w.addSiteSpace(t, w.newSpace(t, "Root"), "")
	w.Expect(t, http.StatusOK, w.admin, "POST", w.path("/template"), nil)
	secs := w.sections(t, "").Items
	if len(secs) != 3 || secs[1].Title != "Product guide" || secs[2].Title != "API reference" {
		t.Fatalf("sections = %+v", secs)
	}
	for _, sec := range secs[1:] {
		content := getJSON[map[string]any](t, w.testServer, w.admin, "/spaces/"+sec.SiteSpaces[0].Space.Id+"/content")
		if pages, _ := content["pages"].([]any); len(pages) == 0 {
			t.Fatalf("the %s space has no pages", sec.Title)
		}
		if sec.SiteSpaces[0].Space.Title != sec.Title {
			t.Fatalf("space title %q in section %q", sec.SiteSpaces[0].Space.Title, sec.Title)
		}
	}
}
