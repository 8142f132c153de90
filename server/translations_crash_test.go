package server_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"testing"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/store"
)

// crashAfterMerge is the real store, cut short once where a crash would hurt most: a run's change
// request is merged, and the process dies before the run is recorded.
type crashAfterMerge struct {
	store.Store
	crashed bool
}

func (s *crashAfterMerge) FinishTranslationRun(ctx context.Context, id string, r store.TranslationRun) error {
	if !s.crashed && r.Err == "" && len(r.Upsert) > 0 {
		s.crashed = true
		return errors.New("the process died")
	}
	return s.Store.FinishTranslationRun(ctx, id, r)
}

// A run cut short between its merge and its record is recorded by the next run, which then has
// nothing left to do: no page is written twice.
func TestTranslationRunInterruptedAfterMerge(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	w.edit(t, insertMarkdown("Hello", "Hello world.\n", "a"), insertMarkdown("Read", "Read the page.\n", "b"))
	tr := w.create(t, "fr", nil)

	crashing := jobs.New(&crashAfterMerge{Store: w.Store}, slog.New(slog.DiscardHandler))
	crashing.Translations(translate.NewClient(w.lt.URL, translatorKey, fetch.New(fetch.Options{AllowPrivate: true})))
	w.Expect(t, http.StatusNoContent, w.admin, "POST", trPath(w.org, "/", tr.Id, "/run"), nil)
	if _, err := crashing.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	cut := w.get(t, tr.Id)
	if cut.Status != "running" || cut.Result != nil || cut.Stats.Runs != 0 {
		t.Fatalf("after the crash: %+v", cut)
	}

	w.lt.Reset()
	done := w.run(t, tr.Id)
	if sent := w.lt.Sent(); len(sent) != 0 {
		t.Fatalf("the run after the crash sent %q again", sent)
	}
	pages, _ := w.pages(t, done.Result.Space)
	if len(pages) != 2 || pages["hello"].Title != "[fr] bonjour" || pages["read"].Title != "[fr] lisez" {
		t.Fatalf("result pages %+v", pages)
	}
	if done.Stats.Runs != 2 || done.Stats.TotalPages != 2 || done.Stats.LatestPages != 0 {
		t.Fatalf("stats %+v: the interrupted run is counted once, then an idle one", done.Stats)
	}
	if merged := w.changeRequests(t, done.Result.Space, "merged"); len(merged) != 1 {
		t.Fatalf("merged change requests %q", merged)
	}
}
