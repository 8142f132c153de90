package server_test

import (
	"testing"
)

// The rows of change requests, content (pages, files, links, search, templates, PDF) of spaces
// and of change requests: reading takes the read role on the space, writing the edit role.
//
// Columns:                   none garbage outsider reader commenter editor admin

// matrixGet is a row that reads path as every caller and needs the read role.
func matrixGet(op string, path func(w *matrixWorld) string) matrixRow {
	return matrixRow{op, matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
		return req("GET", path(w), nil)
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
		matrixGet("listChangeRequestsForSpace", space("/change-requests")),
		{"createChangeRequest", matrixWant{401, 401, 404, 403, 403, 201, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/spaces/"+w.handbook+"/change-requests", map[string]any{"subject": "Fixes"})
		}},
		matrixGet("getChangeRequestById", cr("")),
		{"updateChangeRequestById", matrixEdit, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", crPath(w.handbook, w.cr), map[string]any{"subject": "Open edits"})
		}},
		{"mergeChangeRequest", matrixEdit, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", crPath(w.spare, w.freshMergeable(t), "/merge"), nil)
		}},
		{"updateChangeRequest", matrixEdit, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", crPath(w.handbook, w.cr, "/update"), nil)
		}},
		// No 403 is declared: a guest is answered an empty list, and every caller here reads.
		matrixGet("listChangeRequestsForOrganization", func(w *matrixWorld) string { return w.orgPath("/change-requests") }),
		matrixGet("getRevisionOfChangeRequestById", cr("/content")),
		{"updateChangeRequestContent", matrixEdit, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", crPath(w.handbook, w.crWrites, "/content"),
				matrixContentBatch(crInsert(w.name("Written"), "Words.\n", "new")))
		}},
		matrixGet("listPagesInChangeRequest", cr("/content/pages")),
		{"getPageInChangeRequestById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", crPath(w.handbook, w.cr, "/content/page/"+w.crPage), nil)
		}},
		matrixGet("getPageInChangeRequestByPath", cr("/content/path/draft")),
		matrixGet("getCurrentRevision", space("/content")),
		matrixGet("listPages", space("/content/pages")),
		{"getPageById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/spaces/"+w.handbook+"/content/page/"+guide(w), nil)
		}},
		matrixGet("getPageByPath", space("/content/path/guide")),
		matrixGet("searchSpaceContent", space("/search?query=steps")),
		// As listChangeRequestsForOrganization: no 403 declared.
		matrixGet("searchOrganizationContent", func(w *matrixWorld) string { return w.orgPath("/search?query=steps") }),
		{"applyTemplateToSpace", matrixWant{401, 401, 404, 403, 403, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/spaces/"+w.spare+"/content/template", map[string]any{"id": "product-guide"})
		}},
		matrixGet("getChangeRequestPDF", cr("/pdf")),

		matrixGet("listFiles", space("/content/files")),
		{"getFileById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/spaces/"+w.handbook+"/content/files/"+w.file, nil)
		}},
		{"listSpaceFileBacklinks", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/spaces/"+w.handbook+"/content/files/"+w.file+"/backlinks", nil)
		}},
		matrixGet("listFilesInChangeRequestById", cr("/content/files")),
		{"getFileInChangeRequestById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", crPath(w.handbook, w.cr, "/content/files/"+w.file), nil)
		}},
		{"listChangeRequestFileBacklinks", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", crPath(w.handbook, w.cr, "/content/files/"+w.file+"/backlinks"), nil)
		}},

		{"listPageLinksInSpace", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/spaces/"+w.handbook+"/content/page/"+w.pages["welcome"]+"/links", nil)
		}},
		{"listSpacePageBacklinks", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/spaces/"+w.handbook+"/content/page/"+guide(w)+"/backlinks", nil)
		}},
		{"listPageLinksInChangeRequest", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", crPath(w.handbook, w.cr, "/content/page/"+w.pages["welcome"]+"/links"), nil)
		}},
		{"listChangeRequestPageBacklinks", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", crPath(w.handbook, w.cr, "/content/page/"+guide(w)+"/backlinks"), nil)
		}},
		matrixGet("listSpaceLinks", space("/links")),
		matrixGet("listChangeRequestLinks", cr("/links")),
	}
}
