package server

import "testing"

func TestSplitFrontmatter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in, body, title string
		front                 bool
	}{
		{"None", "Plain text.\n", "Plain text.\n", "", false},
		{"Block", "---\ntitle: T\n---\nBody\n", "Body\n", "T", true},
		{"CRLF", "---\r\ntitle: T\r\n---\r\n\r\nBody\r\n", "Body\r\n", "T", true},
		{"BOM", "\ufeff---\ntitle: T\n---\nBody", "Body", "T", true},
		{"DotsClose", "---\ntitle: T\n...\nBody", "Body", "T", true},
		{"NothingAfter", "---\ntitle: T\n---", "", "T", true},
		{"Unclosed", "---\ntitle: T\nBody\n", "---\ntitle: T\nBody\n", "", false},
		{"RuleLater", "Text\n---\nMore\n", "Text\n---\nMore\n", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, front, err := splitFrontmatter(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if body != c.body || (front != nil) != c.front {
				t.Fatalf("body %q front %v", body, front)
			}
			if front != nil && (front.Title == nil || *front.Title != c.title) {
				t.Fatalf("title %v", front.Title)
			}
		})
	}
	if _, _, err := splitFrontmatter("---\n: [\n---\n"); err == nil {
		t.Fatal("bad YAML accepted")
	}
}

func TestSplitHeading(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][3]string{
		"# Title\n\nBody\n":        {"Title", "Body\n", "true"},
		"\n\n#   Spaced   #\nBody": {"Spaced", "Body", "true"},
		"## Second level\n":        {"", "## Second level\n", "false"},
		"#NoSpace\n":               {"", "#NoSpace\n", "false"},
		"Text\n# Later\n":          {"", "Text\n# Later\n", "false"},
		"# Only":                   {"Only", "", "true"},
		"# With *emphasis*\r\nx\n": {"With *emphasis*", "x\n", "true"},
	} {
		title, body, ok := splitHeading(in)
		if title != want[0] || body != want[1] || (ok != (want[2] == "true")) {
			t.Errorf("%q: %q %q %v, want %q", in, title, body, ok, want)
		}
	}
}
