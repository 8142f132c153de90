package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress shows how far a long run is on stderr: a bar redrawn in place on a terminal, a plain
// line every tenth of the way otherwise (logs, pipes, CI).
type progress struct {
	w      io.Writer
	tty    bool
	label  string
	drawn  time.Time
	tenth  int
	active bool
}

func newProgress(w io.Writer, label string) *progress {
	return &progress{w: w, tty: isTerminal(w), label: label, tenth: -1}
}

// isTerminal says whether w is a character device (a terminal), without a dependency.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) step(done, total int) {
	if total <= 0 {
		return
	}
	done = min(done, total)
	if p.tty {
		if done < total && time.Since(p.drawn) < 50*time.Millisecond {
			return
		}
		p.drawn = time.Now()
		const width = 30
		fill := width * done / total
		fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d", p.label, strings.Repeat("#", fill), strings.Repeat(" ", width-fill), done, total)
		p.active = true
		return
	}
	if t := 10 * done / total; t > p.tenth {
		p.tenth = t
		fmt.Fprintf(p.w, "%s: %d/%d\n", p.label, done, total)
	}
}

// finish ends the bar's line.
func (p *progress) finish() {
	if p.tty && p.active {
		fmt.Fprintln(p.w)
		p.active = false
	}
}
