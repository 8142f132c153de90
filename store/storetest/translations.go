package storetest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/quire-docs/quire/store"
)

// translations: a translation belongs to its organization, lists oldest first in pages, queues
// its run with a job at once, and records each run's outcome, stats and page records together;
// a failed run counts but changes neither the result nor the records.
func translations(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	src := w.space("Docs")
	doc := json.RawMessage(`{"object":"document","data":{},"nodes":[]}`)
	a, err := w.st.CreateTranslation(ctx, w.org, store.TranslationCreate{SourceSpaceID: src.ID, SourceLanguage: "en",
		Language: "fr", Instructions: doc, CreatedBy: w.user})
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != store.TranslationPending || a.RunBy != w.user || a.ResultSpaceID != nil || a.Stats != (store.TranslationStats{}) ||
		string(a.Instructions) != string(doc) {
		t.Fatalf("created %+v", a)
	}
	b, err := w.st.CreateTranslation(ctx, w.org, store.TranslationCreate{SourceSpaceID: src.ID, SourceLanguage: "en", Language: "de", CreatedBy: w.user})
	if err != nil || b.Instructions != nil {
		t.Fatalf("created without instructions: %+v %v", b, err)
	}

	other, err := w.st.CreateOrganization(ctx, "Other", w.user)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.FindTranslation(ctx, other.ID, a.ID)
	wantCode(t, err, store.ENOTFOUND)
	if got, err := w.st.FindTranslation(ctx, "", a.ID); err != nil || got.ID != a.ID {
		t.Fatalf("found by id alone: %+v %v", got, err)
	}
	first, err := w.st.FindTranslations(ctx, w.org, store.Page{Limit: 1})
	if err != nil || first.Count != 2 || len(first.Items) != 1 || first.Items[0].ID != a.ID || first.Next == "" {
		t.Fatalf("first page %+v %v", first, err)
	}
	second, err := w.st.FindTranslations(ctx, w.org, store.Page{Limit: 1, Cursor: first.Next})
	if err != nil || len(second.Items) != 1 || second.Items[0].ID != b.ID || second.Next != "" {
		t.Fatalf("second page %+v %v", second, err)
	}
	if none, err := w.st.FindTranslations(ctx, other.ID, store.Page{}); err != nil || none.Count != 0 || len(none.Items) != 0 {
		t.Fatalf("another organization's list %+v %v", none, err)
	}

	upd := json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`)
	if got, err := w.st.UpdateTranslationInstructions(ctx, w.org, a.ID, upd); err != nil || string(got.Instructions) != string(upd) {
		t.Fatalf("updated %+v %v", got, err)
	}
	_, err = w.st.UpdateTranslationInstructions(ctx, other.ID, a.ID, upd)
	wantCode(t, err, store.ENOTFOUND)

	// Queueing a run: pending, the runner's user recorded, one job with the id as payload.
	if err := w.st.QueueTranslationRun(ctx, w.org, a.ID, "runner-user"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, w.st.QueueTranslationRun(ctx, other.ID, a.ID, w.user), store.ENOTFOUND)
	jobs, err := w.st.DueJobs(ctx, 10)
	if err != nil || len(jobs) != 1 || jobs[0].Kind != store.TranslationRunJob || jobs[0].Payload != a.ID {
		t.Fatalf("queued jobs %+v %v", jobs, err)
	}
	running, err := w.st.StartTranslationRun(ctx, a.ID)
	if err != nil || running.Status != store.TranslationRunning || running.RunBy != "runner-user" {
		t.Fatalf("started %+v %v", running, err)
	}
	result := w.space("Docs (fr)")
	if err := w.st.SetTranslationResultSpace(ctx, a.ID, result.ID); err != nil {
		t.Fatal(err)
	}
	rev := "rev-1"
	run := store.TranslationRun{DurationMS: 2500, Pages: 2, NewPages: 2, Words: 10, Revision: &rev,
		Upsert: []store.TranslatedPage{{SourcePageID: "s1", ResultPageID: "r1", SourceHash: "h1"}, {SourcePageID: "s2", ResultPageID: "r2", SourceHash: "h2"}}}
	// Staged before its merge, the run is read back whole; recording it clears it.
	if err := w.st.StageTranslationRun(ctx, a.ID, store.PendingTranslationRun{ChangeRequestID: "cr1", SpaceID: result.ID, Run: run}); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.st.FindTranslation(ctx, w.org, a.ID); got.Pending == nil || got.Pending.ChangeRequestID != "cr1" ||
		got.Pending.SpaceID != result.ID || len(got.Pending.Run.Upsert) != 2 || *got.Pending.Run.Revision != rev || got.Pending.Run.Words != 10 {
		t.Fatalf("staged %+v", got.Pending)
	}
	wantCode(t, w.st.StageTranslationRun(ctx, "nope", store.PendingTranslationRun{}), store.ENOTFOUND)
	if err := w.st.FinishTranslationRun(ctx, a.ID, run); err != nil {
		t.Fatal(err)
	}
	got, _ := w.st.FindTranslation(ctx, w.org, a.ID)
	want := store.TranslationStats{Runs: 1, TotalWords: 10, TotalPages: 2, TotalDurationMS: 2500, LatestDurationMS: 2500, LatestPages: 2, LatestWords: 10}
	if got.Status != store.TranslationCompleted || got.Stats != want || *got.ResultSpaceID != result.ID || *got.ResultRevision != rev ||
		got.LastError != "" || got.Pending != nil {
		t.Fatalf("after a run %+v", got)
	}

	// A failed run: counted, its reason kept, the result and records as they were.
	if err := w.st.FinishTranslationRun(ctx, a.ID, store.TranslationRun{DurationMS: 1000, Err: "translator down"}); err != nil {
		t.Fatal(err)
	}
	got, _ = w.st.FindTranslation(ctx, w.org, a.ID)
	want = store.TranslationStats{Runs: 2, TotalWords: 10, TotalPages: 2, TotalDurationMS: 3500, LatestDurationMS: 1000}
	if got.Stats != want || *got.ResultRevision != rev || got.LastError != "translator down" {
		t.Fatalf("after a failed run %+v", got)
	}

	// A later run: one page re-translated (upserted), one forgotten (its source deleted), one new.
	rev2 := "rev-2"
	if err := w.st.FinishTranslationRun(ctx, a.ID, store.TranslationRun{Pages: 2, NewPages: 1, Words: 3, Revision: &rev2,
		Upsert:  []store.TranslatedPage{{SourcePageID: "s1", ResultPageID: "r1", SourceHash: "h1b"}, {SourcePageID: "s3", ResultPageID: "r3", SourceHash: "h3"}},
		Deleted: []string{"s2"}}); err != nil {
		t.Fatal(err)
	}
	pages, err := w.st.FindTranslatedPages(ctx, a.ID)
	if err != nil || len(pages) != 2 || pages["s1"].SourceHash != "h1b" || pages["s3"].ResultPageID != "r3" {
		t.Fatalf("page records %+v %v", pages, err)
	}
	got, _ = w.st.FindTranslation(ctx, w.org, a.ID)
	if got.Stats.TotalPages != 3 || got.Stats.LatestPages != 2 || got.Stats.Runs != 3 || *got.ResultRevision != rev2 || got.LastError != "" {
		t.Fatalf("after the later run %+v", got.Stats)
	}

	// Delete: only through its organization; again is no error; the records go with it.
	if err := w.st.DeleteTranslation(ctx, other.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.FindTranslation(ctx, w.org, a.ID); err != nil {
		t.Fatal("deleted through another organization")
	}
	for range 2 {
		if err := w.st.DeleteTranslation(ctx, w.org, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	_, err = w.st.FindTranslation(ctx, w.org, a.ID)
	wantCode(t, err, store.ENOTFOUND)
	if pages, err := w.st.FindTranslatedPages(ctx, a.ID); err != nil || len(pages) != 0 {
		t.Fatalf("records of a deleted translation %+v %v", pages, err)
	}
	_, err = w.st.StartTranslationRun(ctx, a.ID)
	wantCode(t, err, store.ENOTFOUND)
	wantCode(t, w.st.FinishTranslationRun(ctx, a.ID, store.TranslationRun{}), store.ENOTFOUND)
}
