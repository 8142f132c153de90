package server_test

import (
	"net/url"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The rows of revision-pinned reads, semantic changes, documents, meta-links and embeds: reading a
// space's content takes the read role on it; an embed outside a space takes any valid token.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixRevisionRows() []matrixRow {
	readers := matrixWant{401, 401, 404, 200, 200, 200, 200}
	at := func(rest string) func(w *matrixWorld) string { return func(*matrixWorld) string { return rest } }
	guide := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return "/page/" + w.pages["guide"] + rest }
	}
	embed := "?url=" + url.QueryEscape("https://docs.example.invalid/guide")
	return []matrixRow{
		revRow("getRevisionById", readers, at("?metadata=true")),
		revRow("listPagesInRevisionById", readers, at("/pages")),
		revRow("getPageInRevisionById", readers, guide("?format=markdown&format.markdown.refs=stable")),
		revRow("getPageDocumentInRevisionById", readers, guide("/document?evaluated=deterministic-only&dereferenced=reusable-contents")),
		revRow("getPageInRevisionByPath", readers, at("/path/guide")),
		revRow("getReusableContentInRevisionById", readers, func(w *matrixWorld) string { return "/reusable-contents/" + w.pages["warning"] }),
		revRow("getReusableContentDocumentInRevisionById", readers, func(w *matrixWorld) string {
			return "/reusable-contents/" + w.pages["warning"] + "/document?evaluated=deterministic-only&dereferenced=reusable-contents"
		}),
		matrixGet("getReusableContentById", readers, func(w *matrixWorld) string {
			return "/spaces/" + w.handbook + "/content/reusable-contents/" + w.pages["warning"]
		}),
		matrixGet("getReusableContentInChangeRequestById", readers, func(w *matrixWorld) string {
			return crPath(w.handbook, w.cr, "/content/reusable-contents/"+w.pages["warning"])
		}),
		revRow("listFilesInRevisionById", readers, at("/files")),
		revRow("getFileInRevisionById", readers, func(w *matrixWorld) string { return "/files/" + w.file }),
		revRow("getRevisionSemanticChanges", readers, at("/changes")),
		revRow("listRevisionPageMetaLinks", readers, guide("/meta-links")),
		matrixGet("getChangeRequestChanges", readers, func(w *matrixWorld) string { return crPath(w.handbook, w.cr, "/changes") }),
		matrixGet("listChangeRequestPageMetaLinks", readers, func(w *matrixWorld) string {
			return crPath(w.handbook, w.cr, "/content/page/"+w.crPage+"/meta-links")
		}),
		matrixGet("listSpacePageMetaLinks", readers, func(w *matrixWorld) string {
			return "/spaces/" + w.handbook + "/content/page/" + w.pages["guide"] + "/meta-links"
		}),
		{"getDocumentById", readers, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			p := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+w.handbook+"/content/page/"+w.pages["guide"])
			return matrixReq("GET", "/spaces/"+w.handbook+"/documents/"+*p.DocumentId, nil)
		}},
		matrixGet("getEmbedByUrl", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(*matrixWorld) string { return "/urls/embed" + embed }),
		matrixGet("getEmbedByUrlInSpace", readers, func(w *matrixWorld) string { return "/spaces/" + w.handbook + "/embed" + embed }),
	}
}

// revRow is a row that GETs a path under the handbook's current revision, read by id.
func revRow(op string, want matrixWant, rest func(w *matrixWorld) string) matrixRow {
	return matrixRow{op, want, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
		return matrixReq("GET", "/spaces/"+w.handbook+"/revisions/"+w.mainRevision(t, w.handbook).Id+rest(w), nil)
	}}
}
