// Command bareecho is the baseline of testdata/bench/load.sh: a bare Echo server (no middleware, no logging)
// answering one route with a constant JSON body of a given size, so quire's throughput can be
// compared with what Echo and net/http alone manage on this machine for the same response size.
//
//	bareecho -addr 127.0.0.1:9090 -size 1234   # GET /v1/spaces/:spaceId -> 200, 1234-byte JSON
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9090", "address to listen on")
	size := flag.Int("size", 1024, "response body size in bytes (at least 16)")
	route := flag.String("route", "/v1/spaces/:spaceId", "the one GET route answered")
	flag.Parse()
	body, err := constantJSON(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bareecho:", err)
		os.Exit(2)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET(*route, func(c echo.Context) error {
		return c.JSONBlob(http.StatusOK, body)
	})
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	hs := &http.Server{Addr: *addr, Handler: e, ReadHeaderTimeout: 10 * time.Second}
	if err := hs.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "bareecho:", err)
		os.Exit(1)
	}
}

// constantJSON is a valid JSON object of exactly n bytes: {"object":"space","pad":"xxx…"}.
func constantJSON(n int) ([]byte, error) {
	const head, tail = `{"object":"space","pad":"`, `"}`
	pad := n - len(head) - len(tail)
	if pad < 0 {
		return nil, fmt.Errorf("-size %d is below the minimum %d", n, len(head)+len(tail))
	}
	return []byte(head + strings.Repeat("x", pad) + tail), nil
}
