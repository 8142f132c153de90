package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/markdown"
)

// everyKindDocument is the document holding every block, inline and mark kind the public specs
// define (internal/markdown/testdata/every-kind.json), as a client sends it.
func everyKindDocument(t *testing.T) map[string]any {
	t.Helper()
	raw, err := os.ReadFile("../internal/markdown/testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// sameJSON fails unless got is want as JSON.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	wnt, _ := json.Marshal(want)
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	_ = json.Unmarshal(wnt, &wv)
	g, _ = json.Marshal(gv)
	wnt, _ = json.Marshal(wv)
	if !bytes.Equal(g, wnt) {
		t.Errorf("%s is not the document sent:\n%s\nwant\n%s", what, g, wnt)
	}
}

// Every operation that takes a rich-text document takes one holding every kind: those stored
// as documents (a change request's description, a translation's and the agent's instructions)
// answer it as sent, node for node with its meta; those stored as markdown (comments and their
// replies, in spaces and change requests, and pages of the content batch) store what the
// document shows, and answer it again as a document; a page refuses a block condition.
func TestEveryDocumentKindThroughEveryOperation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	doc := everyKindDocument(t)
	var typed markdown.Document
	raw, _ := json.Marshal(doc)
	if err := json.Unmarshal(raw, &typed); err != nil {
		t.Fatal(err)
	}
	wantMD := strings.TrimSpace(markdown.Options{SpaceID: sp.Id}.ToMarkdown(&typed))
	for _, shows := range []string{"<kbd>Ctrl</kbd>", "term (A note)", "**More**\n\nHidden text", "1. First step", "$$E=mc^2$$"} {
		if !strings.Contains(wantMD, shows) {
			t.Fatalf("the document's markdown lacks %q:\n%s", shows, wantMD)
		}
	}
	cr := w.create(t, w.admin, sp.Id, "Every kind")

	t.Run("ChangeRequestDescription", func(t *testing.T) {
		got := w.Expect(t, http.StatusOK, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"description": doc}).Map(t)
		sameJSON(t, "the answered description", got["description"], doc)
		sameJSON(t, "the description read again", w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id), nil).Map(t)["description"], doc)
	})
	t.Run("AgentInstructions", func(t *testing.T) {
		path := "/orgs/" + w.org.Id + "/agent-instructions"
		got := w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"instructions": doc}).Map(t)
		sameJSON(t, "the answered instructions", got["instructions"], doc)
		sameJSON(t, "the instructions read again", w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Map(t)["instructions"], doc)
	})
	t.Run("TranslationInstructions", func(t *testing.T) {
		created := w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/translations", map[string]any{
			"language": "fr", "source": map[string]any{"space": sp.Id, "language": "en"}, "instructions": doc}).Map(t)
		sameJSON(t, "the created translation's instructions", created["instructions"], doc)
		path := "/orgs/" + w.org.Id + "/translations/" + created["id"].(string)
		updated := w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"instructions": doc}).Map(t)
		sameJSON(t, "the updated translation's instructions", updated["instructions"], doc)
	})
	for _, base := range []string{"/spaces/" + sp.Id, crPath(sp.Id, cr.Id)} {
		t.Run("Comments"+strings.ReplaceAll(base, "/", "_"), func(t *testing.T) {
			body := map[string]any{"body": map[string]any{"document": doc}}
			bodyOf := func(m map[string]any) string { return m["body"].(map[string]any)["markdown"].(string) }
			c := w.Expect(t, http.StatusOK, w.admin, "POST", base+"/comments", body).Map(t)
			if got := bodyOf(c); got != wantMD {
				t.Errorf("posted comment stores\n%s\nwant\n%s", got, wantMD)
			}
			cpath := base + "/comments/" + c["id"].(string)
			if got := bodyOf(w.Expect(t, http.StatusOK, w.admin, "PUT", cpath, body).Map(t)); got != wantMD {
				t.Errorf("updated comment stores\n%s", got)
			}
			r := w.Expect(t, http.StatusOK, w.admin, "POST", cpath+"/replies", body).Map(t)
			if got := bodyOf(r); got != wantMD {
				t.Errorf("posted reply stores\n%s", got)
			}
			if got := bodyOf(w.Expect(t, http.StatusOK, w.admin, "PUT", cpath+"/replies/"+r["id"].(string), body).Map(t)); got != wantMD {
				t.Errorf("updated reply stores\n%s", got)
			}
			// Read back as a document (the harness validates it against openapi.yaml).
			asDoc := w.Expect(t, http.StatusOK, w.admin, "GET", cpath+"?format=document", nil).Map(t)
			var back markdown.Document
			raw, _ := json.Marshal(asDoc["body"].(map[string]any)["document"])
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if again := strings.TrimSpace(markdown.Options{SpaceID: sp.Id}.ToMarkdown(&back)); again != wantMD {
				t.Errorf("the comment read as a document writes\n%s\nwant\n%s", again, wantMD)
			}
		})
	}
	t.Run("ContentBatchPage", func(t *testing.T) {
		// A page cannot keep a block shown to some visitors only (its content would show to all):
		// the document of every kind is refused for its `if`, and taken without it.
		pcr := w.create(t, w.admin, sp.Id, "Page of every kind")
		nodes := doc["nodes"].([]any)
		at := -1
		for i, n := range nodes {
			if n.(map[string]any)["type"] == "if" {
				at = i
			}
		}
		w.refuse(t, sp.Id, pcr.Id, []map[string]any{{"operation": "insert_page", "title": "Kinds", "document": map[string]any{"document": doc}}},
			"changes[0].document.document.nodes["+strconv.Itoa(at)+"]", "block condition")
		pageDoc := map[string]any{}
		for k, v := range doc {
			pageDoc[k] = v
		}
		pageDoc["nodes"] = append(append([]any{}, nodes[:at]...), nodes[at+1:]...)
		var typedPage markdown.Document
		raw, _ := json.Marshal(pageDoc)
		_ = json.Unmarshal(raw, &typedPage)
		pageMD := strings.TrimSpace(markdown.Options{SpaceID: sp.Id}.ToMarkdown(&typedPage))
		res := w.apply(t, w.admin, sp.Id, pcr.Id, map[string]any{"operation": "insert_page", "title": "Kinds",
			"ref": "kinds", "document": map[string]any{"document": pageDoc}})
		id := res.Refs["kinds"]
		if got := strings.TrimSpace(w.crMarkdown(t, sp.Id, pcr.Id, id)); got != pageMD || strings.Contains(got, "Beta only") {
			t.Errorf("the page stores\n%s\nwant\n%s", got, pageMD)
		}
		page := w.page(t, crPath(sp.Id, pcr.Id), id, "?format=document")
		if page.Title != "Kinds" || page.Document == nil {
			t.Fatalf("page %q answers no document", page.Title)
		}
		w.apply(t, w.admin, sp.Id, pcr.Id, updatePage(id, "document", map[string]any{}))
		if got := w.crMarkdown(t, sp.Id, pcr.Id, id); strings.TrimSpace(got) != "" {
			t.Errorf("an empty document {} leaves the page %q", got)
		}
		w.refuse(t, sp.Id, pcr.Id, []map[string]any{updatePage(id, "document", map[string]any{"markdown": "x", "document": doc})}, "changes[0].document", "not both")
	})
}

