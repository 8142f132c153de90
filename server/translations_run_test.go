package server_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

const trInstallMarkdown = "Install the guide with `quire install --force` and read [the page](https://example.com/guide).\n\n" +
	"```sh\ncurl https://example.com/install.sh | sh\n```\n"

// A first run creates the result space and writes every page translated, structure kept, as one
// merged change request; a second run after edits sends only the changed and new pages, and
// mirrors moves and deletes; a third with nothing changed sends nothing. Stats follow each run.
func TestTranslationRunEndToEnd(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	refs := w.edit(t,
		insertMarkdown("Install", trInstallMarkdown, "install"),
		insertMarkdown("Hello world", "Hello world and the guide.\n", "hello", "into", "install"),
		insertMarkdown("Read me", "Read the page.\n", "read"),
	)
	tr := w.create(t, "fr", nil)

	tr = w.run(t, tr.Id)
	if tr.Result == nil || tr.Result.Space == "" || tr.Result.Revision == "" {
		t.Fatalf("after the first run: result %+v", tr.Result)
	}
	result := getJSON[gen.Space](t, w.testServer, w.admin, "/spaces/"+tr.Result.Space)
	if result.Title != "Docs (fr)" || result.Language == nil || string(*result.Language) != "fr" || result.Revision != tr.Result.Revision {
		t.Fatalf("result space %q language %v revision %s (translation says %s)", result.Title, result.Language, result.Revision, tr.Result.Revision)
	}
	if merged := w.changeRequests(t, result.Id, "merged"); !reflect.DeepEqual(merged, []string{"Translation into fr"}) {
		t.Fatalf("result change requests %q, want the run's one, merged", merged)
	}
	pages, _ := w.pages(t, result.Id)
	want := map[string]trPage{
		"install": {Title: "[fr] installer", Markdown: `\[fr\] installer le guide avec ` + "`quire install --force`" + ` \[fr\] et lisez [\[fr\] le page](https://example.com/guide).` + "\n\n" +
			"```sh\ncurl https://example.com/install.sh | sh\n```\n"},
		"install/hello-world": {Title: "[fr] bonjour monde", Markdown: `\[fr\] bonjour monde et le guide.` + "\n", Parent: "[fr] installer"},
		"read-me":             {Title: "[fr] lisez me", Markdown: `\[fr\] lisez le page.` + "\n"},
	}
	if !reflect.DeepEqual(pages, want) {
		t.Fatalf("result pages:\n%+v\nwant\n%+v", pages, want)
	}
	md := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+result.Id+"/content/path/install?format=markdown")
	if md.Markdown == nil || *md.Markdown != want["install"].Markdown {
		t.Fatalf("the result page through the API: %v", md.Markdown)
	}
	// Only text went out, with the translation's languages and the key; code and URLs never did.
	reqs := w.lt.Requests()
	for _, r := range reqs {
		if r.Source != "en" || r.Target != "fr" || r.Format != "text" || r.APIKey != translatorKey {
			t.Fatalf("request %+v", r)
		}
	}
	sent := w.lt.Sent()
	for _, never := range []string{"quire install", "https://", "curl", "```"} {
		if sentContains(sent, never) {
			t.Fatalf("%q was sent to the translator: %q", never, sent)
		}
	}
	if len(reqs) != 3 { // one request per page: its title, description and text together
		t.Fatalf("%d requests for 3 pages, want 3 (the texts of a page go together): %+v", len(reqs), reqs)
	}
	words := 0
	for _, q := range sent {
		words += len(strings.Fields(q))
	}
	wantStats := gen.TranslationStats{Runs: 1, TotalWords: words, TotalPages: 3, TotalDuration: 3, LatestRunDuration: 3, LatestPages: 3, LatestWords: words}
	if tr.Stats != wantStats {
		t.Fatalf("stats %+v, want %+v", tr.Stats, wantStats)
	}

	// Edits in the source: one page changed, one added under another, one moved to the top level
	// before the others, one deleted.
	w.lt.Reset()
	w.edit(t,
		editPage(refs["read"], "Read the guide.\n"),
		insertMarkdown("World", "The world.\n", "world", "into", refs["read"]),
		map[string]any{"operation": "update_page", "page": refs["hello"], "into": nil, "at": 0},
		deletePage(refs["install"]),
	)
	tr2 := w.run(t, tr.Id)
	if got := w.lt.Sent(); !reflect.DeepEqual(got, []string{"Read me", "Read the guide.", "World", "The world."}) {
		t.Fatalf("the second run sent %q, want only the changed and the new page", got)
	}
	if tr2.Result.Space != result.Id || tr2.Result.Revision == tr.Result.Revision {
		t.Fatalf("second run result %+v (first %+v)", tr2.Result, tr.Result)
	}
	pages, order := w.pages(t, result.Id)
	want = map[string]trPage{
		"hello-world":   {Title: "[fr] bonjour monde", Markdown: `\[fr\] bonjour monde et le guide.` + "\n"},
		"read-me":       {Title: "[fr] lisez me", Markdown: `\[fr\] lisez le guide.` + "\n"},
		"read-me/world": {Title: "[fr] monde", Markdown: `\[fr\] le world.` + "\n", Parent: "[fr] lisez me"},
	}
	if !reflect.DeepEqual(pages, want) || !reflect.DeepEqual(order, []string{"hello-world", "read-me", "read-me/world"}) {
		t.Fatalf("result pages after the edits:\n%+v %q\nwant\n%+v", pages, order, want)
	}
	s := tr2.Stats
	if s.Runs != 2 || s.TotalPages != 4 || s.LatestPages != 2 || s.LatestWords != 8 || s.TotalWords != words+8 ||
		s.LatestRunDuration != 2 || s.TotalDuration != 5 {
		t.Fatalf("stats after the second run %+v", s)
	}

	// Nothing changed: nothing sent, nothing written.
	w.lt.Reset()
	tr3 := w.run(t, tr.Id)
	if len(w.lt.Requests()) != 0 || tr3.Result.Revision != tr2.Result.Revision {
		t.Fatalf("an idle run sent %q and moved the result to %s", w.lt.Sent(), tr3.Result.Revision)
	}
	if s := tr3.Stats; s.Runs != 3 || s.LatestPages != 0 || s.LatestWords != 0 || s.TotalPages != 4 {
		t.Fatalf("stats after an idle run %+v", s)
	}
	if merged := w.changeRequests(t, result.Id, "merged"); len(merged) != 2 {
		t.Fatalf("result change requests %q, want one per run that changed something", merged)
	}
}

