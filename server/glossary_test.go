package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func glossaryPath(orgID string, suffix ...string) string {
	return "/orgs/" + orgID + "/translations-glossary" + strings.Join(suffix, "")
}

func glossaryOps(ops ...map[string]any) map[string]any {
	list := make([]any, len(ops))
	for i, o := range ops {
		list[i] = o
	}
	return map[string]any{"operations": list}
}

// The glossary's operations: a batch inserts, updates and deletes entries at once, or nothing
// when one operation is refused (naming it); members read it, readers cannot change it; the list
// goes by a language's term with orderBy.
func TestGlossaryOperations(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	reader := w.MustCreateUser(t, "reader@tr.test", "Reader")
	w.MustAddMember(t, w.admin, w.org, reader, "read")
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", glossaryPath(w.org), glossaryOps(
		map[string]any{"type": "insert", "translations": map[string]any{"en": "Space", "fr": "Espace"}},
		map[string]any{"type": "insert", "translations": map[string]any{"en": "Quire"}},
		map[string]any{"type": "insert", "translations": map[string]any{"en": "change request", "de": "Änderungsanfrage"}},
	))
	list := getJSON[gen.GlossaryEntryList](t, w.testServer, reader, glossaryPath(w.org, "?orderBy=de"))
	if list.Count != 3 || len(list.Items) != 3 || list.Items[2].Translations["de"] != "Änderungsanfrage" {
		t.Fatalf("by the German term: %+v", list)
	}
	var space gen.GlossaryEntry
	for _, e := range list.Items {
		if e.Translations["en"] == "Space" {
			space = e
		}
	}
	got := getJSON[gen.GlossaryEntry](t, w.testServer, reader, glossaryPath(w.org, "/", space.Id))
	if !reflect.DeepEqual(got.Translations, gen.GlossaryTranslations{"en": "Space", "fr": "Espace"}) || !strings.HasSuffix(got.Urls.Location, space.Id) {
		t.Fatalf("entry %+v", got)
	}

	// Refused, changing nothing: a reader; an update of a missing entry; an insert with an id; a
	// language quire does not know; a delete with terms; an update without them.
	w.Expect(t, http.StatusForbidden, reader, "PUT", glossaryPath(w.org), glossaryOps(map[string]any{"type": "delete", "id": space.Id}))
	for _, c := range []struct {
		op    map[string]any
		field string
	}{
		{map[string]any{"type": "update", "id": "nope", "translations": map[string]any{"en": "X"}}, "operations[1].id"},
		{map[string]any{"type": "insert", "id": "mine", "translations": map[string]any{"en": "X"}}, "operations[1].id"},
		{map[string]any{"type": "insert", "translations": map[string]any{"xx": "X"}}, "operations[1].translations"},
		{map[string]any{"type": "delete", "id": space.Id, "translations": map[string]any{"en": "X"}}, "operations[1].translations"},
		{map[string]any{"type": "update", "id": space.Id}, "operations[1].translations"},
	} {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PUT", glossaryPath(w.org), glossaryOps(
			map[string]any{"type": "delete", "id": space.Id}, c.op))
		if msg := r.ErrorMessage(t); !strings.Contains(msg, c.field) {
			t.Errorf("%v: %q does not name %s", c.op, msg, c.field)
		}
	}
	if l := getJSON[gen.GlossaryEntryList](t, w.testServer, w.admin, glossaryPath(w.org)); l.Count != 3 {
		t.Fatalf("a refused batch changed the glossary: %d entries", l.Count)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", glossaryPath(w.org, "/nope"), nil)
}

// A run translates a glossary term as its entry says, keeps one whose entry has no term in the
// run's language, and sends neither; changing the glossary translates the pages again.
func TestGlossaryEnforcedByRuns(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", glossaryPath(w.org), glossaryOps(
		map[string]any{"type": "insert", "translations": map[string]any{"en": "Space", "fr": "Espace"}},
		map[string]any{"type": "insert", "translations": map[string]any{"en": "Quire", "de": "Quire GmbH"}},
	))
	w.edit(t, insertMarkdown("Hello Space", "Hello world from Quire, see the Space page.\n", "a"))
	tr := w.run(t, w.create(t, "fr", nil).Id)
	if sent := w.lt.Sent(); !reflect.DeepEqual(sent, []string{"Hello", "Hello world from", ", see the", "page."}) {
		t.Fatalf("sent %q", sent)
	}
	pages, _ := w.pages(t, tr.Result.Space)
	if p := pages["hello-space"]; p.Title != "[fr] bonjour Espace" || !strings.Contains(p.Markdown, "from Quire") || !strings.Contains(p.Markdown, "Espace") ||
		strings.Contains(p.Markdown, "Space") {
		t.Fatalf("page %+v", p)
	}
	// The French term changes: the page is translated again with it.
	entries := getJSON[gen.GlossaryEntryList](t, w.testServer, w.admin, glossaryPath(w.org, "?orderBy=fr"))
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", glossaryPath(w.org), glossaryOps(
		map[string]any{"type": "update", "id": entries.Items[1].Id, "translations": map[string]any{"en": "Space", "fr": "Zone"}}))
	w.run(t, tr.Id)
	if p := (func() trPage { ps, _ := w.pages(t, tr.Result.Space); return ps["hello-space"] })(); p.Title != "[fr] bonjour Zone" {
		t.Fatalf("after the glossary changed %+v", p)
	}
}
