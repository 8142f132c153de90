package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The rows of translations. Reading takes the read role in the organization; creating, changing,
// deleting and running take the role that creates spaces (a first run creates the result space),
// which only the admin has here. The matrix's server has no translator, so the admin's run is
// the 400 that says so (translations_test.go runs them with one).
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixTranslationRows() []matrixRow {
	shared := func(t *testing.T, w *matrixWorld) string { return w.orgPath("/translations/" + w.translation(t)) }
	return []matrixRow{
		matrixGet("listTranslations", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string { return w.orgPath("/translations") }),
		{"createTranslation", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/translations"), map[string]any{"language": "fr",
				"source": map[string]any{"space": w.handbook, "language": "en"}})
		}},
		{"getTranslation", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", shared(t, w), nil)
		}},
		{"updateTranslation", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", shared(t, w), map[string]any{"instructions": markdownDocument("- Quire\n")})
		}},
		{"deleteTranslation", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			path := w.orgPath("/translations/" + w.freshTranslation(t))
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"runTranslation", matrixWant{401, 401, 404, 403, 403, 403, 400}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", shared(t, w)+"/run", nil)
		}},
		// The glossary: read like translations, changed with the same role.
		matrixGet("listGlossaryEntries", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string { return w.orgPath("/translations-glossary") }),
		{"getGlossaryEntry", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/translations-glossary/"+w.glossaryEntry(t)), nil)
		}},
		{"updateGlossaryEntries", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.orgPath("/translations-glossary"), map[string]any{"operations": []any{
				map[string]any{"type": "insert", "translations": map[string]any{"en": "Handbook", "fr": "Manuel"}}}})
		}},
	}
}

// matrixGlossaryEntries holds each matrix world's shared glossary entry.
var matrixGlossaryEntries = map[*matrixWorld]string{}

// glossaryEntry is the world's shared glossary entry, made on first use.
func (w *matrixWorld) glossaryEntry(t *testing.T) string {
	t.Helper()
	if id, ok := matrixGlossaryEntries[w]; ok {
		return id
	}
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", w.orgPath("/translations-glossary"), map[string]any{"operations": []any{
		map[string]any{"type": "insert", "translations": map[string]any{"en": "Quire"}}}})
	var list gen.GlossaryEntryList
	w.Expect(t, http.StatusOK, w.admin, "GET", w.orgPath("/translations-glossary?orderBy=en"), nil).Decode(t, &list)
	for _, e := range list.Items {
		if e.Translations["en"] == "Quire" {
			matrixGlossaryEntries[w] = e.Id
			return e.Id
		}
	}
	t.Fatal("the shared glossary entry is not listed")
	return ""
}

// matrixTranslations holds each matrix world's shared translation.
var matrixTranslations = map[*matrixWorld]string{}

// translation is the world's shared translation of the handbook, made on first use.
func (w *matrixWorld) translation(t *testing.T) string {
	t.Helper()
	if id, ok := matrixTranslations[w]; ok {
		return id
	}
	id := w.freshTranslation(t)
	matrixTranslations[w] = id
	return id
}

func (w *matrixWorld) freshTranslation(t *testing.T) string {
	t.Helper()
	var tr gen.Translation
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.orgPath("/translations"), map[string]any{"language": "fr",
		"source": map[string]any{"space": w.handbook, "language": "en"}}).Decode(t, &tr)
	return tr.Id
}
