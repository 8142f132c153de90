package server

import "net/http"

// writeEncodedJSON answers 200 with a body already encoded as JSON, as the generated 200 JSON
// responses write theirs (encodedPages, encodedSpace).
func writeEncodedJSON(w http.ResponseWriter, body []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}
