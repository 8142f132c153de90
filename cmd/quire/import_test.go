package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/gitsync/gittest"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/sqlite"
)

const fixture = "../../testdata/gitsync/handbook"

// command is one of the binary's subcommands.
type command func(args []string, stdout, stderr *bytes.Buffer) error

func importCmd(args []string, stdout, stderr *bytes.Buffer) error {
	return importSpace(args, stdout, stderr)
}
func exportCmd(args []string, stdout, stderr *bytes.Buffer) error {
	return exportSpace(args, stdout, stderr)
}

func runCommand(t *testing.T, cmd command, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := cmd(args, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// withStore opens the database for a look at what a command wrote.
func withStore(t *testing.T, db string, fn func(st store.Store)) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fn(st)
}

// mustOrg makes a database with a user and an organization, and returns the organization's id.
func mustOrg(t *testing.T, db string) string {
	t.Helper()
	var orgID string
	withStore(t, db, func(st store.Store) {
		ctx := context.Background()
		u := &store.User{Email: "ada@example.com", DisplayName: "Ada"}
		if _, err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		org, err := st.CreateOrganization(ctx, "Docs", u.ID)
		if err != nil {
			t.Fatal(err)
		}
		orgID = org.ID
	})
	return orgID
}

func spacesOf(t *testing.T, db, orgID string) []*store.Space {
	t.Helper()
	var out []*store.Space
	withStore(t, db, func(st store.Store) {
		list, err := st.FindSpaces(context.Background(), orgID, false, nil, store.Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		out = list.Items
	})
	return out
}

// readTree reads every file under dir, by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	return gittest.Files(t, dir, "")
}

func TestImportExportRoundTrip(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "quire.db")
	orgID := mustOrg(t, db)
	ctx := context.Background()

	stdout, stderr, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", fixture)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "imported 8 pages, 4 files, 16 links") || !strings.Contains(stderr, "reading: 8/8\n") {
		t.Fatalf("summary %q, progress %q", stdout, stderr)
	}
	spaces := spacesOf(t, db, orgID)
	if len(spaces) != 1 || spaces[0].Title != "handbook" {
		t.Fatalf("spaces: %+v", spaces)
	}
	first := spaces[0]
	withStore(t, db, func(st store.Store) {
		rev, err := st.FindRevision(ctx, first.ID, first.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		var tree []string
		byTitle := map[string]*store.RevisionPage{}
		for _, p := range rev.Pages {
			tree = append(tree, strings.Repeat("  ", strings.Count(p.Path, "/"))+p.Title+" "+p.Path)
			byTitle[p.Title] = p
		}
		want := []string{
			"Introduction introduction",
			"Getting started getting-started",
			"  Installation getting-started/installation",
			"  Configuration getting-started/configuration",
			"    Environment variables getting-started/configuration/environment",
			"Reference reference",
			"  API reference reference/api", // the page's heading wins over SUMMARY's link text
			"  FAQ reference/faq",           // no heading: SUMMARY's link text
		}
		if strings.Join(tree, "\n") != strings.Join(want, "\n") {
			t.Fatalf("tree:\n%s", strings.Join(tree, "\n"))
		}
		intro := byTitle["Introduction"]
		if intro.Description != "What the handbook covers and how to read it" || intro.Icon == nil || *intro.Icon != "book-open" {
			t.Errorf("introduction metadata: %+v", intro)
		}
		if !byTitle["Getting started"].NoIndex || !byTitle["Environment variables"].Hidden || byTitle["Configuration"].Description == "" {
			t.Errorf("metadata lost")
		}
		files, err := st.FindAllFiles(ctx, rev.ID)
		if err != nil {
			t.Fatal(err)
		}
		fileID := map[string]string{}
		for _, f := range files {
			fileID[f.Name] = f.ID
		}
		if len(files) != 4 || fileID["image (1).png"] == "" || fileID["screen shot.png"] == "" || fileID["unused.txt"] == "" || fileID["example.yaml"] == "" {
			t.Fatalf("files: %v", fileID)
		}
		pages, err := st.FindPagesWithBodies(ctx, rev.ID, []string{intro.ID, byTitle["Installation"].ID, byTitle["Getting started"].ID})
		if err != nil {
			t.Fatal(err)
		}
		if md := pages[0].Markdown; !strings.Contains(md, `<img src="/files/`+fileID["image (1).png"]+`"`) ||
			!strings.Contains(md, "(/pages/"+byTitle["Installation"].ID+")") || !strings.Contains(md, "(/pages/"+byTitle["FAQ"].ID+"#licensing)") {
			t.Errorf("introduction's links not resolved:\n%s", md)
		}
		if md := pages[1].Markdown; !strings.Contains(md, "![The installer](/files/"+fileID["screen shot.png"]+")") ||
			!strings.Contains(md, "[not a page](nowhere.md)") {
			t.Errorf("installation's links:\n%s", md)
		}
		// Links the store does not rewrite by ref (GitBook's blocks, HTML, reference definitions)
		// become relative paths it resolves from the page's path.
		if md := pages[2].Markdown; !strings.Contains(md, `{% content-ref url="getting-started/installation.md" %}`) ||
			!strings.Contains(md, `<a href="reference/faq.md">`) || !strings.Contains(md, "[intro]: introduction.md") {
			t.Errorf("getting started's links:\n%s", md)
		}
		_, stats, err := st.FindLinks(ctx, rev.ID, store.LinkFilter{}, store.Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if stats.Total < 10 || stats.Broken != 0 {
			t.Errorf("links: %+v", stats)
		}
		crs, err := st.FindChangeRequests(ctx, store.ChangeRequestFilter{SpaceID: first.ID, Status: "merged"}, store.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(crs.Items) != 1 || crs.Items[0].Status != "merged" {
			t.Errorf("change requests: %+v", crs.Items)
		}
	})

	a := filepath.Join(tmp, "a")
	if stdout, _, err = runCommand(t, exportCmd, "--db", db, "--space", first.ID, "--to", a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "exported 7 pages, 4 files") { // the Reference group has no file
		t.Errorf("export summary %q", stdout)
	}
	exported := readTree(t, a)
	src := readTree(t, fixture)
	// Files already as quire writes them come out byte for byte; a file linked from outside
	// .gitbook/assets/ moves in there, its links following.
	for _, same := range []string{"getting-started/configuration/environment.md", "getting-started/installation.md", ".gitbook.yaml",
		".gitbook/assets/image (1).png", ".gitbook/assets/unused.txt"} {
		want := strings.Replace(src[same], "../files/example.yaml", "../.gitbook/assets/example.yaml", 1)
		if exported[same] == "" || exported[same] != want {
			t.Errorf("%s differs from the fixture:\n%s", same, exported[same])
		}
	}
	if exported[".gitbook/assets/example.yaml"] != src["files/example.yaml"] {
		t.Errorf("example.yaml not under the assets")
	}
	wantSummary := `# Table of contents

* [Introduction](README.md)
* [Getting started](getting-started/README.md)
  * [Installation](getting-started/installation.md)
  * [Configuration](getting-started/configuration/README.md)
    * [Environment variables](getting-started/configuration/environment.md)

## Reference

* [API reference](reference/api.md)
* [FAQ](reference/faq.md)
`
	if exported["SUMMARY.md"] != wantSummary {
		t.Errorf("SUMMARY.md:\n%s", exported["SUMMARY.md"])
	}
	if !strings.Contains(exported["getting-started/README.md"], `{% content-ref url="installation.md" %}`) ||
		!strings.Contains(exported["getting-started/README.md"], `<a href="../reference/faq.md">`) {
		t.Errorf("getting-started/README.md:\n%s", exported["getting-started/README.md"])
	}
	if !strings.Contains(exported["README.md"], `<img src=".gitbook/assets/image (1).png"`) ||
		!strings.Contains(exported["README.md"], "[FAQ](reference/faq.md#licensing)") || strings.Contains(exported["README.md"], "layout") {
		t.Errorf("README.md:\n%s", exported["README.md"])
	}
	if _, _, err := runCommand(t, exportCmd, "--db", db, "--space", first.ID, "--to", a); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("export into a non-empty directory: %v", err)
	}

	// Import what was exported, export again: the same tree.
	if _, _, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", a); err != nil {
		t.Fatal(err)
	}
	var second *store.Space
	for _, sp := range spacesOf(t, db, orgID) {
		if sp.ID != first.ID {
			second = sp
		}
	}
	if second == nil || second.Title != "a" {
		t.Fatalf("second space: %+v", second)
	}
	b := filepath.Join(tmp, "b")
	if _, _, err := runCommand(t, exportCmd, "--db", db, "--space", second.ID, "--to", b); err != nil {
		t.Fatal(err)
	}
	again := readTree(t, b)
	if len(again) != len(exported) || len(exported) != 13 {
		t.Fatalf("%d files, then %d", len(exported), len(again))
	}
	for name, data := range exported {
		if again[name] != data {
			t.Errorf("%s differs after the round trip:\n%s\n---\n%s", name, data, again[name])
		}
	}
}

