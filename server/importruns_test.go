package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

func importsPath(orgID string, suffix ...string) string {
	return "/org/" + orgID + "/imports" + strings.Join(suffix, "")
}

// upload asks for an upload URL and PUTs data to it; it answers the file's key.
func (w *world) upload(t *testing.T, u *testUser, name, contentType string, data []byte) string {
	t.Helper()
	key, status := w.uploadKind(t, u, "import_file", name, contentType, data)
	if status != http.StatusOK {
		t.Fatalf("upload %s: %d", name, status)
	}
	return key
}

// uploadKind uploads a file of a kind through a signed URL: its key and the status of the PUT.
func (w *world) uploadKind(t *testing.T, u *testUser, kind, name, contentType string, data []byte) (string, int) {
	t.Helper()
	var out gen.StorageUploadURL
	w.Expect(t, http.StatusCreated, u, "POST", "/orgs/"+w.org.Id+"/storage/upload", map[string]any{
		"kind": kind, "file": map[string]any{"name": name, "type": contentType, "size": len(data)}}).Decode(t, &out)
	req, err := http.NewRequest("PUT", w.URL+strings.TrimPrefix(out.Url, testBaseURL), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	res, body := readResponse(t)(http.DefaultClient.Do(req))
	if res.StatusCode != http.StatusOK {
		t.Logf("upload %s: %d %s", name, res.StatusCode, body)
	}
	return out.Key, res.StatusCode
}

// runImports runs the queued jobs and answers the run after them.
func (w *world) runImport(t *testing.T, id string) gen.ContentImportRun {
	t.Helper()
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	return getJSON[gen.ContentImportRun](t, w.testServer, w.admin, importsPath(w.org.Id, "/", id))
}

func zipDir(t *testing.T, dir, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		f, err := zw.Create(prefix + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	})
	if err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestImportRunFromUploadedFiles(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Imported", "")
	md := w.upload(t, w.editor, "getting-around.md", "text/markdown", []byte("# Getting around\n\nUse the *map*.\n"))
	page := w.upload(t, w.editor, "notes.html", "text/html",
		[]byte(`<html><head><title>Field notes</title><script>x()</script></head><body><h1>Field notes</h1><p>Some <b>bold</b> <a href="https://example.com/x">words</a>.</p></body></html>`))
	book := w.upload(t, w.editor, "handbook.zip", "application/zip", zipDir(t, handbook, "handbook/"))

	var run gen.ContentImportRun
	w.Expect(t, http.StatusCreated, w.editor, "POST", importsPath(w.org.Id), map[string]any{
		"source": map[string]any{"type": "file", "files": []string{md, page, book}}, "target": map[string]any{"space": sp.Id},
	}).Decode(t, &run)
	if run.Status != gen.ContentImportRunStatusPending || run.Object != gen.ImportRun || run.Enhance == nil || !*run.Enhance ||
		run.Urls.Location != testBaseURL+"/v1"+importsPath(w.org.Id, "/", run.Id) || len(*run.Source.Files) != 3 {
		t.Fatalf("started %+v", run)
	}
	run = w.runImport(t, run.Id)
	if run.Status != gen.ContentImportRunStatusCompleted || run.CompletedAt == nil || run.StartedAt == nil || run.Reason != nil {
		t.Fatalf("run %+v reason %v", run, deref(run.Reason))
	}
	rev := w.mainRevision(t, sp.Id)
	titles := outline(rev.Pages)
	joined := strings.Join(titles, "|")
	for _, want := range []string{"Getting around", "Field notes", "Installation"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("page %q missing from %v", want, titles)
		}
	}
	ids := map[string]bool{}
	walkPages(rev.Pages, func(p gen.RevisionPage, _ string, _ int) { ids[p.Id] = true })
	if len(run.Pages) < 4 {
		t.Fatalf("run pages %+v", run.Pages)
	}
	for _, p := range run.Pages {
		if !ids[p.Id] || p.Status != "complete" {
			t.Fatalf("run page %+v is not a page of the space", p)
		}
	}
	var notes string
	walkPages(rev.Pages, func(p gen.RevisionPage, _ string, _ int) {
		if p.Title == "Field notes" {
			notes = w.mainMarkdown(t, sp.Id, p.Id)
		}
	})
	if !strings.Contains(notes, "**bold**") || !strings.Contains(notes, "[words](https://example.com/x)") || strings.Contains(notes, "x()") {
		t.Fatalf("the HTML page as markdown:\n%s", notes)
	}
}

func TestImportRunBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Imported", "")
	target := map[string]any{"space": sp.Id}
	start := func(source map[string]any, tgt map[string]any) *response {
		return w.Do(t, w.editor, "POST", importsPath(w.org.Id), map[string]any{"source": source, "target": tgt})
	}
	// An upload announced but never PUT, an unknown key, a URL that is not http(s).
	var pending gen.StorageUploadURL
	w.Expect(t, http.StatusCreated, w.editor, "POST", "/orgs/"+w.org.Id+"/storage/upload", map[string]any{
		"kind": "import_file", "file": map[string]any{"name": "a.md", "type": "text/markdown", "size": 3}}).Decode(t, &pending)
	for _, c := range []struct {
		source map[string]any
		target map[string]any
		part   string
	}{
		{map[string]any{"type": "file", "files": []string{pending.Key}}, target, "source.files[0]"},
		{map[string]any{"type": "file", "files": []string{"import/nope"}}, target, "source.files[0]"},
		{map[string]any{"type": "website", "url": "ftp://example.com/"}, target, "source.url"},
		{map[string]any{"type": "website", "url": "https://example.com/", "files": []string{"x"}}, target, "source.files"},
		{map[string]any{"type": "website", "url": "https://example.com/"}, map[string]any{"space": sp.Id, "page": "nope"}, "target.page"},
		{map[string]any{"type": "website", "url": "https://example.com/"}, map[string]any{"space": sp.Id, "changeRequest": "nope"}, "target.changeRequest"},
	} {
		r := start(c.source, c.target)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("%v: %d %s", c.source, r.Status, r.Body)
		}
		wantMessage(t, r, c.part)
	}
	// A PUT of the wrong size; a kind quire does not keep; nothing was recorded.
	req, _ := http.NewRequest("PUT", w.URL+strings.TrimPrefix(pending.Url, testBaseURL), strings.NewReader("too long"))
	if res, body := readResponse(t)(http.DefaultClient.Do(req)); res.StatusCode != http.StatusBadRequest {
		t.Fatalf("wrong size: %d %s", res.StatusCode, body)
	}
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.editor, "POST", "/orgs/"+w.org.Id+"/storage/upload", map[string]any{
		"kind": "organization_file", "file": map[string]any{"name": "a.pdf", "type": "application/pdf", "size": 3}}), "import_file")
	var list gen.ContentImportRunList
	w.Expect(t, http.StatusOK, w.admin, "GET", importsPath(w.org.Id), nil).Decode(t, &list)
	if list.Count != 0 {
		t.Fatalf("bad requests recorded runs: %+v", list)
	}

	// A file quire cannot import: the run fails and says why; the space is unchanged.
	txt := w.upload(t, w.editor, "notes.txt", "text/plain", []byte("plain"))
	var run gen.ContentImportRun
	w.Expect(t, http.StatusCreated, w.editor, "POST", importsPath(w.org.Id), map[string]any{
		"source": map[string]any{"type": "file", "files": []string{txt}}, "target": target}).Decode(t, &run)
	run = w.runImport(t, run.Id)
	if run.Status != gen.ContentImportRunStatusFailed || !strings.Contains(deref(run.Reason), "notes.txt") {
		t.Fatalf("run %+v reason %q", run, deref(run.Reason))
	}
	if pages := w.mainRevision(t, sp.Id).Pages; len(pages) != 0 {
		t.Fatalf("a failed run changed the space: %v", outline(pages))
	}
	// A zip with a path out of the tree fails naming it.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	f, _ := zw.Create("../evil.md")
	f.Write([]byte("# Evil\n"))
	zw.Close()
	evil := w.upload(t, w.editor, "evil.zip", "application/zip", buf.Bytes())
	w.Expect(t, http.StatusCreated, w.editor, "POST", importsPath(w.org.Id), map[string]any{
		"source": map[string]any{"type": "file", "files": []string{evil}}, "target": target}).Decode(t, &run)
	if run = w.runImport(t, run.Id); run.Status != gen.ContentImportRunStatusFailed || !strings.Contains(deref(run.Reason), "../evil.md") {
		t.Fatalf("run %+v reason %q", run, deref(run.Reason))
	}
}

