package main

import (
	"strings"
	"testing"
)

// --smtp-url (or QUIRE_SMTP_URL) names the SMTP server invitations are emailed through; a URL
// quire cannot use is refused at start, naming the flag.
func TestServeSMTPFlag(t *testing.T) {
	if c, err := parseServe(nil); err != nil || c.smtpURL != "" {
		t.Fatalf("by default no SMTP server: %q %v", c.smtpURL, err)
	}
	t.Setenv("QUIRE_SMTP_URL", "smtps://quire:secret@mail.example.test?from=docs@example.test")
	if c, err := parseServe(nil); err != nil || c.smtpURL != "smtps://quire:secret@mail.example.test?from=docs@example.test" {
		t.Fatalf("from the environment: %q %v", c.smtpURL, err)
	}
	if _, err := parseServe([]string{"--smtp-url", "imap://mail.example.test"}); err == nil || !strings.Contains(err.Error(), "--smtp-url") {
		t.Fatalf("an unusable URL: %v", err)
	}
}
