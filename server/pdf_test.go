package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

// pdfFixture is the world with a space and a change request holding two pages, Alpha Guide and
// its subpage Beta Notes.
type pdfFixture struct {
	*world
	sp    gen.Space
	cr    gen.ChangeRequest
	alpha string
}

func newPDFFixture(t *testing.T) *pdfFixture {
	t.Helper()
	f := &pdfFixture{world: newWorld(t)}
	f.sp = f.MustCreateSpace(t, f.admin, f.org.Id, "Handbook", "")
	f.cr = f.create(t, f.admin, f.sp.Id, "Release notes")
	f.alpha = f.apply(t, f.admin, f.sp.Id, f.cr.Id,
		insertMarkdown("Alpha Guide", "## Alpha\n\nText with **bold**.\n\n- one\n- two\n\n```go\nfmt.Println(1)\n```\n", "a"),
		insertMarkdown("Beta Notes", "Beta body", "", "into", "a"),
	).Refs["a"]
	if f.alpha == "" {
		t.Fatal("no id for ref a")
	}
	return f
}

func (f *pdfFixture) crPath() string {
	return "/spaces/" + f.sp.Id + "/change-requests/" + f.cr.Id
}

// link asks the API for a PDF link (query: "" or "?page=…") and checks its form.
func (f *pdfFixture) link(t *testing.T, u *testUser, query string) string {
	t.Helper()
	l := getJSON[gen.PDFLink](t, f.testServer, u, f.crPath()+"/pdf"+query)
	if !strings.HasPrefix(l.Url, testBaseURL+"/pdf/") {
		t.Fatalf("PDF link %q is not under %s/pdf/", l.Url, testBaseURL)
	}
	return l.Url
}

// fetchPDF fetches a link that must answer a PDF.
func (f *pdfFixture) fetchPDF(t *testing.T, link string) []byte {
	t.Helper()
	res, body := f.fetch(t, link)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", link, res.StatusCode, body)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Fatalf("Content-Type %q", ct)
	}
	if !bytes.HasPrefix(body, []byte("%PDF-")) || !bytes.HasSuffix(bytes.TrimRight(body, "\r\n"), []byte("%%EOF")) {
		t.Fatalf("not a PDF: %.60q", body)
	}
	return body
}

// refused fetches a link that must be refused with status want and a JSON error body.
func (f *pdfFixture) refused(t *testing.T, link string, want ...int) string {
	t.Helper()
	res, body := f.fetch(t, link)
	var e gen.Error
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != res.StatusCode || e.Error.Message == "" {
		t.Fatalf("GET %s: status %d, body not an error: %s", link, res.StatusCode, body)
	}
	for _, w := range want {
		if res.StatusCode == w {
			return e.Error.Message
		}
	}
	t.Fatalf("GET %s: status %d, want one of %v: %s", link, res.StatusCode, want, body)
	return ""
}

