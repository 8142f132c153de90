package gittest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
)

// SSH is a loopback SSH server that runs git's own git-upload-pack and git-receive-pack on the
// bare repositories under a folder, for one client key (any user) or user ada's password.
type SSH struct {
	Addr    string // 127.0.0.1:port
	HostKey string // its ed25519 host key, an authorized_keys line
	// ClientKey is the private key it lets in (OpenSSH PEM), and ClientPublic its public half.
	ClientKey, ClientPublic string
	cfg                     *ssh.ServerConfig
}

// NewHostKey gives the server another host key (as a server reinstalled, or one in the middle,
// would show), between connections.
func (s *SSH) NewHostKey(t testing.TB) {
	_, pub, signer := NewKey(t)
	s.cfg.AddHostKey(signer) // replaces the key of the same algorithm
	s.HostKey = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
}

// URL is a repository's ssh:// URL on the server, as user git.
func (s *SSH) URL(name string) string { return "ssh://git@" + s.Addr + "/" + name }

// NewKey makes an ed25519 key pair: the private key as OpenSSH PEM, the public one as an
// authorized_keys line.
func NewKey(t testing.TB) (private string, public ssh.PublicKey, signer ssh.Signer) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	if signer, err = ssh.NewSignerFromKey(priv); err != nil {
		t.Fatal(err)
	}
	if public, err = ssh.NewPublicKey(pub); err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(block)), public, signer
}

// SSHPassword is the password an SSHServer lets user ada in with.
const SSHPassword = "s3cret"

// SSHServer serves the bare repositories under root: a repository at root/name.git is at
// ssh://git@Addr/name.git (and git@Addr:…/name.git). It stops with the test.
func SSHServer(t testing.TB, root string) *SSH {
	t.Helper()
	_, hostPub, hostSigner := NewKey(t)
	clientPriv, clientPub, _ := NewKey(t)
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
		if string(k.Marshal()) == string(clientPub.Marshal()) {
			return nil, nil
		}
		return nil, errors.New("unknown key")
	}, PasswordCallback: func(c ssh.ConnMetadata, password []byte) (*ssh.Permissions, error) {
		if c.User() == "ada" && string(password) == SSHPassword {
			return nil, nil
		}
		return nil, errors.New("wrong password")
	}}
	cfg.AddHostKey(hostSigner)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); serveSSH(conn, cfg, root) }()
		}
	}()
	return &SSH{Addr: l.Addr().String(), HostKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(hostPub))),
		ClientKey: clientPriv, ClientPublic: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(clientPub))), cfg: cfg}
}

func serveSSH(conn net.Conn, cfg *ssh.ServerConfig, root string) {
	defer conn.Close()
	sc, chans, reqs, err := ssh.NewServerConn(conn, cfg)
	if err != nil {
		return
	}
	defer sc.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "sessions only")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			return
		}
		go serveSession(ch, creqs, root)
	}
}

// serveSession runs the one command of a session: git-upload-pack '<path>' or
// git-receive-pack '<path>', the path under root.
func serveSession(ch ssh.Channel, reqs <-chan *ssh.Request, root string) {
	defer ch.Close()
	for req := range reqs {
		if req.Type != "exec" {
			req.Reply(req.Type == "env", nil)
			continue
		}
		var payload struct{ Command string }
		if err := ssh.Unmarshal(req.Payload, &payload); err != nil {
			req.Reply(false, nil)
			return
		}
		name, arg, _ := strings.Cut(payload.Command, " ")
		service, ok := strings.CutPrefix(name, "git-")
		if !ok || service != "upload-pack" && service != "receive-pack" {
			req.Reply(false, nil)
			return
		}
		arg = strings.Trim(arg, "'")
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(arg, "/")))
		if rel, err := filepath.Rel(root, dir); err != nil || strings.HasPrefix(rel, "..") {
			req.Reply(false, nil)
			return
		}
		req.Reply(true, nil)
		cmd := exec.Command("git", service, dir)
		cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
		status := uint32(1)
		// The client's input goes to git until either ends: git may be done (a listing of refs,
		// a refusal) while the client keeps its side open.
		if stdin, err := cmd.StdinPipe(); err == nil && cmd.Start() == nil {
			go func() { io.Copy(stdin, ch); stdin.Close() }()
			err := cmd.Wait()
			var ee *exec.ExitError
			if err == nil {
				status = 0
			} else if errors.As(err, &ee) {
				status = uint32(ee.ExitCode())
			}
		}
		ch.CloseWrite()
		b := make([]byte, 4)
		binary.BigEndian.PutUint32(b, status)
		ch.SendRequest("exit-status", false, b)
		return
	}
}
