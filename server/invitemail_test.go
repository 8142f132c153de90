package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/mail/mailtest"
	"github.com/quire-docs/quire/server"
)

// runJobs runs the jobs whose time has come.
func runJobs(t *testing.T, ts *testServer) {
	t.Helper()
	if _, err := ts.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// pendingMail counts the invitation emails waiting to be sent.
func pendingMail(t *testing.T, ts *testServer) int {
	t.Helper()
	p, err := ts.Store.PendingJobs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p[server.InvitationEmailJob]
}

// An SMTP server that refuses for a while delays an invitation, and the job tries again with
// backoff until it is taken.
func TestInvitationEmailRetried(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{User: "quire", Password: "secret"})
	w := newWorld(t, server.Options{SMTPURL: "smtp://quire:secret@" + ms.Addr + "?from=docs@quire.test"})
	ms.Refuse(2)
	res := sendJSON[gen.InviteUsersResult](t, w.testServer, http.StatusOK, w.admin, "POST", invitePath(w.org.Id),
		map[string]any{"emails": []any{"retry@example.test"}, "role": "read"})
	if inv := (*res.Invitations)[0]; !inv.Sent {
		t.Fatalf("the invitation is not to be sent: %+v", inv)
	}
	runJobs(t, w.testServer) // refused
	if len(ms.Sent()) != 0 || pendingMail(t, w.testServer) != 1 {
		t.Fatalf("after a refusal: %d sent, %d pending", len(ms.Sent()), pendingMail(t, w.testServer))
	}
	runJobs(t, w.testServer) // not yet due again: the backoff holds it
	w.Clock.Advance(31 * time.Second)
	runJobs(t, w.testServer) // refused again
	if len(ms.Sent()) != 0 {
		t.Fatal("sent while refused")
	}
	w.Clock.Advance(61 * time.Second)
	runJobs(t, w.testServer)
	sent := ms.Sent()
	if len(sent) != 1 || sent[0].To[0] != "retry@example.test" || !strings.Contains(sent[0].Data, "/app/o/"+w.org.Id+"/invites/") {
		t.Fatalf("after the server took mail again: %+v", sent)
	}
	if pendingMail(t, w.testServer) != 0 {
		t.Fatal("the sent email's job is still pending")
	}
}

// An SMTP server that never takes the message: the job gives up after its last try and says why.
func TestInvitationEmailGivesUp(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{User: "quire", Password: "secret"})
	w := newWorld(t, server.Options{SMTPURL: "smtp://quire:secret@" + ms.Addr})
	ms.Refuse(1000)
	w.Expect(t, http.StatusOK, w.admin, "POST", invitePath(w.org.Id), map[string]any{"emails": []any{"never@example.test"}})
	tries := 0
	for ; pendingMail(t, w.testServer) > 0 && tries < 20; tries++ {
		runJobs(t, w.testServer)
		w.Clock.Advance(time.Hour)
	}
	if tries != 7 || len(ms.Sent()) != 0 {
		t.Fatalf("%d tries, %d sent; want 7 tries and nothing sent", tries, len(ms.Sent()))
	}
	failures := 0
	for _, l := range w.Logs.Lines(t) {
		if l["msg"] == "job failed" && l["kind"] == server.InvitationEmailJob {
			failures++
			if err := fmt.Sprint(l["err"]); !strings.Contains(err, "never@example.test") || !strings.Contains(err, "Try again later") {
				t.Fatalf("the failure says %q", err)
			}
		}
	}
	if failures != 7 {
		t.Fatalf("%d failures logged, want 7", failures)
	}
}
