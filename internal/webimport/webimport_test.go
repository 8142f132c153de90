package webimport

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRobotsLongestRuleWins(t *testing.T) {
	r := robots{allow: []string{"/docs/public"}, disallow: []string{"/docs", "/tmp"}}
	for p, want := range map[string]bool{"/": true, "/docs": false, "/docs/x": false, "/docs/public/a": true, "/tmp/": false, "/about": true} {
		if got := r.allows(p); got != want {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
}

func TestUnzipRefusesWhatLeavesTheTree(t *testing.T) {
	mk := func(names ...string) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, n := range names {
			f, _ := zw.Create(n)
			f.Write([]byte("# " + n + "\n"))
		}
		zw.Close()
		return buf.Bytes()
	}
	for _, bad := range []string{"../x.md", "/etc/x.md", "a/../../x.md"} {
		if _, err := Unzip(mk(bad), t.TempDir(), 1<<20); err == nil || !strings.Contains(err.Error(), "leads out") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, err := Unzip(mk("a.md", "b.md"), t.TempDir(), 5); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("over the limit: %v", err)
	}
	dir := t.TempDir()
	root, err := Unzip(mk("book/SUMMARY.md", "book/a.md"), dir, 1<<20)
	if err != nil || root != filepath.Join(dir, "book") {
		t.Fatalf("one folder: %s %v", root, err)
	}
	if _, err := os.Stat(filepath.Join(root, "a.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := Unzip([]byte("not a zip"), t.TempDir(), 1<<20); err == nil {
		t.Fatal("not a zip was read")
	}
}

func TestFromMarkdownTitle(t *testing.T) {
	if d := FromMarkdown("x.md", []byte("# Hello\n\nBody\n")); d.Title != "Hello" || d.Markdown != "Body\n" {
		t.Fatalf("%+v", d)
	}
	if d := FromMarkdown("getting_started.md", []byte("Body\n")); d.Title != "Getting started" || d.Markdown != "Body\n" {
		t.Fatalf("%+v", d)
	}
}
