package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// startHTTPServer serves h with the given timeouts on a loopback port and returns its address.
func startHTTPServer(t *testing.T, h http.Handler, to timeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := newHTTPServer(ln.Addr().String(), h, to)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

var ok = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })

// A client sending its headers one byte at a time is cut off at the header timeout.
func TestSlowHeadersAreCutOff(t *testing.T) {
	addr := startHTTPServer(t, ok, timeouts{header: 300 * time.Millisecond, read: time.Second, request: time.Second, idle: time.Second})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	line := []byte("GET /healthz HTTP/1.1\r\nHost: quire\r\nX-Slow: " + string(make([]byte, 64)))
	var writeErr error
	for _, b := range line {
		if _, writeErr = conn.Write([]byte{b}); writeErr != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
		if time.Since(start) > 3*time.Second {
			break
		}
	}
	// The server closed the connection (a write failed, or a read ends) well before the client
	// finished, and it never answered 200.
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	res, readErr := http.ReadResponse(bufio.NewReader(conn), nil)
	if readErr == nil && res.StatusCode == http.StatusOK {
		t.Fatal("a client sending headers slowly was answered 200")
	}
	var ne net.Error
	if errors.As(readErr, &ne) && ne.Timeout() {
		t.Fatalf("the connection was still open after %v (write error %v)", time.Since(start), writeErr)
	}
}

// Many idle connections do not stop the server from answering.
func TestIdleConnectionsDoNotBlockService(t *testing.T) {
	addr := startHTTPServer(t, ok, timeouts{header: 5 * time.Second, read: 5 * time.Second, request: 5 * time.Second, idle: 5 * time.Second})
	var idle []net.Conn
	for i := 0; i < 300; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	client := &http.Client{Timeout: 2 * time.Second}
	res, err := client.Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("with %d idle connections: %v", len(idle), err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
}

// Every request carries a deadline down to the database.
func TestRequestsCarryADeadline(t *testing.T) {
	got := make(chan bool, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, has := r.Context().Deadline()
		got <- has
	})
	addr := startHTTPServer(t, h, defaultTimeouts)
	res, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if !<-got {
		t.Fatal("the request's context has no deadline")
	}
}

func TestParseNetworks(t *testing.T) {
	nets, err := parseNetworks("10.0.0.0/8, 127.0.0.1,::1")
	if err != nil || len(nets) != 3 {
		t.Fatalf("nets %v, err %v", nets, err)
	}
	if !nets[1].Contains(net.ParseIP("127.0.0.1")) || nets[1].Contains(net.ParseIP("127.0.0.2")) {
		t.Fatalf("a bare address is one host: %v", nets[1])
	}
	if _, err := parseNetworks("not-a-network"); err == nil {
		t.Fatal("a malformed network was accepted")
	}
}

// Every serve flag can come from its QUIRE_… variable; a flag given on the command line wins.
func TestServeFlagsFromEnvironment(t *testing.T) {
	t.Setenv("QUIRE_ADDR", "127.0.0.1:9999")
	t.Setenv("QUIRE_DB", "/tmp/from-env.db")
	t.Setenv("QUIRE_RATE_LIMIT", "42")
	t.Setenv("QUIRE_TRUSTED_PROXIES", "10.0.0.0/8")
	c, err := parseServe([]string{"--db", "/tmp/from-flag.db"})
	if err != nil {
		t.Fatal(err)
	}
	if c.addr != "127.0.0.1:9999" || c.rateLimit != 42 || c.baseURL != "http://127.0.0.1:9999" {
		t.Fatalf("from the environment: %+v", c)
	}
	if c.db != "/tmp/from-flag.db" {
		t.Fatalf("db %q: the flag must win over QUIRE_DB", c.db)
	}
	if len(c.trustedProxies) != 1 || !c.trustedProxies[0].Contains(net.ParseIP("10.1.2.3")) {
		t.Fatalf("trusted proxies %v", c.trustedProxies)
	}
	t.Setenv("QUIRE_RATE_LIMIT", "lots")
	if _, err := parseServe(nil); err == nil || !strings.Contains(err.Error(), "QUIRE_RATE_LIMIT") {
		t.Fatalf("a malformed variable: %v, want an error naming it", err)
	}
}

// --help lists every flag with its variable and is not an error.
func TestServeHelpListsVariables(t *testing.T) {
	out, err := quireCommand("serve", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("serve --help: %v\n%s", err, out)
	}
	for _, v := range []string{"QUIRE_ADDR", "QUIRE_DB", "QUIRE_BASE_URL", "QUIRE_RATE_LIMIT", "QUIRE_TRUSTED_PROXIES"} {
		if !strings.Contains(string(out), v) {
			t.Fatalf("serve --help does not name %s:\n%s", v, out)
		}
	}
	out, err = quireCommand("version").Output()
	if err != nil || !strings.HasPrefix(string(out), "quire ") {
		t.Fatalf("version: %q %v", out, err)
	}
}

// Metrics are served on --metrics-addr only, never beside the API.
func TestMetricsHaveTheirOwnAddress(t *testing.T) {
	metrics := freeAddr(t)
	_, api := startQuire(t, t.TempDir()+"/quire.db", "--metrics-addr", metrics)
	if res, err := http.Get(api + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", res, err)
	}
	var res *http.Response
	var err error
	for i := 0; i < 100; i++ { // the metrics listener starts beside the API's
		if res, err = http.Get("http://" + metrics + "/metrics"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	// startQuire's readiness probe and the request above: at least two.
	if !strings.Contains(string(body), `quire_http_requests_total{method="GET",route="/healthz",status="200"} `) ||
		strings.Contains(string(body), `quire_http_requests_total{method="GET",route="/healthz",status="200"} 1`+"\n") {
		t.Fatalf("the scrape does not count the healthz request:\n%s", body)
	}
	if res, err := http.Get(api + "/metrics"); err != nil || res.StatusCode == http.StatusOK {
		t.Fatalf("the API's address answers /metrics: %v %v", res, err)
	}
}
