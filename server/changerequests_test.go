package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// crWorld is an organization with an admin, an editor, a reader and a guest, and an outsider
// with an organization of their own.
type crWorld struct {
	*testServer
	admin, editor, reader, guest, outsider *testUser
	org, other                             gen.Organization
}

func crNewWorld(t *testing.T) *crWorld {
	t.Helper()
	ts := newTestServer(t)
	w := &crWorld{
		testServer: ts,
		admin:      ts.MustCreateUser(t, "ada@acme.test", "Ada"),
		editor:     ts.MustCreateUser(t, "eve@editors.test", "Eve"),
		reader:     ts.MustCreateUser(t, "rita@readers.test", "Rita"),
		guest:      ts.MustCreateUser(t, "gus@guests.test", "Gus"),
		outsider:   ts.MustCreateUser(t, "otto@other.test", "Otto"),
	}
	w.org = ts.MustCreateOrg(t, w.admin, "Acme")
	ts.MustAddMember(t, w.admin, w.org.Id, w.editor, "edit")
	ts.MustAddMember(t, w.admin, w.org.Id, w.reader, "read")
	ts.MustAddMember(t, w.admin, w.org.Id, w.guest, "")
	w.other = ts.MustCreateOrg(t, w.outsider, "Other Co")
	return w
}

// crPath is the path of a change request (or of one of its operations with suffix).
func crPath(spaceID, crID string, suffix ...string) string {
	return "/spaces/" + spaceID + "/change-requests/" + crID + strings.Join(suffix, "")
}

// create opens a change request as u, which must answer 201.
func (w *crWorld) create(t *testing.T, u *testUser, spaceID, subject string) gen.ChangeRequest {
	t.Helper()
	var cr gen.ChangeRequest
	w.Expect(t, http.StatusCreated, u, "POST", "/spaces/"+spaceID+"/change-requests", map[string]any{"subject": subject}).Decode(t, &cr)
	return cr
}

// get reads a change request (by id or number) as the admin.
func (w *crWorld) get(t *testing.T, spaceID, crID string) gen.ChangeRequest {
	t.Helper()
	var cr gen.ChangeRequest
	w.Expect(t, http.StatusOK, w.admin, "GET", crPath(spaceID, crID), nil).Decode(t, &cr)
	return cr
}

// patch updates a change request as the admin, which must answer 200.
func (w *crWorld) patch(t *testing.T, spaceID, crID string, body map[string]any) gen.ChangeRequest {
	t.Helper()
	var cr gen.ChangeRequest
	w.Expect(t, http.StatusOK, w.admin, "PATCH", crPath(spaceID, crID), body).Decode(t, &cr)
	return cr
}

// apply posts a content batch as u, which must answer 200.
func (w *crWorld) apply(t *testing.T, u *testUser, spaceID, crID string, changes ...map[string]any) batchResult {
	t.Helper()
	return postBatch(t, w.testServer, u, spaceID, crID, changes)
}

// merge merges a change request as u, which must answer 200.
func (w *crWorld) merge(t *testing.T, u *testUser, spaceID, crID string) gen.MergeChangeRequestResult {
	t.Helper()
	var res gen.MergeChangeRequestResult
	w.Expect(t, http.StatusOK, u, "POST", crPath(spaceID, crID, "/merge"), nil).Decode(t, &res)
	return res
}

// update pulls main into a change request as u, which must answer 200.
func (w *crWorld) update(t *testing.T, u *testUser, spaceID, crID string) gen.UpdateChangeRequestResult {
	t.Helper()
	var res gen.UpdateChangeRequestResult
	w.Expect(t, http.StatusOK, u, "POST", crPath(spaceID, crID, "/update"), nil).Decode(t, &res)
	return res
}

// space reads a space as the admin.
func (w *crWorld) space(t *testing.T, spaceID string) gen.Space {
	t.Helper()
	var sp gen.Space
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+spaceID, nil).Decode(t, &sp)
	return sp
}

