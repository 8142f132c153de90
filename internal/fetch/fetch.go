// Package fetch is quire's one way to reach other servers: files of a content batch given by
// URL, and later OpenAPI sources, integration event delivery and the translator. It speaks
// http(s) only, gives every fetch a deadline and a size cap, and refuses loopback, private,
// link-local and other special addresses. The address is checked on the IP actually dialled (in
// the dialer, after DNS resolution), for the first request and for every redirect, so a name
// that resolves to 127.0.0.1 or a redirect to 169.254.169.254 does not pass.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Defaults of a Fetcher's limits.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBytes     = 10 << 20
	DefaultMaxRedirects = 5
)

// Options configure a Fetcher; zero values take the defaults.
type Options struct {
	// AllowPrivate lifts the address rule (tests on loopback, private deployments).
	AllowPrivate bool
	// Timeout bounds a whole fetch: connecting, redirects and reading the body.
	Timeout time.Duration
	// MaxBytes caps a response body.
	MaxBytes int64
	// MaxRedirects caps the redirects followed.
	MaxRedirects int
	// UserAgent is sent with every request.
	UserAgent string
}

// Fetcher makes guarded HTTP requests. It is safe for concurrent use.
type Fetcher struct {
	opts   Options
	client *http.Client
	dialer *net.Dialer
	// exempt lets this package's tests reach chosen loopback servers with the rule on.
	exempt map[netip.AddrPort]bool
}

// New returns a Fetcher.
func New(opts Options) *Fetcher {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxRedirects <= 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "quire"
	}
	f := &Fetcher{opts: opts}
	f.dialer = &net.Dialer{Timeout: opts.Timeout, Control: f.control}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would be dialled instead of the target: no proxies
		DialContext:           f.dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          20,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   opts.Timeout,
		ResponseHeaderTimeout: opts.Timeout,
	}
	f.client = &http.Client{Transport: transport, CheckRedirect: f.checkRedirect}
	return f
}

// Client returns the guarded *http.Client, for code that needs one (an SDK client, say). Its
// requests get the address rule and the redirect checks, but not the deadline or the size cap:
// give them a context with a deadline, and read bodies through Limit.
func (f *Fetcher) Client() *http.Client { return f.client }

// DialContext connects to address (host:port) under the address rule, within the fetcher's
// timeout, for protocols other than HTTP (git over SSH). A refused or failed dial is an *Error
// naming the address; the caller bounds what it reads and how long the connection lives.
func (f *Fetcher) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	conn, err := f.dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, f.explain(address, ctx, err)
	}
	return conn, nil
}

// Options returns the limits in force.
func (f *Fetcher) Options() Options { return f.opts }

// Error is a refused or failed fetch. Its message says why, fit to show a caller.
type Error struct {
	URL    string
	Reason string
	Err    error // one of the sentinel errors below when one applies
}

func (e *Error) Error() string { return "fetching " + e.URL + ": " + e.Reason }
func (e *Error) Unwrap() error { return e.Err }

// Sentinel causes, for errors.Is.
var (
	ErrScheme    = errors.New("only http and https URLs can be fetched")
	ErrForbidden = errors.New("the address is not allowed")
	ErrTooLarge  = errors.New("the response is too large")
	ErrTimeout   = errors.New("the server took too long")
	ErrStatus    = errors.New("the server answered an error status")
)

// addressError is what the dialer's control hook refuses with; it travels up through net/http.
type addressError struct {
	addr   netip.Addr
	reason string
}

func (e *addressError) Error() string {
	return fmt.Sprintf("address %s is not allowed (%s)", e.addr, e.reason)
}

// Response is a fetched response with its whole body.
type Response struct {
	URL         string // after redirects
	StatusCode  int
	Header      http.Header
	ContentType string
	Body        []byte
}

// Get fetches a URL; a status outside 2xx is an error.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &Error{URL: rawURL, Reason: "not a valid URL", Err: err}
	}
	res, err := f.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res, &Error{URL: rawURL, Reason: fmt.Sprintf("the server answered %d", res.StatusCode), Err: ErrStatus}
	}
	return res, nil
}

