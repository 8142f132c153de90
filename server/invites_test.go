package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/mail/mailtest"
	"github.com/quire-docs/quire/server"
)

func invitePath(orgID string, rest ...string) string {
	return "/orgs/" + orgID + "/invites" + strings.Join(rest, "")
}

// Inviting by email: a quire user of an address is added at once and told so; another address
// gets an invitation, emailed through the SMTP server, which only that address's user can use,
// once, before it expires. A refused join changes nothing.
func TestInvitationsByEmail(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{User: "quire", Password: "secret"})
	w := newWorld(t, server.Options{SMTPURL: "smtp://quire:secret@" + ms.Addr + "?from=docs@quire.test"})
	res := sendJSON[gen.InviteUsersResult](t, w.testServer, http.StatusOK, w.admin, "POST", invitePath(w.org.Id), map[string]any{
		"emails": []any{"New.Person@example.test", map[string]any{"email": w.outsider.Email, "role": "edit"}, "later@example.test"},
		"role":   "comment",
	})
	wantIDs(t, "users added", res.Users, w.outsider.ID)
	if res.Invited != 3 || res.Invitations == nil || len(*res.Invitations) != 2 {
		t.Fatalf("answer %+v", res)
	}
	first, later := (*res.Invitations)[0], (*res.Invitations)[1]
	if !first.Sent || first.Email != "New.Person@example.test" || !strings.HasSuffix(first.Url, invitePath(w.org.Id, "/"+first.Id)) {
		t.Fatalf("invitation %+v", first)
	}
	if m := getJSON[gen.Member](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/members/"+w.outsider.ID); apiRoleOf(m.Role) != "edit" {
		t.Fatalf("the added user's role is %v, want edit", apiRoleOf(m.Role))
	}

	// Sent by the job runner, not by the request.
	if sent := ms.Sent(); len(sent) != 0 {
		t.Fatalf("the request sent %d messages itself", len(sent))
	}
	runJobs(t, w.testServer)
	sent := ms.Sent()
	if len(sent) != 3 {
		t.Fatalf("the SMTP server received %d messages, want 3: %+v", len(sent), sent)
	}
	byTo := map[string]mailtest.Message{}
	for _, m := range sent {
		if m.User != "quire" || m.From != "docs@quire.test" || len(m.To) != 1 {
			t.Fatalf("message %+v", m)
		}
		byTo[m.To[0]] = m
	}
	inv := byTo["New.Person@example.test"].Data
	for _, part := range []string{"Subject: Join Acme on quire", "From: docs@quire.test", first.Url, "comment role"} {
		if !strings.Contains(inv, part) {
			t.Fatalf("the invitation email lacks %q:\n%s", part, inv)
		}
	}
	if !strings.Contains(byTo[w.outsider.Email].Data, "added you to the organization") {
		t.Fatalf("the added user's email:\n%s", byTo[w.outsider.Email].Data)
	}

	join := invitePath(w.org.Id, "/"+first.Id)
	wantMessage(t, w.Expect(t, http.StatusForbidden, w.reader, "POST", join, nil), "another email address")
	newcomer := w.MustCreateUser(t, "new.person@example.test", "Nina")
	w.Expect(t, http.StatusOK, newcomer, "POST", join, nil)
	if m := getJSON[gen.Member](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/members/"+newcomer.ID); apiRoleOf(m.Role) != "comment" {
		t.Fatalf("the newcomer's role is %v, want comment", apiRoleOf(m.Role))
	}
	// Used up: refused, even for its own address.
	wantMessage(t, w.Expect(t, http.StatusConflict, newcomer, "POST", join, nil), "used")

	w.Clock.Advance(inviteTTLForTests + time.Minute)
	late := w.MustCreateUser(t, "later@example.test", "Lou")
	wantMessage(t, w.Expect(t, http.StatusConflict, late, "POST", invitePath(w.org.Id, "/"+later.Id), nil), "expired")
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/members/"+late.ID, nil)

	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", invitePath(w.org.Id), map[string]any{"emails": []any{"a@b.test", "A@b.test"}}), "emails[1]")
	w.Expect(t, http.StatusForbidden, w.editor, "POST", invitePath(w.org.Id), map[string]any{"emails": []any{"x@y.test"}})
}