// list reads a change request list as u.
func (w *crWorld) list(t *testing.T, u *testUser, path string) gen.ChangeRequestList {
	t.Helper()
	var l gen.ChangeRequestList
	w.Expect(t, http.StatusOK, u, "GET", path, nil).Decode(t, &l)
	return l
}

// mainRevision reads the space's current revision.
func (w *crWorld) mainRevision(t *testing.T, spaceID string) gen.Revision {
	t.Helper()
	var r gen.Revision
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+spaceID+"/content", nil).Decode(t, &r)
	return r
}

// crRevision reads a change request's revision.
func (w *crWorld) crRevision(t *testing.T, spaceID, crID string) gen.Revision {
	t.Helper()
	var r gen.Revision
	w.Expect(t, http.StatusOK, w.admin, "GET", crPath(spaceID, crID, "/content"), nil).Decode(t, &r)
	return r
}

// mainPages reads the page tree of the space's current revision.
func (w *crWorld) mainPages(t *testing.T, spaceID string) []gen.RevisionPage {
	t.Helper()
	var pt gen.PageTree
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+spaceID+"/content/pages", nil).Decode(t, &pt)
	return pt.Pages
}

// crPages reads the page tree of a change request's revision.
func (w *crWorld) crPages(t *testing.T, spaceID, crID string) []gen.RevisionPage {
	t.Helper()
	var pt gen.PageTree
	w.Expect(t, http.StatusOK, w.admin, "GET", crPath(spaceID, crID, "/content/pages"), nil).Decode(t, &pt)
	return pt.Pages
}

// mainMarkdown reads a page's markdown in the space's current revision.
func (w *crWorld) mainMarkdown(t *testing.T, spaceID, pageID string) string {
	t.Helper()
	var p gen.RevisionPage
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+spaceID+"/content/page/"+pageID+"?format=markdown", nil).Decode(t, &p)
	if p.Markdown == nil {
		t.Fatalf("page %s answered no markdown with format=markdown", pageID)
	}
	return *p.Markdown
}

// crMarkdown reads a page's markdown in a change request's revision.
func (w *crWorld) crMarkdown(t *testing.T, spaceID, crID, pageID string) string {
	t.Helper()
	var p gen.RevisionPage
	w.Expect(t, http.StatusOK, w.admin, "GET", crPath(spaceID, crID, "/content/page/"+pageID+"?format=markdown"), nil).Decode(t, &p)
	if p.Markdown == nil {
		t.Fatalf("page %s answered no markdown with format=markdown", pageID)
	}
	return *p.Markdown
}

// seed writes top-level pages (title, markdown pairs) into a space through a merged change
// request and returns their ids by title.
func (w *crWorld) seed(t *testing.T, spaceID string, titleMarkdown ...string) map[string]string {
	t.Helper()
	cr := w.create(t, w.admin, spaceID, "Seed")
	var changes []map[string]any
	for i := 0; i+1 < len(titleMarkdown); i += 2 {
		changes = append(changes, crInsert(titleMarkdown[i], titleMarkdown[i+1], titleMarkdown[i]))
	}
	res := w.apply(t, w.admin, spaceID, cr.Id, changes...)
	if m := w.merge(t, w.admin, spaceID, cr.Id); m.Result != gen.MergeResultMerge {
		t.Fatalf("seeding merge: %+v", m)
	}
	return res.Refs
}

// crInsert is an insert_page change at the top level with a ref.
func crInsert(title, markdown, ref string) map[string]any {
	return map[string]any{"operation": "insert_page", "title": title, "document": map[string]any{"markdown": markdown}, "ref": ref}
}

// crInsertInto is an insert_page change under a parent page (an id or a ref).
func crInsertInto(title, markdown, ref, into string) map[string]any {
	c := crInsert(title, markdown, ref)
	c["into"] = into
	return c
}

