package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// The rows of permissions on spaces, collections and sites: members who read the content read who may;
// its admins (here the organization's) grant, change and remove access.
func matrixPermissionRows() []matrixRow {
	var rows []matrixRow
	for _, k := range []struct {
		kind string
		base func(w *matrixWorld) string
	}{
		{"Space", func(w *matrixWorld) string { return "/spaces/" + w.handbook }},
		{"Collection", func(w *matrixWorld) string { return "/collections/" + w.collection }},
		{"Site", func(w *matrixWorld) string { return w.sitePath(w.site, "") }},
	} {
		base := k.base
		rows = append(rows,
			matrixRow{"inviteTo" + k.kind, matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				return matrixReq("POST", base(w)+"/permissions", map[string]any{"role": "read", "users": []string{w.reader.ID}})
			}},
			matrixRow{"listPermissionsAggregateIn" + k.kind, matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				return matrixReq("GET", base(w)+"/permissions/aggregate", nil)
			}},
			matrixRow{"listUserPermissionsIn" + k.kind, matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				return matrixReq("GET", base(w)+"/permissions/users", nil)
			}},
			matrixRow{"listTeamPermissionsIn" + k.kind, matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				return matrixReq("GET", base(w)+"/permissions/teams", nil)
			}},
			matrixRow{"updateUserPermissionIn" + k.kind, matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				return matrixReq("PATCH", base(w)+"/permissions/users/"+w.commenter.ID, map[string]any{"role": "comment"})
			}},
			matrixRow{"updateTeamPermissionIn" + k.kind, matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				return matrixReq("PATCH", base(w)+"/permissions/teams/"+w.team, map[string]any{"role": "read"})
			}},
			matrixRow{"removeUserFrom" + k.kind, matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				target := w.freshMember(t)
				w.Expect(t, http.StatusNoContent, w.admin, "PATCH", base(w)+"/permissions/users/"+target.ID, map[string]any{"role": "admin"})
				r := matrixReq("DELETE", base(w)+"/permissions/users/"+target.ID, nil)
				r.gone = func(t *testing.T) bool {
					for _, g := range getJSON[struct {
						Items []struct{ User struct{ Id string } }
					}](t, w.testServer, w.admin, base(w)+"/permissions/users").Items {
						if g.User.Id == target.ID {
							return false
						}
					}
					return true
				}
				return r
			}},
			matrixRow{"removeTeamFrom" + k.kind, matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				team := teamCreate(t, w.testServer, w.admin, w.org.Id, w.name("Granted team")).Id
				w.Expect(t, http.StatusNoContent, w.admin, "PATCH", base(w)+"/permissions/teams/"+team, map[string]any{"role": "edit"})
				r := matrixReq("DELETE", base(w)+"/permissions/teams/"+team, nil)
				r.gone = func(t *testing.T) bool {
					for _, g := range getJSON[struct {
						Items []struct{ Team struct{ Id string } }
					}](t, w.testServer, w.admin, base(w)+"/permissions/teams").Items {
						if g.Team.Id == team {
							return false
						}
					}
					return true
				}
				return r
			}},
		)
	}
	return rows
}

// grantCaller is a row of the grants matrix: a person whose access comes from one kind of grant
// (or from none, where a null default level takes it away).
type grantCaller struct {
	name string
	user *testUser
	// want: the status of each check of grantChecks, in order.
	want [7]int
}

