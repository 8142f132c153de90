package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// A cached space read is never served after a write: not after the space changes, nor after the
// reader's membership does.
func TestSpaceCacheInvalidatedByAnyWrite(t *testing.T) {
	ctx := context.Background()
	st := openTestStore(t)
	o := storetest.MustOwner(t, st, "a@example.com")
	admin, org := o.User, o.Org
	reader := &store.User{Email: "r@example.com", DisplayName: "R"}
	if _, err := st.CreateUser(ctx, reader); err != nil {
		t.Fatal(err)
	}
	sp, err := st.CreateSpace(ctx, org.ID, admin.ID, store.SpaceCreate{Title: "Before"})
	if err != nil {
		t.Fatal(err)
	}

	if _, _, member, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID); member {
		t.Fatal("reader is a member before joining")
	}
	if _, err := st.UpdateOrganization(ctx, org.ID, admin.ID, store.OrganizationUpdate{EmailDomains: &[]string{"example.com"}}); err != nil {
		t.Fatal(err)
	}
	if err := st.JoinOrganization(ctx, org.ID, reader); err != nil {
		t.Fatal(err)
	}
	_, role, member, err := st.FindSpaceForUser(ctx, sp.ID, reader.ID)
	if err != nil || !member || role != store.RoleRead {
		t.Fatalf("after joining: role %q member %v err %v", role, member, err)
	}
	// Served from the cache now; then a write to the space must show.
	st.FindSpaceForUser(ctx, sp.ID, reader.ID)
	title := "After"
	if _, err := st.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	got, _, _, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID)
	if got.Title != "After" {
		t.Fatalf("title = %q after the update", got.Title)
	}
	if _, err := st.UpdateMemberRole(ctx, org.ID, reader.ID, store.RoleEdit); err != nil {
		t.Fatal(err)
	}
	if _, role, _, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID); role != store.RoleEdit {
		t.Fatalf("role = %q after the change", role)
	}
	if err := st.RemoveMember(ctx, org.ID, reader.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, member, _ := st.FindSpaceForUser(ctx, sp.ID, reader.ID); member {
		t.Fatal("still a member after removal")
	}
}

func TestParseTimeReadsWhatFormatTimeWrites(t *testing.T) {
	for _, want := range []time.Time{
		time.Date(2026, 11, 25, 23, 9, 28, 123456000, time.UTC),
		time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 2, 28, 12, 30, 59, 999999000, time.UTC),
	} {
		if got := parseTime(formatTime(want)); !got.Equal(want) {
			t.Fatalf("parseTime(%q) = %v, want %v", formatTime(want), got, want)
		}
	}
	if got := parseTime("2026-11-25T23:09:28Z"); got.IsZero() {
		t.Fatal("RFC 3339 without fraction not read")
	}
}