// crEdit is an update_page change of a page's markdown.
func crEdit(page, markdown string) map[string]any {
	return map[string]any{"operation": "update_page", "page": page, "document": map[string]any{"markdown": markdown}}
}

// crMove is an update_page change moving a page under another ("" for the top level).
func crMove(page, into string) map[string]any {
	var in any = into
	if into == "" {
		in = nil
	}
	return map[string]any{"operation": "update_page", "page": page, "into": in}
}

// crDelete is a delete_page change.
func crDelete(page string) map[string]any {
	return map[string]any{"operation": "delete_page", "page": page}
}

// crFlatPage is a page of a tree, flattened.
type crFlatPage struct {
	Parent, Title, Path string
}

// crFlatten indexes a page tree by page id, with each page's parent id ("" at the top level).
func crFlatten(pages []gen.RevisionPage) map[string]crFlatPage {
	out := map[string]crFlatPage{}
	var walk func(parent string, list []gen.RevisionPage)
	walk = func(parent string, list []gen.RevisionPage) {
		for _, p := range list {
			out[p.Id] = crFlatPage{Parent: parent, Title: p.Title, Path: p.Path}
			walk(p.Id, p.Pages)
		}
	}
	walk("", pages)
	return out
}

// crIDs returns the ids of a list's change requests, in order.
func crIDs(l gen.ChangeRequestList) []string {
	out := make([]string, 0, len(l.Items))
	for _, c := range l.Items {
		out = append(out, c.Id)
	}
	return out
}

func crWantIDs(t *testing.T, what string, l gen.ChangeRequestList, count int, ids ...string) {
	t.Helper()
	if ids == nil {
		ids = []string{}
	}
	if got := crIDs(l); !reflect.DeepEqual(got, ids) || l.Count != count {
		t.Fatalf("%s: items %v (count %d), want %v (count %d)", what, got, l.Count, ids, count)
	}
}

func crWantCounters(t *testing.T, w *crWorld, spaceID string, total, open, draft int) {
	t.Helper()
	sp := w.space(t, spaceID)
	if sp.ChangeRequests != total || sp.ChangeRequestsOpen != open || sp.ChangeRequestsDraft != draft {
		t.Fatalf("space counters: changeRequests %d, open %d, draft %d; want %d, %d, %d",
			sp.ChangeRequests, sp.ChangeRequestsOpen, sp.ChangeRequestsDraft, total, open, draft)
	}
}

func crWantMessage(t *testing.T, r *response, parts ...string) {
	t.Helper()
	msg := r.ErrorMessage(t)
	for _, p := range parts {
		if !strings.Contains(strings.ToLower(msg), strings.ToLower(p)) {
			t.Fatalf("error message %q does not mention %q", msg, p)
		}
	}
}

