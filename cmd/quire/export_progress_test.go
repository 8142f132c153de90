package main

import (
	"bytes"
	"strings"
	"testing"
)

// Off a terminal, progress is a plain line every tenth of the way, the last one included.
func TestProgressPlainLines(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "exporting")
	if p.tty {
		t.Fatal("a buffer taken for a terminal")
	}
	for i := 1; i <= 200; i++ {
		p.step(i, 200)
	}
	p.finish()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 11 || lines[0] != "exporting: 1/200" || lines[10] != "exporting: 200/200" {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
}
