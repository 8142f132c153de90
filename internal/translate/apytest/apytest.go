// Package apytest starts Apertium's HTTP service, APy (Debian's apertium-apy, with the pairs of
// apertium-eng-spa and others), for tests and benchmarks: a real rule-based translator, so the
// translation runs are tried against one and not only against a stand-in.
package apytest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ModesDir is where Debian's Apertium pairs install their modes (eng-spa.mode…).
const ModesDir = "/usr/share/apertium/modes"

// Server is a running APy.
type Server struct {
	URL string
	cmd *exec.Cmd
	out *syncBuffer
}

// Start starts APy serving the installed pairs, which must include pair (e.g. "eng-spa"), on a
// free port of the machine (APy has no option to listen on loopback only: it serves on all
// interfaces), answers when /listPairs does, and stops it (its process group: the pipelines it
// spawned go too) when the test ends. Without apertium-apy or the pair the test is skipped, unless
// CI is set: there a missing translator fails the test, naming the packages to install.
func Start(t testing.TB, pair string) *Server {
	t.Helper()
	bin, err := exec.LookPath("apertium-apy")
	if err == nil {
		_, err = os.Stat(filepath.Join(ModesDir, pair+".mode"))
	}
	if err != nil {
		msg := fmt.Sprintf("Apertium is not installed (apt-get install apertium-apy apertium-%s): %v", pair, err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var last error
	for range 3 { // the port is free when picked; another process may take it before APy binds it
		s, err := start(bin)
		if err == nil {
			t.Cleanup(s.Stop)
			return s
		}
		last = err
	}
	t.Fatalf("starting APy: %v", last)
	return nil
}

func start(bin string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://127.0.0.1:" + strconv.Itoa(port), out: &syncBuffer{}}
	s.cmd = exec.Command(bin, "-p", strconv.Itoa(port), "-j", "1", ModesDir)
	s.cmd.Dir = os.TempDir()
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("apertium-apy exited (%v): %s", err, s.out.String())
		case <-ctx.Done():
			s.Stop()
			return nil, fmt.Errorf("apertium-apy did not answer /listPairs within 60s: %s", s.out.String())
		case <-time.After(100 * time.Millisecond):
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/listPairs", nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
	}
}

// Stop stops APy and the pipelines it started (its process group).
func (s *Server) Stop() {
	if s.cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		_ = s.cmd.Process.Kill()
	}
}

// Output is what APy wrote so far (its log).
func (s *Server) Output() string { return s.out.String() }

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
