package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/sqlite"
)

// A handler's panic answers 500 in the API's error shape without its cause, is logged with its
// stack, and is counted by route in quire_http_panics_total; the server keeps serving.
func TestPanicsAreLoggedAndCounted(t *testing.T) {
	t.Parallel()
	st, err := sqlite.Open(context.Background(), t.TempDir()+"/quire.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &syncBuffer{}
	srv := server.New(st, slog.New(slog.NewJSONHandler(logs, nil)), testBaseURL, []byte("secret"))
	m := server.NewMetrics()
	e, err := srv.Handler(server.Options{Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	e.GET("/panics", func(c echo.Context) error {
		s := make([]byte, 2)
		n := len(c.QueryParam("n")) + 3
		_ = s[:n] // a slice out of range, as the shared transformer of issue 24 panicked
		return nil
	})
	hs := httptest.NewServer(e)
	defer hs.Close()
	token, err := st.CreateUser(context.Background(), &store.User{Email: "ada@example.com", DisplayName: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		req, _ := http.NewRequest("GET", hs.URL+"/panics", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct {
				Code    int
				Message string
			}
		}
		json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != http.StatusInternalServerError || body.Error.Code != 500 || strings.Contains(body.Error.Message, "slice") {
			t.Fatalf("a panic answered %d %+v, want 500 without the cause", res.StatusCode, body)
		}
	}
	if res, err := http.Get(hs.URL + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("after the panics /healthz answers %v, %v", res, err)
	}
	var panics int
	for _, line := range logs.Lines(t) {
		if line["msg"] != "panic" {
			continue
		}
		panics++
		if line["route"] != "/panics" || !strings.Contains(line["panic"].(string), "slice bounds out of range") ||
			!strings.Contains(line["stack"].(string), "recover_test.go") || line["level"] != "ERROR" {
			t.Fatalf("panic logged as %v", line)
		}
	}
	if panics != 2 {
		t.Fatalf("%d panics logged, want 2", panics)
	}
	scrape := httptest.NewServer(m.Handler())
	defer scrape.Close()
	res, err := http.Get(scrape.URL)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if want := `quire_http_panics_total{route="/panics"} 2`; !strings.Contains(string(text), want) {
		t.Fatalf("metrics lack %s", want)
	}
}
