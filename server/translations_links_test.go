package server_test

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
)

// A source space whose pages link to each other (a page, a heading of a page), show a file, link to
// a page of another space and to a page that is not there; with code, a URL and {% %} tags that
// must come back untouched.
type linkedSource struct {
	other, otherPage string // the other space and its page
}

const (
	linkedStartMD = "Read the [installation guide](/pages/inst) and [the server section](/pages/inst#installing-the-server) before you begin.\n\n" +
		"![The logo](/files/logo)\n\n" +
		"Run `quire serve --addr 127.0.0.1:8080` to start the server. Read [the documentation](https://example.com/docs) for more.\n\n" +
		"{% hint style=\"info\" %}\nKeep your token in a safe place.\n{% endhint %}\n\n" +
		"```sh\nquire users create --email you@example.com\n```\n\n" +
		"See [the handbook](/spaces/OTHER/pages/OTHERPAGE) and [an old page](/pages/nowhere).\n"
	linkedInstallMD = "## Installing the server\n\nDownload the package and install it. Go back to [the first page](/pages/start).\n"
)

func (w *trWorld) writeLinkedSource(t *testing.T) linkedSource {
	t.Helper()
	other := w.MustCreateSpace(t, w.admin, w.org, "Handbook", "")
	cr := sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, w.admin, "POST", "/spaces/"+other.Id+"/change-requests", map[string]any{"subject": "Handbook"})
	res := postBatch(t, w.testServer, w.admin, other.Id, cr.Id, []map[string]any{insertMarkdown("Welcome", "Welcome.\n", "h")})
	sendJSON[gen.MergeChangeRequestResult](t, w.testServer, http.StatusOK, w.admin, "POST", crPath(other.Id, cr.Id, "/merge"), nil)
	src := linkedSource{other: other.Id, otherPage: res.Refs["h"]}
	start := strings.NewReplacer("OTHERPAGE", src.otherPage, "OTHER", src.other).Replace(linkedStartMD)
	w.edit(t, insertFiles(fileUpload("logo.png", "image/png", tinyPNG(t), "logo")),
		insertMarkdown("Getting started", start, "start"), insertMarkdown("Installation", linkedInstallMD, "inst"))
	return src
}

// pageByTitle is a page of a space's current revision by title: its id and markdown.
func (w *trWorld) pageByTitle(t *testing.T, spaceID, title string) (string, string) {
	t.Helper()
	rev := w.currentRevision(t, spaceID)
	for _, p := range rev.Pages {
		if p.Title == title {
			full, err := w.Store.FindPage(context.Background(), rev.ID, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			return p.ID, full.Markdown
		}
	}
	t.Fatalf("no page %q in space %s", title, spaceID)
	return "", ""
}

// checkResultLinks lists the result space's links: every link between translated pages and to a
// file is ok and stays inside the result space, the link to another space still opens that space's
// page, and the only broken one is the link broken in the source. The heading link follows the
// translated heading; code, the URL and the tags are as they were.
func (w *trWorld) checkResultLinks(t *testing.T, src linkedSource, result, startTitle, installTitle string) {
	t.Helper()
	srcLinks := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, "/spaces/"+w.source.Id+"/links")
	resLinks := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, "/spaces/"+result+"/links")
	if srcLinks.Stats.Broken.Total != 1 || resLinks.Stats.Broken.Total != srcLinks.Stats.Broken.Total ||
		resLinks.Stats.Total != srcLinks.Stats.Total {
		t.Fatalf("links: source %+v, result %+v", srcLinks.Stats, resLinks.Stats)
	}
	installID, installMD := w.pageByTitle(t, result, installTitle)
	startID, startMD := w.pageByTitle(t, result, startTitle)
	for _, u := range resLinks.Items {
		ref := u.TargetReference
		switch {
		case ref.Page != nil && ref.Page.Id == src.otherPage:
			if ref.Space == nil || ref.Space.Id != src.other || u.Status != gen.Ok {
				t.Errorf("the link to another space: %+v", u)
			}
		case ref.Page != nil:
			if ref.Space == nil || ref.Space.Id != result || u.Status != gen.Ok || (ref.Page.Id != installID && ref.Page.Id != startID) {
				t.Errorf("a link between translated pages leaves the result space: %+v", u)
			}
		case ref.File != nil:
			if ref.Space == nil || ref.Space.Id != result || u.Status != gen.Ok || ref.File.Name != "logo.png" {
				t.Errorf("the image is not the result space's file: %+v", u)
			}
		case ref.Url != nil && *ref.Url == "/pages/nowhere":
			if u.Status != gen.Broken {
				t.Errorf("the broken link: %+v", u)
			}
		case ref.Url != nil && *ref.Url == "https://example.com/docs":
		default:
			t.Errorf("an unexpected link %+v", u)
		}
	}
	var anchor string
	for _, s := range markdown.Sections("", installMD, math.MaxInt) {
		if s.Anchor != "" {
			anchor = s.Anchor
		}
	}
	if anchor == "" || anchor == "installing-the-server" || !strings.Contains(startMD, "/pages/"+installID+"#"+anchor+")") {
		t.Errorf("the heading link does not follow the translated heading %q:\n%s\n---\n%s", anchor, startMD, installMD)
	}
	for _, kept := range []string{"`quire serve --addr 127.0.0.1:8080`", "(https://example.com/docs)", "{% hint style=\"info\" %}", "{% endhint %}",
		"```sh\nquire users create --email you@example.com\n```", "/spaces/" + src.other + "/pages/" + src.otherPage, "(/pages/nowhere)"} {
		if !strings.Contains(startMD, kept) {
			t.Errorf("%q did not come back untouched:\n%s", kept, startMD)
		}
	}
}

// Through the LibreTranslate stand-in: the result space is a space of its own.
func TestTranslationResultSpaceLinks(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	src := w.writeLinkedSource(t)
	tr := w.run(t, w.create(t, "fr", nil).Id)
	if tr.Result == nil || tr.LastError != nil {
		t.Fatalf("the run: %+v %v", tr.Result, tr.LastError)
	}
	w.checkResultLinks(t, src, tr.Result.Space, "[fr] Getting started", "[fr] Installation")

	// Getting started changes, Installation does not: the second run translates only the first,
	// whose heading link follows the translation the result already holds; nothing is copied twice.
	startID, startMD := w.pageByTitle(t, w.source.Id, "Getting started")
	w.edit(t, editPage(startID, startMD+"\nOne more line.\n"))
	w.lt.Reset()
	again := w.run(t, tr.Id)
	if again.LastError != nil || again.Stats.LatestPages != 1 {
		t.Fatalf("the second run: %+v %v", again.Stats, again.LastError)
	}
	w.checkResultLinks(t, src, tr.Result.Space, "[fr] Getting started", "[fr] Installation")
	files := getJSON[gen.RevisionFileList](t, w.testServer, w.admin, "/spaces/"+tr.Result.Space+"/content/files")
	if len(files.Items) != 1 {
		t.Fatalf("the result space holds %d files", len(files.Items))
	}
}