func TestChangeRequestPDF(t *testing.T) {
	t.Parallel()
	f := newPDFFixture(t)

	link := f.link(t, f.admin, "")
	res, _ := f.fetch(t, link)
	if cd := res.Header.Get("Content-Disposition"); cd != `inline; filename="Release notes.pdf"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	pdf := f.fetchPDF(t, link)
	for _, want := range []string{"Alpha Guide", "Beta Notes", "Release notes", "Beta body", "fmt.Println", "/Creator (quire)"} {
		if !bytes.Contains(pdf, []byte(want)) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
	// The link can be fetched again while it is valid.
	f.fetchPDF(t, link)

	// One page with its subpages, or alone.
	pdf = f.fetchPDF(t, f.link(t, f.admin, "?page="+f.alpha))
	if !bytes.Contains(pdf, []byte("Alpha Guide")) || !bytes.Contains(pdf, []byte("Beta Notes")) {
		t.Error("the PDF of a page lacks the page or its subpage")
	}
	pdf = f.fetchPDF(t, f.link(t, f.admin, "?page="+f.alpha+"&only=true"))
	if !bytes.Contains(pdf, []byte("Alpha Guide")) || bytes.Contains(pdf, []byte("Beta Notes")) {
		t.Error("the PDF of a page alone is wrong")
	}
	pdf = f.fetchPDF(t, f.link(t, f.admin, "?page="+f.alpha+"&only=false"))
	if !bytes.Contains(pdf, []byte("Beta Notes")) {
		t.Error("only=false left out the subpage")
	}

	// The PDF shows the revision the link was made for, not later edits.
	f.Expect(t, http.StatusOK, f.admin, "POST", f.crPath()+"/content", map[string]any{"changes": []map[string]any{
		{"operation": "insert_page", "title": "Gamma Later", "document": map[string]any{"markdown": "later"}}}})
	if bytes.Contains(f.fetchPDF(t, link), []byte("Gamma Later")) {
		t.Error("an old link shows a later revision")
	}
	if !bytes.Contains(f.fetchPDF(t, f.link(t, f.admin, "")), []byte("Gamma Later")) {
		t.Error("a new link lacks the new page")
	}
}

func TestChangeRequestPDFBadRequests(t *testing.T) {
	t.Parallel()
	f := newPDFFixture(t)
	msg := f.Expect(t, http.StatusBadRequest, f.admin, "GET", f.crPath()+"/pdf?page=no-such-page", nil).ErrorMessage(t)
	if !strings.Contains(msg, `"page"`) {
		t.Errorf("unknown page: message %q does not name page", msg)
	}
	msg = f.Expect(t, http.StatusBadRequest, f.admin, "GET", f.crPath()+"/pdf?only=true", nil).ErrorMessage(t)
	if !strings.Contains(msg, `"only"`) {
		t.Errorf("only without page: message %q", msg)
	}
	f.Expect(t, http.StatusBadRequest, f.admin, "GET", f.crPath()+"/pdf?page=", nil)
}

func TestChangeRequestPDFAccess(t *testing.T) {
	t.Parallel()
	f := newPDFFixture(t)
	f.Expect(t, http.StatusUnauthorized, nil, "GET", f.crPath()+"/pdf", nil)
	f.Expect(t, http.StatusNotFound, f.outsider, "GET", f.crPath()+"/pdf", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+f.sp.Id+"/change-requests/no-such-cr/pdf", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/no-such-space/change-requests/"+f.cr.Id+"/pdf", nil)
	// Read access is enough; the change request can be named by number too.
	pdf := f.fetchPDF(t, f.link(t, f.reader, ""))
	if !bytes.Contains(pdf, []byte("Alpha Guide")) {
		t.Error("the reader's PDF lacks the page")
	}
	l := getJSON[gen.PDFLink](t, f.testServer, f.reader, "/spaces/"+f.sp.Id+"/change-requests/1/pdf")
	f.fetchPDF(t, l.Url)
}

func TestChangeRequestPDFLinks(t *testing.T) {
	t.Parallel()
	f := newPDFFixture(t)
	link := f.link(t, f.admin, "")
	token := link[strings.LastIndexByte(link, '/')+1:]
	base := strings.TrimSuffix(link, token)

	// Any change to the token (a JWT) is refused: flip the lowest bit of a character at the start,
	// the middle, either side of each separator and the end (where, in the signature, it is a bit no
	// byte holds: a lax decoder would read the same signature).
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	dot, sig := strings.IndexByte(token, '.'), strings.LastIndexByte(token, '.')
	for _, i := range []int{0, dot / 2, dot - 1, dot + 1, sig - 1, sig + 1, len(token) - 1} {
		b := []byte(token)
		b[i] = alphabet[strings.IndexByte(alphabet, b[i])^1]
		f.refused(t, base+string(b), http.StatusForbidden, http.StatusNotFound)
	}
	for _, bad := range []string{"x", "x.y", ".", token[:dot], token[:dot] + ".", token + "A", strings.Repeat("A", 5000)} {
		f.refused(t, base+bad, http.StatusForbidden, http.StatusNotFound)
	}
	// The signature of one link moved onto another link's claims is refused.
	other := f.link(t, f.admin, "?page="+f.alpha)
	otherToken := other[strings.LastIndexByte(other, '/')+1:]
	f.refused(t, base+token[:sig]+otherToken[strings.LastIndexByte(otherToken, '.'):], http.StatusForbidden, http.StatusNotFound)

	// Valid for an hour.
	f.Clock.Advance(59 * time.Minute)
	f.fetchPDF(t, link)
	f.Clock.Advance(2 * time.Minute)
	msg := f.refused(t, link, http.StatusGone, http.StatusNotFound)
	if !strings.Contains(msg, "expired") {
		t.Errorf("expired link: message %q", msg)
	}
	// Only a link quire signed is told it expired: a forged one is unknown.
	forged := []byte(token)
	forged[sig+1] = alphabet[strings.IndexByte(alphabet, forged[sig+1])^1]
	f.refused(t, base+string(forged), http.StatusNotFound)
	// A new link works.
	f.fetchPDF(t, f.link(t, f.admin, ""))
}

func TestChangeRequestPDFDeletedPage(t *testing.T) {
	t.Parallel()
	f := newPDFFixture(t)
	// A link to a page made before the page was deleted still shows it: links print the
	// revision they were made for.
	link := f.link(t, f.admin, "?page="+f.alpha+"&only=true")
	f.Expect(t, http.StatusOK, f.admin, "POST", f.crPath()+"/content", map[string]any{"changes": []map[string]any{
		{"operation": "delete_page", "page": f.alpha}}})
	if !bytes.Contains(f.fetchPDF(t, link), []byte("Alpha Guide")) {
		t.Error("the old link lost its page")
	}
	f.Expect(t, http.StatusBadRequest, f.admin, "GET", f.crPath()+"/pdf?page="+f.alpha, nil)
	// The whole change request prints with no pages at all.
	pdf := f.fetchPDF(t, f.link(t, f.admin, ""))
	if bytes.Contains(pdf, []byte("Alpha Guide")) || !bytes.Contains(pdf, []byte("Release notes")) {
		t.Error("the PDF of an empty change request is wrong")
	}
}

func TestChangeRequestPDFFileName(t *testing.T) {
	t.Parallel()
	f := newPDFFixture(t)
	var cr gen.ChangeRequest
	f.Expect(t, http.StatusCreated, f.admin, "POST", "/spaces/"+f.sp.Id+"/change-requests",
		map[string]any{"subject": `Über "v2"/日本`}).Decode(t, &cr)
	l := getJSON[gen.PDFLink](t, f.testServer, f.admin, "/spaces/"+f.sp.Id+"/change-requests/"+cr.Id+"/pdf")
	res, _ := f.fetch(t, l.Url)
	want := `inline; filename="_ber _v2____.pdf"; filename*=utf-8''%C3%9Cber%20%22v2%22%2F%E6%97%A5%E6%9C%AC.pdf`
	if cd := res.Header.Get("Content-Disposition"); cd != want {
		t.Errorf("Content-Disposition %q, want %q", cd, want)
	}
	pdf := f.fetchPDF(t, l.Url)
	// The subject is the title line, in Windows-1252 ("?" for what it lacks).
	if !bytes.Contains(pdf, []byte("(\xdcber \"v2\"/??)")) {
		t.Error("the PDF lacks its title line")
	}
}
