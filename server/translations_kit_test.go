package server_test

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/internal/translate/libretest"
	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/store"
)

// The translation tests run quire against a LibreTranslate-protocol server started on loopback
// (internal/translate/libretest: LibreTranslate itself is a Python service that cannot be installed
// here). It checks each request's shape and translates word by word, marking each text "[fr]";
// every POST /translate moves the store's clock one second, so durations are exact.

const translatorKey = "test-key"

type trWorld struct {
	*testServer
	lt     *libretest.Server
	admin  *testUser
	org    string
	source gen.Space
}

func newTranslationWorld(t *testing.T) *trWorld {
	t.Helper()
	lt := libretest.New(translatorKey)
	t.Cleanup(lt.Close)
	ts := newTestServer(t, server.Options{AllowPrivateURLs: true, TranslatorURL: lt.URL, TranslatorKey: translatorKey})
	ts.Runner.Translations(translate.NewClient(lt.URL, translatorKey, fetch.New(fetch.Options{AllowPrivate: true})))
	lt.OnTranslate = func() { ts.Clock.Advance(time.Second) }
	w := &trWorld{testServer: ts, lt: lt, admin: ts.MustCreateUser(t, "admin@tr.test", "Admin")}
	w.org = ts.MustCreateOrg(t, w.admin, "Translators").Id
	w.source = ts.MustCreateSpace(t, w.admin, w.org, "Docs", "")
	return w
}

func trPath(orgID string, suffix ...string) string {
	return "/orgs/" + orgID + "/translations" + strings.Join(suffix, "")
}

// create creates a translation of the world's source space, which must answer 201.
func (w *trWorld) create(t *testing.T, language string, instructions any) gen.Translation {
	t.Helper()
	body := map[string]any{"language": language, "source": map[string]any{"space": w.source.Id, "language": "en"}}
	if instructions != nil {
		body["instructions"] = instructions
	}
	return sendJSON[gen.Translation](t, w.testServer, http.StatusCreated, w.admin, "POST", trPath(w.org), body)
}

func (w *trWorld) get(t *testing.T, id string) gen.Translation {
	t.Helper()
	return getJSON[gen.Translation](t, w.testServer, w.admin, trPath(w.org, "/", id))
}

// run asks for a run (204), checks it is queued, and runs the due jobs as the server's runner would.
func (w *trWorld) run(t *testing.T, id string) gen.Translation {
	t.Helper()
	w.Expect(t, http.StatusNoContent, w.admin, "POST", trPath(w.org, "/", id, "/run"), nil)
	if tr := w.get(t, id); tr.Status != gen.TranslationStatusPending {
		t.Fatalf("a queued run: status %s", tr.Status)
	}
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr := w.get(t, id)
	if tr.Status != gen.TranslationStatusCompleted {
		t.Fatalf("after the run: status %s", tr.Status)
	}
	return tr
}

// edit writes to the source space through a merged change request and returns the refs' ids.
func (w *trWorld) edit(t *testing.T, changes ...map[string]any) map[string]string {
	t.Helper()
	cr := sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, w.admin, "POST", "/spaces/"+w.source.Id+"/change-requests", map[string]any{"subject": "Edit"})
	res := postBatch(t, w.testServer, w.admin, w.source.Id, cr.Id, changes)
	m := sendJSON[gen.MergeChangeRequestResult](t, w.testServer, http.StatusOK, w.admin, "POST", crPath(w.source.Id, cr.Id, "/merge"), nil)
	if m.Result != gen.MergeResultMerge {
		t.Fatalf("merge: %+v", m)
	}
	return res.Refs
}

// trPage is a page of a space's current revision as the tests compare them.
type trPage struct {
	Title, Markdown, Parent string // Parent: the parent's title, "" at the top level
}

// currentRevision reads a space's current revision from the store.
func (w *trWorld) currentRevision(t *testing.T, spaceID string) *store.Revision {
	t.Helper()
	ctx := context.Background()
	sp, err := w.Store.FindSpace(ctx, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := w.Store.FindRevision(ctx, spaceID, sp.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// pages reads the current pages of a space from the store, in tree order, by path.
func (w *trWorld) pages(t *testing.T, spaceID string) (map[string]trPage, []string) {
	t.Helper()
	ctx := context.Background()
	rev := w.currentRevision(t, spaceID)
	ids := make([]string, len(rev.Pages))
	titles := map[string]string{}
	for i, p := range rev.Pages {
		ids[i], titles[p.ID] = p.ID, p.Title
	}
	full, err := w.Store.FindPagesWithBodies(ctx, rev.ID, ids)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]trPage{}
	var order []string
	for _, p := range full {
		parent := ""
		if p.ParentID != nil {
			parent = titles[*p.ParentID]
		}
		out[p.Path] = trPage{Title: p.Title, Markdown: p.Markdown, Parent: parent}
		order = append(order, p.Path)
	}
	return out, order
}

// changeRequests lists the subjects of a space's change requests with a status.
func (w *trWorld) changeRequests(t *testing.T, spaceID, status string) []string {
	t.Helper()
	list, err := w.Store.FindChangeRequests(context.Background(), store.ChangeRequestFilter{SpaceID: spaceID, Status: status}, store.Page{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, cr := range list.Items {
		out = append(out, cr.Subject)
	}
	sort.Strings(out)
	return out
}

func sentContains(sent []string, s string) bool {
	for _, q := range sent {
		if strings.Contains(q, s) {
			return true
		}
	}
	return false
}
