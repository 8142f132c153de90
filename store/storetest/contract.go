package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// access: the creator of an organization is its admin; anyone else is no member, sees none of it
// and is told "not found", never which organization exists.
func access(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	if role, err := w.st.FindMemberRole(ctx, w.org, w.user); err != nil || role != store.RoleAdmin {
		t.Fatalf("creator's role %q, %v; want admin", role, err)
	}
	stranger := &store.User{Email: "stranger@example.org", DisplayName: "Stranger"}
	if _, err := w.st.CreateUser(ctx, stranger); err != nil {
		t.Fatal(err)
	}
	_, err := w.st.FindMemberRole(ctx, w.org, stranger.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.FindOrganizationForMember(ctx, w.org, stranger.ID)
	wantCode(t, err, store.ENOTFOUND)
	if l, err := w.st.FindOrganizationsForUser(ctx, stranger.ID, store.Page{}); err != nil || l.Count != 0 || len(l.Items) != 0 {
		t.Fatalf("a stranger's organizations: %+v, %v", l, err)
	}
	if l, err := w.st.FindOrganizationsForUser(ctx, w.user, store.Page{}); err != nil || l.Count != 1 || l.Items[0].ID != w.org {
		t.Fatalf("the creator's organizations: %+v, %v", l, err)
	}
	sp := w.space("Docs")
	if _, role, member, err := w.st.FindSpaceForUser(ctx, sp.ID, stranger.ID); err != nil || member || role.AtLeast(store.RoleRead) {
		t.Fatalf("a stranger on a space: role %q member %v, %v", role, member, err)
	}
	if _, role, member, err := w.st.FindSpaceForUser(ctx, sp.ID, w.user); err != nil || !member || !role.AtLeast(store.RoleAdmin) {
		t.Fatalf("the creator on a space: role %q member %v, %v", role, member, err)
	}
	for _, c := range []struct {
		r, min store.Role
		want   bool
	}{
		{store.RoleAdmin, store.RoleRead, true}, {store.RoleEdit, store.RoleComment, true},
		{store.RoleComment, store.RoleEdit, false}, {store.RoleGuest, store.RoleRead, false},
		{store.RoleRead, store.RoleRead, true},
	} {
		if got := c.r.AtLeast(c.min); got != c.want {
			t.Errorf("%q.AtLeast(%q) = %v", c.r, c.min, got)
		}
	}
	if got := store.RoleEdit.Max(store.RoleReview); got != store.RoleReview {
		t.Errorf("edit.Max(review) = %q", got)
	}
}

// paging: a list walked by its cursors yields every item once, in order, with the full count on
// every page; a cursor not made by the list is EINVALID.
func paging(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	var want []string
	for _, title := range []string{"One", "Two", "Three", "Four", "Five"} {
		want = append(want, w.space(title).ID)
	}
	for _, limit := range []int{1, 2, 5, 50} {
		var got []string
		p := store.Page{Limit: limit}
		for pages := 0; ; pages++ {
			l, err := w.st.FindSpaces(ctx, w.org, false, nil, p)
			if err != nil {
				t.Fatal(err)
			}
			if l.Count != len(want) || len(l.Items) > limit || pages > len(want) {
				t.Fatalf("limit %d: a page of %d items, count %d", limit, len(l.Items), l.Count)
			}
			for _, sp := range l.Items {
				got = append(got, sp.ID)
			}
			if l.Next == "" {
				break
			}
			p.Cursor = l.Next
		}
		if len(got) != len(want) {
			t.Fatalf("limit %d: %d spaces, want %d", limit, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("limit %d: spaces %v, want oldest first %v", limit, got, want)
			}
		}
	}
	desc, err := w.st.FindSpaces(ctx, w.org, true, nil, store.Page{Limit: 1})
	if err != nil || desc.Items[0].ID != want[len(want)-1] {
		t.Fatalf("newest first: %+v, %v", desc.Items, err)
	}
	_, err = w.st.FindSpaces(ctx, w.org, false, nil, store.Page{Cursor: "not-a-cursor"})
	wantCode(t, err, store.EINVALID)
}

// batchMergeConflict: two change requests editing the same page from the same base — the first
// merges, the second conflicts and changes nothing; the first's content is the space's.
func batchMergeConflict(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID, insert("a", "Intro", "base text"))
	page := refs["a"]
	first, _ := w.edit(sp.ID, update(page, "first"))
	second, _ := w.edit(sp.ID, update(page, "second"))
	merged, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, first, w.user)
	if err != nil || conflicts || merged == "" {
		t.Fatalf("first merge: %q %v %v", merged, conflicts, err)
	}
	before := w.current(sp.ID)
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, second, w.user); err != nil || !conflicts {
		t.Fatalf("second merge: conflicts %v, %v; want a conflict", conflicts, err)
	}
	after := w.current(sp.ID)
	if after.ID != before.ID || w.markdown(after.ID, page) != "first" {
		t.Fatalf("after the conflicting merge: revision %s (was %s), body %q", after.ID, before.ID, w.markdown(after.ID, page))
	}
	if len(after.Parents) == 0 {
		t.Fatalf("a merge revision has no parents")
	}
	// A change request that touched another page merges beside it.
	other, _ := w.edit(sp.ID, insert("b", "Second page", "more"))
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, other, w.user); err != nil || conflicts {
		t.Fatalf("merging a disjoint change: %v %v", conflicts, err)
	}
	if n := len(w.current(sp.ID).Pages); n != 2 {
		t.Fatalf("%d pages after both merges, want 2", n)
	}
}

