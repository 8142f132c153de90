package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// fakeFont is a file whose first bytes say it is a font of a format.
func fakeFont(magic string) []byte {
	return append([]byte(magic), []byte(strings.Repeat("\x00font data", 8))...)
}

func (w *world) fontKey(t *testing.T, magic string) string {
	t.Helper()
	key, status := w.uploadKind(t, w.admin, "customization_font", "f.woff2", "font/woff2", fakeFont(magic))
	if status != http.StatusOK {
		t.Fatalf("font upload: %d", status)
	}
	return key
}

func TestCustomFonts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	base := "/orgs/" + w.org.Id + "/fonts"
	regular, bold := w.fontKey(t, "wOF2"), w.fontKey(t, "OTTO")

	// A file that is not a font is refused when it is PUT, and when an import upload is named.
	if _, status := w.uploadKind(t, w.admin, "customization_font", "evil.woff2", "font/woff2", []byte("<svg onload=alert(1)>")); status != http.StatusBadRequest {
		t.Fatalf("a PUT of a file that is not a font: %d", status)
	}
	notFont := w.upload(t, w.admin, "a.md", "text/markdown", []byte("wOF2 but for an import"))
	face := func(weight int, key any) map[string]any { return map[string]any{"weight": weight, "storageKey": key} }
	for _, c := range []struct {
		faces []any
		part  string
	}{
		{[]any{face(400, notFont)}, "fontFaces[0].storageKey"},
		{[]any{face(400, "font/nope")}, "fontFaces[0].storageKey"},
		{[]any{face(700, bold)}, "400"},
		{[]any{face(400, regular), face(400, bold)}, "twice"},
	} {
		wantMessage(t, w.Expect(t, http.StatusPreconditionFailed, w.admin, "PUT", base, map[string]any{"fontFamily": "Acme Sans", "fontFaces": c.faces}), c.part)
	}
	// Refused data is 412 on these two operations, as GitBook answers it, the schema's refusals too;
	// other operations keep 400.
	wantMessage(t, w.Expect(t, http.StatusPreconditionFailed, w.admin, "PUT", base, map[string]any{"fontFaces": []any{face(400, regular)}}), "fontFamily")
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs", map[string]any{"title": "A"})
	if list := getJSON[gen.CustomFontList](t, w.testServer, w.admin, base); list.Count != 0 {
		t.Fatalf("bad input made a font: %+v", list)
	}
	w.Expect(t, http.StatusForbidden, w.editor, "PUT", base, map[string]any{"fontFamily": "Acme Sans", "fontFaces": []any{face(400, regular)}})

	var font gen.CustomFont
	w.Expect(t, http.StatusCreated, w.admin, "PUT", base, map[string]any{"fontFamily": "Acme Sans",
		"fontFaces": []any{face(700, bold), face(400, regular)}}).Decode(t, &font)
	if font.FontFamily != "Acme Sans" || !bool(font.Custom) || !font.Permissions.Edit || len(font.FontFaces) != 2 ||
		font.FontFaces[0].Weight != 400 || *font.FontFaces[0].Sources[0].Format != gen.FontSourceFormatWoff2 || font.FontFaces[1].Sources[0].Format != nil {
		t.Fatalf("font = %+v", font)
	}
	// The file as the API answers its address: the font's bytes.
	res, err := http.Get(w.URL + strings.TrimPrefix(font.FontFaces[0].Sources[0].Url, testBaseURL))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "font/woff2" || string(body) != string(fakeFont("wOF2")) {
		t.Fatalf("font file: %d %v", res.StatusCode, res.Header)
	}
	got := getJSON[gen.CustomFont](t, w.testServer, w.editor, base+"/"+font.Id)
	if got.Id != font.Id || got.Permissions.Edit {
		t.Fatalf("the editor reads %+v", got)
	}

	// Rename, drop the bold, keep the regular.
	var upd gen.CustomFont
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/"+font.Id, map[string]any{"fontFamily": "Acme Sans 2",
		"fontFaces": []any{face(700, nil)}}).Decode(t, &upd)
	if upd.FontFamily != "Acme Sans 2" || len(upd.FontFaces) != 1 || upd.FontFaces[0].Weight != 400 {
		t.Fatalf("updated = %+v", upd)
	}
	wantMessage(t, w.Expect(t, http.StatusPreconditionFailed, w.admin, "POST", base+"/"+font.Id, map[string]any{"fontFaces": []any{face(400, nil)}}), "400")
	if got := getJSON[gen.CustomFont](t, w.testServer, w.admin, base+"/"+font.Id); len(got.FontFaces) != 1 || got.FontFamily != "Acme Sans 2" {
		t.Fatalf("a refused update changed the font: %+v", got)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "POST", base+"/nope", map[string]any{"fontFamily": "X"})

	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", base+"/"+font.Id, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", base+"/"+font.Id, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", base+"/"+font.Id, nil)
}

func TestCustomFontOnPages(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	regular := w.fontKey(t, "wOF2")
	var font gen.CustomFont
	w.Expect(t, http.StatusCreated, w.admin, "PUT", "/orgs/"+w.org.Id+"/fonts", map[string]any{"fontFamily": `Acme "Sans"`,
		"fontFaces": []any{map[string]any{"weight": 400, "storageKey": regular}}}).Decode(t, &font)
	w.Expect(t, http.StatusOK, w.admin, "PUT", "/orgs/"+w.org.Id+"/sites/"+w.site.Id+"/customization", map[string]any{
		"styling": map[string]any{"font": map[string]any{"id": font.Id, "custom": true, "fontFamily": font.FontFamily, "fontFaces": font.FontFaces}}})
	site := "/s/" + w.site.Id
	page := w.expect(t, http.StatusOK, site+"/")
	i := strings.Index(page.Body, site+"/~theme.css?v=")
	if i < 0 || strings.Contains(page.Body, "style=") {
		t.Fatalf("no theme stylesheet, or an inline style: %s", page.Body)
	}
	href := page.Body[i:]
	css := w.expect(t, http.StatusOK, strings.ReplaceAll(href[:strings.Index(href, `"`)], "&amp;", "&"))
	face := `@font-face { font-family: "Acme Sans"; src: url("` + site + `/~fonts/` + font.Id + `/400") format("woff2"); font-weight: 400;`
	if !strings.Contains(css.Body, face) || !strings.Contains(css.Body, `body { font-family: "Acme Sans", system-ui`) {
		t.Fatalf("theme: %s", css.Body)
	}
	file := w.expect(t, http.StatusOK, site+"/~fonts/"+font.Id+"/400")
	if file.Header.Get("Content-Type") != "font/woff2" || file.Body != string(fakeFont("wOF2")) {
		t.Fatalf("the site's font file: %v", file.Header)
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "font-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("CSP = %s", csp)
	}
	w.expect(t, http.StatusNotFound, site+"/~fonts/"+font.Id+"/700")
	// A deleted font leaves quire's own.
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", "/orgs/"+w.org.Id+"/fonts/"+font.Id, nil)
	if page := w.expect(t, http.StatusOK, site+"/"); strings.Contains(page.Body, "~theme.css") {
		t.Fatalf("a deleted font still styles the site")
	}
}
