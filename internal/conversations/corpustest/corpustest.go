// Package corpustest reads the labelled conversation corpus (internal/conversations/testdata,
// written by testdata/gencorpus) for the tests of the analysis engine and of the job that runs
// it. It is for tests only.
package corpustest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Labelled is a corpus conversation with its topics; P is the caller's type of a part (the
// engine's or the store's, both decoded from the same JSON).
type Labelled[P any] struct {
	ID, Source, Subject string
	Parts               []P
	CreatedAt           time.Time
	Topics              []string
}

// Load reads the whole tuning corpus (testdata/corpus.jsonl), in the file's order: the one the
// engine's parameters were chosen on.
func Load[P any](tb testing.TB) []Labelled[P] {
	tb.Helper()
	return LoadFile[P](tb, "corpus.jsonl")
}

// HeldOut reads the held-out corpus (testdata/heldout/conversations.jsonl): 90 one-message
// conversations in 9 topics, each topic's messages worded differently, written apart from the
// engine and never tuned on. It only measures.
func HeldOut[P any](tb testing.TB) []Labelled[P] {
	tb.Helper()
	return LoadFile[P](tb, filepath.Join("heldout", "conversations.jsonl"))
}

// LoadFile reads a corpus under internal/conversations/testdata, in the file's order.
func LoadFile[P any](tb testing.TB, name string) []Labelled[P] {
	tb.Helper()
	_, here, _, _ := runtime.Caller(0)
	f, err := os.Open(filepath.Join(filepath.Dir(here), "..", "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []Labelled[P]
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l Labelled[P]
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			tb.Fatal(err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}
