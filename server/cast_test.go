package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

// The organization tests' cast (orgs, members, teams, conversations, middleware): people known by
// first name, each with one email and display name, seated by newCast in an organization "Acme"
// that alice administers, beside an outsider, olga, who administers "Elsewhere". The content
// areas use world (kit_test.go) instead, whose roles are fixed.

// person is who a first name stands for in a cast.
type person struct{ email, name string }

var people = map[string]person{
	"alice": {"alice@acme.test", "Alice Admin"},
	"bob":   {"bob@acme.test", "Bob Builder"},
	"carol": {"carol@partners.test", "Carol Singer"},
	"dave":  {"dave@guests.test", "Dave"},
	"rita":  {"rita@readers.test", "Rita"},
	"ed":    {"ed@editors.test", "Ed"},
	"gus":   {"gus@guests.test", "Gus"},
	"olga":  {"olga@elsewhere.test", "Olga"},
}

// cast is a server with Acme (org), administered by alice, the members newCast was asked for
// (nil for the others), and olga, the outsider, with Elsewhere (other).
type cast struct {
	*testServer
	org, other                            gen.Organization
	alice, outsider                       *testUser
	bob, carol, dave, rita, ed, gus, olga *testUser
}

// newCast seats each "name:role" in Acme, in the order given (the order they joined): role is a
// member role or "guest"; a bare "name" is a user who is no member of Acme.
func newCast(t testing.TB, seats ...string) *cast {
	t.Helper()
	return newCastWith(t, server.Options{}, seats...)
}

// newCastWith is newCast on a server with options.
func newCastWith(t testing.TB, opts server.Options, seats ...string) *cast {
	t.Helper()
	ts := newTestServer(t, opts)
	c := &cast{testServer: ts}
	c.alice = c.person(t, "alice")
	c.org = ts.MustCreateOrg(t, c.alice, "Acme")
	for _, seat := range seats {
		name, role, joins := strings.Cut(seat, ":")
		u := c.person(t, name)
		if !joins {
			continue
		}
		if role == "guest" {
			role = ""
		}
		ts.MustAddMember(t, c.alice, c.org.Id, u, role)
	}
	c.olga = c.person(t, "olga")
	c.outsider = c.olga
	c.other = ts.MustCreateOrg(t, c.olga, "Elsewhere")
	return c
}

// person creates the user a first name stands for and sets the cast's field of that name.
func (c *cast) person(t testing.TB, name string) *testUser {
	t.Helper()
	p, ok := people[name]
	if !ok {
		t.Fatalf("no one called %q in the cast", name)
	}
	u := c.MustCreateUser(t, p.email, p.name)
	fields := map[string]**testUser{"alice": &c.alice, "bob": &c.bob, "carol": &c.carol, "dave": &c.dave,
		"rita": &c.rita, "ed": &c.ed, "gus": &c.gus, "olga": &c.olga}
	*fields[name] = u
	return u
}

// strangers runs the two refusals every organization operation shares: a user of another
// organization is answered 404 and a request without a token 401.
func (c *cast) strangers(t *testing.T, method, path string, body any) {
	t.Helper()
	t.Run("UserOfAnotherOrganization", func(t *testing.T) {
		c.Expect(t, http.StatusNotFound, c.outsider, method, path, body)
	})
	t.Run("NoToken", func(t *testing.T) {
		c.Expect(t, http.StatusUnauthorized, nil, method, path, body)
	})
}

// memberPath is the path of a member of Acme (with suffix).
func (c *cast) memberPath(u *testUser, suffix ...string) string {
	return "/orgs/" + c.org.Id + "/members/" + u.ID + strings.Join(suffix, "")
}

// newAcme is the smallest cast: a server where alice administers Acme, and no one else.
func newAcme(t testing.TB) (*testServer, *testUser, gen.Organization) {
	t.Helper()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, people["alice"].email, people["alice"].name)
	return ts, alice, ts.MustCreateOrg(t, alice, "Acme")
}