// inviteTTLForTests is how long quire's email invitations last (server.inviteTTL).
const inviteTTLForTests = 7 * 24 * time.Hour

// apiRoleOf reads a nullable role ("" for a guest).
func apiRoleOf(r interface {
	Get() (gen.MemberRoleOrGuest, error)
}) string {
	v, _ := r.Get()
	return string(v)
}

// Without an SMTP server nothing is sent, and the invitations are answered with their links.
func TestInvitationsWithoutSMTP(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	res := sendJSON[gen.InviteUsersResult](t, w.testServer, http.StatusOK, w.admin, "POST", invitePath(w.org.Id), map[string]any{
		"emails": []any{"someone@example.test"}})
	if res.Invitations == nil || len(*res.Invitations) != 1 || (*res.Invitations)[0].Sent || (*res.Invitations)[0].Url == "" {
		t.Fatalf("answer %+v", res)
	}
	someone := w.MustCreateUser(t, "someone@example.test", "Sam")
	w.Expect(t, http.StatusOK, someone, "POST", invitePath(w.org.Id, "/"+(*res.Invitations)[0].Id), nil)
}

// Invite links: admins make, list, change and delete them; anyone holding one reads it and
// joins with it, while the organization allows invite links.
func TestInviteLinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	links := "/orgs/" + w.org.Id + "/link-invites"
	link := sendJSON[gen.InviteLink](t, w.testServer, http.StatusCreated, w.admin, "POST", links, map[string]any{"role": "read"})
	if apiRoleOf(link.Role) != "read" || !link.Redundant {
		t.Fatalf("link %+v", link)
	}
	w.Expect(t, http.StatusForbidden, w.editor, "POST", links, map[string]any{"role": "read"})
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", links, map[string]any{"role": "owner"})
	wantList(t, "links", getJSON[gen.InviteLinkList](t, w.testServer, w.admin, links), 1, link.Id)
	w.Expect(t, http.StatusForbidden, w.editor, "GET", links, nil)

	seen := getJSON[gen.InviteLink](t, w.testServer, w.outsider, links+"/"+link.Id)
	if seen.Redundant {
		t.Fatal("a link is redundant for someone outside the organization")
	}
	updated := sendJSON[gen.InviteLink](t, w.testServer, http.StatusOK, w.admin, "PATCH", links+"/"+link.Id, map[string]any{"role": "edit"})
	if apiRoleOf(updated.Role) != "edit" {
		t.Fatalf("updated %+v", updated)
	}
	if getJSON[gen.InviteLink](t, w.testServer, w.reader, links+"/"+link.Id).Redundant {
		t.Fatal("an edit link is redundant for a reader")
	}

	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, map[string]any{"inviteLinks": false})
	wantMessage(t, w.Expect(t, http.StatusForbidden, w.outsider, "POST", invitePath(w.org.Id, "/"+link.Id), nil), "invite links")
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/members/"+w.outsider.ID, nil)
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, map[string]any{"inviteLinks": true})
	w.Expect(t, http.StatusOK, w.outsider, "POST", invitePath(w.org.Id, "/"+link.Id), nil)
	if m := getJSON[gen.Member](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/members/"+w.outsider.ID); apiRoleOf(m.Role) != "edit" {
		t.Fatalf("joined with role %v, want edit", apiRoleOf(m.Role))
	}

	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", links+"/"+link.Id, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", links+"/"+link.Id, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", links+"/"+link.Id, nil)
	w.Expect(t, http.StatusNotFound, w.reader, "POST", invitePath(w.org.Id, "/"+link.Id), nil)
}

