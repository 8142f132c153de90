// Package mail sends quire's email — invitations to organizations — through the SMTP server
// `quire serve --smtp-url` names. Without one, nothing is sent: the invitations are created and
// their links answered all the same (server/invites.go).
//
// The URL says how to reach the server: smtp://[user:password@]host[:port] speaks plain SMTP
// (port 587 by default) and upgrades to TLS with STARTTLS when the server offers it;
// smtps://…(port 465 by default) speaks SMTP inside TLS from the first byte. A user in the URL
// logs in with SASL PLAIN. The sender is ?from=address, else quire@host.
package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one email of plain text.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Sender sends email.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// SMTP sends email through one SMTP server.
type SMTP struct {
	addr     string
	implicit bool // smtps: TLS from the first byte
	user     string
	password string
	from     string
	// TLS is the TLS configuration (tests trust their own certificate with it); nil: the system's
	// roots, for the server's host name.
	TLS *tls.Config
	// Timeout bounds one Send, dialling included.
	Timeout time.Duration
}

// New reads an SMTP URL.
func New(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("mail: %w", err)
	}
	s := &SMTP{Timeout: 30 * time.Second}
	port := "587"
	switch u.Scheme {
	case "smtp":
	case "smtps":
		s.implicit, port = true, "465"
	default:
		return nil, fmt.Errorf("mail: the URL's scheme is %q; give smtp:// or smtps://", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("mail: the URL names no host")
	}
	if u.Port() != "" {
		port = u.Port()
	}
	s.addr = net.JoinHostPort(u.Hostname(), port)
	if u.User != nil {
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
	}
	s.from = u.Query().Get("from")
	if s.from == "" {
		s.from = "quire@" + u.Hostname()
	}
	if _, err := mail.ParseAddress(s.from); err != nil {
		return nil, fmt.Errorf("mail: from=%q is not an email address", s.from)
	}
	return s, nil
}

// From is the sender's address.
func (s *SMTP) From() string { return s.from }

// Send delivers one message.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	if _, err := mail.ParseAddress(m.To); err != nil {
		return fmt.Errorf("mail: %q is not an email address", m.To)
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	host, _, _ := net.SplitHostPort(s.addr)
	cfg := s.TLS
	if cfg == nil {
		cfg = &tls.Config{ServerName: host}
	}
	c, err := s.dial(ctx, cfg, false)
	if err != nil {
		return err
	}
	if ok, _ := c.Extension("STARTTLS"); ok && !s.implicit {
		// go-smtp upgrades only a new connection: the first one told us the server can.
		c.Close()
		if c, err = s.dial(ctx, cfg, true); err != nil {
			return err
		}
	}
	defer c.Close()
	if s.user != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.user, s.password)); err != nil {
			return fmt.Errorf("mail: logging in as %s: %w", s.user, err)
		}
	}
	if err := c.SendMail(s.from, []string{m.To}, bytes.NewReader(s.compose(m))); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	return c.Quit()
}

// dial connects to the server and greets it: inside TLS for smtps, after STARTTLS when starttls.
func (s *SMTP) dial(ctx context.Context, cfg *tls.Config, starttls bool) (*smtp.Client, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return nil, fmt.Errorf("mail: %w", err)
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	var c *smtp.Client
	switch {
	case s.implicit:
		c = smtp.NewClient(tls.Client(conn, cfg))
	case starttls:
		if c, err = smtp.NewClientStartTLS(conn, cfg); err != nil {
			conn.Close()
			return nil, fmt.Errorf("mail: STARTTLS: %w", err)
		}
	default:
		c = smtp.NewClient(conn)
	}
	if !starttls {
		if err := c.Hello("localhost"); err != nil {
			c.Close()
			return nil, fmt.Errorf("mail: %w", err)
		}
	}
	return c, nil
}

// compose writes a message in RFC 5322 form, plain UTF-8 text.
func (s *SMTP) compose(m Message) []byte {
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", s.from)
	header("To", m.To)
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", time.Now().UTC().Format(time.RFC1123Z))
	header("MIME-Version", "1.0")
	header("Content-Type", `text/plain; charset="utf-8"`)
	header("Content-Transfer-Encoding", "8bit")
	b.WriteString("\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n", "\r\n"))
	return b.Bytes()
}
