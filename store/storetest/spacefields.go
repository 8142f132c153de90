package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/store"
)

// spaceFields: the fields 0.202.0 added are kept as written, on each engine: a space's icon (and
// its duplicate's), every kind of merge rule, an organization's onboarding preferences, a change
// request's links (ids kept for the links given back, refused for a link it does not have).
func spaceFields(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")

	icon := "https://cdn.example.test/icon.png"
	empty := ""
	got, err := w.st.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{SetIcon: true, Icon: &icon, Emoji: &empty})
	if err != nil || got.Icon == nil || *got.Icon != icon {
		t.Fatalf("set the icon: %+v, %v", got, err)
	}
	dup, err := w.st.DuplicateSpace(ctx, sp.ID, w.user)
	if err != nil || dup.Icon == nil || *dup.Icon != icon {
		t.Fatalf("the duplicate's icon: %+v, %v", dup, err)
	}
	if got, err = w.st.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{SetIcon: true}); err != nil || got.Icon != nil {
		t.Fatalf("remove the icon: %+v, %v", got, err)
	}
	if got, _ = w.st.FindSpace(ctx, dup.ID); got.Icon == nil {
		t.Fatal("removing a space's icon removed its duplicate's")
	}

	rules := store.MergeRules{Type: "rules", Rules: []store.MergeRule{
		{Rule: "require_specific_reviewers", Users: []string{w.user}},
		{Rule: "allow_bypass", Users: []string{w.user}},
		{Rule: "require_author_to_merge"},
		{Rule: "custom", Expression: "true", Message: "Never mind."},
	}}
	if got, err = w.st.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{MergeRules: &rules}); err != nil || !reflect.DeepEqual(got.MergeRules, rules) {
		t.Fatalf("space merge rules %+v, %v", got.MergeRules, err)
	}
	org, err := w.st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{MergeRules: &rules})
	if err != nil || !reflect.DeepEqual(org.MergeRules, rules) {
		t.Fatalf("organization merge rules %+v, %v", org.MergeRules, err)
	}

	if org.Onboarding != nil {
		t.Fatalf("onboarding preferences never given: %+v", org.Onboarding)
	}
	src := "import"
	prefs := store.OnboardingPreferences{Source: &src, Interests: []string{"api-docs"}}
	if _, err := w.st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{Onboarding: &prefs}); err != nil {
		t.Fatal(err)
	}
	if org, err = w.st.FindOrganizationByID(ctx, w.org); err != nil || org.Onboarding == nil || !reflect.DeepEqual(*org.Onboarding, prefs) {
		t.Fatalf("onboarding preferences %+v, %v", org.Onboarding, err)
	}

	cr, err := w.st.CreateChangeRequest(ctx, sp.ID, w.user, "Linked")
	if err != nil || cr.Links != nil {
		t.Fatalf("a new change request: %+v, %v", cr, err)
	}
	title := "T-1"
	links := []store.ChangeRequestLink{{URL: "https://t.example.test/1", Title: &title}, {URL: "https://t.example.test/2"}}
	if cr, err = w.st.UpdateChangeRequest(ctx, sp.ID, cr.ID, store.ChangeRequestUpdate{Links: &links}); err != nil || len(cr.Links) != 2 {
		t.Fatalf("links %+v, %v", cr, err)
	}
	first := cr.Links
	if first[0].ID == "" || first[0].ID == first[1].ID || first[0].URL != links[0].URL || *first[0].Title != title || first[1].Title != nil {
		t.Fatalf("links %+v", first)
	}
	again := []store.ChangeRequestLink{{ID: first[1].ID, URL: "https://t.example.test/2b"}}
	if cr, err = w.st.UpdateChangeRequest(ctx, sp.ID, cr.ID, store.ChangeRequestUpdate{Links: &again}); err != nil ||
		len(cr.Links) != 1 || cr.Links[0].ID != first[1].ID || cr.Links[0].URL != "https://t.example.test/2b" {
		t.Fatalf("links given back: %+v, %v", cr.Links, err)
	}
	kept := cr.Links
	bad := []store.ChangeRequestLink{{ID: "nosuch", URL: "https://t.example.test/3"}}
	_, err = w.st.UpdateChangeRequest(ctx, sp.ID, cr.ID, store.ChangeRequestUpdate{Links: &bad, Subject: str("Changed")})
	wantCode(t, err, store.EINVALID)
	if cr, _ = w.st.FindChangeRequest(ctx, sp.ID, cr.ID); !reflect.DeepEqual(cr.Links, kept) || cr.Subject != "Linked" {
		t.Fatalf("a refused update changed the change request: %+v", cr)
	}
	none := []store.ChangeRequestLink{}
	if cr, err = w.st.UpdateChangeRequest(ctx, sp.ID, cr.ID, store.ChangeRequestUpdate{Links: &none}); err != nil || cr.Links != nil {
		t.Fatalf("no links: %+v, %v", cr.Links, err)
	}
}

// templatesElsewhere: a template's pages as a new space's first revision, as a new change
// request's, and into an open change request; a refused template leaves nothing behind.
func templatesElsewhere(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	pages, err := store.TemplateChanges("product-guide", nil)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := w.st.CreateSpace(ctx, w.org, w.user, store.SpaceCreate{Title: "Guide", Pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	if rev := w.current(sp.ID); len(rev.Pages) != len(pages) {
		t.Fatalf("the new space has %d pages, want the template's %d", len(rev.Pages), len(pages))
	}

	main := w.current(sp.ID).ID
	cr, err := w.st.CreateChangeRequestFromTemplate(ctx, sp.ID, w.user, "More", pages, nil)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := w.st.FindRevision(ctx, sp.ID, cr.RevisionID)
	if err != nil || len(rev.Pages) != 2*len(pages) || cr.RevisionInitial != main {
		t.Fatalf("the change request's revision: %d pages, %v", len(rev.Pages), err)
	}
	if _, err := w.st.ApplyTemplate(ctx, sp.ID, cr.ID, pages, nil); err != nil {
		t.Fatal(err)
	}
	if cr, err = w.st.FindChangeRequest(ctx, sp.ID, cr.ID); err != nil {
		t.Fatal(err)
	}
	if rev, _ = w.st.FindRevision(ctx, sp.ID, cr.RevisionID); len(rev.Pages) != 3*len(pages) {
		t.Fatalf("after a second template the change request has %d pages", len(rev.Pages))
	}
	if w.current(sp.ID).ID != main {
		t.Fatal("templates for a change request moved the space")
	}

	count := func() int {
		l, err := w.st.FindChangeRequests(ctx, store.ChangeRequestFilter{SpaceID: sp.ID, Status: "open"}, store.Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return l.Count
	}
	before := count()
	_, err = w.st.CreateChangeRequestFromTemplate(ctx, sp.ID, w.user, "Missing", pages, map[string]string{"logo": "nosuch"})
	wantCode(t, err, store.EINVALID)
	if count() != before {
		t.Fatal("a refused template opened a change request")
	}
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr.ID, w.user); err != nil || conflicts {
		t.Fatalf("merge: %v %v", conflicts, err)
	}
	_, err = w.st.ApplyTemplate(ctx, sp.ID, cr.ID, pages, nil)
	wantCode(t, err, store.ECONFLICT)
}
