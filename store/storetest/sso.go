package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// samlProviders checks the providers' life cycle: default team and role, the organization's sso
// flag, paging, and that nothing of one organization shows through another.
func samlProviders(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	st := w.st
	team, err := st.CreateTeam(ctx, w.org, w.user, "Staff", nil)
	if err != nil {
		t.Fatal(err)
	}
	other := &store.User{Email: "other@elsewhere.example", DisplayName: "Other"}
	if _, err := st.CreateUser(ctx, other); err != nil {
		t.Fatal(err)
	}
	otherOrg, err := st.CreateOrganization(ctx, "Elsewhere", other.ID)
	if err != nil {
		t.Fatal(err)
	}
	otherTeam, err := st.CreateTeam(ctx, otherOrg.ID, other.ID, "Theirs", nil)
	if err != nil {
		t.Fatal(err)
	}
	base := store.SAMLProviderCreate{Label: "Okta", EntityID: "https://idp.example/metadata", Certificate: "CERT", SSOURL: "https://idp.example/sso"}

	t.Run("CreateTakesTheOrganizationDefaultRole", func(t *testing.T) {
		p, err := st.CreateSAMLProvider(ctx, w.org, base)
		if err != nil {
			t.Fatal(err)
		}
		if p.OrganizationID != w.org || p.DefaultRole != store.RoleRead || p.DefaultTeam != nil || p.Label != "Okta" || p.CreatedAt.IsZero() {
			t.Fatalf("created %+v", p)
		}
		o, err := st.FindOrganizationByID(ctx, w.org)
		if err != nil || !o.SSO {
			t.Fatalf("the organization's sso flag is off after a provider was added (%v)", err)
		}
		off := false
		_, err = st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{SSO: &off})
		wantCode(t, err, store.EINVALID)
		if err := st.DeleteSAMLProvider(ctx, w.org, p.ID); err != nil {
			t.Fatal(err)
		}
		if o, err := st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{SSO: &off}); err != nil || o.SSO {
			t.Fatalf("without providers the sso flag turns off: %+v (%v)", o, err)
		}
	})
	c := base
	c.DefaultTeamID = team.ID
	edit := store.RoleEdit
	c.DefaultRole = &edit
	p, err := st.CreateSAMLProvider(ctx, w.org, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("DefaultTeamAndRole", func(t *testing.T) {
		got, err := st.FindSAMLProvider(ctx, w.org, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.DefaultTeam == nil || got.DefaultTeam.ID != team.ID || got.DefaultRole != store.RoleEdit || got.Certificate != "CERT" {
			t.Fatalf("found %+v", got)
		}
	})
	t.Run("TeamOfAnotherOrganization", func(t *testing.T) {
		bad := base
		bad.DefaultTeamID = otherTeam.ID
		_, err := st.CreateSAMLProvider(ctx, w.org, bad)
		wantCode(t, err, store.EINVALID)
		_, err = st.UpdateSAMLProvider(ctx, w.org, p.ID, store.SAMLProviderUpdate{DefaultTeamID: &otherTeam.ID})
		wantCode(t, err, store.EINVALID)
		got, _ := st.FindSAMLProvider(ctx, w.org, p.ID)
		if got.DefaultTeam == nil || got.DefaultTeam.ID != team.ID {
			t.Fatal("a refused update changed the default team")
		}
	})
	t.Run("Update", func(t *testing.T) {
		label, none, guest := "Okta EU", "", store.RoleGuest
		got, err := st.UpdateSAMLProvider(ctx, w.org, p.ID, store.SAMLProviderUpdate{Label: &label, DefaultTeamID: &none, DefaultRole: &guest})
		if err != nil {
			t.Fatal(err)
		}
		if got.Label != "Okta EU" || got.DefaultTeam != nil || got.DefaultRole != store.RoleGuest || got.SSOURL != base.SSOURL {
			t.Fatalf("updated %+v", got)
		}
		if _, err := st.UpdateSAMLProvider(ctx, w.org, p.ID, store.SAMLProviderUpdate{DefaultTeamID: &team.ID, DefaultRole: &edit}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("OtherOrganizations", func(t *testing.T) {
		_, err := st.FindSAMLProvider(ctx, otherOrg.ID, p.ID)
		wantCode(t, err, store.ENOTFOUND)
		label := "Hijacked"
		_, err = st.UpdateSAMLProvider(ctx, otherOrg.ID, p.ID, store.SAMLProviderUpdate{Label: &label})
		wantCode(t, err, store.ENOTFOUND)
		if err := st.DeleteSAMLProvider(ctx, otherOrg.ID, p.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := st.FindSAMLProviderByID(ctx, p.ID); err != nil {
			t.Fatalf("a delete through another organization removed the provider: %v", err)
		}
		list, err := st.FindSAMLProviders(ctx, otherOrg.ID, store.Page{})
		if err != nil || list.Count != 0 || len(list.Items) != 0 {
			t.Fatalf("another organization lists %+v (%v)", list, err)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		second, err := st.CreateSAMLProvider(ctx, w.org, base)
		if err != nil {
			t.Fatal(err)
		}
		page1, err := st.FindSAMLProviders(ctx, w.org, store.Page{Limit: 1})
		if err != nil || page1.Count != 2 || len(page1.Items) != 1 || page1.Items[0].ID != p.ID || page1.Next == "" {
			t.Fatalf("page 1 %+v (%v)", page1, err)
		}
		page2, err := st.FindSAMLProviders(ctx, w.org, store.Page{Limit: 1, Cursor: page1.Next})
		if err != nil || len(page2.Items) != 1 || page2.Items[0].ID != second.ID || page2.Next != "" {
			t.Fatalf("page 2 %+v (%v)", page2, err)
		}
		if err := st.DeleteSAMLProvider(ctx, w.org, second.ID); err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteSAMLProvider(ctx, w.org, second.ID); err != nil { // absent: no error
			t.Fatal(err)
		}
		_, err = st.FindSAMLProvider(ctx, w.org, second.ID)
		wantCode(t, err, store.ENOTFOUND)
	})
	t.Run("DeletedTeam", func(t *testing.T) {
		if err := st.DeleteTeam(ctx, w.org, team.ID); err != nil {
			t.Fatal(err)
		}
		got, err := st.FindSAMLProvider(ctx, w.org, p.ID)
		if err != nil || got.DefaultTeam != nil {
			t.Fatalf("the deleted team is still the default: %+v (%v)", got, err)
		}
	})
}

// samlLogins checks LoginWithSAML: users created or linked by email, members with the
// provider's defaults, assertion ids accepted once until they expire, nothing left by a replay.
func samlLogins(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	st := w.st
	team, err := st.CreateTeam(ctx, w.org, w.user, "Staff", nil)
	if err != nil {
		t.Fatal(err)
	}
	edit := store.RoleEdit
	p, err := st.CreateSAMLProvider(ctx, w.org, store.SAMLProviderCreate{Label: "Okta", EntityID: "https://idp.example/metadata",
		Certificate: "CERT", SSOURL: "https://idp.example/sso", DefaultTeamID: team.ID, DefaultRole: &edit})
	if err != nil {
		t.Fatal(err)
	}
	assertion := func(id, email string) store.SAMLAssertion {
		return store.SAMLAssertion{ID: id, ExpiresAt: clock.Now().Add(5 * time.Minute), Email: email, DisplayName: "Dana"}
	}
	var dana string
	t.Run("FirstLoginCreates", func(t *testing.T) {
		l, err := st.LoginWithSAML(ctx, p.ID, assertion("a1", "dana@example.com"))
		if err != nil {
			t.Fatal(err)
		}
		m := l.Member
		if !l.UserCreated || !l.Joined || !m.SSO || m.Role != store.RoleEdit || m.Teams != 1 || m.User.Email != "dana@example.com" ||
			m.User.DisplayName != "Dana" || !m.User.EmailVerified {
			t.Fatalf("login %+v member %+v", l, m)
		}
		u, _, err := st.FindUserByToken(ctx, l.Token)
		if err != nil || u.ID != m.User.ID {
			t.Fatalf("the token is not the member's: %v", err)
		}
		dana = u.ID
	})
	t.Run("ReplayChangesNothing", func(t *testing.T) {
		_, err := st.LoginWithSAML(ctx, p.ID, assertion("a1", "someone.new@example.com"))
		wantCode(t, err, store.ECONFLICT)
		if _, _, err := st.CreateToken(ctx, "someone.new@example.com", "x"); store.ErrorCode(err) != store.ENOTFOUND {
			t.Fatalf("a replayed assertion created its user (%v)", err)
		}
	})
	t.Run("SecondLoginReuses", func(t *testing.T) {
		l, err := st.LoginWithSAML(ctx, p.ID, assertion("a2", "DANA@example.com"))
		if err != nil {
			t.Fatal(err)
		}
		if l.UserCreated || l.Joined || l.Member.User.ID != dana {
			t.Fatalf("login %+v", l)
		}
	})
	t.Run("ExistingMemberKeepsRoleAndIsMarked", func(t *testing.T) {
		l, err := st.LoginWithSAML(ctx, p.ID, assertion("a3", "owner@example.com"))
		if err != nil {
			t.Fatal(err)
		}
		if l.UserCreated || l.Joined || l.Member.User.ID != w.user || l.Member.Role != store.RoleAdmin || !l.Member.SSO || l.Member.Teams != 0 {
			t.Fatalf("login %+v member %+v", l, l.Member)
		}
	})
	t.Run("AccountOutsideTheOrganization", func(t *testing.T) {
		out := &store.User{Email: "outsider@example.org", DisplayName: "Outsider"}
		if _, err := st.CreateUser(ctx, out); err != nil {
			t.Fatal(err)
		}
		_, err := st.LoginWithSAML(ctx, p.ID, assertion("o1", "outsider@example.org"))
		wantCode(t, err, store.EFORBIDDEN)
		if _, err := st.FindMember(ctx, w.org, out.ID); store.ErrorCode(err) != store.ENOTFOUND {
			t.Fatalf("the outsider became a member (%v)", err)
		}
		// Refused, the assertion was not consumed: the same id logs a member in.
		if _, err := st.LoginWithSAML(ctx, p.ID, assertion("o1", "dana@example.com")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("IdsArePerProvider", func(t *testing.T) {
		q, err := st.CreateSAMLProvider(ctx, w.org, store.SAMLProviderCreate{Label: "Azure", EntityID: "https://azure.example/",
			Certificate: "CERT", SSOURL: "https://azure.example/sso"})
		if err != nil {
			t.Fatal(err)
		}
		l, err := st.LoginWithSAML(ctx, q.ID, assertion("a1", "dana@example.com"))
		if err != nil || l.Member.User.ID != dana {
			t.Fatalf("login %+v (%v)", l, err)
		}
	})
	t.Run("ExpiredIdsAreForgotten", func(t *testing.T) {
		clock.advance(time.Hour)
		// Long past its expiry the assertion itself is refused before the store sees it; its id
		// no longer needs keeping.
		if _, err := st.LoginWithSAML(ctx, p.ID, assertion("a1", "dana@example.com")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("UnknownProvider", func(t *testing.T) {
		_, err := st.LoginWithSAML(ctx, "nosuchprovider000000", assertion("b1", "eve@example.com"))
		wantCode(t, err, store.ENOTFOUND)
	})
	t.Run("MarkedMemberIsLinked", func(t *testing.T) {
		// A member marked SSO-managed by an admin signs in through the provider as themselves.
		u := &store.User{Email: "gus@example.com", DisplayName: "Gus"}
		if _, err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		_, err := st.SetMemberSSO(ctx, w.org, u.ID)
		wantCode(t, err, store.ENOTFOUND) // not a member yet
		if _, err := st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{EmailDomains: &[]string{"example.com"}}); err != nil {
			t.Fatal(err)
		}
		if err := st.JoinOrganization(ctx, w.org, u); err != nil {
			t.Fatal(err)
		}
		m, err := st.SetMemberSSO(ctx, w.org, u.ID)
		if err != nil || !m.SSO {
			t.Fatalf("member %+v (%v)", m, err)
		}
		l, err := st.LoginWithSAML(ctx, p.ID, assertion("g1", "gus@example.com"))
		if err != nil || l.UserCreated || l.Joined || l.Member.User.ID != u.ID || l.Member.Role != store.RoleRead {
			t.Fatalf("login %+v (%v)", l, err)
		}
	})
}
