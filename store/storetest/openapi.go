package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// openAPISpecs: a specification's source queues one processing job; a run records a version
// only when the document changed, a failure keeps the current version, a run that read an old
// source is not recorded, and the refresh queues URL-sourced specifications once.
func openAPISpecs(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	st, ctx := w.st, context.Background()
	processJobs := func() int {
		t.Helper()
		n, err := st.PendingJobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n[store.JobProcessOpenAPISpec]
	}
	ok := func(doc string) store.OpenAPIResult {
		return store.OpenAPIResult{Document: []byte(doc), Filename: "openapi.yaml", Format: "yaml", Filesystem: []byte(`{"openapi.yaml":{"doc":"` + doc + `"}}`)}
	}
	process := func(id string, r store.OpenAPIResult) *store.OpenAPISpec {
		t.Helper()
		work, err := st.StartOpenAPIProcessing(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if work.Spec.ProcessingState != store.OpenAPIProgress {
			t.Fatalf("started: %s", work.Spec.ProcessingState)
		}
		if applied, err := st.FinishOpenAPIProcessing(ctx, id, work.Generation, r); err != nil || !applied {
			t.Fatalf("finish: %v (applied %v)", err, applied)
		}
		sp, err := st.FindOpenAPISpecByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}

	sp, err := st.CreateOpenAPISpec(ctx, w.org, "api", store.OpenAPISource{Text: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if sp.ProcessingState != store.OpenAPIPending || sp.Visibility != "private" || processJobs() != 1 {
		t.Fatalf("created: %+v, %d jobs", sp, processJobs())
	}
	if _, err := st.CreateOpenAPISpec(ctx, w.org, "api", store.OpenAPISource{Text: "v1"}); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("duplicate slug: %v", err)
	}
	if _, created, err := st.PutOpenAPISpec(ctx, w.org, "api", store.OpenAPISource{Text: "v1"}); err != nil || created || processJobs() != 1 {
		t.Fatalf("put on a queued spec: created %v, err %v, %d jobs", created, err, processJobs())
	}

	first := process(sp.ID, ok("v1"))
	if first.ProcessingState != store.OpenAPIComplete || first.LastVersionID == "" || first.LastProcessedAt == nil || !first.LastProcessedAt.Equal(clock.Now()) {
		t.Fatalf("processed: %+v", first)
	}
	clock.advance(time.Minute)
	if again := process(sp.ID, ok("v1")); again.LastVersionID != first.LastVersionID {
		t.Fatal("the same document made a version")
	}
	clock.advance(time.Minute)
	failed := process(sp.ID, store.OpenAPIResult{ErrorCode: store.OpenAPIParseError, ErrorCount: 30,
		Errors: make([]store.OpenAPIError, 30)})
	if failed.LastVersionID != first.LastVersionID || failed.LastErrorCode != store.OpenAPIParseError ||
		len(failed.LastErrors) != store.OpenAPIMaxErrors || failed.LastErrorCount != 30 {
		t.Fatalf("failed: %+v", failed)
	}
	clock.advance(time.Minute)
	second := process(sp.ID, ok("v2"))
	if second.LastVersionID == first.LastVersionID || second.LastErrorCode != "" || len(second.LastErrors) != 0 || second.LastErrorCount != 0 {
		t.Fatalf("second version: %+v", second)
	}
	l, err := st.FindOpenAPISpecVersions(ctx, sp.ID, store.Page{Limit: 1})
	if err != nil || l.Count != 2 || len(l.Items) != 1 || l.Items[0].ID != second.LastVersionID || l.Next == "" {
		t.Fatalf("versions: %+v %v", l, err)
	}
	l, err = st.FindOpenAPISpecVersions(ctx, sp.ID, store.Page{Limit: 1, Cursor: l.Next})
	if err != nil || len(l.Items) != 1 || l.Items[0].ID != first.LastVersionID || l.Next != "" {
		t.Fatalf("versions, page 2: %+v %v", l, err)
	}
	c, err := st.FindOpenAPISpecVersionContent(ctx, sp.ID, first.LastVersionID)
	if err != nil || string(c.Document) != "v1" || !strings.Contains(string(c.Filesystem), `"v1"`) || c.Format != "yaml" {
		t.Fatalf("content: %+v %v", c, err)
	}

	t.Run("ARunOfAnOldSourceIsNotRecorded", func(t *testing.T) {
		work, err := st.StartOpenAPIProcessing(ctx, sp.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.PutOpenAPISpec(ctx, w.org, "api", store.OpenAPISource{URL: "https://example.com/v3.yaml"}); err != nil {
			t.Fatal(err)
		}
		if applied, err := st.FinishOpenAPIProcessing(ctx, sp.ID, work.Generation, ok("stale")); err != nil || applied {
			t.Fatalf("stale run: applied %v, %v", applied, err)
		}
		work, err = st.StartOpenAPIProcessing(ctx, sp.ID)
		if err != nil || work.Source.URL != "https://example.com/v3.yaml" || work.Source.Text != "" {
			t.Fatalf("new source: %+v %v", work, err)
		}
		if _, err := st.FinishOpenAPIProcessing(ctx, sp.ID, work.Generation, ok("v3")); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("RefreshQueuesURLSpecsOnce", func(t *testing.T) {
		for _, j := range mustDue(t, st) {
			if err := st.FinishJob(ctx, j, nil, clock.Now(), 1, nil); err != nil {
				t.Fatal(err)
			}
		}
		text, err := st.CreateOpenAPISpec(ctx, w.org, "text-only", store.OpenAPISource{Text: "t"})
		if err != nil {
			t.Fatal(err)
		}
		process(text.ID, ok("t"))
		for _, j := range mustDue(t, st) {
			st.FinishJob(ctx, j, nil, clock.Now(), 1, nil)
		}
		if n, err := st.QueueOpenAPIRefresh(ctx, clock.Now().Add(-time.Hour)); err != nil || n != 0 {
			t.Fatalf("refresh of fresh specs: %d %v", n, err)
		}
		clock.advance(2 * time.Hour)
		if n, err := st.QueueOpenAPIRefresh(ctx, clock.Now().Add(-time.Hour)); err != nil || n != 1 {
			t.Fatalf("refresh: %d %v", n, err)
		}
		if n, err := st.QueueOpenAPIRefresh(ctx, clock.Now().Add(-time.Hour)); err != nil || n != 0 || processJobs() != 1 {
			t.Fatalf("second refresh: %d %v, %d jobs", n, err, processJobs())
		}
		if got, _ := st.FindOpenAPISpec(ctx, w.org, "api"); got.ProcessingState != store.OpenAPIPending {
			t.Fatalf("queued spec: %s", got.ProcessingState)
		}
	})

	t.Run("VisibilityListAndDelete", func(t *testing.T) {
		if got, err := st.UpdateOpenAPISpecVisibility(ctx, w.org, "api", "public"); err != nil || got.Visibility != "public" {
			t.Fatalf("visibility: %+v %v", got, err)
		}
		if _, err := st.UpdateOpenAPISpecVisibility(ctx, w.org, "nope", "public"); store.ErrorCode(err) != store.ENOTFOUND {
			t.Fatalf("visibility of a missing spec: %v", err)
		}
		l, err := st.FindOpenAPISpecs(ctx, w.org, store.Page{})
		if err != nil || l.Count != 2 || l.Items[0].Slug != "api" || l.Items[1].Slug != "text-only" {
			t.Fatalf("list: %+v %v", l, err)
		}
		if err := st.DeleteOpenAPISpec(ctx, w.org, "api"); err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteOpenAPISpec(ctx, w.org, "api"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.FindOpenAPISpecVersion(ctx, sp.ID, first.LastVersionID); store.ErrorCode(err) != store.ENOTFOUND {
			t.Fatalf("a deleted spec's version: %v", err)
		}
		if _, err := st.StartOpenAPIProcessing(ctx, sp.ID); store.ErrorCode(err) != store.ENOTFOUND {
			t.Fatalf("processing a deleted spec: %v", err)
		}
	})
}

func mustDue(t *testing.T, st store.Store) []store.Job {
	t.Helper()
	j, err := st.DueJobs(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	return j
}
