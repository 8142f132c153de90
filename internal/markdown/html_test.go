package markdown

import (
	"strings"
	"testing"
)

func TestToHTMLRendersAPageForTheWeb(t *testing.T) {
	src := "# Install {#setup}\n\nSee [the guide](/pages/p2), [a section](/pages/p2#usage), [gone](/pages/nope),\n" +
		"[the top](#setup), [a file](/files/f1), [away](https://example.com/x?a=1&b=2).\n\n" +
		"![Diagram](/files/f1) ![Lost](/files/none)\n\n" +
		"## Usage\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\n```\nplain <b>\n```\n\n" +
		"| Left | Right |\n| :--- | ---: |\n| a | b |\n\n" +
		"{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n\n" +
		"<script>alert(1)</script>\n\n<p onclick=\"alert(2)\">raw <a href=\"javascript:alert(3)\">x</a> <kbd>K</kbd></p>\n\n" +
		"### Deep\n\n#### Deeper\n"
	o := HTMLOptions{
		Options: Options{SpaceID: "s1", ResolvePage: func(x string) (string, bool) { return x, x == "p2" }},
		Link: func(r Ref) (string, bool) {
			switch r.Kind {
			case "url":
				return r.URL, true
			case "anchor":
				if r.Page == "" {
					return "#" + r.Anchor, true
				}
				return "/s/site/guide#" + r.Anchor, r.Page == "p2"
			case "page":
				return "/s/site/guide", r.Page == "p2"
			case "file":
				return "/s/site/~files/" + r.File, r.File == "f1"
			}
			return "", false
		},
		Image: func(r Ref) (string, bool) { return "/s/site/~files/" + r.File, r.Kind == "file" && r.File == "f1" },
	}
	out, heads := o.ToHTML(src)
	html := string(out)
	for _, want := range []string{
		`<h1 id="setup">Install<a href="#setup" class="anchor" aria-label="Link to this section">#</a></h1>`,
		`<a href="/s/site/guide">the guide</a>`,
		`<a href="/s/site/guide#usage">a section</a>`,
		`<span class="broken-link" title="Broken link: /pages/nope">gone</span>`,
		`<a href="#setup">the top</a>`,
		`<a href="/s/site/~files/f1">a file</a>`,
		`<a href="https://example.com/x?a=1&amp;b=2">away</a>`,
		`<img src="/s/site/~files/f1" alt="Diagram" loading="lazy">`,
		`class="broken-image"`,
		`<h2 id="usage">`,
		`<pre class="chroma"><code>`,
		`<span class="kd">func</span>`,
		`plain &lt;b&gt;`,
		`<th align="left">Left</th>`,
		`<td align="right">b</td>`,
		`<div class="hint hint-warning" role="note">`,
		`<kbd>K</kbd>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("missing %s in\n%s", want, html)
		}
	}
	for _, bad := range []string{"<script", "onclick", "javascript:", "alert(1)"} {
		if strings.Contains(html, bad) {
			t.Errorf("%q survived in\n%s", bad, html)
		}
	}
	want := []Heading{{1, "setup", "Install"}, {2, "usage", "Usage"}, {3, "deep", "Deep"}}
	if len(heads) != len(want) {
		t.Fatalf("headings %+v, want %+v", heads, want)
	}
	for i := range want {
		if heads[i] != want[i] {
			t.Errorf("heading %d: %+v, want %+v", i, heads[i], want[i])
		}
	}
}

func TestToHTMLHeadingIDsMatchSearchAnchors(t *testing.T) {
	src := "# A\n\ntext\n\n# A\n\n## B {#custom}\n"
	_, heads := HTMLOptions{}.ToHTML(src)
	secs := Sections("T", src, 64)
	var anchors []string
	for _, s := range secs {
		if s.Anchor != "" {
			anchors = append(anchors, s.Anchor)
		}
	}
	if len(heads) < 2 || heads[0].ID != anchors[0] || heads[1].ID != anchors[1] || heads[1].ID != "a-1" {
		t.Fatalf("headings %+v, search anchors %v", heads, anchors)
	}
}

func TestCodeCSSHasLightAndDark(t *testing.T) {
	css := string(CodeCSS())
	if !strings.Contains(css, ".chroma .kd") || !strings.Contains(css, "prefers-color-scheme: dark") {
		t.Fatalf("code css:\n%.400s", css)
	}
}

// The caller renders OpenAPI and reusable-content blocks as the parser reads them: an unclosed
// OpenAPI tag is its line alone (the text after it stays the page's), and a block's HTML is put
// where the block was, past the sanitizer, while the page cannot forge a placeholder.
func TestToHTMLHandsBlocksToTheCaller(t *testing.T) {
	src := "Before.\n\n{% openapi-operation spec=\"pets\" path=\"/a\" method=\"get\" %}\n\nKept **between**.\n\n" +
		"{% openapi-operation spec=\"pets\" path=\"/b\" method=\"post\" %}\n[OpenAPI pets](https://x)\n{% endopenapi-operation %}\n\n" +
		"{% include \"rc1\" %}\n\n{% include \"gone\" %}\n\n<p>quireblock0000000000000000x0</p>\n\nAfter.\n"
	var seen []Block
	o := HTMLOptions{Block: func(b Block) ([]byte, bool) {
		seen = append(seen, b)
		switch {
		case b.Type == "openapi-operation":
			return []byte(`<div class="op" data-x="` + b.Attrs["method"] + b.Attrs["path"] + `"></div>`), true
		case b.Include == "rc1":
			return []byte(`<section class="reusable">Included</section>`), true
		}
		return nil, false
	}}
	html, _ := o.ToHTML(src)
	got := string(html)
	for _, want := range []string{`<div class="op" data-x="get/a"></div>`, `<p>Kept <strong>between</strong>.</p>`,
		`<div class="op" data-x="post/b"></div>`, `<section class="reusable">Included</section>`, `<p>Before.</p>`, `<p>After.</p>`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "OpenAPI pets") || strings.Contains(got, "{%") {
		t.Errorf("a block's tag or its closed content shows:\n%s", got)
	}
	if strings.Index(got, "get/a") > strings.Index(got, "between") || strings.Index(got, "between") > strings.Index(got, "post/b") ||
		strings.Index(got, "post/b") > strings.Index(got, "Included") {
		t.Errorf("blocks out of place:\n%s", got)
	}
	if len(seen) != 4 || seen[3].Include != "gone" || seen[0].Attrs["spec"] != "pets" {
		t.Errorf("blocks handed over: %+v", seen)
	}
	if !strings.Contains(got, "<p>quireblock0000000000000000x0</p>") {
		t.Errorf("the page's own text was taken for a placeholder:\n%s", got)
	}
}
