package server_test

import (
	"net/http"
	"testing"
)

// TestGetSpaceAnswersTheSpaceAsItIsNow: GET /v1/spaces/{id} keeps encoded answers
// (spacebodies.go); each read must still show the space as it is, for the caller's role, after
// writes that change it (its own fields, and counts that other writes move).
func TestGetSpaceAnswersTheSpaceAsItIsNow(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	counts := func(u *testUser) int {
		s := w.spaceAs(t, u, sp.Id)
		return s.ChangeRequests + s.ChangeRequestsOpen + s.ChangeRequestsDraft
	}
	for round := range 3 {
		before, beforeReader := counts(w.admin), counts(w.reader) // answers kept for both roles
		w.create(t, w.admin, sp.Id, "Fixes")
		if after := counts(w.admin); after <= before {
			t.Fatalf("round %d: change-request counts %d after one was opened, %d before", round, after, before)
		}
		if after := counts(w.reader); after <= beforeReader {
			t.Fatalf("round %d: the reader's change-request counts %d after one was opened, %d before", round, after, beforeReader)
		}
		title := []string{"Handbook", "Guide", "Docs"}[round]
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"title": title})
		admin, reader := w.spaceAs(t, w.admin, sp.Id), w.spaceAs(t, w.reader, sp.Id)
		if admin.Title != title || reader.Title != title {
			t.Fatalf("round %d: titles %q (admin), %q (reader) after the title was set to %q", round, admin.Title, reader.Title, title)
		}
		if !admin.Permissions.Admin || reader.Permissions.Admin || reader.Permissions.Edit || !reader.Permissions.View {
			t.Fatalf("round %d: permissions %+v (admin), %+v (reader)", round, admin.Permissions, reader.Permissions)
		}
	}
}
