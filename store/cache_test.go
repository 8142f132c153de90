package store

import (
	"context"
	"testing"
)

// A cached space read is never served after a write: not after the space changes, nor after the
// reader's membership does.
func TestSpaceCacheInvalidatedByAnyWrite(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir()+"/quire.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	admin := &User{Email: "a@example.com", DisplayName: "A"}
	reader := &User{Email: "r@example.com", DisplayName: "R"}
	for _, u := range []*User{admin, reader} {
		if _, err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	org, err := st.CreateOrganization(ctx, "Acme", admin.ID)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := st.CreateSpace(ctx, org.ID, admin.ID, SpaceCreate{Title: "Before"})
	if err != nil {
		t.Fatal(err)
	}

	if _, _, member, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID); member {
		t.Fatal("reader is a member before joining")
	}
	if _, err := st.UpdateOrganization(ctx, org.ID, admin.ID, OrganizationUpdate{EmailDomains: &[]string{"example.com"}}); err != nil {
		t.Fatal(err)
	}
	if err := st.JoinOrganization(ctx, org.ID, reader); err != nil {
		t.Fatal(err)
	}
	_, role, member, err := st.FindSpaceForUser(ctx, sp.ID, reader.ID)
	if err != nil || !member || role != RoleRead {
		t.Fatalf("after joining: role %q member %v err %v", role, member, err)
	}
	// Served from the cache now; then a write to the space must show.
	st.FindSpaceForUser(ctx, sp.ID, reader.ID)
	title := "After"
	if _, err := st.UpdateSpace(ctx, sp.ID, SpaceUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	got, _, _, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID)
	if got.Title != "After" {
		t.Fatalf("title = %q after the update", got.Title)
	}
	if _, err := st.UpdateMemberRole(ctx, org.ID, reader.ID, RoleEdit); err != nil {
		t.Fatal(err)
	}
	if _, role, _, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID); role != RoleEdit {
		t.Fatalf("role = %q after the change", role)
	}
	if err := st.RemoveMember(ctx, org.ID, reader.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, member, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID); member {
		t.Fatal("still a member after removal")
	}
}