// The instructions' list items are a glossary: they are not sent, and stay as written. Changing
// the instructions translates every page again on the next run.
func TestTranslationGlossary(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	w.edit(t, insertMarkdown("Hello Quire", "Hello world from Quire Cloud.\n", "a"))
	tr := w.create(t, "fr", markdownDocument("Keep these:\n\n- Quire Cloud\n- Quire\n"))
	tr = w.run(t, tr.Id)
	if sent := w.lt.Sent(); !reflect.DeepEqual(sent, []string{"Hello", "Hello world from"}) {
		t.Fatalf("sent %q", sent)
	}
	pages, _ := w.pages(t, tr.Result.Space)
	if p := pages["hello-quire"]; p.Title != "[fr] bonjour Quire" || p.Markdown != `\[fr\] bonjour monde from Quire Cloud.`+"\n" {
		t.Fatalf("page %+v", p)
	}
	w.lt.Reset()
	w.Expect(t, http.StatusOK, w.admin, "PUT", trPath(w.org, "/", tr.Id), map[string]any{"instructions": markdownDocument("- Cloud\n")})
	w.run(t, tr.Id)
	if sent := w.lt.Sent(); !reflect.DeepEqual(sent, []string{"Hello Quire", "Hello world from Quire"}) {
		t.Fatalf("after new instructions, sent %q", sent)
	}
}

