package server

import (
	"io"
	"net/http"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/quire-docs/quire/gen"
)

// Large answers are streamed (issue 31). The generated responses encode the whole body into a
// buffer before writing it, so that an encoding error can still become a 500; a space's page
// list runs to megabytes (about 11 MB for 20,000 pages), and building it twice in memory — the
// buffer growing by copies — cost a third of the request. streamedPages writes the page tree as
// it is encoded, through encoding/json/v2's streaming encoder with v1's rules (the same bytes
// as encoding/json: TestStreamedPagesAreEncodingJSON), in chunks of a few kilobytes.
type streamedPages gen.PageTree

func (r streamedPages) write(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	return encodeJSON(w, gen.PageTree(r))
}

// encodeJSON writes v as encoding/json would, streaming (encoding/json/v2 with v1's rules).
func encodeJSON(w io.Writer, v any) error {
	return jsonv2.MarshalWrite(w, v, jsonv1.DefaultOptionsV1())
}

func (r streamedPages) VisitListPagesResponse(w http.ResponseWriter) error { return r.write(w) }

func (r streamedPages) VisitListPagesInChangeRequestResponse(w http.ResponseWriter) error {
	return r.write(w)
}

func (r streamedPages) VisitListPagesInRevisionByIdResponse(w http.ResponseWriter) error {
	return r.write(w)
}