func TestChangeRequestCreate(t *testing.T) {
	w := crNewWorld(t)
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
		crWantMessage(t, r, "subject")
	})

	t.Run("WithoutBodyHasAnEmptySubject", func(t *testing.T) {
		var cr gen.ChangeRequest
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/spaces/"+other.Id+"/change-requests", nil).Decode(t, &cr)
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
	w := crNewWorld(t)
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
	w := crNewWorld(t)
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
		var got gen.ChangeRequest
		w.Expect(t, http.StatusOK, w.reader, "GET", crPath(sp.Id, a.Id), nil).Decode(t, &got)
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
	w := crNewWorld(t)
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
		crWantMessage(t, r, "subject")
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
		crWantMessage(t, r, "status")
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"status": "closed"})
		if re := w.get(t, sp.Id, cr.Id); re.Status != "open" {
			t.Fatalf("refused statuses left %q", re.Status)
		}
	})

	t.Run("StatusOfAMergedChangeRequestIsAConflict", func(t *testing.T) {
		m := w.create(t, w.admin, sp.Id, "To merge")
		w.apply(t, w.admin, sp.Id, m.Id, crInsert("Page", "Text.\n", "p"))
		w.merge(t, w.admin, sp.Id, m.Id)
		for _, st := range []string{"open", "draft", "archived"} {
			r := w.Expect(t, http.StatusConflict, w.admin, "PATCH", crPath(sp.Id, m.Id), map[string]any{"status": st})
			crWantMessage(t, r, "merged")
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

func TestChangeRequestLists(t *testing.T) {
	w := crNewWorld(t)
	a := w.MustCreateSpace(t, w.admin, w.org.Id, "A", "")
	b := w.MustCreateSpace(t, w.admin, w.org.Id, "B", "")
	outside := w.MustCreateSpace(t, w.outsider, w.other.Id, "Outside", "")

	cr1 := w.create(t, w.admin, a.Id, "one")            // open; the editor writes content to it
	cr2 := w.create(t, w.editor, a.Id, "two")           // open
	cr3 := w.create(t, w.admin, a.Id, "three")          // draft
	cr4 := w.create(t, w.admin, a.Id, "four")           // archived
	cr5 := w.create(t, w.editor, b.Id, "five")          // open, other space
	cr6 := w.create(t, w.admin, a.Id, "six")            // merged
	away := w.create(t, w.outsider, outside.Id, "away") // another organization
	w.apply(t, w.editor, a.Id, cr1.Id, crInsert("Page", "Text.\n", "p"))
	w.patch(t, a.Id, cr3.Id, map[string]any{"status": "draft"})
	w.patch(t, a.Id, cr4.Id, map[string]any{"status": "archived"})
	w.merge(t, w.admin, a.Id, cr6.Id)

	sp := "/spaces/" + a.Id + "/change-requests"
	t.Run("SpaceDefaultsToOpenNewestFirst", func(t *testing.T) {
		crWantIDs(t, "default", w.list(t, w.admin, sp), 2, cr2.Id, cr1.Id)
		crWantIDs(t, "status=open", w.list(t, w.admin, sp+"?status=open"), 2, cr2.Id, cr1.Id)
		crWantIDs(t, "reader", w.list(t, w.reader, sp), 2, cr2.Id, cr1.Id)
	})

	t.Run("SpaceByStatus", func(t *testing.T) {
		crWantIDs(t, "draft", w.list(t, w.admin, sp+"?status=draft"), 1, cr3.Id)
		crWantIDs(t, "archived", w.list(t, w.admin, sp+"?status=archived"), 1, cr4.Id)
		crWantIDs(t, "merged", w.list(t, w.admin, sp+"?status=merged"), 1, cr6.Id)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", sp+"?status=closed", nil)
	})

	t.Run("SpaceByCreatorContributorReviewer", func(t *testing.T) {
		crWantIDs(t, "creator=editor", w.list(t, w.admin, sp+"?creator="+w.editor.ID), 1, cr2.Id)
		crWantIDs(t, "creator=admin", w.list(t, w.admin, sp+"?creator="+w.admin.ID), 1, cr1.Id)
		crWantIDs(t, "creator=admin&status=draft", w.list(t, w.admin, sp+"?status=draft&creator="+w.admin.ID), 1, cr3.Id)
		crWantIDs(t, "creator=reader", w.list(t, w.admin, sp+"?creator="+w.reader.ID), 0)
		crWantIDs(t, "contributor=editor", w.list(t, w.admin, sp+"?contributor="+w.editor.ID), 1, cr1.Id)
		crWantIDs(t, "contributor=admin", w.list(t, w.admin, sp+"?contributor="+w.admin.ID), 0)
		crWantIDs(t, "requestedReviewer", w.list(t, w.admin, sp+"?requestedReviewer="+w.admin.ID), 0)
		crWantIDs(t, "conversationsIssuesCluster", w.list(t, w.admin, sp+"?conversationsIssuesCluster=c1"), 0)
	})

	t.Run("SpacePaging", func(t *testing.T) {
		p1 := w.list(t, w.admin, sp+"?limit=1")
		crWantIDs(t, "page 1", p1, 2, cr2.Id)
		if p1.Next == nil || p1.Next.Page == "" {
			t.Fatalf("page 1 has no next: %+v", p1)
		}
		p2 := w.list(t, w.admin, sp+"?limit=1&page="+url.QueryEscape(p1.Next.Page))
		crWantIDs(t, "page 2", p2, 2, cr1.Id)
		if p2.Next != nil {
			t.Fatalf("page 2 has next %+v", p2.Next)
		}
		if l := w.list(t, w.admin, sp+"?limit=2"); l.Next != nil {
			t.Fatalf("a full page has next %+v", l.Next)
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", sp+"?limit=0", nil)
	})

	t.Run("SpaceAccess", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", sp, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/nope/change-requests", nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", sp, nil)
	})

	org := "/orgs/" + w.org.Id + "/change-requests"
	t.Run("OrganizationAcrossSpaces", func(t *testing.T) {
		crWantIDs(t, "org default", w.list(t, w.admin, org), 3, cr5.Id, cr2.Id, cr1.Id)
		crWantIDs(t, "org reader", w.list(t, w.reader, org), 3, cr5.Id, cr2.Id, cr1.Id)
		crWantIDs(t, "org draft", w.list(t, w.admin, org+"?status=draft"), 1, cr3.Id)
		crWantIDs(t, "org merged", w.list(t, w.admin, org+"?status=merged"), 1, cr6.Id)
		crWantIDs(t, "org creator=editor", w.list(t, w.admin, org+"?creator="+w.editor.ID), 2, cr5.Id, cr2.Id)
		crWantIDs(t, "org contributor=editor", w.list(t, w.admin, org+"?contributor="+w.editor.ID), 1, cr1.Id)
		crWantIDs(t, "org requestedReviewer", w.list(t, w.admin, org+"?requestedReviewer="+w.editor.ID), 0)
		p1 := w.list(t, w.admin, org+"?limit=2")
		crWantIDs(t, "org page 1", p1, 3, cr5.Id, cr2.Id)
		if p1.Next == nil {
			t.Fatal("org page 1 has no next")
		}
		crWantIDs(t, "org page 2", w.list(t, w.admin, org+"?limit=2&page="+url.QueryEscape(p1.Next.Page)), 3, cr1.Id)
	})

	t.Run("OrganizationGuestSeesNoneOutsiderNotFound", func(t *testing.T) {
		crWantIDs(t, "guest", w.list(t, w.guest, org), 0)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", org, nil)
		crWantIDs(t, "outsider's own org", w.list(t, w.outsider, "/orgs/"+w.other.Id+"/change-requests"), 1, away.Id)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.other.Id+"/change-requests", nil)
	})

	t.Run("OrganizationDropsDeletedSpaces", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+b.Id, nil)
		crWantIDs(t, "after deleting B", w.list(t, w.admin, org), 2, cr2.Id, cr1.Id)
	})
}