func TestImportIntoExistingSpace(t *testing.T) {
	db := filepath.Join(t.TempDir(), "quire.db")
	orgID := mustOrg(t, db)
	if _, _, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", fixture); err != nil {
		t.Fatal(err)
	}
	sp := spacesOf(t, db, orgID)[0]
	// Twice into the same space: the second copy's top-level slugs step aside.
	if _, _, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", fixture, "--space", sp.ID); err != nil {
		t.Fatal(err)
	}
	if n := len(spacesOf(t, db, orgID)); n != 1 {
		t.Fatalf("%d spaces", n)
	}
	withStore(t, db, func(st store.Store) {
		sp, err := st.FindSpace(context.Background(), sp.ID)
		if err != nil {
			t.Fatal(err)
		}
		rev, err := st.FindRevision(context.Background(), sp.ID, sp.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		paths := map[string]bool{}
		for _, p := range rev.Pages {
			paths[p.Path] = true
		}
		if len(rev.Pages) != 16 || !paths["introduction-2"] || !paths["getting-started-2/configuration/environment"] {
			t.Fatalf("%d pages: %v", len(rev.Pages), paths)
		}
		// The second copy's links follow its new paths.
		var second string
		for _, p := range rev.Pages {
			if p.Path == "getting-started-2" {
				second = p.ID
			}
		}
		if pages, err := st.FindPagesWithBodies(context.Background(), rev.ID, []string{second}); err != nil || len(pages) != 1 ||
			!strings.Contains(pages[0].Markdown, "[intro]: introduction-2.md") ||
			!strings.Contains(pages[0].Markdown, `url="getting-started-2/installation.md"`) {
			t.Errorf("second copy's getting started: %v %v", pages, err)
		}
		if _, stats, err := st.FindLinks(context.Background(), rev.ID, store.LinkFilter{}, store.Page{Limit: 100}); err != nil ||
			stats.Broken != 0 || stats.Total < 20 {
			t.Errorf("links: %+v %v", stats, err)
		}
		// A locked space is refused before anything is written.
		locked := "locked"
		if _, err := st.UpdateSpace(context.Background(), sp.ID, store.SpaceUpdate{EditMode: &locked}); err != nil {
			t.Fatal(err)
		}
	})
	_, _, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", fixture, "--space", sp.ID)
	if err == nil || !strings.Contains(err.Error(), "nothing imported: space "+sp.ID+" is locked") {
		t.Fatalf("import into a locked space: %v", err)
	}
	withStore(t, db, func(st store.Store) {
		for status, want := range map[string]int{"merged": 2, "archived": 0, "open": 0} {
			crs, err := st.FindChangeRequests(context.Background(), store.ChangeRequestFilter{SpaceID: sp.ID, Status: status}, store.Page{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(crs.Items) != want {
				t.Errorf("%d %s change requests, want %d", len(crs.Items), status, want)
			}
		}
		sp, err := st.FindSpace(context.Background(), sp.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rev, err := st.FindRevision(context.Background(), sp.ID, sp.RevisionID); err != nil || len(rev.Pages) != 16 {
			t.Errorf("content changed: %v", err)
		}
	})
}
