package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/transport"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"
	"golang.org/x/net/proxy"
)

// Git over SSH goes through go-git's ssh transport, with three things of quire's own:
//
//   - the TCP connection is dialled by the guarded fetcher (fetch.Fetcher.DialContext: its
//     address rules on the address dialled), counted against the operation's byte budget and
//     closed when the operation's deadline passes. go-git's ssh transport dials through
//     golang.org/x/net/proxy when an endpoint names a proxy, so each ssh operation names one of a
//     scheme registered here (guardProxyScheme), whose dialer is the operation's guard: no other
//     route, no ~/.ssh/config (DefaultSSHConfig is cleared), no agent, no known_hosts file;
//   - the client authenticates with the private key (or the password) the remote carries;
//   - the server's host key must be the one the remote pins (Remote.HostKey); with none pinned,
//     any key is taken and reported (Checkout.HostKey), for its caller to record and pin from then
//     on (trust on first use).

// guardProxyScheme names the dialer of an operation's guard, its id the URL's host.
const guardProxyScheme = "quire-git-guard"

// guards are the guards of the operations running, by id.
var guards sync.Map

func installSSH() {
	gitssh.DefaultSSHConfig = nil
	proxy.RegisterDialerType(guardProxyScheme, func(u *url.URL, _ proxy.Dialer) (proxy.Dialer, error) {
		g, ok := guards.Load(u.Host)
		if !ok {
			return nil, errors.New("gitsync: an ssh connection without its guard")
		}
		return sshDialer{g.(*guardState)}, nil
	})
}

// sshDialer dials an operation's SSH connections through its fetcher.
type sshDialer struct{ g *guardState }

func (d sshDialer) Dial(network, addr string) (net.Conn, error) {
	return d.DialContext(d.g.ctx, network, addr)
}

func (d sshDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.g.fetcher == nil {
		return nil, errors.New("gitsync: an ssh connection without its guard")
	}
	conn, err := d.g.fetcher.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &countedConn{Conn: conn, g: d.g, stop: context.AfterFunc(d.g.ctx, func() { conn.Close() })}, nil
}

// countedConn stops reading past the operation's byte budget, and is closed at its deadline.
type countedConn struct {
	net.Conn
	g    *guardState
	stop func() bool
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if c.g.count(n) {
		return n, errTooLarge
	}
	return n, err
}

func (c *countedConn) Close() error {
	c.stop()
	return c.Conn.Close()
}

// scpLike is git's other spelling of an SSH remote, [user@]host:path, as go-git reads it (no
// slash before the first colon; host:1234:path is port 1234, go-git's own extension).
var scpLike = regexp.MustCompile(`^(?:[^@/\s]+@)?[^:/\s]+:(?:[0-9]{1,5}:)?[^\\].*$`)

// IsSSH says whether a remote's URL is an SSH one: ssh://… or scp-like user@host:path.
func IsSSH(raw string) bool {
	return strings.HasPrefix(strings.ToLower(raw), "ssh://") || !strings.Contains(raw, "://") && scpLike.MatchString(raw)
}

// splitSSH checks an SSH URL and takes a password out of an ssh:// one; the user name stays.
func splitSSH(raw string) (Remote, error) {
	var r Remote
	if !strings.Contains(raw, "://") {
		if at := strings.Index(raw, "@"); at > 0 && strings.Contains(raw[:at], ":") && !strings.Contains(raw[:at], "/") {
			return r, gitErrorf("%q: a password goes in an ssh:// URL (ssh://user:password@host/path), or give a key", raw)
		}
		r.URL = raw
	} else {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" || u.Hostname() == "" {
			return r, gitErrorf("%q is not a repository URL", raw)
		}
		if u.User != nil {
			r.Password, _ = u.User.Password()
			u.User = url.User(u.User.Username())
		}
		r.URL = u.String()
	}
	ep, err := transport.NewEndpoint(r.URL)
	if err != nil || ep.Protocol != "ssh" || ep.Host == "" || strings.Trim(ep.Path, "/") == "" {
		return Remote{}, gitErrorf("%q is not a repository URL", raw)
	}
	return r, nil
}

// ParseSSHKey checks a private key (OpenSSH or PEM, without a passphrase).
func ParseSSHKey(key string) (ssh.Signer, error) {
	s, err := ssh.ParsePrivateKey([]byte(key))
	var pm *ssh.PassphraseMissingError
	switch {
	case errors.As(err, &pm):
		return nil, gitErrorf("the key is protected by a passphrase: give it without one")
	case err != nil:
		return nil, gitErrorf("not a private key quire can read (OpenSSH or PEM): %v", err)
	}
	return s, nil
}

