package server_test

import (
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func crWantCounters(t *testing.T, w *world, spaceID string, total, open, draft int) {
	t.Helper()
	sp := w.space(t, spaceID)
	if sp.ChangeRequests != total || sp.ChangeRequestsOpen != open || sp.ChangeRequestsDraft != draft {
		t.Fatalf("space counters: changeRequests %d, open %d, draft %d; want %d, %d, %d",
			sp.ChangeRequests, sp.ChangeRequestsOpen, sp.ChangeRequestsDraft, total, open, draft)
	}
}

func TestChangeRequestCreate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")

	first := w.create(t, w.admin, sp.Id, "First")
	t.Run("FirstHasNumber1OnTheSpaceRevision", func(t *testing.T) {
		cr := first
		if cr.Object != "change-request" || cr.Id == "" || cr.Number != 1 || cr.Status != "open" || cr.Subject != "First" {
			t.Fatalf("created %+v", cr)
		}
		if cr.Space != sp.Id || cr.Revision != sp.Revision || cr.RevisionInitial != sp.Revision {
			t.Fatalf("space %q revision %q initial %q; space %q revision %q", cr.Space, cr.Revision, cr.RevisionInitial, sp.Id, sp.Revision)
		}
		if cr.CreatedBy.Id != w.admin.ID || cr.RevisionMerged != nil || cr.RevisionMergedAncestor != nil || cr.Outdated || cr.Comments != 0 {
			t.Fatalf("createdBy %s, merged %v, ancestor %v, outdated %v, comments %d", cr.CreatedBy.Id, cr.RevisionMerged, cr.RevisionMergedAncestor, cr.Outdated, cr.Comments)
		}
		if cr.CreatedAt.IsZero() || !cr.UpdatedAt.Equal(cr.CreatedAt) {
			t.Fatalf("createdAt %v updatedAt %v", cr.CreatedAt, cr.UpdatedAt)
		}
		if !strings.HasSuffix(cr.Urls.Location, crPath(sp.Id, cr.Id)) {
			t.Fatalf("urls.location %q", cr.Urls.Location)
		}
		if got := w.get(t, sp.Id, cr.Id); !reflect.DeepEqual(got, cr) {
			t.Fatalf("re-read %+v\nwant %+v", got, cr)
		}
	})

	t.Run("NumbersCountPerSpace", func(t *testing.T) {
		second := w.create(t, w.editor, sp.Id, "Second")
		if second.Number != 2 || second.CreatedBy.Id != w.editor.ID {
			t.Fatalf("second: number %d createdBy %s", second.Number, second.CreatedBy.Id)
		}
		if o := w.create(t, w.admin, other.Id, "Elsewhere"); o.Number != 1 {
			t.Fatalf("first of another space: number %d", o.Number)
		}
		if third := w.create(t, w.admin, sp.Id, "Third"); third.Number != 3 {
			t.Fatalf("third: number %d", third.Number)
		}
		if o := w.create(t, w.admin, other.Id, "Elsewhere again"); o.Number != 2 {
			t.Fatalf("second of another space: number %d", o.Number)
		}
	})

	t.Run("SubjectOf100IsAcceptedAnd101Refused", func(t *testing.T) {
		s100 := strings.Repeat("s", 100)
		if cr := w.create(t, w.admin, other.Id, s100); cr.Subject != s100 {
			t.Fatalf("subject %q", cr.Subject)
		}
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/spaces/"+other.Id+"/change-requests", map[string]any{"subject": strings.Repeat("s", 101)})
		wantMessage(t, r, "subject")
	})

	t.Run("WithoutBodyHasAnEmptySubject", func(t *testing.T) {
		cr := sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, w.admin, "POST", "/spaces/"+other.Id+"/change-requests", nil)
		if cr.Subject != "" || cr.Status != "open" {
			t.Fatalf("created %+v", cr)
		}
	})

	t.Run("ReaderIsForbiddenAndOutsiderFindsNothing", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "POST", "/spaces/"+sp.Id+"/change-requests", map[string]any{"subject": "x"})
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", "/spaces/"+sp.Id+"/change-requests", map[string]any{"subject": "x"})
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/nope/change-requests", map[string]any{"subject": "x"})
		w.Expect(t, http.StatusUnauthorized, nil, "POST", "/spaces/"+sp.Id+"/change-requests", map[string]any{"subject": "x"})
		// Refusals use up no number.
		if cr := w.create(t, w.admin, sp.Id, "Fourth"); cr.Number != 4 {
			t.Fatalf("after refusals: number %d, want 4", cr.Number)
		}
	})

	t.Run("StartsFromTheCurrentRevisionOnceMainHasMoved", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, w.org.Id, "Moving", "")
		w.seed(t, s.Id, "Intro", "Hello.\n")
		now := w.space(t, s.Id).Revision
		if now == s.Revision {
			t.Fatal("the seeding merge did not move the space's revision")
		}
		cr := w.create(t, w.admin, s.Id, "Later")
		if cr.RevisionInitial != now || cr.Revision != now || cr.Number != 2 || cr.Outdated {
			t.Fatalf("initial %q revision %q number %d outdated %v; space revision %q", cr.RevisionInitial, cr.Revision, cr.Number, cr.Outdated, now)
		}
	})
}

