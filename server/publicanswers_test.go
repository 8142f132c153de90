package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// wantPublicEverywhere checks an answer against every GitBook published spec that has the
// operation: today's client (0.202.0) and, where the operation is in it, the seed's (0.146.0).
// quire answers both: what 0.202.0 requires and what 0.146.0 required and 0.202.0 dropped.
func wantPublicEverywhere(t *testing.T, op string, r *response) {
	t.Helper()
	checked := 0
	for _, v := range []string{"0.146.0", "0.202.0"} {
		if publicOps(t, v)[op] != nil {
			wantPublic(t, v, op, r)
			checked++
		}
	}
	if checked == 0 {
		t.Fatalf("no published spec has %s", op)
	}
}

// The answers 0.202.0 added required fields to carry them, with real values: members count the
// sites they can read, revisions list their (no) tags, search hits carry their description,
// ancestors, score and rank, organization search groups carry their type and score.
func TestAnswersCarryWhatTodaysClientRequires(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ts := w.testServer
	sites := "/orgs/" + w.org.Id + "/sites"
	ts.Expect(t, http.StatusCreated, w.admin, "POST", sites, map[string]any{})
	ts.Expect(t, http.StatusCreated, w.admin, "POST", sites, map[string]any{})

	t.Run("MembersCountTheSitesTheyCanRead", func(t *testing.T) {
		list := ts.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/members", nil)
		wantPublicEverywhere(t, "listMembersInOrganizationById", list)
		var members gen.MemberList
		list.Decode(t, &members)
		got := map[string]int{}
		for _, m := range members.Items {
			got[m.User.DisplayName] = m.Sites
		}
		// Every role reads the organization's sites; a guest none.
		want := map[string]int{"Ada": 2, "Eve": 2, "Rita": 2, "Cora": 2, "Gus": 0}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sites per member = %v, want %v", got, want)
		}
		one := ts.Expect(t, http.StatusOK, w.reader, "GET", "/orgs/"+w.org.Id+"/members/"+w.reader.ID, nil)
		wantPublicEverywhere(t, "getMemberInOrganizationById", one)
		updated := ts.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id+"/members/"+w.guest.ID, map[string]any{"role": "read"})
		wantPublicEverywhere(t, "updateMemberInOrganizationById", updated)
		var m gen.Member
		updated.Decode(t, &m)
		if m.Sites != 2 {
			t.Fatalf("a guest made a reader counts %d sites, want 2", m.Sites)
		}
		ts.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id+"/members/"+w.guest.ID, map[string]any{"role": nil})
	})

	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")
	cr := w.create(t, w.admin, sp.Id, "Pages")
	w.apply(t, w.admin, sp.Id, cr.Id,
		insertMarkdown("Guide", "Start here.\n", "guide"),
		insertMarkdown("Setup", "Read on.\n", "setup", "into", "guide"),
		insertMarkdown("Install", installMarkdown, "install", "into", "setup", "description", "How to install quire"),
		insertMarkdown("Tarball", "Nothing but a title match here.\n", "tarball"),
	)
	w.merged(t, sp.Id, cr.Id)

	t.Run("MergedChangeRequestsSayWhoMergedThemAndWhen", func(t *testing.T) {
		open := w.create(t, w.admin, sp.Id, "Open")
		mine := w.create(t, w.admin, sp.Id, "Editor's")
		w.apply(t, w.admin, sp.Id, mine.Id, insertMarkdown("Notes", "Notes.\n", "notes"))
		w.merge(t, w.editor, sp.Id, mine.Id)
		r := ts.Expect(t, http.StatusOK, w.reader, "GET", crPath(sp.Id, mine.Id), nil)
		wantPublicEverywhere(t, "getChangeRequestById", r)
		var cr gen.ChangeRequest
		r.Decode(t, &cr)
		rev := w.mainRevision(t, sp.Id)
		if cr.MergedBy == nil || cr.MergedBy.Id != w.editor.ID || cr.MergedAt == nil || !cr.MergedAt.Equal(rev.CreatedAt) {
			t.Fatalf("merged by %+v at %v; the merge revision was written at %v", cr.MergedBy, cr.MergedAt, rev.CreatedAt)
		}
		if o := w.get(t, sp.Id, open.Id); o.MergedBy != nil || o.MergedAt != nil {
			t.Fatalf("an open change request: merged by %+v at %v", o.MergedBy, o.MergedAt)
		}
		wantPublicEverywhere(t, "listChangeRequestsForSpace", ts.Expect(t, http.StatusOK, w.reader, "GET", "/spaces/"+sp.Id+"/change-requests?status=merged", nil))
	})

	t.Run("CommentersCountTheirSites", func(t *testing.T) {
		ts.Expect(t, http.StatusOK, w.commenter, "POST", "/spaces/"+sp.Id+"/comments", commentBody("Looks good"))
		r := ts.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/commenters", nil)
		wantPublicEverywhere(t, "listCommentersInSpace", r)
		var list gen.MemberList
		r.Decode(t, &list)
		if len(list.Items) != 1 || list.Items[0].Sites != 2 {
			t.Fatalf("commenters = %+v", list.Items)
		}
	})

	t.Run("RevisionsListTheirTags", func(t *testing.T) {
		for op, path := range map[string]string{
			"getCurrentRevision":             "/spaces/" + sp.Id + "/content",
			"getRevisionOfChangeRequestById": crPath(sp.Id, cr.Id, "/content"),
		} {
			r := ts.Expect(t, http.StatusOK, w.reader, "GET", path, nil)
			wantPublicEverywhere(t, op, r)
			if tags, ok := r.Map(t)["tags"].([]any); !ok || len(tags) != 0 {
				t.Fatalf("%s: tags = %#v, want []", op, r.Map(t)["tags"])
			}
		}
	})

	t.Run("SpaceSearchHitsCarryAncestorsScoreAndRank", func(t *testing.T) {
		r := ts.Expect(t, http.StatusOK, w.reader, "GET", "/spaces/"+sp.Id+"/search?query=tarball", nil)
		wantPublicEverywhere(t, "searchSpaceContent", r)
		var l gen.SearchPageList
		r.Decode(t, &l)
		if len(l.Items) != 2 {
			t.Fatalf("hits = %v", searchTitles(l))
		}
		// The title match ranks first and scores higher; the section match carries its section.
		title, body := l.Items[0], l.Items[1]
		if title.Title != "Tarball" || body.Title != "Install" || title.Rank != 1 || body.Rank != 2 {
			t.Fatalf("ranked %q #%d, %q #%d", title.Title, title.Rank, body.Title, body.Rank)
		}
		// A title match scores above 1, a section match between 0 and 1.
		if !(title.Score > 1 && body.Score > 0 && body.Score < 1) {
			t.Fatalf("scores %v (title match), %v (section match)", title.Score, body.Score)
		}
		if *title.ResultType != gen.SearchResultTypePage || *body.ResultType != gen.SearchResultTypeSection {
			t.Fatalf("result types %v, %v", *title.ResultType, *body.ResultType)
		}
		if len(title.Ancestors) != 0 || title.Description != "" {
			t.Fatalf("a top-level page without description: %+v", title)
		}
		if got := []string{body.Ancestors[0].Title, body.Ancestors[1].Title}; len(body.Ancestors) != 2 || !reflect.DeepEqual(got, []string{"Guide", "Setup"}) {
			t.Fatalf("ancestors = %+v", body.Ancestors)
		}
		if body.Description != "How to install quire" {
			t.Fatalf("description = %q", body.Description)
		}
		sec := body.Sections[0]
		if sec.Score <= 0 || sec.Score != body.Score || *sec.ResultType != gen.SearchResultTypeSection {
			t.Fatalf("matching section = %+v", sec)
		}
		// Ranks run on across pages of results.
		second := getJSON[gen.SearchPageList](t, ts, w.reader, "/spaces/"+sp.Id+"/search?query=tarball&limit=1&page="+url.QueryEscape(
			getJSON[gen.SearchPageList](t, ts, w.reader, "/spaces/"+sp.Id+"/search?query=tarball&limit=1").Next.Page))
		if len(second.Items) != 1 || second.Items[0].Rank != 2 || second.Items[0].Title != "Install" {
			t.Fatalf("second page = %+v", second.Items)
		}
	})

	t.Run("AMoveChangesTheAncestors", func(t *testing.T) {
		ids := getJSON[gen.SearchPageList](t, ts, w.reader, "/spaces/"+sp.Id+"/search?query=homebrew")
		if len(ids.Items) != 1 {
			t.Fatalf("hits = %v", searchTitles(ids))
		}
		move := w.create(t, w.admin, sp.Id, "Move")
		w.apply(t, w.admin, sp.Id, move.Id, movePage(ids.Items[0].Id, ""))
		w.merged(t, sp.Id, move.Id)
		l := getJSON[gen.SearchPageList](t, ts, w.reader, "/spaces/"+sp.Id+"/search?query=homebrew")
		if len(l.Items) != 1 || len(l.Items[0].Ancestors) != 0 {
			t.Fatalf("after a move to the top level: %+v", l.Items)
		}
		back := w.create(t, w.admin, sp.Id, "Back")
		w.apply(t, w.admin, sp.Id, back.Id, movePage(ids.Items[0].Id, w.mainPages(t, sp.Id)[0].Id))
		w.merged(t, sp.Id, back.Id)
		l = getJSON[gen.SearchPageList](t, ts, w.reader, "/spaces/"+sp.Id+"/search?query=homebrew")
		if len(l.Items) != 1 || len(l.Items[0].Ancestors) != 1 || l.Items[0].Ancestors[0].Title != "Guide" {
			t.Fatalf("after a move under Guide: %+v", l.Items)
		}
	})

	t.Run("OrganizationSearchGroupsCarryTypeAndScore", func(t *testing.T) {
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Notes", "")
		w.seed(t, other.Id, "Tarballs", "About tarball files.\n")
		r := ts.Expect(t, http.StatusOK, w.reader, "GET", "/orgs/"+w.org.Id+"/search?query=tarball", nil)
		wantPublicEverywhere(t, "searchOrganizationContent", r)
		var l gen.SearchSpaceList
		r.Decode(t, &l)
		if len(l.Items) != 2 {
			t.Fatalf("spaces = %+v", l.Items)
		}
		ranks := map[int]bool{}
		for i, s := range l.Items {
			if s.Type != gen.SearchSpaceResultTypeSpace || s.Score != s.Pages[0].Score {
				t.Fatalf("space %d: type %q score %v, its best page %v", i, s.Type, s.Score, s.Pages[0].Score)
			}
			if i > 0 && s.Score > l.Items[i-1].Score {
				t.Fatalf("spaces out of score order: %v then %v", l.Items[i-1].Score, s.Score)
			}
			for _, p := range s.Pages {
				ranks[p.Rank] = true
			}
		}
		// Ranks are positions in the one ranking across spaces.
		if !reflect.DeepEqual(ranks, map[int]bool{1: true, 2: true, 3: true}) {
			t.Fatalf("ranks = %v", ranks)
		}
	})
}

// A translation's result carries the language its space holds the content in.
func TestTranslationResultCarriesItsLanguage(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	w.edit(t, insertMarkdown("Hello world", "Hello world.\n", "hello"))
	tr := w.run(t, w.create(t, "fr", nil).Id)
	r := w.Expect(t, http.StatusOK, w.admin, "GET", trPath(w.org, "/", tr.Id), nil)
	wantPublicEverywhere(t, "getTranslation", r)
	r.Decode(t, &tr)
	if tr.Result == nil || tr.Result.Language != "fr" {
		t.Fatalf("result = %+v", tr.Result)
	}
	result := getJSON[gen.Space](t, w.testServer, w.admin, "/spaces/"+tr.Result.Space)
	if result.Language == nil || *result.Language != tr.Result.Language {
		t.Fatalf("the result space's language %v, the result says %s", result.Language, tr.Result.Language)
	}
	wantPublicEverywhere(t, "listTranslations", w.Expect(t, http.StatusOK, w.admin, "GET", trPath(w.org), nil))
}