// TestInviteLinksToContent: a link to a space (or collection) with a level makes who joins a
// guest of the organization granted that level there, and nothing else: the space opens to
// them, another does not. Bad input (both kinds, no level, content of another organization,
// role on a content link) is refused and changes nothing.
func TestInviteLinksToContent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	links := "/orgs/" + w.org.Id + "/link-invites"
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Shared", "")
	closed := w.MustCreateSpace(t, w.admin, w.org.Id, "Closed", "")
	col := w.MustCreateCollection(t, w.admin, w.org.Id, "Handbook", "")
	r := w.Expect(t, http.StatusCreated, w.admin, "POST", links, map[string]any{"level": "comment", "space": sp.Id})
	wantPublic(t, "0.202.0", "createOrganizationInvite", r)
	var link gen.InviteLink
	r.Decode(t, &link)
	if apiRoleOf(link.Level) != "comment" || link.Space == nil || link.Space.Id != sp.Id || link.Role.IsSpecified() {
		t.Fatalf("space link %+v", link)
	}
	seen := w.Expect(t, http.StatusOK, w.outsider, "GET", links+"/"+link.Id, nil)
	wantPublic(t, "0.202.0", "getOrganizationInviteLink", seen)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id, nil)
	w.Expect(t, http.StatusOK, w.outsider, "POST", invitePath(w.org.Id, "/"+link.Id), nil)
	m := getJSON[gen.Member](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/members/"+w.outsider.ID)
	if m.Role.IsSpecified() && !m.Role.IsNull() {
		t.Fatalf("joined through a space link as %v, want a guest", apiRoleOf(m.Role))
	}
	got := getJSON[gen.Space](t, w.testServer, w.outsider, "/spaces/"+sp.Id)
	if got.Id != sp.Id {
		t.Fatalf("the invited space: %+v", got)
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+closed.Id, nil)
	if getJSON[gen.InviteLink](t, w.testServer, w.outsider, links+"/"+link.Id).Redundant != true {
		t.Fatal("a space link is not redundant for who holds its level there")
	}

	// A collection link; its level changes with level, not role.
	colLink := sendJSON[gen.InviteLink](t, w.testServer, http.StatusCreated, w.admin, "POST", links, map[string]any{"level": "read", "collection": col.Id})
	if colLink.Collection == nil || colLink.Collection.Id != col.Id {
		t.Fatalf("collection link %+v", colLink)
	}
	up := w.Expect(t, http.StatusOK, w.admin, "PATCH", links+"/"+colLink.Id, map[string]any{"level": "edit"})
	wantPublic(t, "0.202.0", "updateOrganizationInviteById", up)
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", links+"/"+colLink.Id, map[string]any{"role": "edit"}), "level")
	orgLink := sendJSON[gen.InviteLink](t, w.testServer, http.StatusCreated, w.admin, "POST", links, map[string]any{"role": "read"})
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", links+"/"+orgLink.Id, map[string]any{"level": "edit"}), "role")

	theirs := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
	for _, c := range []struct {
		body map[string]any
		code int
		want string
	}{
		{map[string]any{"level": "read", "space": sp.Id, "collection": col.Id}, 400, "not both"},
		{map[string]any{"space": sp.Id}, 400, "level"},
		{map[string]any{"level": nil, "space": sp.Id}, 400, "level"},
		{map[string]any{"role": "read", "space": sp.Id}, 400, "not both"},
		{map[string]any{}, 400, "role"},
		{map[string]any{"level": "read", "space": theirs.Id}, 404, "Space"},
	} {
		wantMessage(t, w.Expect(t, c.code, w.admin, "POST", links, c.body), c.want)
	}
	if l := getJSON[gen.InviteLinkList](t, w.testServer, w.admin, links); l.Count != 3 {
		t.Fatalf("links after refusals: %d, want 3", l.Count)
	}
}