// A failing translator ends the run completed, counted, logged, with nothing written to the result
// space; the next run does the whole work. So does a wrong key or a language the translator lacks.
func TestTranslationRunFailures(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	w.edit(t, insertMarkdown("Hello", "Hello world.\n", "a"), insertMarkdown("World", "The world.\n", "b"))
	tr := w.create(t, "fr", nil)

	w.lt.Fail(http.StatusInternalServerError)
	failed := w.run(t, tr.Id)
	if failed.Result != nil || failed.Stats.Runs != 1 || failed.Stats.LatestPages != 0 || failed.Stats.TotalPages != 0 {
		t.Fatalf("after a failed run: result %+v stats %+v", failed.Result, failed.Stats)
	}
	if !w.loggedFailure(t, "Translation engine failure") {
		t.Fatal("the failed run logged no reason")
	}
	if failed.LastError == nil || !strings.Contains(*failed.LastError, "Translation engine failure") ||
		!strings.Contains(*failed.LastError, `translating the page "Hello"`) {
		t.Fatalf("the failed run answers no reason: %v", failed.LastError)
	}
	ctx := context.Background()
	stored, err := w.Store.FindTranslation(ctx, w.org, tr.Id)
	if err != nil || stored.ResultSpaceID == nil {
		t.Fatalf("the result space is recorded once created: %+v %v", stored, err)
	}
	if pages, _ := w.pages(t, *stored.ResultSpaceID); len(pages) != 0 {
		t.Fatalf("a failed run wrote %d pages", len(pages))
	}
	for _, status := range []string{"open", "draft", "merged"} {
		if crs := w.changeRequests(t, *stored.ResultSpaceID, status); len(crs) != 0 {
			t.Fatalf("a failed run left %s change requests %q", status, crs)
		}
	}

	w.lt.Fail(0)
	done := w.run(t, tr.Id)
	if done.Result == nil || done.Result.Space != *stored.ResultSpaceID || done.Stats.Runs != 2 || done.Stats.TotalPages != 2 {
		t.Fatalf("the retry: result %+v stats %+v", done.Result, done.Stats)
	}
	if pages, _ := w.pages(t, done.Result.Space); len(pages) != 2 {
		t.Fatalf("the retry wrote %d pages", len(pages))
	}
	if done.LastError != nil {
		t.Fatalf("a run that succeeded answers the last one's error %q", *done.LastError)
	}

	// A wrong key is refused by the translator, and said so.
	w.lt.Key = "another-key"
	w.edit(t, insertMarkdown("More", "More text.\n", "c"))
	w.run(t, tr.Id)
	if !w.loggedFailure(t, "Invalid API key") {
		t.Fatal("a refused key logged no reason")
	}
	w.lt.Key = translatorKey

	// Japanese is not among the translator's languages.
	ja := w.create(t, "ja", nil)
	w.lt.Reset()
	if got := w.run(t, ja.Id); got.Result != nil || got.Stats.Runs != 1 || len(w.lt.Requests()) != 0 {
		t.Fatalf("a run into a language the translator lacks: %+v, %d requests", got, len(w.lt.Requests()))
	}
	if !w.loggedFailure(t, `does not offer the language \"ja\"`) && !w.loggedFailure(t, `does not offer the language "ja"`) {
		t.Fatal("no reason logged for the missing language")
	}

	// A source space deleted since: the run fails and says so.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+w.source.Id, nil)
	w.run(t, tr.Id)
	if !w.loggedFailure(t, "is no longer there") {
		t.Fatal("no reason logged for the deleted source")
	}
}

func (w *trWorld) loggedFailure(t *testing.T, reason string) bool {
	for _, l := range w.Logs.Lines(t) {
		if l["msg"] == "translation run failed" && strings.Contains(l["err"].(string), reason) {
			return true
		}
	}
	return false
}

// markdownDocument is a rich-text document made from markdown by the project's own conversion.
func markdownDocument(md string) *markdown.Document { return markdown.FromMarkdown(md) }

