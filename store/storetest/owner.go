package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// Owner is where most store-level tests and benchmarks start: a user, with their API token, who
// administers an organization "Acme".
type Owner struct {
	User  *store.User
	Token string
	Org   *store.Organization
}

// MustOwner creates an Owner in st; the user's display name is the part of email before the @.
func MustOwner(tb testing.TB, st store.Store, email string) Owner {
	tb.Helper()
	ctx := context.Background()
	u := &store.User{Email: email, DisplayName: email[:strings.IndexByte(email, '@')]}
	token, err := st.CreateUser(ctx, u)
	if err != nil {
		tb.Fatal(err)
	}
	org, err := st.CreateOrganization(ctx, "Acme", u.ID)
	if err != nil {
		tb.Fatal(err)
	}
	return Owner{User: u, Token: token, Org: org}
}

// MustSpace creates a space of the owner's organization.
func (o Owner) MustSpace(tb testing.TB, st store.Store, title string) *store.Space {
	tb.Helper()
	sp, err := st.CreateSpace(context.Background(), o.Org.ID, o.User.ID, store.SpaceCreate{Title: title})
	if err != nil {
		tb.Fatal(err)
	}
	return sp
}
