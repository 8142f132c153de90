package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/store"
)

// copyTree copies the fixture to a fresh directory to break.
func copyTree(t *testing.T, from string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	for name, data := range readTree(t, from) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A broken layout is reported with its file and line, and nothing is written.
func TestImportRefusesBrokenLayouts(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.png")
	if err := os.WriteFile(secret, []byte("not yours"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		break_ func(t *testing.T, dir string)
		want   string
	}{
		{"SummaryLine", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "SUMMARY.md"), "  * [Installation]", "  * Installation without a link\n  * [Installation]")
		}, "SUMMARY.md:5: a list item must be a single link"},
		{"SummaryMissing", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "SUMMARY.md"))
		}, "SUMMARY.md: not found"},
		{"SummaryOutside", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "SUMMARY.md"), "(faq.md)", "(../faq.md)")
		}, "SUMMARY.md:"},
		{"NotUTF8", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "faq.md"), "Go [home]", "Go \xff\xfe [home]")
		}, "faq.md:3: not UTF-8 text"},
		{"AssetOutsideBySymlink", func(t *testing.T, dir string) {
			img := filepath.Join(dir, ".gitbook", "assets", "image (1).png")
			os.Remove(img)
			if err := os.Symlink(secret, img); err != nil {
				t.Skip("no symlinks here")
			}
		}, "resolves outside"},
		{"Frontmatter", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "getting-started", "configuration", "environment.md"), "hidden: true", "hidden: maybe")
		}, "getting-started/configuration/environment.md:2: frontmatter:"},
		{"GitbookYAML", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, ".gitbook.yaml"), "root: ./", "root: ../elsewhere")
		}, `.gitbook.yaml: root "../elsewhere" is outside the repository`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "quire.db")
			orgID := mustOrg(t, db)
			dir := copyTree(t, fixture)
			tc.break_(t, dir)
			_, _, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "nothing imported: ") {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if n := len(spacesOf(t, db, orgID)); n != 0 {
				t.Fatalf("%d spaces written", n)
			}
		})
	}
}

// What GitBook forgives is kept and noted file:line; the import goes ahead.
func TestImportKeepsWhatItCannotResolve(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(t *testing.T, dir string)
		want   string
	}{
		{"PageMissing", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "getting-started", "installation.md"))
		}, "SUMMARY.md:5: getting-started/installation.md does not exist: the page is imported empty"},
		{"AssetMissing", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, ".gitbook", "assets", "screen shot.png"))
		}, `getting-started/installation.md:3: link "../.gitbook/assets/screen shot.png": .gitbook/assets/screen shot.png does not exist: kept as written`},
		{"PageNotListed", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "draft.md"), []byte("# Draft\n"), 0o644)
			edit(t, filepath.Join(dir, "getting-started", "configuration.md"), "flags, then", "flags, [drafts](../draft.md), then")
		}, `getting-started/configuration.md:7: link "../draft.md": draft.md is not listed in the table of contents: kept as written`},
		{"LinkToNothing", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "faq.md"), "Go [home]", "See [the old page](old.md). Go [home]")
		}, `faq.md:3: link "old.md": old.md does not exist: kept as written`},
		{"LinkOutside", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "reference", "api.md"), "[the FAQ](../faq.md)", "[the FAQ](../../../etc/passwd)")
		}, `reference/api.md:4: link "../../../etc/passwd" points outside the root: kept as written`},
		{"UnknownFile", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "Makefile"), []byte("all:\n"), 0o644)
		}, "Makefile: neither linked from a page nor under .gitbook/assets: not imported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "quire.db")
			orgID := mustOrg(t, db)
			dir := copyTree(t, fixture)
			tc.break_(t, dir)
			_, stderr, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", dir)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stderr, "note: "+tc.want) {
				t.Fatalf("stderr %q, want the note %q", stderr, tc.want)
			}
			if n := len(spacesOf(t, db, orgID)); n != 1 {
				t.Fatalf("%d spaces written", n)
			}
		})
	}
}