// A result page keeps the source page's fields (visibility, condition, emoji), with its
// description translated; the translation shows running while the translator works. A result
// page deleted by hand comes back on the next run; a result space deleted is made again.
func TestTranslationKeepsFieldsAndRecovers(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	var during []string
	w.lt.OnTranslate = func() {
		list, _ := w.Store.FindTranslations(context.Background(), w.org, store.Page{})
		during = append(during, list.Items[0].Status)
	}
	w.edit(t, map[string]any{"operation": "insert_page", "ref": "beta", "title": "Hello", "document": map[string]any{"markdown": "Hello world.\n"},
		"hidden": true, "condition": `visitor.claims.plan === "pro"`, "emoji": "1f680", "description": "The world", "linkTitle": "Read",
		"cover": map[string]any{"ref": map[string]any{"kind": "url", "url": "https://example.com/cover.png"}, "yPos": 3}},
		insertMarkdown("Read", "Read the page.\n", "read"))
	tr := w.run(t, w.create(t, "fr", nil).Id)
	if len(during) == 0 || during[0] != store.TranslationRunning {
		t.Fatalf("status while translating %q, want running", during)
	}
	ctx := context.Background()
	sp, _ := w.Store.FindSpace(ctx, tr.Result.Space)
	rev, err := w.Store.FindRevision(ctx, sp.ID, sp.RevisionID)
	if err != nil || len(rev.Pages) != 2 {
		t.Fatalf("result revision %+v %v", rev, err)
	}
	p := rev.Pages[0]
	if p.Title != "[fr] bonjour" || !p.Hidden || p.Condition == nil || *p.Condition != `visitor.claims.plan === "pro"` ||
		p.Emoji == nil || *p.Emoji != "1f680" || p.Description != "[fr] le monde" || p.Slug != "hello" {
		t.Fatalf("result page %+v", p)
	}
	if p.LinkTitle == nil || *p.LinkTitle != "[fr] lisez" || p.Cover == nil || p.Cover.URL != "https://example.com/cover.png" || p.Cover.YPos != 3 {
		t.Fatalf("result page's link title %v and cover %+v", p.LinkTitle, p.Cover)
	}

	// A result page deleted by hand: sent again and put back.
	cr := sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, w.admin, "POST", "/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Oops"})
	postBatch(t, w.testServer, w.admin, sp.ID, cr.Id, []map[string]any{deletePage(rev.Pages[1].ID)})
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.ID, cr.Id, "/merge"), nil)
	w.lt.Reset()
	w.run(t, tr.Id)
	if sent := w.lt.Sent(); len(sent) != 2 || sent[0] != "Read" {
		t.Fatalf("after a result page was deleted, sent %q", sent)
	}
	if pages, _ := w.pages(t, sp.ID); pages["read"].Title != "[fr] lisez" || len(pages) != 2 {
		t.Fatalf("result pages %+v", pages)
	}

	// The result space deleted: a new one, with every page.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+sp.ID, nil)
	again := w.run(t, tr.Id)
	if again.Result == nil || again.Result.Space == sp.ID {
		t.Fatalf("after the result space was deleted: %+v", again.Result)
	}
	if pages, _ := w.pages(t, again.Result.Space); len(pages) != 2 || pages["hello"].Title != "[fr] bonjour" {
		t.Fatalf("the new result space's pages %+v", pages)
	}
	if again.Stats.TotalPages != 2 {
		t.Fatalf("distinct pages %d, want 2 however often they were written", again.Stats.TotalPages)
	}
}

// A batch the result space refuses (a page written there by hand holds the slug a new page
// needs) fails the run with the reason; its change request is archived and the result's content
// is as it was.
func TestTranslationRefusedBatchIsArchived(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	w.edit(t, insertMarkdown("Hello", "Hello world.\n", "a"))
	tr := w.run(t, w.create(t, "fr", nil).Id)
	cr := sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, w.admin, "POST", "/spaces/"+tr.Result.Space+"/change-requests", map[string]any{"subject": "By hand"})
	postBatch(t, w.testServer, w.admin, tr.Result.Space, cr.Id, []map[string]any{insertMarkdown("World", "Written by hand.\n", "w")})
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(tr.Result.Space, cr.Id, "/merge"), nil)
	before, _ := w.pages(t, tr.Result.Space)

	w.edit(t, insertMarkdown("World", "The world.\n", "b"))
	failed := w.run(t, tr.Id)
	if !w.loggedFailure(t, `"world" is already the slug of a sibling page`) {
		t.Fatalf("no reason logged: %v", w.Logs.Lines(t))
	}
	if failed.Result.Revision != tr.Result.Revision || failed.Stats.Runs != 2 || failed.Stats.TotalPages != 1 {
		t.Fatalf("after the refused batch: %+v %+v", failed.Result, failed.Stats)
	}
	if after, _ := w.pages(t, tr.Result.Space); !reflect.DeepEqual(after, before) {
		t.Fatalf("the result changed: %+v, was %+v", after, before)
	}
	if got := w.changeRequests(t, tr.Result.Space, "archived"); !reflect.DeepEqual(got, []string{"Translation into fr"}) {
		t.Fatalf("archived change requests %q", got)
	}
	if got := w.changeRequests(t, tr.Result.Space, "open"); len(got) != 0 {
		t.Fatalf("open change requests %q", got)
	}
}
