package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quire-docs/quire/store/sqlite"
	"github.com/quire-docs/quire/store/storetest"
)

// getSpaceAllocs is what a cached GET /v1/spaces/{id} allocates through quire's whole handler
// (request id, log line, auth from the token cache, gates, validation, store cache, answer),
// with the test's recorder: 74 before its middlewares were composed once, its validation settled
// from the spec and its answer kept encoded. Lower it when a change saves more.
const getSpaceAllocs = 33

// TestGetSpaceAllocations locks the allocations of the hottest read, the one
// testdata/bench/load.sh compares with a bare Echo server: each one is CPU and GC work.
func TestGetSpaceAllocations(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector allocates on its own; counted in the plain run")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, t.TempDir()+"/quire.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o := storetest.MustOwner(t, st, "allocs@example.com")
	sp := o.MustSpace(t, st, "Docs")
	e, err := New(st, slog.New(slog.NewJSONHandler(io.Discard, nil)), "http://quire.test", []byte("secret")).Handler(Options{})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/v1/spaces/"+sp.ID, nil)
	req.Header.Set("Authorization", "Bearer "+o.Token)
	get := func() {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	get() // the token and the space are cached from here on
	if n := testing.AllocsPerRun(500, get); n > getSpaceAllocs {
		t.Errorf("a cached GET /v1/spaces/{id} allocates %.1f times, want at most %d", n, getSpaceAllocs)
	} else {
		t.Logf("%.1f allocations", n)
	}
}
