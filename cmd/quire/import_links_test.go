package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// Link pages opening a page of the space, a space, or a page of another space are imported from
// SUMMARY.md's `"link"` items, stored with their targets, and exported as the same items.
func TestImportExportLinksToPagesAndSpaces(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "quire.db")
	orgID := mustOrg(t, db)
	ctx := context.Background()
	if _, _, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", fixture); err != nil {
		t.Fatal(err)
	}
	handbook := spacesOf(t, db, orgID)[0]
	var faq string
	withStore(t, db, func(st store.Store) {
		rev, err := st.FindRevision(ctx, handbook.ID, handbook.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rev.Pages {
			if p.Title == "FAQ" {
				faq = p.ID
			}
		}
	})
	src := filepath.Join(tmp, "links")
	summary := "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Back home](README.md \"link\")\n" +
		"* [Handbook](/spaces/" + handbook.ID + " \"link\")\n* [Their FAQ](/spaces/" + handbook.ID + "/pages/" + faq + " \"link\")\n"
	for name, body := range map[string]string{"README.md": "# Home\n\nWelcome.\n", "guide/README.md": "# Guide\n\nRead on.\n", "SUMMARY.md": summary} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", src); err != nil {
		t.Fatal(err, stderr)
	}
	var links *store.Space
	for _, sp := range spacesOf(t, db, orgID) {
		if sp.ID != handbook.ID {
			links = sp
		}
	}
	withStore(t, db, func(st store.Store) {
		rev, err := st.FindRevision(ctx, links.ID, links.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		byTitle := map[string]*store.RevisionPage{}
		for _, p := range rev.Pages {
			byTitle[p.Title] = p
		}
		for title, want := range map[string]store.PageTarget{
			"Back home": {Kind: store.TargetPage, Page: byTitle["Home"].ID},
			"Handbook":  {Kind: store.TargetSpace, Space: handbook.ID},
			"Their FAQ": {Kind: store.TargetPage, Page: faq, Space: handbook.ID},
		} {
			p := byTitle[title]
			if p == nil || p.Kind() != store.PageLink || p.Target == nil || *p.Target != want {
				t.Errorf("%s: %+v", title, p)
			}
		}
	})
	out := filepath.Join(tmp, "out")
	_, stderr, err := runCommand(t, exportCmd, "--db", db, "--space", links.ID, "--to", out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "left out") {
		t.Errorf("export left links out: %s", stderr)
	}
	if got := readTree(t, out)["SUMMARY.md"]; got != summary {
		t.Errorf("SUMMARY.md exported:\n%s\nwant\n%s", got, summary)
	}
}
