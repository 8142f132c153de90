package server_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// tinyPNG is a 3x2 PNG image.
func tinyPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func insertFiles(files ...map[string]any) map[string]any {
	list := make([]any, len(files))
	for i, f := range files {
		list[i] = f
	}
	return map[string]any{"operation": "insert_files", "files": list}
}

func fileUpload(name, contentType string, data []byte, ref string) map[string]any {
	f := map[string]any{"name": name, "contentType": contentType, "base64": base64.StdEncoding.EncodeToString(data)}
	if ref != "" {
		f["ref"] = ref
	}
	return f
}

func TestFilesThroughChangeRequests(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	pic := tinyPNG(t)
	cr := w.create(t, w.admin, sp.Id, "Files")
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		insertFiles(fileUpload("logo.png", "image/png", pic, "logo"), fileUpload("notes.txt", "text/plain", []byte("hello"), "")),
		insertMarkdown("Brand", "![Our logo](/files/logo)\n\nSee [the logo](/files/logo).\n", "brand"))
	logoID := res.Refs["logo"]
	if logoID == "" || logoID == "logo" {
		t.Fatalf("refs = %v", res.Refs)
	}

	t.Run("ListedInTheChangeRequest", func(t *testing.T) {
		l := getJSON[gen.RevisionFileList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/content/files"))
		if l.Count != 2 || len(l.Items) != 2 {
			t.Fatalf("files = %+v", l)
		}
		f := getJSON[gen.RevisionFile](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/content/files/"+logoID))
		if f.Name != "logo.png" || f.ContentType != "image/png" || f.Size != len(pic) || f.Dimensions == nil ||
			f.Dimensions.Width != 3 || f.Dimensions.Height != 2 {
			t.Fatalf("file = %+v", f)
		}
		res, body := w.fetch(t, f.DownloadURL)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" || !bytes.Equal(body, pic) {
			t.Fatalf("download: %d %q %d bytes", res.StatusCode, res.Header.Get("Content-Type"), len(body))
		}
		page1 := getJSON[gen.ListFilesInChangeRequestById200JSONResponse](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/content/files?limit=1"))
		if len(page1.Items) != 1 || page1.Next == nil {
			t.Fatalf("first page = %+v", page1)
		}
	})
	t.Run("RefsInMarkdownBecomeIDs", func(t *testing.T) {
		md := w.crMarkdown(t, sp.Id, cr.Id, res.Refs["brand"])
		if !strings.Contains(md, "/files/"+logoID) || strings.Contains(md, "/files/logo)") {
			t.Fatalf("markdown = %q", md)
		}
	})
	t.Run("NotInTheSpaceBeforeTheMerge", func(t *testing.T) {
		l := getJSON[gen.RevisionFileList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/files")
		if l.Count != 0 {
			t.Fatalf("files = %+v", l)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/files/"+logoID, nil)
	})
	t.Run("MergesKeepTheFilesOfBothSides", func(t *testing.T) {
		other := w.create(t, w.admin, sp.Id, "Other file")
		w.apply(t, w.admin, sp.Id, other.Id, insertFiles(fileUpload("guide.pdf", "application/pdf", []byte("%PDF-1.4 x"), "g")))
		w.merge(t, w.admin, sp.Id, cr.Id)
		w.merge(t, w.admin, sp.Id, other.Id)
		l := getJSON[gen.RevisionFileList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/files")
		if l.Count != 3 {
			t.Fatalf("files = %+v", l)
		}
		getJSON[gen.RevisionFile](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/files/"+logoID)
		rev := w.mainRevision(t, sp.Id)
		if len(rev.Files) != 3 {
			t.Fatalf("revision files = %+v", rev.Files)
		}
	})
	t.Run("BadUploads", func(t *testing.T) {
		bad := w.create(t, w.admin, sp.Id, "Bad")
		for name, change := range map[string]map[string]any{
			"NotBase64":       insertFiles(map[string]any{"name": "x", "contentType": "text/plain", "content": "%%%"}),
			"OverOneMiB":      insertFiles(fileUpload("big.bin", "application/octet-stream", make([]byte, 1<<20+1), "")),
			"BadContentType":  insertFiles(fileUpload("x", "not a type", []byte("x"), "")),
			"SlashInName":     insertFiles(fileUpload("a/b", "text/plain", []byte("x"), "")),
			"NoFiles":         {"operation": "insert_files", "files": []any{}},
			"DuplicateRef":    insertFiles(fileUpload("a", "text/plain", []byte("a"), "r"), fileUpload("b", "text/plain", []byte("b"), "r")),
			"FilesOnlyInsert": {"operation": "insert_page", "title": "x", "files": []any{fileUpload("a", "text/plain", []byte("a"), "")}},
		} {
			t.Run(name, func(t *testing.T) {
				r := w.Do(t, w.admin, "POST", crPath(sp.Id, bad.Id, "/content"), map[string]any{"changes": []any{change}})
				if r.Status != http.StatusBadRequest {
					t.Fatalf("status %d: %s", r.Status, r.Body)
				}
			})
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", crPath(sp.Id, bad.Id, "/content"), map[string]any{"changes": []any{
			insertMarkdown("Page", "x", "shared"), insertFiles(fileUpload("a", "text/plain", []byte("a"), "shared"))}})
		if files := w.crRevision(t, sp.Id, bad.Id).Files; len(files) != 3 {
			t.Fatalf("a refused batch changed the files: %d", len(files))
		}
	})
	t.Run("DownloadOfUnknownBytes", func(t *testing.T) {
		res, _ := w.fetch(t, testBaseURL+"/files/"+strings.Repeat("0", 64)+"/x.png")
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("status %d", res.StatusCode)
		}
		res, _ = w.fetch(t, testBaseURL+"/files/../../etc/passwd")
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("status %d", res.StatusCode)
		}
	})
	t.Run("Access", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id+"/content/files", nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id+"/content/files/"+logoID, nil)
		w.Expect(t, http.StatusNotFound, w.guest, "GET", crPath(sp.Id, cr.Id, "/content/files"), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", crPath(sp.Id, cr.Id, "/content/files/"+logoID), nil)
	})
}

