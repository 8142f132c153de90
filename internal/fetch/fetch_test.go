package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// exemptServer starts a loopback server the rule lets through, as if it were a public host.
func exemptServer(t *testing.T, f *Fetcher, h http.Handler) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	ap := netip.MustParseAddrPort(strings.TrimPrefix(s.URL, "http://"))
	if f.exempt == nil {
		f.exempt = map[netip.AddrPort]bool{}
	}
	f.exempt[ap] = true
	return s
}

func wantCause(t *testing.T, err, cause error, reason string) {
	t.Helper()
	var fe *Error
	if !errors.As(err, &fe) || !errors.Is(err, cause) {
		t.Fatalf("error %v (%T), want a fetch error caused by %v", err, err, cause)
	}
	if !strings.Contains(fe.Error(), reason) {
		t.Fatalf("error %q does not say %q", fe.Error(), reason)
	}
}

func TestGetFromAllowedServer(t *testing.T) {
	f := New(Options{})
	s := exemptServer(t, f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != "quire" {
			t.Errorf("user agent %q", r.Header.Get("User-Agent"))
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("png bytes"))
	}))
	res, err := f.Get(context.Background(), s.URL+"/a.png")
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "png bytes" || res.ContentType != "image/png" || res.StatusCode != 200 {
		t.Fatalf("response %+v", res)
	}
}

func TestLoopbackRefused(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the refused server was reached")
	}))
	defer s.Close()
	f := New(Options{})
	_, err := f.Get(context.Background(), s.URL)
	wantCause(t, err, ErrForbidden, "loopback")
	// A host name is judged by what it resolves to, when dialled.
	_, err = f.Get(context.Background(), strings.Replace(s.URL, "127.0.0.1", "localhost", 1))
	wantCause(t, err, ErrForbidden, "not allowed")
}

func TestAllowPrivate(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer s.Close()
	res, err := New(Options{AllowPrivate: true}).Get(context.Background(), s.URL)
	if err != nil || string(res.Body) != "ok" {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestRedirectToLoopbackRefused(t *testing.T) {
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the redirect target on loopback was reached")
	}))
	defer inner.Close()
	f := New(Options{})
	outer := exemptServer(t, f, http.RedirectHandler(inner.URL+"/secret", http.StatusFound))
	_, err := f.Get(context.Background(), outer.URL)
	wantCause(t, err, ErrForbidden, "127.0.0.1")
}

func TestRedirectToMetadataAndOtherSchemesRefused(t *testing.T) {
	f := New(Options{Timeout: 2 * time.Second})
	for target, cause := range map[string]error{
		"http://169.254.169.254/latest/meta-data/": ErrForbidden,
		"http://[::ffff:10.0.0.1]/":                ErrForbidden,
		"file:///etc/passwd":                       ErrScheme,
		"ftp://example.com/x":                      ErrScheme,
	} {
		s := exemptServer(t, f, http.RedirectHandler(target, http.StatusFound))
		_, err := f.Get(context.Background(), s.URL)
		if !errors.Is(err, cause) {
			t.Fatalf("redirect to %s: %v, want %v", target, err, cause)
		}
	}
}

func TestTooManyRedirects(t *testing.T) {
	f := New(Options{MaxRedirects: 2})
	var s *httptest.Server
	s = exemptServer(t, f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.URL+"/again", http.StatusFound)
	}))
	_, err := f.Get(context.Background(), s.URL)
	if err == nil || !strings.Contains(err.Error(), "more than 2 redirects") {
		t.Fatalf("error %v", err)
	}
}

func TestBodyCutAtTheCap(t *testing.T) {
	f := New(Options{MaxBytes: 1000})
	wrote := make(chan int, 1)
	s := exemptServer(t, f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// No Content-Length: the cap is found while reading. The server would go on for 100 MB.
		chunk := make([]byte, 512)
		n := 0
		for i := 0; i < 200000; i++ {
			if _, err := w.Write(chunk); err != nil {
				break
			}
			w.(http.Flusher).Flush()
			n += len(chunk)
		}
		wrote <- n
	}))
	_, err := f.Get(context.Background(), s.URL)
	wantCause(t, err, ErrTooLarge, "1000-byte limit")
	if n := <-wrote; n >= 100<<20 {
		t.Fatalf("the whole body (%d bytes) was read", n)
	}
	// An exact fit passes; a declared Content-Length over the cap fails before reading.
	fit := exemptServer(t, f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 1000)))
	}))
	if res, err := f.Get(context.Background(), fit.URL); err != nil || len(res.Body) != 1000 {
		t.Fatalf("exact fit: %v", err)
	}
	declared := exemptServer(t, f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5000")
		w.Write([]byte(strings.Repeat("x", 5000)))
	}))
	_, err = f.Get(context.Background(), declared.URL)
	wantCause(t, err, ErrTooLarge, "limit")
}

func TestTimeout(t *testing.T) {
	f := New(Options{Timeout: 200 * time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	s := exemptServer(t, f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	start := time.Now()
	_, err := f.Get(context.Background(), s.URL)
	wantCause(t, err, ErrTimeout, "200ms")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
	// A body that trickles past the deadline times out too.
	slow := exemptServer(t, f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 20; i++ {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
		}
	}))
	_, err = f.Get(context.Background(), slow.URL)
	wantCause(t, err, ErrTimeout, "within")
}

func TestErrorStatusAndBadURLs(t *testing.T) {
	f := New(Options{})
	s := exemptServer(t, f, http.NotFoundHandler())
	_, err := f.Get(context.Background(), s.URL)
	wantCause(t, err, ErrStatus, "404")
	for _, u := range []string{"file:///etc/passwd", "gopher://x", "/relative", "http://"} {
		if _, err := f.Get(context.Background(), u); err == nil {
			t.Fatalf("%s fetched", u)
		}
	}
	if _, err := f.Get(context.Background(), "file:///etc/passwd"); !errors.Is(err, ErrScheme) {
		t.Fatalf("file URL: %v", err)
	}
}

func TestForbidden(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "127.1.2.3": true, "10.1.2.3": true, "172.16.0.1": true, "172.31.255.255": true,
		"192.168.1.1": true, "169.254.169.254": true, "100.100.100.200": true, "0.0.0.0": true,
		"::1": true, "::": true, "fe80::1": true, "fd00:ec2::254": true, "::ffff:127.0.0.1": true,
		"::ffff:169.254.169.254": true, "64:ff9b::a9fe:a9fe": true, "2002:7f00:1::": true, "224.0.0.1": true,
		"8.8.8.8": false, "172.32.0.1": false, "93.184.216.34": false, "2606:4700::1111": false,
	} {
		if got := Forbidden(netip.MustParseAddr(addr)) != ""; got != want {
			t.Errorf("%s: forbidden %v, want %v", addr, got, want)
		}
	}
}

// DialContext keeps the address rule for other protocols: a loopback listener is refused by the
// rule, reached when exempt (as a public host would be).
func TestDialContextKeepsTheRule(t *testing.T) {
	s := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(s.Close)
	addr := strings.TrimPrefix(s.URL, "http://")
	f := New(Options{})
	_, err := f.DialContext(context.Background(), "tcp", addr)
	wantCause(t, err, ErrForbidden, "is not allowed (loopback)")
	f.exempt = map[netip.AddrPort]bool{netip.MustParseAddrPort(addr): true}
	conn, err := f.DialContext(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
}