func TestChangeRequestSpaceCounters(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	if sp.ChangeRequests != 0 || sp.ChangeRequestsOpen != 0 || sp.ChangeRequestsDraft != 0 {
		t.Fatalf("a new space counts %d/%d/%d", sp.ChangeRequests, sp.ChangeRequestsOpen, sp.ChangeRequestsDraft)
	}
	a := w.create(t, w.admin, sp.Id, "a")
	crWantCounters(t, w, sp.Id, 1, 1, 0)
	b := w.create(t, w.admin, sp.Id, "b")
	crWantCounters(t, w, sp.Id, 2, 2, 0)
	w.patch(t, sp.Id, a.Id, map[string]any{"status": "draft"})
	crWantCounters(t, w, sp.Id, 2, 1, 1)
	w.patch(t, sp.Id, b.Id, map[string]any{"status": "archived"})
	crWantCounters(t, w, sp.Id, 2, 0, 1)
	w.patch(t, sp.Id, a.Id, map[string]any{"status": "open"})
	crWantCounters(t, w, sp.Id, 2, 1, 0)
	w.patch(t, sp.Id, a.Id, map[string]any{"subject": "no status change"})
	crWantCounters(t, w, sp.Id, 2, 1, 0)
	w.apply(t, w.admin, sp.Id, a.Id, crInsert("Page", "Text.\n", "p"))
	w.merge(t, w.admin, sp.Id, a.Id)
	crWantCounters(t, w, sp.Id, 2, 0, 0)
	w.patch(t, sp.Id, b.Id, map[string]any{"status": "draft"})
	crWantCounters(t, w, sp.Id, 2, 0, 1)
	w.create(t, w.admin, sp.Id, "c")
	crWantCounters(t, w, sp.Id, 3, 1, 1)
	// The list of spaces carries the same counters.
	var l gen.SpaceList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/spaces", nil).Decode(t, &l)
	if len(l.Items) != 1 || l.Items[0].ChangeRequests != 3 || l.Items[0].ChangeRequestsOpen != 1 || l.Items[0].ChangeRequestsDraft != 1 {
		t.Fatalf("listed space %+v", l.Items)
	}
}