// crGoTB stands for the test in a goroutine: a failure is recorded and ends only that
// goroutine; the test goroutine reports it.
type crGoTB struct {
	testing.TB
	mu   *sync.Mutex
	errs *[]string
}

func (g crGoTB) Helper() {}

func (g crGoTB) record(msg string) {
	g.mu.Lock()
	*g.errs = append(*g.errs, msg)
	g.mu.Unlock()
}

func (g crGoTB) Error(args ...any)                 { g.record(fmt.Sprint(args...)) }
func (g crGoTB) Errorf(format string, args ...any) { g.record(fmt.Sprintf(format, args...)) }
func (g crGoTB) Fatal(args ...any)                 { g.record(fmt.Sprint(args...)); runtime.Goexit() }
func (g crGoTB) Fatalf(format string, args ...any) {
	g.record(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func TestChangeRequestNumbersUniqueUnderConcurrency(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Busy", "")
	const n = 20
	var (
		mu      sync.Mutex
		errs    []string
		numbers []int
		wg      sync.WaitGroup
	)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			g := crGoTB{TB: t, mu: &mu, errs: &errs}
			u := w.admin
			if i%2 == 1 {
				u = w.editor
			}
			<-start
			r := w.Do(g, u, "POST", "/spaces/"+sp.Id+"/change-requests", map[string]any{"subject": fmt.Sprintf("parallel %d", i)})
			if r.Status != http.StatusCreated {
				g.Fatalf("request %d: status %d: %s", i, r.Status, r.Body)
			}
			var cr gen.ChangeRequest
			r.Decode(g, &cr)
			mu.Lock()
			numbers = append(numbers, cr.Number)
			mu.Unlock()
		}(i)
	}
	close(start)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d parallel creations failed: %s", len(errs), strings.Join(errs, "; "))
	}
	sort.Ints(numbers)
	want := make([]int, n)
	for i := range want {
		want[i] = i + 1
	}
	if !reflect.DeepEqual(numbers, want) {
		t.Fatalf("numbers %v, want 1..%d each once", numbers, n)
	}
	l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests?limit=100")
	if l.Count != n || len(l.Items) != n {
		t.Fatalf("listed %d (count %d), want %d", len(l.Items), l.Count, n)
	}
	for i, c := range l.Items { // newest first: numbers descend
		if i > 0 && c.Number >= l.Items[i-1].Number {
			t.Fatalf("list order: number %d after %d", c.Number, l.Items[i-1].Number)
		}
	}
	crWantCounters(t, w, sp.Id, n, n, 0)
	if cr := w.create(t, w.admin, sp.Id, "After"); cr.Number != n+1 {
		t.Fatalf("after the parallel creations: number %d, want %d", cr.Number, n+1)
	}
}

