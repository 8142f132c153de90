package server_test

import (
	"testing"
)

// The rows of change requests, content (pages, files, links, search, templates, PDF) of spaces
// and of change requests: reading takes the read role on the space, writing the edit role.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

// matrixGet is a row that GETs a path.
func matrixGet(op string, want matrixWant, path func(w *matrixWorld) string) matrixRow {
	return matrixRow{op, want, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
		return matrixReq("GET", path(w), nil)
	}}
}

func matrixContentRows() []matrixRow {
	space := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return "/spaces/" + w.handbook + rest }
	}
	cr := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return crPath(w.handbook, w.cr, rest) }
	}
	guide := func(w *matrixWorld) string { return w.pages["guide"] }
	return []matrixRow{
		matrixGet("listChangeRequestsForSpace", matrixWant{401, 401, 404, 200, 200, 200, 200}, space("/change-requests")),
		{"createChangeRequest", matrixWant{401, 401, 404, 403, 403, 201, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/spaces/"+w.handbook+"/change-requests", map[string]any{"subject": "Fixes"})
		}},
		matrixGet("getChangeRequestById", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("")),
		{"updateChangeRequestById", matrixWant{401, 401, 404, 403, 403, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", crPath(w.handbook, w.cr), map[string]any{"subject": "Open edits"})
		}},
		{"mergeChangeRequest", matrixWant{401, 401, 404, 403, 403, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", crPath(w.spare, w.freshMergeable(t), "/merge"), nil)
		}},
		{"updateChangeRequest", matrixWant{401, 401, 404, 403, 403, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", crPath(w.handbook, w.cr, "/update"), nil)
		}},
		// No 403 is declared: a guest is answered an empty list, and every caller here reads.
		matrixGet("listChangeRequestsForOrganization", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string { return w.orgPath("/change-requests") }),
		matrixGet("getRevisionOfChangeRequestById", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/content")),
		{"updateChangeRequestContent", matrixWant{401, 401, 404, 403, 403, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", crPath(w.handbook, w.crWrites, "/content"),
				matrixContentBatch(insertMarkdown(w.name("Written"), "Words.\n", "new")))
		}},
		matrixGet("listPagesInChangeRequest", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/content/pages")),
		{"getPageInChangeRequestById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", crPath(w.handbook, w.cr, "/content/page/"+w.crPage), nil)
		}},
		matrixGet("getPageInChangeRequestByPath", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/content/path/draft")),
		matrixGet("getCurrentRevision", matrixWant{401, 401, 404, 200, 200, 200, 200}, space("/content")),
		matrixGet("listPages", matrixWant{401, 401, 404, 200, 200, 200, 200}, space("/content/pages")),
		{"getPageById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/spaces/"+w.handbook+"/content/page/"+guide(w), nil)
		}},
		matrixGet("getPageByPath", matrixWant{401, 401, 404, 200, 200, 200, 200}, space("/content/path/guide")),
		matrixGet("searchSpaceContent", matrixWant{401, 401, 404, 200, 200, 200, 200}, space("/search?query=steps")),
		// As listChangeRequestsForOrganization: no 403 declared.
		matrixGet("searchOrganizationContent", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string { return w.orgPath("/search?query=steps") }),
		{"applyTemplateToSpace", matrixWant{401, 401, 404, 403, 403, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/spaces/"+w.spare+"/content/template", map[string]any{"id": "product-guide"})
		}},
		matrixGet("getChangeRequestPDF", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/pdf")),

		matrixGet("listFiles", matrixWant{401, 401, 404, 200, 200, 200, 200}, space("/content/files")),
		{"getFileById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/spaces/"+w.handbook+"/content/files/"+w.file, nil)
		}},
		{"listSpaceFileBacklinks", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/spaces/"+w.handbook+"/content/files/"+w.file+"/backlinks", nil)
		}},
		matrixGet("listFilesInChangeRequestById", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/content/files")),
		{"getFileInChangeRequestById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", crPath(w.handbook, w.cr, "/content/files/"+w.file), nil)
		}},
		{"listChangeRequestFileBacklinks", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", crPath(w.handbook, w.cr, "/content/files/"+w.file+"/backlinks"), nil)
		}},

		{"listPageLinksInSpace", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/spaces/"+w.handbook+"/content/page/"+w.pages["welcome"]+"/links", nil)
		}},
		{"listSpacePageBacklinks", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/spaces/"+w.handbook+"/content/page/"+guide(w)+"/backlinks", nil)
		}},
		{"listPageLinksInChangeRequest", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", crPath(w.handbook, w.cr, "/content/page/"+w.pages["welcome"]+"/links"), nil)
		}},
		{"listChangeRequestPageBacklinks", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", crPath(w.handbook, w.cr, "/content/page/"+guide(w)+"/backlinks"), nil)
		}},
		matrixGet("listSpaceLinks", matrixWant{401, 401, 404, 200, 200, 200, 200}, space("/links")),
		matrixGet("listChangeRequestLinks", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/links")),
	}
}