// Do sends a request (any method; event delivery POSTs) under the rules and reads the answer,
// whatever its status, up to the size cap.
func (f *Fetcher) Do(req *http.Request) (*Response, error) {
	rawURL := req.URL.String()
	if err := checkScheme(req.URL); err != nil {
		return nil, &Error{URL: rawURL, Reason: err.Error(), Err: ErrScheme}
	}
	ctx, cancel := context.WithTimeout(req.Context(), f.opts.Timeout)
	defer cancel()
	req = req.WithContext(ctx)
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", f.opts.UserAgent)
	}
	res, err := f.client.Do(req)
	if err != nil {
		return nil, f.explain(rawURL, ctx, err)
	}
	defer res.Body.Close()
	if res.ContentLength > f.opts.MaxBytes {
		return nil, &Error{URL: rawURL, Reason: fmt.Sprintf("the response is over the %d-byte limit", f.opts.MaxBytes), Err: ErrTooLarge}
	}
	body, err := Limit(res.Body, f.opts.MaxBytes)
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return nil, &Error{URL: rawURL, Reason: fmt.Sprintf("the response is over the %d-byte limit", f.opts.MaxBytes), Err: ErrTooLarge}
		}
		return nil, f.explain(rawURL, ctx, err)
	}
	return &Response{URL: res.Request.URL.String(), StatusCode: res.StatusCode, Header: res.Header,
		ContentType: res.Header.Get("Content-Type"), Body: body}, nil
}

// Limit reads r to the end, or fails with ErrTooLarge after max bytes without reading further.
func Limit(r io.Reader, max int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > max {
		return nil, ErrTooLarge
	}
	return body, nil
}

// explain turns a transport error into an Error with the cause a caller can act on.
func (f *Fetcher) explain(rawURL string, ctx context.Context, err error) error {
	var ae *addressError
	var fe *Error
	switch {
	case errors.As(err, &fe):
		return fe
	case errors.As(err, &ae):
		return &Error{URL: rawURL, Reason: ae.Error(), Err: ErrForbidden}
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || isTimeout(err):
		return &Error{URL: rawURL, Reason: fmt.Sprintf("no complete answer within %s", f.opts.Timeout), Err: ErrTimeout}
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &Error{URL: rawURL, Reason: "the host name does not resolve", Err: err}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return &Error{URL: rawURL, Reason: "unreachable: " + opErr.Err.Error(), Err: err}
	}
	return &Error{URL: rawURL, Reason: "unreachable: " + err.Error(), Err: err}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func checkScheme(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return ErrScheme
	}
	if u.Host == "" {
		return errors.New("the URL has no host")
	}
	return nil
}

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.opts.MaxRedirects {
		return &Error{URL: via[0].URL.String(), Reason: fmt.Sprintf("more than %d redirects", f.opts.MaxRedirects)}
	}
	if err := checkScheme(req.URL); err != nil {
		return &Error{URL: via[0].URL.String(), Reason: "redirected to " + req.URL.Redacted() + ": " + err.Error(), Err: ErrScheme}
	}
	return nil // the address of the new target is checked when it is dialled
}

// control runs after DNS resolution, on the address about to be connected to.
func (f *Fetcher) control(network, address string, _ syscall.RawConn) error {
	if f.opts.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("fetch: unexpected dial address %q", address)
	}
	if f.exempt[ap] {
		return nil
	}
	if reason := Forbidden(ap.Addr()); reason != "" {
		return &addressError{addr: ap.Addr().Unmap(), reason: reason}
	}
	return nil
}

// special lists the ranges no fetch may reach, with the reason given.
var special = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local, cloud metadata"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "reserved"},
	{netip.MustParsePrefix("100::/64"), "reserved"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("fc00::/7"), "private"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// Forbidden says why an address may not be fetched from, or "" when it may. IPv4 addresses
// inside IPv6 (mapped, NAT64, 6to4) are judged by the IPv4 address they carry.
func Forbidden(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(a): // NAT64
			a = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		case netip.MustParsePrefix("2002::/16").Contains(a): // 6to4
			a = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		case netip.MustParsePrefix("::/96").Contains(a) && !a.IsUnspecified() && a != netip.IPv6Loopback(): // IPv4-compatible
			a = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		}
	}
	for _, s := range special {
		if s.prefix.Contains(a) {
			return s.reason
		}
	}
	return ""
}
