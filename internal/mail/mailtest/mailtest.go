// Package mailtest runs a real SMTP server on loopback for tests (github.com/emersion/go-smtp's),
// which keeps what it is sent and takes one login. Only tests import it.
package mailtest

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is a message the server received.
type Message struct {
	User string // who logged in to send it
	From string
	To   []string
	Data string
}

// Server is an SMTP server on loopback.
type Server struct {
	Addr   string
	mu     sync.Mutex
	sent   []Message
	refuse int
}

// Refuse makes the server refuse the next n messages at DATA with a temporary failure (451), as
// a server short of resources does; the ones after are taken again.
func (ms *Server) Refuse(n int) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.refuse = n
}

// Options say how the server listens.
type Options struct {
	User, Password string
	// TLS, when set, is offered with STARTTLS, or from the first byte when Implicit.
	TLS      *tls.Config
	Implicit bool
}

// Start starts a server, stopped when the test ends. Sending needs the login o names; without
// TLS, it is taken over plain SMTP.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	ms := &Server{}
	s := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{srv: ms, o: o}, nil }))
	s.Domain, s.AllowInsecureAuth = "localhost", true
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms.Addr = ln.Addr().String()
	if o.TLS != nil {
		s.TLSConfig = o.TLS
		if o.Implicit {
			ln = tls.NewListener(ln, o.TLS)
		}
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return ms
}

// Sent is what the server received so far.
func (ms *Server) Sent() []Message {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]Message(nil), ms.sent...)
}

type session struct {
	srv  *Server
	o    Options
	cur  Message
	user string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		if user != s.o.User || password != s.o.Password {
			return errors.New("bad login")
		}
		s.user = user
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.user == "" {
		return errors.New("log in first")
	}
	s.cur = Message{User: s.user, From: from}
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.To = append(s.cur.To, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.Data = string(b)
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if s.srv.refuse > 0 {
		s.srv.refuse--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
	}
	s.srv.sent = append(s.srv.sent, s.cur)
	return nil
}

func (s *session) Reset()        { s.cur = Message{} }
func (s *session) Logout() error { return nil }