func TestChangeRequestGet(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
	a := w.create(t, w.admin, sp.Id, "A")
	b := w.create(t, w.editor, sp.Id, "B")
	o := w.create(t, w.admin, other.Id, "O")

	t.Run("ByIdAndByNumber", func(t *testing.T) {
		if got := w.get(t, sp.Id, b.Id); !reflect.DeepEqual(got, b) {
			t.Fatalf("by id %+v\nwant %+v", got, b)
		}
		if got := w.get(t, sp.Id, "2"); !reflect.DeepEqual(got, b) {
			t.Fatalf("by number 2: %+v\nwant %+v", got, b)
		}
		if got := w.get(t, sp.Id, "1"); got.Id != a.Id {
			t.Fatalf("by number 1: %s, want %s", got.Id, a.Id)
		}
		if got := w.get(t, other.Id, "1"); got.Id != o.Id {
			t.Fatalf("number 1 of the other space: %s, want %s", got.Id, o.Id)
		}
	})

	t.Run("ReaderReads", func(t *testing.T) {
		got := getJSON[gen.ChangeRequest](t, w.testServer, w.reader, crPath(sp.Id, a.Id))
		if got.Id != a.Id {
			t.Fatalf("reader read %s", got.Id)
		}
	})

	t.Run("UnknownIsNotFound", func(t *testing.T) {
		for _, id := range []string{"nope", "3", "0", "-1", o.Id} {
			r := w.Expect(t, http.StatusNotFound, w.admin, "GET", crPath(sp.Id, id), nil)
			r.ErrorMessage(t)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", crPath("nope", a.Id), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", crPath(sp.Id, a.Id), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", crPath(sp.Id, a.Id), nil)
	})
}

func TestChangeRequestUpdateById(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Draft me")

	t.Run("Subject", func(t *testing.T) {
		w.Clock.Advance(1e9)
		got := w.patch(t, sp.Id, cr.Id, map[string]any{"subject": "Renamed"})
		if got.Subject != "Renamed" || got.Status != "open" || !got.UpdatedAt.After(cr.UpdatedAt) || !got.CreatedAt.Equal(cr.CreatedAt) {
			t.Fatalf("patched %+v", got)
		}
		if re := w.get(t, sp.Id, cr.Id); re.Subject != "Renamed" || !reflect.DeepEqual(re, got) {
			t.Fatalf("re-read %+v\nwant %+v", re, got)
		}
		// By number too.
		if got := w.patch(t, sp.Id, "1", map[string]any{"subject": "By number"}); got.Id != cr.Id || got.Subject != "By number" {
			t.Fatalf("patched by number %+v", got)
		}
		s100 := strings.Repeat("x", 100)
		if got := w.patch(t, sp.Id, cr.Id, map[string]any{"subject": s100}); got.Subject != s100 {
			t.Fatalf("subject of 100: %q", got.Subject)
		}
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"subject": strings.Repeat("x", 101)})
		wantMessage(t, r, "subject")
		if re := w.get(t, sp.Id, cr.Id); re.Subject != s100 {
			t.Fatalf("a refused subject changed it to %q", re.Subject)
		}
	})

	t.Run("Description", func(t *testing.T) {
		doc := map[string]any{
			"object": "document",
			"data":   map[string]any{},
			"nodes": []any{map[string]any{
				"object": "block", "type": "paragraph",
				"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Why this change", "marks": []any{}}}}},
			}},
		}
		r := w.Expect(t, http.StatusOK, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"description": doc})
		if got := r.Map(t)["description"]; !reflect.DeepEqual(got, doc) {
			t.Fatalf("description answered %#v\nwant %#v", got, doc)
		}
		re := w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id), nil).Map(t)
		if !reflect.DeepEqual(re["description"], doc) {
			t.Fatalf("description re-read %#v\nwant %#v", re["description"], doc)
		}
		// Other fields leave it alone.
		w.patch(t, sp.Id, cr.Id, map[string]any{"subject": "Still described"})
		re = w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id), nil).Map(t)
		if !reflect.DeepEqual(re["description"], doc) {
			t.Fatalf("description after a subject change %#v", re["description"])
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"description": "text"})
	})

	t.Run("Status", func(t *testing.T) {
		for _, st := range []string{"draft", "archived", "open", "draft", "open"} {
			got := w.patch(t, sp.Id, cr.Id, map[string]any{"status": st})
			if string(got.Status) != st {
				t.Fatalf("status %q answered %q", st, got.Status)
			}
			if re := w.get(t, sp.Id, cr.Id); string(re.Status) != st {
				t.Fatalf("status %q re-read %q", st, re.Status)
			}
		}
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"status": "merged"})
		wantMessage(t, r, "status")
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"status": "closed"})
		if re := w.get(t, sp.Id, cr.Id); re.Status != "open" {
			t.Fatalf("refused statuses left %q", re.Status)
		}
	})

	t.Run("StatusOfAMergedChangeRequestIsAConflict", func(t *testing.T) {
		m := w.create(t, w.admin, sp.Id, "To merge")
		w.apply(t, w.admin, sp.Id, m.Id, insertMarkdown("Page", "Text.\n", "p"))
		w.merge(t, w.admin, sp.Id, m.Id)
		for _, st := range []string{"open", "draft", "archived"} {
			r := w.Expect(t, http.StatusConflict, w.admin, "PATCH", crPath(sp.Id, m.Id), map[string]any{"status": st})
			wantMessage(t, r, "merged")
		}
		if re := w.get(t, sp.Id, m.Id); re.Status != "merged" || re.RevisionMerged == nil {
			t.Fatalf("after refused status changes: %+v", re)
		}
		crWantCounters(t, w, sp.Id, 2, 1, 0)
	})

	t.Run("AccessAndUnknown", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"subject": "Reader"})
		w.Expect(t, http.StatusNotFound, w.outsider, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"subject": "Outsider"})
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", crPath(sp.Id, "nope"), map[string]any{"subject": "x"})
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", crPath(sp.Id, "99"), map[string]any{"subject": "x"})
		if got := w.Expect(t, http.StatusOK, w.editor, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"subject": "Editor"}); got.Map(t)["subject"] != "Editor" {
			t.Fatalf("editor's patch: %s", got.Body)
		}
		if re := w.get(t, sp.Id, cr.Id); re.Subject != "Editor" {
			t.Fatalf("subject %q", re.Subject)
		}
	})
}
