package mail_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/mail"
	"github.com/quire-docs/quire/internal/mail/mailtest"
)

func TestNewRefusesWhatItCannotUse(t *testing.T) {
	for _, raw := range []string{"http://mail.test", "smtp://", "smtp://mail.test?from=nobody", "::"} {
		if _, err := mail.New(raw); err == nil {
			t.Errorf("%q was taken", raw)
		}
	}
	m, err := mail.New("smtps://mail.test")
	if err != nil || m.From() != "quire@mail.test" {
		t.Fatalf("smtps://mail.test: from %q, %v", m.From(), err)
	}
}

// testTLS is a certificate for 127.0.0.1 (httptest's), and a client configuration trusting it.
func testTLS(t *testing.T) (server, client *tls.Config) {
	hs := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(hs.Close)
	roots := hs.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	return &tls.Config{Certificates: hs.TLS.Certificates}, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}
}

// Each way of reaching a server delivers, logged in: plain SMTP, STARTTLS when the server offers
// it, and TLS from the first byte (smtps).
func TestSendReachesTheServer(t *testing.T) {
	serverTLS, clientTLS := testTLS(t)
	for _, c := range []struct {
		name   string
		scheme string
		o      mailtest.Options
		tls    bool // the session must be encrypted
	}{
		{"Plain", "smtp", mailtest.Options{}, false},
		{"STARTTLS", "smtp", mailtest.Options{TLS: serverTLS}, true},
		{"Implicit", "smtps", mailtest.Options{TLS: serverTLS, Implicit: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.User, c.o.Password = "ann", "p@ss word"
			ms := mailtest.Start(t, c.o)
			m, err := mail.New(c.scheme + "://ann:p%40ss%20word@" + ms.Addr + "?from=docs@quire.test")
			if err != nil {
				t.Fatal(err)
			}
			m.TLS = clientTLS
			if err := m.Send(context.Background(), mail.Message{To: "bo@example.test", Subject: "Grüße", Body: "Line one\nLine two\n"}); err != nil {
				t.Fatal(err)
			}
			sent := ms.Sent()
			if len(sent) != 1 || sent[0].User != "ann" || sent[0].From != "docs@quire.test" || len(sent[0].To) != 1 || sent[0].To[0] != "bo@example.test" {
				t.Fatalf("sent %+v", sent)
			}
			for _, part := range []string{"Subject: =?utf-8?q?Gr=C3=BC=C3=9Fe?=", "To: bo@example.test", "Line one\r\nLine two\r\n"} {
				if !strings.Contains(sent[0].Data, part) {
					t.Fatalf("the message lacks %q:\n%s", part, sent[0].Data)
				}
			}
			if !c.tls {
				return
			}
			// A client that does not trust the certificate sends nothing.
			m.TLS = &tls.Config{ServerName: "127.0.0.1"}
			if err := m.Send(context.Background(), mail.Message{To: "bo@example.test", Subject: "x", Body: "x"}); err == nil || len(ms.Sent()) != 1 {
				t.Fatalf("an untrusted server was sent to: %v, %d messages", err, len(ms.Sent()))
			}
		})
	}
}

// A wrong password is an error, and nothing is delivered.
func TestSendWithABadLogin(t *testing.T) {
	ms := mailtest.Start(t, mailtest.Options{User: "ann", Password: "right"})
	m, err := mail.New("smtp://ann:wrong@" + ms.Addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), mail.Message{To: "bo@example.test", Subject: "x", Body: "x"}); err == nil || len(ms.Sent()) != 0 {
		t.Fatalf("a bad login sent: %v, %d messages", err, len(ms.Sent()))
	}
}