// ParseHostKey reads a server's public host key, as a line of authorized_keys ("ssh-ed25519
// AAAA… comment") or of known_hosts ("host ssh-ed25519 AAAA…"), and answers it as
// authorized_keys has it, without a comment.
func ParseHostKey(line string) (string, error) {
	line = strings.TrimSpace(line)
	k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		if _, _, k, _, _, err = ssh.ParseKnownHosts([]byte(line)); err != nil {
			return "", gitErrorf("not a public key line (authorized_keys or known_hosts): %v", err)
		}
	}
	return authorizedLine(k), nil
}

func authorizedLine(k ssh.PublicKey) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

// Fingerprint is a host key's SHA256 fingerprint, as ssh-keygen -l shows it ("" when line is not
// a key).
func Fingerprint(line string) string {
	k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return ""
	}
	return ssh.FingerprintSHA256(k)
}

// sshAuth is how an operation authenticates to an SSH remote and checks its host key.
type sshAuth struct {
	user    string
	methods []ssh.AuthMethod
	pinned  ssh.PublicKey // nil: any key, reported to the guard
	g       *guardState
}

func (a *sshAuth) Name() string   { return "quire-ssh" }
func (a *sshAuth) String() string { return "user: " + a.user }

func (a *sshAuth) ClientConfig() (*ssh.ClientConfig, error) {
	cfg := &ssh.ClientConfig{User: a.user, Auth: a.methods, HostKeyCallback: a.checkHostKey}
	if a.g.fetcher != nil {
		cfg.Timeout = a.g.fetcher.Options().Timeout
	}
	if a.pinned != nil {
		cfg.HostKeyAlgorithms = []string{a.pinned.Type()}
		if a.pinned.Type() == ssh.KeyAlgoRSA {
			cfg.HostKeyAlgorithms = []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA}
		}
	}
	return cfg, nil
}

func (a *sshAuth) checkHostKey(_ string, _ net.Addr, key ssh.PublicKey) error {
	if a.pinned != nil && !bytes.Equal(key.Marshal(), a.pinned.Marshal()) {
		return &HostKeyError{Got: ssh.FingerprintSHA256(key), Want: ssh.FingerprintSHA256(a.pinned)}
	}
	a.g.mu.Lock()
	a.g.hostKey = authorizedLine(key)
	a.g.mu.Unlock()
	return nil
}

// HostKeyError is an SSH server whose host key is not the one pinned.
type HostKeyError struct{ Got, Want string }

func (e *HostKeyError) Error() string {
	return fmt.Sprintf("the server's host key %s is not the repository's known host key %s: refused (if the server's key changed, give its new key as sshHostKey)", e.Got, e.Want)
}

// sshAuthFor is the authentication of an operation on an SSH remote.
func (g *guardState) sshAuthFor(r Remote) (transport.AuthMethod, error) {
	ep, err := transport.NewEndpoint(r.URL)
	if err != nil {
		return nil, gitErrorf("%q is not a repository URL", r.URL)
	}
	a := &sshAuth{user: ep.User, g: g}
	if a.user == "" {
		a.user = gitssh.DefaultUsername
	}
	if r.SSHKey != "" {
		signer, err := ParseSSHKey(r.SSHKey)
		if err != nil {
			return nil, err
		}
		a.methods = append(a.methods, ssh.PublicKeys(signer))
	}
	if r.Password != "" {
		a.methods = append(a.methods, ssh.Password(r.Password))
	}
	if len(a.methods) == 0 {
		return nil, gitErrorf("%s: an ssh remote needs a private key (sshPrivateKey) or a password", r.URL)
	}
	if r.HostKey != "" {
		if a.pinned, _, _, _, err = ssh.ParseAuthorizedKey([]byte(r.HostKey)); err != nil {
			return nil, gitErrorf("the repository's host key: %v", err)
		}
	}
	return a, nil
}

// explainSSH is what an SSH remote's error says to the caller, or nil for one that is not
// SSH's own.
func explainSSH(r Remote, err error) error {
	var hk *HostKeyError
	switch {
	case errors.As(err, &hk):
		return gitErrorf("%s: %s", r.URL, hk.Error())
	case strings.Contains(err.Error(), "ssh: unable to authenticate"):
		return gitErrorf("%s: the server refused the credentials (SSH authentication failed: wrong key or password)", r.URL)
	case strings.Contains(err.Error(), "ssh: handshake failed"):
		return gitErrorf("%s: %v", r.URL, err)
	}
	return nil
}

func (g *guardState) seenHostKey() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.hostKey
}

// SSHServer is an SSH remote's server, host:port ("" for a remote that is not SSH): a host key
// belongs to it.
func SSHServer(raw string) string {
	if !IsSSH(raw) {
		return ""
	}
	ep, err := transport.NewEndpoint(raw)
	if err != nil {
		return ""
	}
	port := ep.Port
	if port <= 0 {
		port = gitssh.DefaultPort
	}
	return net.JoinHostPort(ep.Host, strconv.Itoa(port))
}