// A space with a broken relative link exports, imports and exports again to the same files: the
// link is kept as written each way.
func TestRoundTripKeepsABrokenLink(t *testing.T) {
	db := filepath.Join(t.TempDir(), "quire.db")
	orgID := mustOrg(t, db)
	dir := copyTree(t, fixture)
	edit(t, filepath.Join(dir, "faq.md"), "Go [home]", "See [beta](./beta). Go [home]")
	if _, _, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", dir); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(t.TempDir(), "first")
	if _, _, err := runCommand(t, exportCmd, "--db", db, "--space", spacesOf(t, db, orgID)[0].ID, "--to", first); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := runCommand(t, importCmd, "--db", db, "--org", orgID, "--from", first)
	if err != nil {
		t.Fatalf("the export does not import: %v", err)
	}
	if !strings.Contains(stderr, `reference/faq.md:5: link "./beta": reference/beta does not exist: kept as written`) {
		t.Fatalf("stderr %q", stderr)
	}
	var second string
	for _, sp := range spacesOf(t, db, orgID) {
		if sp.Title == "first" {
			second = filepath.Join(t.TempDir(), "second")
			if _, _, err := runCommand(t, exportCmd, "--db", db, "--space", sp.ID, "--to", second); err != nil {
				t.Fatal(err)
			}
		}
	}
	if second == "" {
		t.Fatalf("no space imported from the export: %+v", spacesOf(t, db, orgID))
	}
	a, b := readTree(t, first), readTree(t, second)
	if !strings.Contains(a["reference/faq.md"], "[beta](./beta)") {
		t.Fatalf("faq.md lost the link:\n%s", a["reference/faq.md"])
	}
	for name, data := range a {
		if b[name] != data {
			t.Errorf("%s differs:\n%s\n---\n%s", name, data, b[name])
		}
	}
	if len(a) != len(b) {
		t.Errorf("%d files, then %d", len(a), len(b))
	}
}

// failingMerge is a store whose merges fail: the import has written its space and change request.
type failingMerge struct{ store.Store }

func (failingMerge) MergeChangeRequest(context.Context, string, string, string) (string, bool, error) {
	return "", false, errors.New("disk full")
}

// A write failing midway leaves no half space: a space the import created is deleted, the change
// request it opened in an existing space is archived and the space's content is as it was.
func TestImportUndoesAFailedWrite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "quire.db")
	orgID := mustOrg(t, db)
	im, err := gitsync.Read(fixture, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	withStore(t, db, func(st store.Store) {
		if _, _, err := gitsync.Apply(ctx, failingMerge{st}, im, gitsync.ApplyOptions{OrgID: orgID, Subject: "Import"}, nil); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("error %v", err)
		}
		list, err := st.FindSpaces(ctx, orgID, false, nil, store.Page{Limit: 10})
		if err != nil || len(list.Items) != 0 {
			t.Fatalf("spaces left: %+v %v", list.Items, err)
		}

		sp, err := st.CreateSpace(ctx, orgID, mustAdmin(t, st, orgID), store.SpaceCreate{Title: "Existing"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := gitsync.Apply(ctx, failingMerge{st}, im, gitsync.ApplyOptions{OrgID: orgID, SpaceID: sp.ID, Subject: "Import"}, nil); err == nil {
			t.Fatal("no error")
		}
		archived, err := st.FindChangeRequests(ctx, store.ChangeRequestFilter{SpaceID: sp.ID, Status: "archived"}, store.Page{Limit: 10})
		if err != nil || len(archived.Items) != 1 {
			t.Fatalf("archived change requests: %+v %v", archived.Items, err)
		}
		after, err := st.FindSpace(ctx, sp.ID)
		if err != nil || after.RevisionID != sp.RevisionID || after.DeletedAt != nil {
			t.Fatalf("the space changed: %+v %v", after, err)
		}
	})
}

func mustAdmin(t *testing.T, st store.Store, orgID string) string {
	t.Helper()
	members, err := st.FindMembers(context.Background(), orgID, store.MemberFilter{}, store.Page{Limit: 1})
	if err != nil || len(members.Items) == 0 {
		t.Fatal(err)
	}
	return members.Items[0].User.ID
}