// site is a small website: / links to /guide, /private (robots.txt disallows it), another site
// and /guide/deep; /guide links back and to /faq.
func site(t *testing.T) *httptest.Server {
	pages := map[string]string{
		"/":           `<title>Home</title><h1>Home</h1><p>Start <a href="/guide">here</a>, not <a href="/private/x">there</a> or <a href="https://elsewhere.example/">away</a>.</p><a href="/guide/deep#top">deep</a>`,
		"/guide":      `<title>Guide</title><p>The guide. <a href="/">Home</a> <a href="faq">FAQ</a></p>`,
		"/guide/deep": `<title>Deep</title><p>Deep down.</p>`,
		"/faq":        `<title>FAQ</title><p>Questions.</p>`,
		"/private/x":  `<title>Private</title>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(rw, "User-agent: *\nDisallow: /private\n")
			return
		}
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(rw, "<html><body>"+body+"</body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestImportRunFromWebsite(t *testing.T) {
	t.Parallel()
	srv := site(t)
	w := newWorld(t, server.Options{AllowPrivateURLs: true})
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Site", "")
	var run gen.ContentImportRun
	w.Expect(t, http.StatusCreated, w.editor, "POST", importsPath(w.org.Id), map[string]any{
		"source": map[string]any{"type": "website", "url": srv.URL + "/"}, "target": map[string]any{"space": sp.Id}, "enhance": false,
	}).Decode(t, &run)
	if *run.Enhance {
		t.Fatal("enhance is not answered as asked")
	}
	run = w.runImport(t, run.Id)
	if run.Status != gen.ContentImportRunStatusCompleted {
		t.Fatalf("run %+v reason %q", run, deref(run.Reason))
	}
	// Breadth first, in link order; the disallowed and the other site's pages left out.
	wantOutline(t, "imported", w.mainRevision(t, sp.Id).Pages, "home Home", "guide Guide", "deep Deep", "faq FAQ")
	var sources []string
	for _, p := range run.Pages {
		sources = append(sources, strings.TrimPrefix(deref(p.SourceURL), srv.URL))
	}
	if strings.Join(sources, " ") != "/ /guide /guide/deep /faq" {
		t.Fatalf("sources %v", sources)
	}

	// Without --allow-private-urls the guarded fetcher refuses the loopback site: the run says so.
	w2 := newWorld(t)
	sp2 := w2.MustCreateSpace(t, w2.admin, w2.org.Id, "Site", "")
	w2.Expect(t, http.StatusCreated, w2.editor, "POST", importsPath(w2.org.Id), map[string]any{
		"source": map[string]any{"type": "website", "url": srv.URL + "/"}, "target": map[string]any{"space": sp2.Id}}).Decode(t, &run)
	if run = w2.runImport(t, run.Id); run.Status != gen.ContentImportRunStatusFailed || !strings.Contains(deref(run.Reason), "not allowed") {
		t.Fatalf("run %+v reason %q", run, deref(run.Reason))
	}
}

func TestImportRunIntoPageAndChangeRequestAndCancel(t *testing.T) {
	t.Parallel()
	srv := site(t)
	w := newWorld(t, server.Options{AllowPrivateURLs: true})
	sp, pages := w.spaceWithPages(t, "Existing", "Hello.")
	cr := w.create(t, w.editor, sp.Id, "Bring the site in")
	var run gen.ContentImportRun
	w.Expect(t, http.StatusCreated, w.editor, "POST", importsPath(w.org.Id), map[string]any{
		"source": map[string]any{"type": "website", "url": srv.URL + "/faq"},
		"target": map[string]any{"space": sp.Id, "changeRequest": cr.Id, "page": pages["Existing"]}}).Decode(t, &run)
	if run = w.runImport(t, run.Id); run.Status != gen.ContentImportRunStatusCompleted {
		t.Fatalf("run %+v reason %q", run, deref(run.Reason))
	}
	wantOutline(t, "change request", w.crPages(t, sp.Id, cr.Id), "existing Existing", "  existing/faq FAQ")
	wantOutline(t, "space", w.mainPages(t, sp.Id), "existing Existing")
	if w.get(t, sp.Id, cr.Id).Status != "open" {
		t.Fatal("the change request is not left open")
	}
	var list gen.ContentImportRunList
	w.Expect(t, http.StatusOK, w.reader, "GET", importsPath(w.org.Id)+"?changeRequest="+cr.Id, nil).Decode(t, &list)
	if list.Count != 1 || list.Items[0].Id != run.Id {
		t.Fatalf("list %+v", list)
	}

	// Cancelled before it ran: it never runs, the space is unchanged, and it cannot be cancelled twice.
	w.Expect(t, http.StatusCreated, w.editor, "POST", importsPath(w.org.Id), map[string]any{
		"source": map[string]any{"type": "website", "url": srv.URL + "/"}, "target": map[string]any{"space": sp.Id}}).Decode(t, &run)
	w.Expect(t, http.StatusForbidden, w.reader, "POST", importsPath(w.org.Id, "/", run.Id, "/cancel"), nil)
	w.Expect(t, http.StatusOK, w.editor, "POST", importsPath(w.org.Id, "/", run.Id, "/cancel"), nil).Decode(t, &run)
	if run.Status != gen.ContentImportRunStatusCancelled {
		t.Fatalf("cancel %+v", run)
	}
	if run = w.runImport(t, run.Id); run.Status != gen.ContentImportRunStatusCancelled || run.StartedAt != nil {
		t.Fatalf("a cancelled run ran: %+v", run)
	}
	wantOutline(t, "space", w.mainPages(t, sp.Id), "existing Existing")
	w.Expect(t, http.StatusConflict, w.editor, "POST", importsPath(w.org.Id, "/", run.Id, "/cancel"), nil)
	w.Expect(t, http.StatusOK, w.admin, "GET", importsPath(w.org.Id)+"?status=cancelled", nil).Decode(t, &list)
	if list.Count != 1 || list.Items[0].Id != run.Id {
		t.Fatalf("cancelled list %+v", list)
	}
}