// pageTree: pages nest, paths are their slugs joined, subpages come in tree order, and a path
// outside the revision is not found.
func pageTree(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID, insert("g", "Getting Started", "top"),
		insertInto("i", "Installing quire", "install", "g"),
		insertInto("c", "Configuration", "config", "g"),
		insertInto("d", "Déjà vu", "deep", "i"))
	rev := w.current(sp.ID)
	byPath := map[string]string{}
	var order []string
	for _, p := range rev.Pages {
		byPath[p.Path] = p.ID
		order = append(order, p.Path)
	}
	want := map[string]string{"getting-started": "g", "getting-started/installing-quire": "i",
		"getting-started/configuration": "c", "getting-started/installing-quire/deja-vu": "d"}
	for path, ref := range want {
		if byPath[path] != refs[ref] {
			t.Fatalf("path %s is %q, want page %s (%s); paths in order: %v", path, byPath[path], ref, refs[ref], order)
		}
		p, err := w.st.FindPageByPath(ctx, rev.ID, path)
		if err != nil || p.ID != refs[ref] {
			t.Fatalf("FindPageByPath(%s): %+v, %v", path, p, err)
		}
	}
	if order[0] != "getting-started" {
		t.Fatalf("tree order starts with %s", order[0])
	}
	g, _ := w.st.FindPage(ctx, rev.ID, refs["g"])
	subs, err := w.st.FindSubpages(ctx, rev.ID, g)
	if err != nil || len(subs) != 3 {
		t.Fatalf("subpages of the top page: %d, %v", len(subs), err)
	}
	_, err = w.st.FindPageByPath(ctx, rev.ID, "getting-started/nowhere")
	wantCode(t, err, store.ENOTFOUND)
	if got := store.Slugify("Déjà vu, again!"); got != "deja-vu-again" {
		t.Fatalf("Slugify = %q", got)
	}
}

// search: all words first, then the last as a prefix, then any word.
func search(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	w.commit(sp.ID, insert("z", "Animals", "The zebra grazes.\n\n## Birds\n\nA heron waits."),
		insert("o", "Other", "Nothing to see."))
	for _, c := range []struct {
		q    string
		want int
	}{{"zebra", 1}, {"zebra grazes", 1}, {"zeb", 1}, {"heron unicorn", 1}, {"unicorn", 0}} {
		l, err := w.st.SearchSpace(ctx, sp.ID, c.q, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if l.Count != c.want || len(l.Items) != c.want {
			t.Fatalf("search %q: count %d, %d pages; want %d", c.q, l.Count, len(l.Items), c.want)
		}
		if c.want == 1 && l.Items[0].Title != "Animals" {
			t.Fatalf("search %q found %q", c.q, l.Items[0].Title)
		}
	}
	// Across the organization: hits grouped by space, and another organization's content unseen.
	other := w.space("Zoo")
	w.commit(other.ID, insert("z", "Zebras", "Every zebra has stripes."))
	elsewhere, err := w.st.CreateOrganization(ctx, "Elsewhere", w.user)
	if err != nil {
		t.Fatal(err)
	}
	foreign, _ := w.st.CreateSpace(ctx, elsewhere.ID, w.user, store.SpaceCreate{Title: "Foreign"})
	w.commit(foreign.ID, insert("z", "Foreign zebra", "A zebra abroad."))
	hits, err := w.st.SearchOrganization(ctx, w.org, "zebra", nil, store.Page{})
	if err != nil || hits.Count != 2 || len(hits.Items) != 2 {
		t.Fatalf("organization search: %+v, %v; want two spaces", hits, err)
	}
	for _, h := range hits.Items {
		if h.SpaceID != sp.ID && h.SpaceID != other.ID || len(h.Pages) != 1 {
			t.Fatalf("organization search hit %+v", h)
		}
	}
}

// jobs: a job is due when its time comes, a failure is retried at the time given, a success is
// done.
func jobs(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	st := open(t, clock.Now)
	ctx := context.Background()
	if err := st.EnqueueJob(ctx, "mail", "hello", clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	due := func(want int) []store.Job {
		t.Helper()
		j, err := st.DueJobs(ctx, 10)
		if err != nil || len(j) != want {
			t.Fatalf("at %s: %d due jobs (%v), want %d", clock.Now(), len(j), err, want)
		}
		return j
	}
	due(0)
	clock.advance(2 * time.Hour)
	j := due(1)[0]
	if j.Kind != "mail" || j.Payload != "hello" || j.Attempts != 0 {
		t.Fatalf("due job %+v", j)
	}
	// Claimed: no other runner gets it while it runs, and nobody gets it twice at once.
	due(0)
	var wg sync.WaitGroup
	claims := make([]int, 4)
	for i := range claims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if js, err := st.DueJobs(ctx, 10); err == nil {
				claims[i] = len(js)
			}
		}()
	}
	wg.Wait()
	if claims[0]+claims[1]+claims[2]+claims[3] != 0 {
		t.Fatalf("a claimed job was claimed again: %v", claims)
	}
	if err := st.FinishJob(ctx, j, context.DeadlineExceeded, clock.Now().Add(time.Minute), 3, nil); err != nil {
		t.Fatal(err)
	}
	due(0)
	clock.advance(2 * time.Minute)
	if j = due(1)[0]; j.Attempts != 1 {
		t.Fatalf("retried job has %d attempts, want 1", j.Attempts)
	}
	if err := st.FinishJob(ctx, j, nil, clock.Now(), 3, nil); err != nil {
		t.Fatal(err)
	}
	clock.advance(24 * time.Hour)
	due(0)

	// A runner that died with a job claimed leaves it to another once the lease runs out.
	if err := st.EnqueueJob(ctx, "mail", "again", clock.Now()); err != nil {
		t.Fatal(err)
	}
	due(1)
	clock.advance(time.Hour)
	if j = due(1)[0]; j.Payload != "again" {
		t.Fatalf("reclaimed job %+v", j)
	}
}
