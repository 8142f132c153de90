package server_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

// receiver is a development tunnel on loopback: it checks each delivery's signature and fails
// the first `failures` deliveries with a 503.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	secret   string
	failures int
	tries    int
	bodies   [][]byte
	badSigs  int
}

func newReceiver(t *testing.T, failures int) *receiver {
	r := &receiver{failures: failures}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.tries++
		if !r.verify(req.Header.Get(server.SignatureHeader), body) || req.Header.Get("Content-Type") != "application/json" {
			r.badSigs++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.tries <= r.failures {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		r.bodies = append(r.bodies, body)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

// verify checks `t=<ts>,v1=<hex HMAC-SHA256 of "<ts>.<body>">` the way an integration would.
func (r *receiver) verify(header string, body []byte) bool {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	if _, err := strconv.ParseInt(ts, 10, 64); err != nil {
		return false
	}
	m := hmac.New(sha256.New, []byte(r.secret))
	fmt.Fprintf(m, "%s.%s", ts, body)
	want := hex.EncodeToString(m.Sum(nil))
	return hmac.Equal([]byte(sig), []byte(want))
}

// signingSecret is what `quire integrations signing-secret` shows the author.
func (w *integrationWorld) signingSecret(t *testing.T, name string) string {
	in, err := w.Store.FindIntegrationByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := server.Unseal(w.Secret, in.SealedSigningSecret)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newDeliveryWorld(t *testing.T) *integrationWorld {
	w := newIntegrationWorld(t)
	w.world.testServer = newTestServer(t, server.Options{AllowPrivateURLs: true})
	// The content world's cast, again, on the server that may reach loopback.
	w.admin = w.MustCreateUser(t, "ada@acme.test", "Ada")
	w.reader = w.MustCreateUser(t, "rita@readers.test", "Rita")
	w.outsider = w.MustCreateUser(t, "otto@other.test", "Otto")
	w.org = w.MustCreateOrg(t, w.admin, "Acme")
	w.MustAddMember(t, w.admin, w.org.Id, w.reader, "read")
	w.other = w.MustCreateOrg(t, w.outsider, "Other Co")
	return w
}

func (w *integrationWorld) event(t *testing.T, name, id string) gen.IntegrationEventWithTrace {
	t.Helper()
	var e gen.IntegrationEventWithTrace
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/"+name+"/events/"+id, nil).Decode(t, &e)
	return e
}

func (w *integrationWorld) runJobs(t *testing.T) {
	t.Helper()
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestIntegrationEvents(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.configurable(t, "notify")
	n := w.install(t, w.admin, "notify", w.org.Id)
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/integrations/notify/installations/"+n.Id,
		map[string]any{"configuration": map[string]any{"channel": "random"}})

	w.Expect(t, http.StatusForbidden, w.reader, "GET", "/integrations/notify/events", nil)
	w.Expect(t, http.StatusForbidden, w.outsider, "GET", "/integrations/notify/events", nil)
	var list gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/events", nil).Decode(t, &list)
	if list.Count != 2 {
		t.Fatalf("%d events, want 2", list.Count)
	}
	latest := list.Items[0]
	p := latest.Payload
	if p.Type != "installation_setup" || p.Status == nil || *p.Status != "active" || p.InstallationId != n.Id || p.EventId == "" ||
		p.Previous == nil || p.Previous.Status == nil || *p.Previous.Status != "pending" || latest.Status != "success" || latest.InstallationId != n.Id {
		t.Fatalf("latest event %+v", latest)
	}
	if first := list.Items[1].Payload; first.Status == nil || *first.Status != "pending" || first.Previous != nil {
		t.Errorf("first event %+v", first)
	}
	e := w.event(t, "notify", latest.Id)
	if e.Event.Id != latest.Id || len(e.Trace.Logs) != 1 || !strings.Contains(e.Trace.Logs[0].Message, "development mode is off") {
		t.Errorf("event with trace %+v", e)
	}
	w.Expect(t, http.StatusForbidden, w.reader, "GET", "/integrations/notify/events/"+latest.Id, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/notify/events/nope", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/nope/events/"+latest.Id, nil)
	var page2 gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/events?limit=1", nil).Decode(t, &list)
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/events?limit=1&page="+list.Next.Page, nil).Decode(t, &page2)
	if list.Items[0].Id != latest.Id || len(page2.Items) != 1 || page2.Items[0].Id == latest.Id || page2.Next != nil {
		t.Errorf("event paging %+v / %+v", list, page2)
	}
}

func TestIntegrationDevelopmentMode(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.publish(t, "devtool", publishBody(w.org.Id))
	dev := "/integrations/devtool/dev"
	w.Expect(t, http.StatusForbidden, w.reader, "PUT", dev, map[string]any{"tunnelUrl": "https://tunnel.example.com"})
	w.Expect(t, http.StatusNotFound, w.admin, "PUT", "/integrations/nope/dev", map[string]any{"tunnelUrl": "https://tunnel.example.com"})
	r := w.Expect(t, http.StatusBadRequest, w.admin, "PUT", dev, map[string]any{"tunnelUrl": "ftp://tunnel.example.com"})
	if !strings.Contains(r.ErrorMessage(t), "tunnelUrl") {
		t.Errorf("message %s", r.Body)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "PUT", dev, map[string]any{})
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", dev, map[string]any{"tunnelUrl": "https://tunnel.example.com", "all": true})
	in, _ := w.Store.FindIntegrationByName(context.Background(), "devtool")
	if in.DevTunnelURL == nil || *in.DevTunnelURL != "https://tunnel.example.com" || !in.DevAll {
		t.Fatalf("dev mode %+v", in)
	}
	// `all` is a boolean: null is refused, not read as its default (false), and changes nothing.
	r = w.Expect(t, http.StatusBadRequest, w.admin, "PUT", dev, []byte(`{"tunnelUrl":"https://other.example.com","all":null}`))
	if !strings.Contains(r.ErrorMessage(t), "all") {
		t.Errorf("message %s", r.Body)
	}
	in, _ = w.Store.FindIntegrationByName(context.Background(), "devtool")
	if *in.DevTunnelURL != "https://tunnel.example.com" || !in.DevAll {
		t.Fatalf("dev mode after a refused null %+v", in)
	}
	// a string holding "null" is no null
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", dev, map[string]any{"tunnelUrl": "https://null.example.com"})
	in, _ = w.Store.FindIntegrationByName(context.Background(), "devtool")
	if *in.DevTunnelURL != "https://null.example.com" || in.DevAll {
		t.Fatalf("dev mode after an absent all %+v", in)
	}
}

// TestEventDelivery: in development mode an event is POSTed to the tunnel, signed; a tunnel that
// fails twice gets the event on the third try, each try in the trace.
func TestEventDelivery(t *testing.T) {
	t.Parallel()
	w := newDeliveryWorld(t)
	w.publish(t, "tunnelled", publishBody(w.org.Id))
	rcv := newReceiver(t, 2)
	rcv.secret = w.signingSecret(t, "tunnelled")
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", "/integrations/tunnelled/dev", map[string]any{"tunnelUrl": rcv.URL + "/events"})

	n := w.install(t, w.admin, "tunnelled", w.org.Id)
	var list gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/tunnelled/events", nil).Decode(t, &list)
	id := list.Items[0].Id
	if list.Items[0].Status != "failed" {
		t.Errorf("an event owed a delivery answers %s", list.Items[0].Status)
	}

	w.runJobs(t) // try 1: 503
	e := w.event(t, "tunnelled", id)
	if e.Event.Status != "failed" || len(e.Trace.Logs) != 2 || !strings.Contains(e.Trace.Logs[1].Message, "Try 1 of 3 failed") {
		t.Fatalf("after one try: %+v", e.Trace.Logs)
	}
	w.runJobs(t) // not due yet: nothing runs
	if rcv.tries != 1 {
		t.Fatalf("%d tries before the backoff passed", rcv.tries)
	}
	w.Clock.Advance(31 * time.Second)
	w.runJobs(t) // try 2: 503
	w.Clock.Advance(61 * time.Second)
	w.runJobs(t) // try 3: accepted
	e = w.event(t, "tunnelled", id)
	if e.Event.Status != "success" || len(e.Trace.Logs) != 4 || !strings.Contains(e.Trace.Logs[3].Message, "Delivered") ||
		e.Trace.Logs[2].Level != "warn" {
		t.Fatalf("after three tries: %s %+v", e.Event.Status, e.Trace.Logs)
	}
	if rcv.tries != 3 || rcv.badSigs != 0 || len(rcv.bodies) != 1 {
		t.Fatalf("receiver: %d tries, %d bad signatures, %d accepted", rcv.tries, rcv.badSigs, len(rcv.bodies))
	}
	var got map[string]any
	if err := json.Unmarshal(rcv.bodies[0], &got); err != nil {
		t.Fatal(err)
	}
	if got["type"] != "installation_setup" || got["installationId"] != n.Id || got["eventId"] == "" {
		t.Errorf("delivered %s", rcv.bodies[0])
	}

	// Another organization's installation is forwarded only with `all`.
	w.install(t, w.outsider, "tunnelled", w.other.Id)
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/tunnelled/events", nil).Decode(t, &list)
	if e := w.event(t, "tunnelled", list.Items[0].Id); e.Event.Status != "success" || !strings.Contains(e.Trace.Logs[0].Message, "not forwarded") {
		t.Errorf("outside event %+v", e)
	}
	w.runJobs(t)
	if rcv.tries != 3 {
		t.Errorf("an outside event was delivered without all")
	}
}

func TestEventDeliveryGivesUp(t *testing.T) {
	t.Parallel()
	w := newDeliveryWorld(t)
	w.publish(t, "flaky", publishBody(w.org.Id))
	rcv := newReceiver(t, 100)
	rcv.secret = w.signingSecret(t, "flaky")
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", "/integrations/flaky/dev", map[string]any{"tunnelUrl": rcv.URL})
	w.install(t, w.admin, "flaky", w.org.Id)
	for i := 0; i < 5; i++ {
		w.runJobs(t)
		w.Clock.Advance(10 * time.Minute)
	}
	var list gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/flaky/events", nil).Decode(t, &list)
	e := w.event(t, "flaky", list.Items[0].Id)
	last := e.Trace.Logs[len(e.Trace.Logs)-1]
	if rcv.tries != 3 || e.Event.Status != "failed" || last.Level != "error" || !strings.Contains(last.Message, "giving up") {
		t.Fatalf("%d tries; %s %+v", rcv.tries, e.Event.Status, e.Trace.Logs)
	}
}

// TestEventDeliveryGuarded: without --allow-private-urls a tunnel on loopback is refused by the
// guarded fetcher, and the refusal is in the trace.
func TestEventDeliveryGuarded(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.publish(t, "guarded", publishBody(w.org.Id))
	rcv := newReceiver(t, 0)
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", "/integrations/guarded/dev", map[string]any{"tunnelUrl": rcv.URL})
	w.install(t, w.admin, "guarded", w.org.Id)
	w.runJobs(t)
	var list gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/guarded/events", nil).Decode(t, &list)
	e := w.event(t, "guarded", list.Items[0].Id)
	if rcv.tries != 0 || !strings.Contains(e.Trace.Logs[1].Message, "not allowed") {
		t.Fatalf("%d tries; %+v", rcv.tries, e.Trace.Logs)
	}
}
