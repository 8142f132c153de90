package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/store/sqlite"
)

// TestMain lets the test binary act as quire itself (QUIRE_TEST_MAIN holds the arguments,
// as a JSON array), so the crash test can run and kill real `quire serve` processes.
func TestMain(m *testing.M) {
	if args := os.Getenv("QUIRE_TEST_MAIN"); args != "" {
		var argv []string
		if err := json.Unmarshal([]byte(args), &argv); err != nil {
			fmt.Fprintln(os.Stderr, "QUIRE_TEST_MAIN:", err)
			os.Exit(2)
		}
		if err := run(argv, os.Stdout, os.Stderr); err != nil && !errors.Is(err, errHelpShown) {
			fmt.Fprintln(os.Stderr, "quire:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func quireCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	argv, _ := json.Marshal(args)
	cmd.Env = append(os.Environ(), "QUIRE_TEST_MAIN="+string(argv))
	return cmd
}

// runQuire runs `quire args…` in this process, for tests of what a command prints and does: a
// process of its own (quireCommand, for the tests of processes: servers, signals, kills) adds
// only its start, most of a short command's CPU under the race detector. It answers what the
// command printed on stdout, and all it would print (stdout, stderr and, when it fails, the line
// main prints) as CombinedOutput does; --help is no error, as in main.
func runQuire(args ...string) (stdout, combined []byte, err error) {
	var out, all bytes.Buffer
	err = run(args, io.MultiWriter(&out, &all), &all)
	if errors.Is(err, errHelpShown) {
		err = nil
	}
	if err != nil {
		fmt.Fprintln(&all, "quire:", err)
	}
	return out.Bytes(), all.Bytes(), err
}

// combinedQuire is runQuire's combined output and error.
func combinedQuire(args ...string) ([]byte, error) {
	_, combined, err := runQuire(args...)
	return combined, err
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startQuire runs `quire serve` on a free loopback port and waits until it answers /healthz.
// Under make test the server is a race build sharing two cores with other test binaries, so it
// may take many seconds to start: the wait ends when it answers, when it exits, or after a minute.
func startQuire(t *testing.T, db string, flags ...string) (*quireProcess, string) {
	t.Helper()
	// Port 0: the server binds a free port itself and names it in its "quire serving" line. (A port
	// picked here and released could be taken by another test's listener before the server binds
	// it; the server then exits, and the other listener answers for it.)
	cmd := quireCommand(append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--rate-limit", "0"}, flags...)...)
	log := &lockedBuffer{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	p := &quireProcess{cmd, exited}
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if trouble := serverTrouble(log.String()); trouble != "" {
			t.Errorf("quire serve on %s reported %s", db, trouble)
		}
	})
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if addr := servingAddr(log.String()); addr != "" {
			url := "http://" + addr
			if res, err := http.Get(url + "/healthz"); err == nil {
				res.Body.Close()
				return p, url
			}
		}
		select {
		case <-exited:
			t.Fatalf("quire serve exited before it answered: %s", log.String())
		case <-time.After(25 * time.Millisecond):
		}
	}
	t.Fatalf("quire did not answer within a minute: %s", log.String())
	return nil, ""
}

// servingAddr is the address a server's "quire serving" line names, or "" before that line.
func servingAddr(log string) string {
	for _, line := range strings.Split(log, "\n") {
		var rec struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "quire serving" {
			return rec.Addr
		}
	}
	return ""
}

// quireProcess is a running quire serve; one goroutine waits for it to exit.
type quireProcess struct {
	*exec.Cmd
	exited chan struct{}
}

// Wait waits until the process has exited.
func (p *quireProcess) Wait() { <-p.exited }

// lockedBuffer is a server's output: written by the goroutine exec copies it with, read by the
// test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serverTrouble finds in a server's output what must fail a test whatever it asserted (issue
// 24): a race the race detector reported (the test binary, and so the servers it starts, is a
// race build under make test) or a panic the server recovered from. It answers the first such
// report, or "".
func serverTrouble(log string) string {
	for _, mark := range []string{"WARNING: DATA RACE", `"msg":"panic"`} {
		if i := strings.Index(log, mark); i >= 0 {
			return log[i:min(len(log), i+4000)]
		}
	}
	return ""
}

func call(t *testing.T, method, url, token string, body any) (int, map[string]any) {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// kill -9 of quire serve during concurrent writes loses no acknowledged write, and the database
// passes SQLite's integrity check after the restart.
func TestNoAcknowledgedWriteLostOnKill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills real server processes")
	}
	db := filepath.Join(t.TempDir(), "quire.db")
	user := struct{ Token string }{mustCreateUser(t, db)}
	server, url := startQuire(t, db)
	status, org := call(t, "POST", url+"/v1/orgs", user.Token, map[string]any{"title": "Acme"})
	if status != http.StatusCreated {
		t.Fatalf("create organization: %d %v", status, org)
	}
	orgID := org["id"].(string)

	var mu sync.Mutex
	acked := map[string]string{} // collection id -> title
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				title := fmt.Sprintf("w%d-%d", w, i)
				status, c := call(t, "POST", url+"/v1/orgs/"+orgID+"/collections", user.Token, map[string]any{"title": title})
				if status == http.StatusCreated {
					mu.Lock()
					acked[c["id"].(string)] = title
					mu.Unlock()
				}
			}
		}(w)
	}
	waitUntil(func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= 50 })
	server.Process.Kill() // SIGKILL, in the middle of the writers' requests
	server.Wait()
	cancel()
	wg.Wait()
	if len(acked) < 8 {
		t.Fatalf("only %d writes were acknowledged before the kill", len(acked))
	}

	_, url = startQuire(t, db)
	for id, title := range acked {
		status, c := call(t, "GET", url+"/v1/collections/"+id, user.Token, nil)
		if status != http.StatusOK || c["title"] != title {
			t.Fatalf("acknowledged collection %s (%s) after the restart: %d %v", id, title, status, c)
		}
	}
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CheckIntegrity(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d acknowledged writes all read back after kill -9", len(acked))
}

// waitUntil polls cond until it holds, or for a minute at most, and answers whether it held. The
// write-load tests wait so for a number of acknowledged writes rather than for a fixed time: on an
// idle machine that ends sooner (and costs less CPU), on a loaded one the load is still there.
func waitUntil(cond func() bool) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// mustCreateUser runs `quire users create` (in this process) and returns the new user's token.
func mustCreateUser(t *testing.T, db string) string {
	t.Helper()
	out, _, err := runQuire("users", "create", "--db", db, "--email", "ada@example.com", "--name", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	var user struct{ Token string }
	if err := json.Unmarshal(out, &user); err != nil {
		t.Fatalf("users create printed %q: %v", out, err)
	}
	return user.Token
}