// wantLocations checks that every location has what the public ContentLocation of its kind
// requires: a page or file location its organization, space, page or file and version context;
// a url location its url and nothing else.
func wantLocations(t *testing.T, locs ...gen.ContentLocation) {
	t.Helper()
	for _, l := range locs {
		switch l.Kind {
		case gen.ContentLocationKindPage, gen.ContentLocationKindFile:
			if l.Organization == nil || l.Space == nil || l.VersionContext == nil || l.Url != nil ||
				(l.Kind == gen.ContentLocationKindPage) != (l.Page != nil) || (l.Kind == gen.ContentLocationKindFile) != (l.File != nil) {
				t.Fatalf("%s location lacks what its kind requires: %+v", l.Kind, l)
			}
			vc := l.VersionContext
			if (vc.Type == gen.VersionContextTypeRevision) != (vc.Revision != nil) || (vc.Type == gen.VersionContextTypeChangeRequest) != (vc.ChangeRequest != nil) {
				t.Fatalf("version context %s does not carry its object: %+v", vc.Type, vc)
			}
		case gen.ContentLocationKindUrl:
			if l.Url == nil || l.Organization != nil || l.Space != nil || l.Page != nil || l.File != nil || l.VersionContext != nil {
				t.Fatalf("url location: %+v", l)
			}
		default:
			t.Fatalf("location of kind %q", l.Kind)
		}
	}
}

// wantUsageLocations checks every location of a list of links (see wantLocations).
func wantUsageLocations(t *testing.T, l gen.ContentReferenceList) {
	t.Helper()
	for _, u := range l.Items {
		wantLocations(t, u.TargetReference)
		wantLocations(t, u.LocationReferences...)
	}
}

func linkTargets(l gen.ContentReferenceList) map[string]gen.ContentReferenceUsage {
	out := map[string]gen.ContentReferenceUsage{}
	for _, u := range l.Items {
		key := string(u.TargetReference.Kind) + ":"
		switch {
		case u.TargetReference.Page != nil:
			key += u.TargetReference.Page.Title
		case u.TargetReference.File != nil:
			key += u.TargetReference.File.Name
		case u.TargetReference.Url != nil:
			key += *u.TargetReference.Url
		}
		out[key] = u
	}
	return out
}

func TestLinksAndBacklinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Linked pages")
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		insertFiles(fileUpload("diagram.png", "image/png", tinyPNG(t), "diagram")),
		insertMarkdown("Guide", "Start with [install](/pages/install), then [setup](guide/setup.md).\n\n"+
			"Also [the site](https://example.com), [gone](/pages/nowhere), [our app](http://quire.test/app/s/x)\n\n"+
			"![diagram](/files/diagram)\n", "guide"),
		insertMarkdown("Install", "Back to [the guide](/pages/guide).\n", "install", "into", "guide"),
		insertMarkdown("Setup", "See [install](install.md).\n", "setup", "into", "guide"))
	guide, install, setup := res.Refs["guide"], res.Refs["install"], res.Refs["setup"]

	t.Run("ChangeRequestLinks", func(t *testing.T) {
		l := getJSON[gen.ContentReferenceList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/links"))
		wantUsageLocations(t, l)
		got := linkTargets(l)
		want := map[string]gen.LinkStatus{
			"page:Install": gen.Ok, "page:Setup": gen.Ok, "page:Guide": gen.Ok, "url:https://example.com": gen.Ok,
			// a page the revision lacks is answered as the link written, a URL location
			"url:/pages/nowhere": gen.Broken, "url:http://quire.test/app/s/x": gen.InApp, "file:diagram.png": gen.Ok,
		}
		for key, status := range want {
			u, ok := got[key]
			if !ok || u.Status != status {
				t.Fatalf("%s: %+v (all: %v)", key, u, got)
			}
		}
		// Install is linked from Guide and Setup (relative .md).
		if n := len(got["page:Install"].LocationReferences); n != 2 {
			t.Fatalf("Install is linked from %d pages", n)
		}
		if l.Stats.Total != 8 || l.Stats.Broken.Total != 1 || l.Stats.Broken.ChangeRequest == nil || *l.Stats.Broken.ChangeRequest != 1 {
			t.Fatalf("stats = %+v", l.Stats)
		}
		if l.Count != 7 {
			t.Fatalf("count = %d", l.Count)
		}
		loc := got["page:Setup"].LocationReferences[0]
		if loc.Organization == nil || loc.Organization.Id != w.org.Id || loc.Space == nil || loc.Space.Id != sp.Id ||
			loc.VersionContext == nil || loc.VersionContext.Type != gen.VersionContextTypeChangeRequest ||
			loc.VersionContext.ChangeRequest == nil || loc.VersionContext.ChangeRequest.Id != cr.Id ||
			loc.VersionContext.ChangeRequest.Object != gen.ChangeRequestObjectChangeRequest || loc.VersionContext.Revision != nil {
			t.Fatalf("location = %+v", loc)
		}
		// Every page and file location of the list shares the one change request context.
		for _, u := range l.Items {
			if vc := u.TargetReference.VersionContext; u.TargetReference.Kind != gen.ContentLocationKindUrl &&
				(vc == nil || vc.ChangeRequest == nil || vc.ChangeRequest.Id != cr.Id) {
				t.Fatalf("target %+v has another context", u.TargetReference)
			}
			if u.TargetReference.Kind == gen.ContentLocationKindUrl && (u.TargetReference.Organization != nil || u.TargetReference.Page != nil) {
				t.Fatalf("url target carries content: %+v", u.TargetReference)
			}
		}
	})
	t.Run("StatusFilterAndPaging", func(t *testing.T) {
		broken := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, crPath(sp.Id, cr.Id, "/links?status=broken"))
		if broken.Count != 1 || len(broken.Items) != 1 || broken.Stats.Total != 8 {
			t.Fatalf("broken = %+v", broken)
		}
		first := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, crPath(sp.Id, cr.Id, "/links?limit=4"))
		if len(first.Items) != 4 || first.Next == nil {
			t.Fatalf("first = %+v", first)
		}
		second := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, crPath(sp.Id, cr.Id, "/links?limit=4&page="+first.Next.Page))
		if len(second.Items) != 3 || second.Next != nil {
			t.Fatalf("second = %+v", second)
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", crPath(sp.Id, cr.Id, "/links?status=fine"), nil)
	})
	t.Run("PageLinksAndBacklinks", func(t *testing.T) {
		l := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, crPath(sp.Id, cr.Id, "/content/page/"+setup+"/links"))
		if l.Count != 1 || l.Items[0].TargetReference.Page == nil || l.Items[0].TargetReference.Page.Id != install {
			t.Fatalf("setup links = %+v", l)
		}
		back := getJSON[gen.ContentLocationList](t, w.testServer, w.admin, crPath(sp.Id, cr.Id, "/content/page/"+install+"/backlinks"))
		ids := map[string]bool{}
		for _, loc := range back.Items {
			ids[loc.Page.Id] = true
		}
		if back.Count != 2 || !ids[guide] || !ids[setup] {
			t.Fatalf("install backlinks = %+v", back)
		}
		fb := getJSON[gen.ContentLocationList](t, w.testServer, w.admin, crPath(sp.Id, cr.Id, "/content/files/"+res.Refs["diagram"]+"/backlinks"))
		if fb.Count != 1 || fb.Items[0].Page.Id != guide {
			t.Fatalf("file backlinks = %+v", fb)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", crPath(sp.Id, cr.Id, "/content/page/nope/links"), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", crPath(sp.Id, cr.Id, "/content/page/nope/backlinks"), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", crPath(sp.Id, cr.Id, "/content/files/nope/backlinks"), nil)
	})
	t.Run("SpaceLinksAfterMerge", func(t *testing.T) {
		before := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/links")
		if before.Count != 0 || before.Stats.Total != 0 || before.Stats.Broken.ChangeRequest != nil {
			t.Fatalf("space links before merge = %+v", before)
		}
		w.merge(t, w.admin, sp.Id, cr.Id)
		after := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/links")
		if after.Count != 7 || after.Stats.Broken.Total != 1 {
			t.Fatalf("space links = %+v", after.Stats)
		}
		wantUsageLocations(t, after)
		pl := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/page/"+install+"/links")
		if pl.Count != 1 || pl.Items[0].TargetReference.Page.Id != guide {
			t.Fatalf("install's links = %+v", pl)
		}
		back := getJSON[gen.ContentLocationList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/page/"+guide+"/backlinks")
		if back.Count != 1 || back.Items[0].Page.Id != install {
			t.Fatalf("guide backlinks = %+v", back)
		}
		wantLocations(t, back.Items...)
		// The space's version context is its whole current revision.
		current := getJSON[gen.Revision](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content")
		if vc := back.Items[0].VersionContext; vc == nil || vc.Type != gen.VersionContextTypeRevision || vc.Revision == nil ||
			vc.Revision.Id != current.Id || vc.Revision.Object != gen.RevisionObjectRevision || len(vc.Revision.Pages) != len(current.Pages) ||
			vc.ChangeRequest != nil {
			t.Fatalf("backlink version context = %+v", vc)
		}
		fb := getJSON[gen.ContentLocationList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/files/"+res.Refs["diagram"]+"/backlinks")
		if fb.Count != 1 {
			t.Fatalf("file backlinks = %+v", fb)
		}
		wantLocations(t, fb.Items...)
	})
	t.Run("DeletingATargetBreaksItsLinks", func(t *testing.T) {
		next := w.create(t, w.admin, sp.Id, "Remove install")
		w.apply(t, w.admin, sp.Id, next.Id, deletePage(install))
		l := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, crPath(sp.Id, next.Id, "/links?status=broken"))
		// Guide's and Setup's links to Install are broken now; the change request broke them.
		if l.Count != 2 || l.Stats.Broken.Total != 3 || *l.Stats.Broken.ChangeRequest != 2 {
			t.Fatalf("broken = %d items, stats %+v", l.Count, l.Stats)
		}
	})
	t.Run("Access", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id+"/links", nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", crPath(sp.Id, cr.Id, "/links"), nil)
		w.Expect(t, http.StatusNotFound, w.guest, "GET", "/spaces/"+sp.Id+"/content/page/"+guide+"/links", nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", crPath(sp.Id, cr.Id, "/content/page/"+guide+"/backlinks"), nil)
	})
}
