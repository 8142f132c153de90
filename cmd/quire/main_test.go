package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
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
