package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// importRuns: a run is recorded pending with its job queued; it moves on while active and not
// once cancelled or ended; the list filters by space, change request, site and status (most
// recent first); a run left behind reads as failed; an upload's bytes are stored once.
func importRuns(t *testing.T, open Opener) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	w := newWorld(t, open, func() time.Time { return now })
	ctx := context.Background()
	sp := w.space("Docs")
	r, err := w.st.CreateImportRun(ctx, &store.ImportRun{OrganizationID: w.org, SpaceID: sp.ID, Site: "site1",
		Source: store.ImportFromFiles, Files: []string{"k1", "k2"}, Enhance: true, CreatedBy: w.user})
	if err != nil || r.ID == "" || r.Status != store.ImportPending || len(r.Files) != 2 || r.Files[1] != "k2" || !r.Enhance ||
		r.Site != "site1" || r.StartedAt != nil || !r.CreatedAt.Equal(now) {
		t.Fatalf("created %+v %v", r, err)
	}
	due, err := w.st.DueJobs(ctx, 10)
	if err != nil || len(due) != 1 || due[0].Kind != store.ImportRunJob || due[0].Payload != r.ID {
		t.Fatalf("jobs %+v %v", due, err)
	}
	if _, err := w.st.FindImportRun(ctx, "other-org", r.ID); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("another organization's run: %v", err)
	}
	now = now.Add(time.Second)
	pages := []store.ImportRunPage{{ID: "p1", SourceURL: "https://example.com/", Type: "page", Status: "pending"}}
	got, err := w.st.UpdateImportRun(ctx, r.ID, store.ImportRunUpdate{Status: store.ImportInProgress, Pages: pages})
	if err != nil || got.Status != store.ImportInProgress || got.StartedAt == nil || !got.StartedAt.Equal(now) || len(got.Pages) != 1 ||
		got.Pages[0].SourceURL != "https://example.com/" || got.CompletedAt != nil {
		t.Fatalf("in progress %+v %v", got, err)
	}
	got, err = w.st.UpdateImportRun(ctx, r.ID, store.ImportRunUpdate{Status: store.ImportFailed, Reason: "nothing to import"})
	if err != nil || got.Status != store.ImportFailed || got.Reason != "nothing to import" || got.CompletedAt == nil || len(got.Pages) != 1 {
		t.Fatalf("failed %+v %v", got, err)
	}
	if _, err := w.st.UpdateImportRun(ctx, r.ID, store.ImportRunUpdate{Status: store.ImportCompleted}); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("moving an ended run: %v", err)
	}
	if _, err := w.st.CancelImportRun(ctx, w.org, r.ID); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("cancelling an ended run: %v", err)
	}

	now = now.Add(time.Second)
	r2, err := w.st.CreateImportRun(ctx, &store.ImportRun{OrganizationID: w.org, SpaceID: sp.ID, ChangeRequest: "cr1",
		Source: store.ImportFromWebsite, URL: "https://example.com/", CreatedBy: w.user})
	if err != nil {
		t.Fatal(err)
	}
	got, err = w.st.CancelImportRun(ctx, w.org, r2.ID)
	if err != nil || got.Status != store.ImportCancelled {
		t.Fatalf("cancelled %+v %v", got, err)
	}
	if _, err := w.st.UpdateImportRun(ctx, r2.ID, store.ImportRunUpdate{Status: store.ImportInProgress}); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("a cancelled run moving on: %v", err)
	}
	now = now.Add(time.Second)
	r3, err := w.st.CreateImportRun(ctx, &store.ImportRun{OrganizationID: w.org, SpaceID: sp.ID, Source: store.ImportFromWebsite,
		URL: "https://example.org/", CreatedBy: w.user})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(f store.ImportRunFilter) []string {
		t.Helper()
		list, err := w.st.FindImportRuns(ctx, w.org, f, store.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, x := range list.Items {
			out = append(out, x.ID)
		}
		return out
	}
	same := func(got []string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("got %v, want %v", got, want)
			}
		}
	}
	same(ids(store.ImportRunFilter{}), r3.ID, r2.ID, r.ID)
	same(ids(store.ImportRunFilter{ChangeRequest: "cr1"}), r2.ID)
	same(ids(store.ImportRunFilter{Site: "site1"}), r.ID)
	same(ids(store.ImportRunFilter{Status: "active"}), r3.ID)
	same(ids(store.ImportRunFilter{Status: store.ImportFailed}), r.ID)
	same(ids(store.ImportRunFilter{Space: "nope"}))
	list, err := w.st.FindImportRuns(ctx, w.org, store.ImportRunFilter{}, store.Page{Limit: 2})
	if err != nil || len(list.Items) != 2 || list.Next == "" || list.Count != 3 {
		t.Fatalf("first page %+v %v", list, err)
	}
	list, err = w.st.FindImportRuns(ctx, w.org, store.ImportRunFilter{}, store.Page{Limit: 2, Cursor: list.Next})
	if err != nil || len(list.Items) != 1 || list.Items[0].ID != r.ID {
		t.Fatalf("second page %+v %v", list, err)
	}
	// Left behind: pending long after it was asked for, it reads (and filters) as failed.
	now = now.Add(store.ImportRunTimeout + time.Minute)
	got, err = w.st.FindImportRun(ctx, w.org, r3.ID)
	if err != nil || got.Status != store.ImportFailed || got.Reason == "" {
		t.Fatalf("left behind %+v %v", got, err)
	}
	same(ids(store.ImportRunFilter{Status: "active"}))
	same(ids(store.ImportRunFilter{Status: store.ImportFailed}), r3.ID, r.ID)

	// Without a site, a run is listed under the space's one site.
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Title: "Site", Type: "basic", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	onSite := w.space("On a site")
	if _, err := w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SpaceID: onSite.ID}); err != nil {
		t.Fatal(err)
	}
	r4, err := w.st.CreateImportRun(ctx, &store.ImportRun{OrganizationID: w.org, SpaceID: onSite.ID, Source: store.ImportFromWebsite,
		URL: "https://example.org/", CreatedBy: w.user})
	if err != nil || r4.Site != site.ID {
		t.Fatalf("the space's site: %+v %v", r4, err)
	}

	u := &store.StorageUpload{Key: "key1", OrganizationID: w.org, Kind: "import_file", Name: "a.md", ContentType: "text/markdown",
		Size: 5, CreatedBy: w.user}
	if err := w.st.CreateStorageUpload(ctx, u); err != nil {
		t.Fatal(err)
	}
	if got, data, err := w.st.FindStorageUpload(ctx, w.org, "key1"); err != nil || got.Uploaded || data != nil || got.Name != "a.md" || got.Size != 5 {
		t.Fatalf("before the upload %+v %q %v", got, data, err)
	}
	if err := w.st.PutStorageUpload(ctx, "nope", []byte("x")); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("unknown key: %v", err)
	}
	if err := w.st.PutStorageUpload(ctx, "key1", []byte("# Hi\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.st.PutStorageUpload(ctx, "key1", []byte("again")); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("second upload: %v", err)
	}
	if got, data, err := w.st.FindStorageUpload(ctx, w.org, "key1"); err != nil || !got.Uploaded || string(data) != "# Hi\n" {
		t.Fatalf("uploaded %+v %q %v", got, data, err)
	}
	if _, _, err := w.st.FindStorageUpload(ctx, "other-org", "key1"); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("another organization's upload: %v", err)
	}
}
