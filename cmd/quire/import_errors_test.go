package main

import (
	"context"
	"errors"
	"io"
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
		{"PageMissing", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "getting-started", "installation.md"))
		}, "SUMMARY.md:5: getting-started/installation.md does not exist"},
		{"AssetMissing", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, ".gitbook", "assets", "screen shot.png"))
		}, `getting-started/installation.md:3: link "../.gitbook/assets/screen shot.png": .gitbook/assets/screen shot.png does not exist`},
		{"PageNotListed", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "draft.md"), []byte("# Draft\n"), 0o644)
			edit(t, filepath.Join(dir, "getting-started", "configuration.md"), "flags, then", "flags, [drafts](../draft.md), then")
		}, `getting-started/configuration.md:7: link "../draft.md": draft.md is not listed in the table of contents`},
		{"LinkToNothing", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "faq.md"), "Go [home]", "See [the old page](old.md). Go [home]")
		}, `faq.md:3: link "old.md": old.md does not exist`},
		{"LinkOutside", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "reference", "api.md"), "[the FAQ](../faq.md)", "[the FAQ](../../../etc/passwd)")
		}, `reference/api.md:4: link "../../../etc/passwd" points outside the root`},
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
		if _, err := importInto(ctx, failingMerge{st}, im, orgID, "", fixture, io.Discard); err == nil || !strings.Contains(err.Error(), "disk full") {
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
		if _, err := importInto(ctx, failingMerge{st}, im, orgID, sp.ID, fixture, io.Discard); err == nil {
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
