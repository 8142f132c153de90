package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// A layout with reusable contents as GitBook's Git Sync writes them imports into a space's
// reusable contents, pages including them by id; exporting it writes the same layout back.
func TestImportExportReusableContents(t *testing.T) {
	from := t.TempDir()
	files := map[string]string{
		"SUMMARY.md":                      "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n",
		"README.md":                       "# Home\n\n{% include \".gitbook/includes/warning.md\" %}\n",
		"guide/README.md":                 "# Guide\n\nText.\n",
		"guide/setup.md":                  "# Setup\n\nFirst:\n\n{% include \"../.gitbook/includes/warning.md\" %}\n\n{% include \"../.gitbook/includes/missing.md\" %}\n",
		".gitbook/includes/warning.md":    "---\ntitle: Warning\n---\n\n# Careful\n\nMind [the setup](../../guide/setup.md).\n",
		".gitbook/includes/unused-one.md": "---\ntitle: Unused one\n---\n\nNobody includes me.\n",
	}
	for name, body := range files {
		full := filepath.Join(from, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "quire.db")
	orgID := mustOrg(t, db)
	_, stderr, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", from)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "missing.md") {
		t.Errorf("the include of no file was not noted: %s", stderr)
	}
	sp := spacesOf(t, db, orgID)[0]
	withStore(t, db, func(st store.Store) {
		ctx := context.Background()
		all, err := st.FindReusableContents(ctx, sp.RevisionID)
		if err != nil || len(all) != 2 {
			t.Fatalf("reusable contents: %v %v", all, err)
		}
		var warn *store.ReusableContent
		for _, r := range all {
			if r.Title == "Warning" {
				warn = r
			}
		}
		if warn == nil || !strings.HasPrefix(warn.Markdown, "# Careful\n") {
			t.Fatalf("warning: %+v", warn)
		}
		setup, err := st.FindPageByPath(ctx, sp.RevisionID, "guide/setup")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(warn.Markdown, "(/pages/"+setup.ID+")") {
			t.Errorf("the reusable content's link to the setup page: %q", warn.Markdown)
		}
		if want := "{% include \"" + warn.ID + "\" %}"; !strings.Contains(setup.Markdown, want) || strings.Contains(setup.Markdown, "missing") {
			t.Errorf("setup's markdown %q, want %s and no missing include", setup.Markdown, want)
		}
	})
	to := filepath.Join(t.TempDir(), "out")
	if _, _, err := runCommand(t, exportCmd, "--db", db, "--space", sp.ID, "--to", to); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(to, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if got := read(".gitbook/includes/warning.md"); got != files[".gitbook/includes/warning.md"] {
		t.Errorf("exported warning.md:\n%s", got)
	}
	if got := read(".gitbook/includes/unused-one.md"); got != files[".gitbook/includes/unused-one.md"] {
		t.Errorf("exported unused-one.md:\n%s", got)
	}
	if got := read("guide/setup.md"); !strings.Contains(got, "{% include \"../.gitbook/includes/warning.md\" %}") {
		t.Errorf("exported setup.md:\n%s", got)
	}
	if got := read("README.md"); !strings.Contains(got, "{% include \".gitbook/includes/warning.md\" %}") {
		t.Errorf("exported README.md:\n%s", got)
	}
}
