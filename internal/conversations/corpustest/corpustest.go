// Package corpustest reads the labelled conversation corpus (internal/conversations/testdata,
// written by testdata/gencorpus) for the tests of the analysis engine and of the job that runs
// it. It is for tests only.
package corpustest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// Paraphrase reads the paraphrase development corpus (testdata/paraphrase-dev/messages.txt):
// 100 one-message conversations in 10 topics, each topic's messages worded differently, written
// to tune the engine on short paraphrases without looking at the held-out corpus (issue 32).
// Lines are "topic<TAB>message"; "#" opens a comment line. Conversations are dev-001, dev-002, …
// from source "chat", all created at the same instant.
func Paraphrase[P any](tb testing.TB) []Labelled[P] {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(testdata(), "paraphrase-dev", "messages.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []Labelled[P]
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		topic, msg, ok := strings.Cut(line, "\t")
		if !ok {
			tb.Fatalf("paraphrase corpus: no tab in %q", line)
		}
		part, _ := json.Marshal(map[string]string{"type": "message", "role": "user", "body": msg})
		var p P
		if err := json.Unmarshal(part, &p); err != nil {
			tb.Fatal(err)
		}
		out = append(out, Labelled[P]{ID: fmt.Sprintf("dev-%03d", len(out)+1), Source: "chat", Parts: []P{p},
			CreatedAt: time.Date(2026, 2, 16, 9, 0, 0, 0, time.UTC), Topics: []string{topic}})
	}
	return out
}

func testdata() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "testdata")
}

// LoadFile reads a corpus under internal/conversations/testdata, in the file's order.
func LoadFile[P any](tb testing.TB, name string) []Labelled[P] {
	tb.Helper()
	f, err := os.Open(filepath.Join(testdata(), name))
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
