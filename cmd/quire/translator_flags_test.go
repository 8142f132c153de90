package main

import "testing"

// The translator is set by --translator-url and --translator-key, or their QUIRE_… variables.
func TestServeTranslatorFlags(t *testing.T) {
	c, err := parseServe(nil)
	if err != nil || c.translatorURL != "" || c.translatorKey != "" {
		t.Fatalf("by default no translator: %+v %v", c, err)
	}
	t.Setenv("QUIRE_TRANSLATOR_KEY", "from-env")
	c, err = parseServe([]string{"--translator-url", "http://127.0.0.1:5000"})
	if err != nil || c.translatorURL != "http://127.0.0.1:5000" || c.translatorKey != "from-env" {
		t.Fatalf("translator flags: %+v %v", c, err)
	}
}