func TestChangeRequestOutdated(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.admin, sp.Id, "b")
	if a.Outdated || b.Outdated {
		t.Fatal("fresh change requests are outdated")
	}
	w.apply(t, w.admin, sp.Id, a.Id, crInsert("From A", "A wrote this.\n", "a"))
	if w.get(t, sp.Id, a.Id).Outdated || w.get(t, sp.Id, b.Id).Outdated {
		t.Fatal("a change request's own content makes change requests outdated")
	}
	w.merge(t, w.admin, sp.Id, a.Id)
	main := w.space(t, sp.Id).Revision

	bb := w.get(t, sp.Id, b.Id)
	if !bb.Outdated || bb.RevisionInitial != sp.Revision || bb.RevisionMergedAncestor != nil {
		t.Fatalf("after another merge: outdated %v, initial %q, ancestor %v", bb.Outdated, bb.RevisionInitial, bb.RevisionMergedAncestor)
	}
	if l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests"); len(l.Items) != 1 || !l.Items[0].Outdated {
		t.Fatalf("listed %+v", l.Items)
	}
	if am := w.get(t, sp.Id, a.Id); am.Outdated {
		t.Fatal("the merged change request is outdated")
	}
	c := w.create(t, w.admin, sp.Id, "c")
	if c.Outdated || c.RevisionInitial != main {
		t.Fatalf("created after the merge: outdated %v initial %q, want %q", c.Outdated, c.RevisionInitial, main)
	}

	res := w.update(t, w.admin, sp.Id, b.Id)
	if res.Result != gen.UpdateResultUpdate || res.Revision == bb.Revision {
		t.Fatalf("update answered %+v (revision before %q)", res, bb.Revision)
	}
	bu := w.get(t, sp.Id, b.Id)
	if bu.Outdated || bu.Revision != res.Revision || bu.RevisionMergedAncestor == nil || *bu.RevisionMergedAncestor != main || bu.RevisionInitial != sp.Revision {
		t.Fatalf("after update: outdated %v revision %q ancestor %v initial %q; want revision %q ancestor %q",
			bu.Outdated, bu.Revision, bu.RevisionMergedAncestor, bu.RevisionInitial, res.Revision, main)
	}
	// The update pulled A's page into B.
	if pages := w.crPages(t, sp.Id, b.Id); len(pages) != 1 || pages[0].Title != "From A" {
		t.Fatalf("B's pages after update: %+v", pages)
	}
	// Updating again is a no-op that answers the same revision.
	if again := w.update(t, w.admin, sp.Id, b.Id); again.Revision != res.Revision || again.Result != gen.UpdateResultUpdate {
		t.Fatalf("second update: %+v, want revision %q", again, res.Revision)
	}
	// A draft is outdated too once main moves; an archived one is not reported outdated.
	w.patch(t, sp.Id, c.Id, map[string]any{"status": "draft"})
	d := w.create(t, w.admin, sp.Id, "d")
	w.apply(t, w.admin, sp.Id, d.Id, crInsert("From D", "D.\n", "d"))
	w.merge(t, w.admin, sp.Id, d.Id)
	if cd := w.get(t, sp.Id, c.Id); !cd.Outdated || cd.Status != "draft" {
		t.Fatalf("draft after another merge: %+v", cd)
	}
	if bo := w.get(t, sp.Id, b.Id); !bo.Outdated {
		t.Fatal("B is not outdated once main moved past its update")
	}
}