// A document holding a kind the public specs do not define, or a known kind with a property
// they do not define, is refused naming where, and nothing is stored.
func TestDocumentsRefuseUnknownKindsAndProperties(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "CR")
	para := func(extra map[string]any) map[string]any {
		n := map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
			map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "x", "marks": []any{}}}}}}
		for k, v := range extra {
			n[k] = v
		}
		return n
	}
	docOf := func(nodes ...any) map[string]any {
		return map[string]any{"object": "document", "data": map[string]any{}, "nodes": nodes}
	}
	for name, d := range map[string]map[string]any{
		"UnknownBlock":      docOf(map[string]any{"object": "block", "type": "carousel", "nodes": []any{}}),
		"UnknownProperty":   docOf(para(map[string]any{"colour": "red"})),
		"UnknownData":       docOf(map[string]any{"object": "block", "type": "math", "isVoid": true, "data": map[string]any{"formula": "x", "size": 3}}),
		"UnknownMeta":       docOf(para(nil), map[string]any{"object": "block", "type": "expandable", "isVoid": true, "data": map[string]any{}, "fragments": []any{}, "meta": map[string]any{"id": "e", "x": 1}}),
		"UnknownMark":       docOf(para(map[string]any{"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "x", "marks": []any{map[string]any{"object": "mark", "type": "glow"}}}}}}})),
		"ButtonWithoutRef":  docOf(para(map[string]any{"nodes": []any{map[string]any{"object": "inline", "type": "button", "isVoid": true, "data": map[string]any{"label": "Go", "kind": "primary"}}}})),
		"UnknownRefKind":    docOf(map[string]any{"object": "block", "type": "content-ref", "isVoid": true, "data": map[string]any{"ref": map[string]any{"kind": "planet", "planet": "mars"}}}),
		"TabsHoldingTables": docOf(map[string]any{"object": "block", "type": "tabs", "nodes": []any{map[string]any{"object": "block", "type": "tabs-item", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block", "type": "tabs", "nodes": []any{}}}}}}),
	} {
		t.Run(name, func(t *testing.T) {
			res := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"description": d})
			if msg := res.ErrorMessage(t); !strings.Contains(msg, "description") {
				t.Errorf("the refusal does not name the field: %q", msg)
			}
			if got := w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id), nil).Map(t); got["description"] != nil {
				t.Errorf("a refused description was stored: %v", got["description"])
			}
		})
	}
}
