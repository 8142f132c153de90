package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// batchResult is what a content batch answered with compat=false, with the ids its refs were
// given gathered the way a client would: page refs from the created pages, file refs from the
// inserted files (in the order the batch listed them).
type batchResult struct {
	Revision string
	Refs     map[string]string
	Update   gen.ChangeRequestContentUpdate
}

// postBatch sends a content batch as u with compat=false, which must answer 200.
func postBatch(t testing.TB, ts *testServer, u *testUser, spaceID, crID string, changes []map[string]any) batchResult {
	t.Helper()
	var up gen.ChangeRequestContentUpdate
	ts.Expect(t, http.StatusOK, u, "POST", "/spaces/"+spaceID+"/change-requests/"+crID+"/content?compat=false",
		map[string]any{"changes": changes}).Decode(t, &up)
	res := batchResult{Revision: up.ChangeRequest.Revision, Refs: map[string]string{}, Update: up}
	if res.Revision == "" || up.Changes == nil || up.InsertedFiles == nil {
		t.Fatalf("batch answer %+v", up)
	}
	for _, ch := range up.Changes {
		if created, err := ch.AsChangeRequestContentUpdateInsertedPage(); err == nil && created.Object == gen.CreatedPage && created.Ref != nil {
			res.Refs[*created.Ref] = created.Page.Id
		}
	}
	if up.ReusableContents != nil {
		for _, rc := range *up.ReusableContents {
			if rc.Ref != nil {
				res.Refs[*rc.Ref] = rc.Id
			}
		}
	}
	k := 0
	for _, c := range changes {
		if c["operation"] != "insert_files" {
			continue
		}
		for _, f := range c["files"].([]any) {
			if k >= len(up.InsertedFiles) {
				t.Fatalf("%d files inserted, more sent", len(up.InsertedFiles))
			}
			if ref, ok := f.(map[string]any)["ref"].(string); ok {
				res.Refs[ref] = up.InsertedFiles[k].Id
			}
			k++
		}
	}
	if k != len(up.InsertedFiles) {
		t.Fatalf("%d files inserted, %d sent", len(up.InsertedFiles), k)
	}
	return res
}

// outcomes lists a batch's page outcomes as "kind id" (created pages with " ref").
func (r batchResult) outcomes(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, ch := range r.Update.Changes {
		v, err := ch.ValueByDiscriminator()
		if err != nil {
			t.Fatal(err)
		}
		switch v := v.(type) {
		case gen.ChangeRequestContentUpdateInsertedPage:
			s := "created " + v.Page.Id
			if v.Ref != nil {
				s += " " + *v.Ref
			}
			out = append(out, s)
		case gen.ChangeRequestContentUpdateUpdatedPage:
			out = append(out, "updated "+v.Page.Id)
		case gen.ChangeRequestContentUpdateDeletedPage:
			out = append(out, "deleted "+v.Page)
		}
	}
	return out
}