func TestChangeRequestPermissions(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Hello.\n")
	mainBefore := w.space(t, sp.Id).Revision

	cr := w.create(t, w.editor, sp.Id, "By the editor")
	if cr.CreatedBy.Id != w.editor.ID {
		t.Fatalf("createdBy %s", cr.CreatedBy.Id)
	}
	applied := w.apply(t, w.editor, sp.Id, cr.Id, crEdit(ids["Intro"], "Edited by the editor.\n"))

	t.Run("ReaderCannotWrite", func(t *testing.T) {
		for _, op := range []struct {
			method, path string
			body         any
		}{
			{"POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []any{crEdit(ids["Intro"], "Reader.\n")}}},
			{"POST", crPath(sp.Id, cr.Id, "/merge"), nil},
			{"POST", crPath(sp.Id, cr.Id, "/update"), nil},
			{"PATCH", crPath(sp.Id, cr.Id), map[string]any{"subject": "Reader"}},
		} {
			r := w.Expect(t, http.StatusForbidden, w.reader, op.method, op.path, op.body)
			r.ErrorMessage(t)
			w.Expect(t, http.StatusNotFound, w.outsider, op.method, op.path, op.body)
		}
		got := w.get(t, sp.Id, cr.Id)
		if got.Revision != applied.Revision || got.Status != "open" || got.Subject != "By the editor" {
			t.Fatalf("refused writes changed the change request: %+v", got)
		}
		if w.space(t, sp.Id).Revision != mainBefore {
			t.Fatal("a refused merge moved the space")
		}
		if md := w.crMarkdown(t, sp.Id, cr.Id, ids["Intro"]); md != "Edited by the editor.\n" {
			t.Fatalf("markdown %q", md)
		}
	})

	t.Run("ReaderReads", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.reader, "GET", crPath(sp.Id, cr.Id), nil)
		w.Expect(t, http.StatusOK, w.reader, "GET", crPath(sp.Id, cr.Id, "/content"), nil)
		w.Expect(t, http.StatusOK, w.reader, "GET", "/spaces/"+sp.Id+"/change-requests", nil)
	})

	t.Run("EditorUpdatesAndMerges", func(t *testing.T) {
		other := w.create(t, w.admin, sp.Id, "Other")
		w.apply(t, w.admin, sp.Id, other.Id, crInsert("Other page", "Other.\n", "o"))
		w.merge(t, w.admin, sp.Id, other.Id)
		if up := w.update(t, w.editor, sp.Id, cr.Id); up.Result != gen.UpdateResultUpdate {
			t.Fatalf("editor's update %+v", up)
		}
		res := w.merge(t, w.editor, sp.Id, cr.Id)
		if res.Result != gen.MergeResultMerge || w.space(t, sp.Id).Revision != res.Revision {
			t.Fatalf("editor's merge %+v", res)
		}
		if md := w.mainMarkdown(t, sp.Id, ids["Intro"]); md != "Edited by the editor.\n" {
			t.Fatalf("merged markdown %q", md)
		}
		if l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests?status=merged&contributor="+w.editor.ID); l.Count != 1 || l.Items[0].Id != cr.Id {
			t.Fatalf("merged contributed by the editor: %+v", crIDs(l))
		}
	})
}
