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

// --translator picks the protocol (auto: probed); another word is refused naming the flag.
func TestServeTranslatorProtocolFlag(t *testing.T) {
	c, err := parseServe(nil)
	if err != nil || c.translator != "auto" {
		t.Fatalf("by default the protocol is probed: %q %v", c.translator, err)
	}
	c, err = parseServe([]string{"--translator", "apertium", "--translator-url", "http://127.0.0.1:2737"})
	if err != nil || c.translator != "apertium" {
		t.Fatalf("--translator apertium: %q %v", c.translator, err)
	}
	if _, err := parseServe([]string{"--translator", "deepl"}); err == nil || err.Error() !=
		`--translator: "deepl" is not a protocol quire speaks (libretranslate, apertium or auto)` {
		t.Fatalf("an unknown protocol: %v", err)
	}
}