// TestAccessMatrixGrants runs the access rules for each kind of grant against one world: a
// space and a collection whose default levels are null (members get nothing by default), a space
// inside that collection, and a person per grant kind. Each check would answer otherwise with
// grants or null levels not enforced.
func TestAccessMatrixGrants(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	closed := w.MustCreateSpace(t, w.admin, org, "Closed", "").Id
	w.updateSpace(t, closed, map[string]any{"defaultLevel": nil})
	cr := w.create(t, w.admin, closed, "Seed")
	w.apply(t, w.admin, closed, cr.Id, insertMarkdown("Secret plans", "The zeppelin launches at dawn.\n", "p"))
	w.merge(t, w.admin, closed, cr.Id)
	col := w.MustCreateCollection(t, w.admin, org, "Private", "").Id
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+col, map[string]any{"defaultLevel": nil})
	inner := w.MustCreateSpace(t, w.admin, org, "Inner", col).Id
	open := w.MustCreateSpace(t, w.admin, org, "Open", "").Id

	teamMember := w.MustCreateUser(t, "tess@acme.test", "Tess")
	w.MustAddMember(t, w.admin, org, teamMember, "read")
	collectionReader := w.MustCreateUser(t, "colin@acme.test", "Colin")
	w.MustAddMember(t, w.admin, org, collectionReader, "read")
	granted := w.MustCreateUser(t, "gina@acme.test", "Gina")
	w.MustAddMember(t, w.admin, org, granted, "read")
	team := teamCreate(t, w.testServer, w.admin, org, "Support", teamMember.ID).Id

	w.Expect(t, http.StatusNoContent, w.admin, "POST", "/spaces/"+closed+"/permissions", map[string]any{"role": "edit", "users": []string{granted.ID}})
	w.Expect(t, http.StatusNoContent, w.admin, "POST", "/spaces/"+closed+"/permissions", map[string]any{"role": "comment", "teams": []string{team}})
	w.Expect(t, http.StatusNoContent, w.admin, "POST", "/spaces/"+closed+"/permissions", map[string]any{"role": "read", "users": []string{w.guest.ID}})
	w.Expect(t, http.StatusNoContent, w.admin, "POST", "/collections/"+col+"/permissions", map[string]any{"role": "edit", "users": []string{collectionReader.ID}})

	comment := map[string]any{"body": map[string]any{"markdown": "Noted."}}
	checks := []struct {
		name         string
		method, path string
		body         any
	}{
		{"getClosed", "GET", "/spaces/" + closed, nil},
		{"readClosedPages", "GET", "/spaces/" + closed + "/content", nil},
		{"commentOnClosed", "POST", "/spaces/" + closed + "/comments", comment},
		{"openChangeRequestOnClosed", "POST", "/spaces/" + closed + "/change-requests", map[string]any{"subject": "Edit"}},
		{"getInner", "GET", "/spaces/" + inner, nil},
		{"editInner", "POST", "/spaces/" + inner + "/change-requests", map[string]any{"subject": "Edit"}},
		{"getOpen", "GET", "/spaces/" + open, nil},
	}
	rows := []grantCaller{
		{"defaultLevelNull", w.reader, [7]int{404, 404, 404, 404, 404, 404, 200}},
		{"userGrant", granted, [7]int{200, 200, 200, 201, 404, 404, 200}},
		{"teamGrant", teamMember, [7]int{200, 200, 200, 403, 404, 404, 200}},
		{"collectionGrantInherited", collectionReader, [7]int{404, 404, 404, 404, 200, 201, 200}},
		{"guest", w.guest, [7]int{200, 200, 403, 403, 404, 404, 404}},
		{"admin", w.admin, [7]int{200, 200, 200, 201, 200, 201, 200}},
		{"outsider", w.outsider, [7]int{404, 404, 404, 404, 404, 404, 404}},
	}
	// What each person's lists and searches show: exactly the spaces they read.
	lists := map[string][]string{
		"defaultLevelNull":         {open},
		"userGrant":                {closed, open},
		"teamGrant":                {closed, open},
		"collectionGrantInherited": {inner, open},
		"guest":                    {closed},
		"admin":                    {closed, inner, open},
	}
	for _, r := range rows {
		for i, c := range checks {
			t.Run(r.name+"/"+c.name, func(t *testing.T) {
				if res := w.Do(t, r.user, c.method, c.path, c.body); res.Status != r.want[i] {
					t.Fatalf("%s %s as %s: %d, want %d: %s", c.method, c.path, r.name, res.Status, r.want[i], res.Body)
				}
			})
		}
		want, ok := lists[r.name]
		if !ok {
			continue
		}
		t.Run(r.name+"/lists", func(t *testing.T) {
			l := w.orgSpaces(t, r.user, org, "")
			wantSet(t, "spaces listed", idsOf(l.Items), want...)
			var hits []string
			for _, h := range searchOrg(t, w, r.user, org, "zeppelin").Items {
				hits = append(hits, h.Id)
			}
			wantSearch := []string{}
			for _, id := range want {
				if id == closed {
					wantSearch = append(wantSearch, closed)
				}
			}
			wantSet(t, "search hits", hits, wantSearch...)
		})
	}

	// The member answers count the spaces each reads, by the same rules.
	t.Run("MemberSpaceCounts", func(t *testing.T) {
		for _, c := range []struct {
			u    *testUser
			want int
		}{{w.reader, 1}, {granted, 2}, {teamMember, 2}, {collectionReader, 2}, {w.guest, 1}, {w.admin, 3}} {
			if m := getJSON[struct{ Spaces int }](t, w.testServer, w.admin, "/orgs/"+org+"/members/"+c.u.ID); m.Spaces != c.want {
				t.Errorf("%s's member answer counts %d spaces, want %d", c.u.Email, m.Spaces, c.want)
			}
		}
	})

	t.Run("Aggregate", func(t *testing.T) {
		type aggregate struct {
			Count int
			Next  *struct{ Page string }
			Items []struct {
				Permission string
				User       struct{ Id string }
			}
		}
		got := map[string]string{}
		var l aggregate
		for path, pages := "/spaces/"+closed+"/permissions/aggregate?limit=2", 0; path != ""; pages++ {
			if pages > 5 {
				t.Fatal("aggregate pages do not end")
			}
			l = getJSON[aggregate](t, w.testServer, w.admin, path)
			for _, it := range l.Items {
				got[it.User.Id] = it.Permission
			}
			path = ""
			if l.Next != nil {
				path = "/spaces/" + closed + "/permissions/aggregate?limit=2&page=" + l.Next.Page
			}
		}
		want := map[string]string{w.admin.ID: "admin", granted.ID: "edit", teamMember.ID: "comment", w.guest.ID: "read"}
		if fmt.Sprint(got) != fmt.Sprint(want) || l.Count != len(want) {
			t.Fatalf("aggregate %v (count %d), want %v", got, l.Count, want)
		}
		edit := getJSON[struct{ Count int }](t, w.testServer, w.admin, "/spaces/"+closed+"/permissions/aggregate?role=edit")
		if edit.Count != 1 {
			t.Fatalf("aggregate with role=edit counts %d, want 1", edit.Count)
		}
	})

	// The app views read through the same rules: the closed space is not shown to a member it is
	// closed to, is shown to the guest granted it, and its home lists its people with their roles.
	t.Run("AppViews", func(t *testing.T) {
		web := &webWorld{world: w}
		reader, guest := web.appLogin(t, w.reader), web.appLogin(t, w.guest)
		web.expect(t, http.StatusNotFound, "/app/s/"+closed, "Cookie", reader)
		home := web.expect(t, http.StatusOK, "/app/s/"+closed, "Cookie", guest)
		wantIn(t, "the closed space's people", home.Body, `<h2 id="people-title">People</h2>`,
			"<li>Gina <span class=\"where\">edit</span></li>", "<li>Tess <span class=\"where\">comment</span></li>",
			"<li>Gus <span class=\"where\">read</span></li>")
		wantNotIn(t, "the closed space's people", home.Body, "Rita")
		web.expect(t, http.StatusNotFound, "/app/s/"+open, "Cookie", guest)
		org := web.expect(t, http.StatusOK, "/app/o/"+org, "Cookie", reader)
		wantIn(t, "the reader's organization", org.Body, `<a href="/app/s/`+open+`">Open</a>`)
		wantNotIn(t, "the reader's organization", org.Body, "/app/s/"+closed)
	})

	t.Run("Sites", func(t *testing.T) {
		sites := "/orgs/" + org + "/sites"
		var site struct{ Id string }
		w.Expect(t, http.StatusCreated, w.admin, "POST", sites, map[string]any{"title": "Internal"}).Decode(t, &site)
		path := sites + "/" + site.Id
		w.Expect(t, http.StatusOK, w.admin, "PATCH", path, map[string]any{"defaultLevel": nil})
		w.Expect(t, http.StatusNoContent, w.admin, "POST", path+"/permissions", map[string]any{"role": "edit", "users": []string{granted.ID}})
		w.Expect(t, http.StatusNoContent, w.admin, "PATCH", path+"/permissions/teams/"+team, map[string]any{"role": "read"})
		w.Expect(t, http.StatusNoContent, w.admin, "POST", path+"/permissions", map[string]any{"role": "read", "users": []string{w.guest.ID}})
		for _, c := range []struct {
			who  string
			u    *testUser
			want int
		}{{"defaultLevelNull", w.reader, 404}, {"userGrant", granted, 200}, {"teamGrant", teamMember, 200}, {"guest", w.guest, 200}, {"outsider", w.outsider, 404}} {
			if res := w.Do(t, c.u, "GET", path, nil); res.Status != c.want {
				t.Fatalf("GET the site as %s: %d, want %d: %s", c.who, res.Status, c.want, res.Body)
			}
		}
		listed := func(u *testUser) []string {
			var ids []string
			for _, s := range getJSON[struct{ Items []struct{ Id string } }](t, w.testServer, u, sites).Items {
				ids = append(ids, s.Id)
			}
			return ids
		}
		if got := listed(w.reader); slices.Contains(got, site.Id) {
			t.Fatalf("a member lists a site whose default level is null: %v", got)
		}
		wantSet(t, "the guest's sites", listed(w.guest), site.Id)
		// A team's grant raises only what it grants: edit needs more than the team's read.
		w.Expect(t, http.StatusForbidden, teamMember, "PATCH", path, map[string]any{"title": "Renamed"})

		type reader struct {
			Permission *string
			User       struct{ Id string }
			Origin     struct {
				Type, Reason, Team string
			}
		}
		l := getJSON[struct {
			Count int
			Items []reader
		}](t, w.testServer, w.admin, path+"/permissions/aggregate?sort=name&order=asc")
		got := map[string]string{}
		for _, it := range l.Items {
			got[it.User.Id] = *it.Permission + " " + it.Origin.Type + " " + it.Origin.Reason + " " + it.Origin.Team
		}
		want := map[string]string{
			w.admin.ID:    "admin organization  ",
			granted.ID:    "edit site member ",
			teamMember.ID: "read site team " + team,
			w.guest.ID:    "read site member ",
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("site aggregate:\n%v\nwant\n%v", got, want)
		}
		inTeam := getJSON[struct{ Count int }](t, w.testServer, w.admin, path+"/permissions/aggregate?team="+team)
		guests := getJSON[struct{ Count int }](t, w.testServer, w.admin, path+"/permissions/aggregate?role=guest")
		if inTeam.Count != 1 || guests.Count != 1 {
			t.Fatalf("aggregate of the team: %d, of guests: %d; want 1 and 1", inTeam.Count, guests.Count)
		}
		// The members' site counts follow: the guest reads the one granted, the reader none.
		for who, want := range map[*testUser]int{w.guest: 1, w.reader: 0, teamMember: 1, w.admin: 1} {
			if m := getJSON[struct{ Sites int }](t, w.testServer, w.admin, "/orgs/"+org+"/members/"+who.ID); m.Sites != want {
				t.Fatalf("%s's member answer counts %d sites, want %d", who.Email, m.Sites, want)
			}
		}
		w.Expect(t, http.StatusResetContent, w.admin, "DELETE", path+"/permissions/users/"+w.guest.ID, nil)
		w.Expect(t, http.StatusNotFound, w.guest, "GET", path, nil)
	})

	t.Run("BadInput", func(t *testing.T) {
		before := getJSON[struct{ Count int }](t, w.testServer, w.admin, "/spaces/"+closed+"/permissions/users").Count
		// A user of another organization, in the same request as a member: nothing changes.
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/"+closed+"/permissions",
			map[string]any{"role": "admin", "users": []string{w.reader.ID, w.outsider.ID}})
		otherTeam := teamCreate(t, w.testServer, w.outsider, w.other.Id, "Theirs").Id
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/"+closed+"/permissions", map[string]any{"role": "read", "teams": []string{otherTeam}})
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", "/spaces/"+closed+"/permissions/users/"+w.outsider.ID, map[string]any{"role": "read"})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/spaces/"+closed+"/permissions", map[string]any{"role": "owner", "users": []string{w.reader.ID}})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/spaces/"+closed+"/permissions", map[string]any{"role": "read"})
		if after := getJSON[struct{ Count int }](t, w.testServer, w.admin, "/spaces/"+closed+"/permissions/users").Count; after != before {
			t.Fatalf("refused grants changed the user grants: %d, then %d", before, after)
		}
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+closed, nil)
		// The outsider learns nothing: the same 404 as a space that does not exist.
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+closed+"/permissions/users", nil)
	})

	t.Run("RevokedAndNullRoleTakeAccessAway", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "PATCH", "/spaces/"+closed+"/permissions/users/"+granted.ID, map[string]any{"role": nil})
		w.Expect(t, http.StatusNotFound, granted, "GET", "/spaces/"+closed, nil)
		w.Expect(t, http.StatusResetContent, w.admin, "DELETE", "/spaces/"+closed+"/permissions/teams/"+team, nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+closed+"/permissions/teams/"+team, nil)
		w.Expect(t, http.StatusNotFound, teamMember, "GET", "/spaces/"+closed, nil)
	})
}

// wantSet fails unless got holds exactly want, in any order.
func wantSet(t testing.TB, what string, got []string, want ...string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Fatalf("%s: %v, want %v", what, g, w)
	}
}
