package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Create, get, list (paged), update and delete; what each refuses, and who may do what.
func TestTranslationsCRUD(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	tr := w.create(t, "fr", markdownDocument("- Quire\n"))
	if tr.Object != gen.TranslationObjectTranslation || tr.Status != gen.TranslationStatusPending || tr.Language != "fr" ||
		tr.Source.Space != w.source.Id || tr.Source.Language != "en" || tr.Result != nil ||
		tr.Stats != (gen.TranslationStats{}) || !tr.Permissions.View || !tr.Permissions.Edit ||
		tr.Urls.Location != testBaseURL+"/v1/orgs/"+w.org+"/translations/"+tr.Id || len(tr.Instructions.Nodes) != 1 {
		t.Fatalf("created %+v", tr)
	}
	if got := w.get(t, tr.Id); got.Id != tr.Id || got.CreatedAt != tr.CreatedAt {
		t.Fatalf("get %+v", got)
	}
	// Traditional Chinese (0.202.0's zh-tw), as the target and as the source's language.
	zhTW := w.create(t, "zh-tw", nil)
	if zhTW.Language != gen.ZhTw || w.get(t, zhTW.Id).Language != gen.ZhTw {
		t.Fatalf("created %+v", zhTW)
	}
	back := sendJSON[gen.Translation](t, w.testServer, http.StatusCreated, w.admin, "POST", trPath(w.org),
		map[string]any{"language": "en", "source": map[string]any{"space": w.source.Id, "language": "zh-tw"}})
	if back.Source.Language != gen.ZhTw {
		t.Fatalf("created %+v", back)
	}
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", trPath(w.org, "/", zhTW.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", trPath(w.org, "/", back.Id), nil)
	// Without instructions, the instructions are an empty document.
	de := w.create(t, "de", nil)
	if de.Instructions.Object != "document" || len(de.Instructions.Nodes) != 0 {
		t.Fatalf("instructions of a translation created without %+v", de.Instructions)
	}

	// Bad input: 400 naming the field, and nothing created.
	other := w.MustCreateOrg(t, w.admin, "Elsewhere")
	elsewhere := w.MustCreateSpace(t, w.admin, other.Id, "Elsewhere", "")
	for _, c := range []struct {
		name   string
		status int
		body   map[string]any
	}{
		{"unknown language", 400, map[string]any{"language": "xx", "source": map[string]any{"space": w.source.Id, "language": "en"}}},
		{"unknown source language", 400, map[string]any{"language": "fr", "source": map[string]any{"space": w.source.Id, "language": "klingon"}}},
		{"same language", 400, map[string]any{"language": "en", "source": map[string]any{"space": w.source.Id, "language": "en"}}},
		{"no source", 400, map[string]any{"language": "fr"}},
		{"extra field", 400, map[string]any{"language": "fr", "source": map[string]any{"space": w.source.Id, "language": "en"}, "x": 1}},
		{"missing space", 404, map[string]any{"language": "fr", "source": map[string]any{"space": "nope", "language": "en"}}},
		{"space of another organization", 404, map[string]any{"language": "fr", "source": map[string]any{"space": elsewhere.Id, "language": "en"}}},
	} {
		r := w.Expect(t, c.status, w.admin, "POST", trPath(w.org), c.body)
		if msg := r.ErrorMessage(t); msg == "" {
			t.Errorf("%s: no message", c.name)
		}
	}
	var all, list gen.TranslationList
	w.Expect(t, http.StatusOK, w.admin, "GET", trPath(w.org), nil).Decode(t, &all)
	if all.Count != 2 || len(all.Items) != 2 || all.Items[0].Id != tr.Id || all.Items[1].Id != de.Id || all.Next != nil {
		t.Fatalf("list %+v", all)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", trPath(w.org)+"?limit=1", nil).Decode(t, &list)
	if list.Count != 2 || len(list.Items) != 1 || list.Items[0].Id != tr.Id || list.Next == nil {
		t.Fatalf("first page %+v", list)
	}
	second := getJSON[gen.TranslationList](t, w.testServer, w.admin, trPath(w.org)+"?limit=1&page="+list.Next.Page)
	if len(second.Items) != 1 || second.Items[0].Id != de.Id || second.Next != nil {
		t.Fatalf("second page %+v", second)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", trPath(w.org)+"?page=garbage", nil)

	// Update: only the instructions.
	up := sendJSON[gen.Translation](t, w.testServer, http.StatusOK, w.admin, "PUT", trPath(w.org, "/", tr.Id), map[string]any{"instructions": markdownDocument("- A\n- B\n")})
	if up.Language != "fr" || up.Instructions.Nodes[0].Type != "list-unordered" || len(up.Instructions.Nodes[0].Nodes) != 2 {
		t.Fatalf("updated %+v", up)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "PUT", trPath(w.org, "/", tr.Id), map[string]any{"language": "de"})
	w.Expect(t, http.StatusNotFound, w.admin, "PUT", trPath(w.org, "/nope"), map[string]any{"instructions": markdownDocument("x")})

	// Access: outsiders see nothing (404), readers read but manage nothing (403).
	outsider := w.MustCreateUser(t, "out@else.test", "Outsider")
	reader := w.MustCreateUser(t, "reader@tr.test", "Reader")
	w.MustAddMember(t, w.admin, w.org, reader, "read")
	for _, u := range []*testUser{outsider, reader} {
		want := http.StatusNotFound
		if u == reader {
			want = http.StatusForbidden
			got := getJSON[gen.Translation](t, w.testServer, u, trPath(w.org, "/", tr.Id))
			if !got.Permissions.View || got.Permissions.Edit {
				t.Fatalf("a reader's permissions %+v", got.Permissions)
			}
			w.Expect(t, http.StatusOK, u, "GET", trPath(w.org), nil)
		} else {
			w.Expect(t, http.StatusNotFound, u, "GET", trPath(w.org, "/", tr.Id), nil)
			w.Expect(t, http.StatusNotFound, u, "GET", trPath(w.org), nil)
		}
		w.Expect(t, want, u, "POST", trPath(w.org), map[string]any{"language": "fr", "source": map[string]any{"space": w.source.Id, "language": "en"}})
		w.Expect(t, want, u, "PUT", trPath(w.org, "/", tr.Id), map[string]any{"instructions": markdownDocument("x")})
		w.Expect(t, want, u, "POST", trPath(w.org, "/", tr.Id, "/run"), nil)
		w.Expect(t, want, u, "DELETE", trPath(w.org, "/", tr.Id), nil)
	}
	// A translation of another organization is not found through this one.
	w.Expect(t, http.StatusNotFound, w.admin, "GET", trPath(other.Id, "/", tr.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", trPath(other.Id, "/", tr.Id), nil)
	w.get(t, tr.Id)

	// Delete: 204, and 204 again when already gone.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", trPath(w.org, "/", tr.Id), nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", trPath(w.org, "/", tr.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", trPath(w.org, "/", tr.Id), nil)
	w.Expect(t, http.StatusNotFound, w.admin, "POST", trPath(w.org, "/", tr.Id, "/run"), nil)
}

// Without a translator, a run is refused with the reason and nothing changes; the other
// operations work.
func TestTranslationRunWithoutTranslator(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	admin := ts.MustCreateUser(t, "admin@tr.test", "Admin")
	org := ts.MustCreateOrg(t, admin, "Translators").Id
	src := ts.MustCreateSpace(t, admin, org, "Docs", "")
	var tr gen.Translation
	ts.Expect(t, http.StatusCreated, admin, "POST", trPath(org), map[string]any{"language": "fr",
		"source": map[string]any{"space": src.Id, "language": "en"}}).Decode(t, &tr)
	r := ts.Expect(t, http.StatusBadRequest, admin, "POST", trPath(org, "/", tr.Id, "/run"), nil)
	if msg := r.ErrorMessage(t); msg != "no translator is configured (--translator-url)" {
		t.Fatalf("message %q", msg)
	}
	after := getJSON[gen.Translation](t, ts, admin, trPath(org, "/", tr.Id))
	if after.UpdatedAt != tr.UpdatedAt || after.Status != tr.Status || after.Stats.Runs != 0 || after.Result != nil {
		t.Fatalf("a refused run changed the translation: %+v", after)
	}
	pending, err := ts.Store.PendingJobs(context.Background())
	if err != nil || pending[store.TranslationRunJob] != 0 {
		t.Fatalf("a refused run queued a job: %v %v", pending, err)
	}
}

// A run queued while a translator was configured, then run by a runner without one (a restart
// without --translator-url), ends with that reason rather than staying pending.
func TestTranslationQueuedRunWithoutTranslator(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	tr := w.create(t, "fr", nil)
	w.Runner.Translations(nil)
	w.Expect(t, http.StatusNoContent, w.admin, "POST", trPath(w.org, "/", tr.Id, "/run"), nil)
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.get(t, tr.Id); got.Status != gen.TranslationStatusCompleted || got.Stats.Runs != 1 || got.Result != nil {
		t.Fatalf("after the run %+v", got)
	}
	if !w.loggedFailure(t, "no translator is configured") {
		t.Fatal("no reason logged")
	}
}
