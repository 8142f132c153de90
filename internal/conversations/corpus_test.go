package conversations

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/quire-docs/quire/internal/conversations/corpustest"
)

// labelled is a corpus conversation with its topics (testdata/gencorpus writes them).
type labelled struct {
	Conversation
	Topics []string
}

func loadCorpus(tb testing.TB) []labelled {
	tb.Helper()
	return labelledOf(corpustest.Load[Part](tb))
}

// loadHeldOut reads the held-out corpus, which only measures (see corpustest.HeldOut).
func loadHeldOut(tb testing.TB) []labelled {
	tb.Helper()
	return labelledOf(corpustest.HeldOut[Part](tb))
}

func labelledOf(in []corpustest.Labelled[Part]) []labelled {
	var out []labelled
	for _, l := range in {
		out = append(out, labelled{Conversation{l.ID, l.Source, l.Subject, l.Parts, l.CreatedAt}, l.Topics})
	}
	return out
}

func conversationsOf(ls []labelled) []Conversation {
	out := make([]Conversation, len(ls))
	for i, l := range ls {
		out[i] = l.Conversation
	}
	return out
}

// quality scores the analyser's clusters against the corpus labels: the adjusted Rand index
// over every issue, an issue's true topic being its conversation's topic in the same position
// (the last one when a conversation yields more issues than it has topics). Each off-topic
// issue is a class of its own, so noise that joins a topic cluster costs.
func quality(ls []labelled, issues []Issue) (ari float64, n int) {
	topicsOf := map[string][]string{}
	for _, l := range ls {
		topicsOf[convKey(l.Source, l.ID)] = l.Topics
	}
	position := map[string]int{}
	var truth, pred []string
	for _, is := range issues {
		k := convKey(is.Source, is.Conversation)
		ts := topicsOf[k]
		if ts == nil {
			continue
		}
		i := position[k]
		position[k]++
		if i >= len(ts) {
			i = len(ts) - 1
		}
		t := ts[i]
		if t == "noise" {
			t = "noise:" + is.ID
		}
		truth = append(truth, t)
		pred = append(pred, is.Cluster)
	}
	return AdjustedRandIndex(truth, pred), len(truth)
}

// issuesInOrder lists issues by conversation, then position, as quality needs.
func issuesInOrder(a *Analyzer) []Issue {
	var out []Issue
	for _, k := range sortedKeys(a.byConv) {
		for _, id := range a.byConv[k] {
			out = append(out, a.issues[id].Issue)
		}
	}
	return out
}

// synthesize makes n conversations from the corpus, deterministically: each is a corpus
// conversation with its sentences' words perturbed (a dropped or swapped letter, a dropped
// word) and a fresh ID, keeping the original's topics.
func synthesize(ls []labelled, n int) []labelled {
	rng := rand.New(rand.NewPCG(10000, 16))
	out := make([]labelled, n)
	for i := range out {
		src := ls[rng.IntN(len(ls))]
		c := src.Conversation
		c.ID = fmt.Sprintf("synth-%05d", i)
		c.CreatedAt = src.CreatedAt.Add(time.Duration(rng.IntN(14*24)-7*24) * time.Hour)
		c.Parts = make([]Part, len(src.Parts))
		for j, p := range src.Parts {
			c.Parts[j] = Part{p.Type, p.Role, corpustest.Perturb(rng, p.Body, true)}
		}
		out[i] = labelled{c, src.Topics}
	}
	return out
}

func TestCorpusShape(t *testing.T) {
	ls := loadCorpus(t)
	topics := map[string]int{}
	for _, l := range ls {
		for _, tp := range l.Topics {
			topics[tp]++
		}
	}
	if len(ls) < 300 || len(topics) < 11 {
		t.Fatalf("corpus has %d conversations over %d labels, want ≥300 over ≥10 topics and noise", len(ls), len(topics))
	}
}

// TestQualityHeldOut measures the engine on the held-out corpus: paraphrases of a topic share
// few words, so what holds them together is what the engine knows beyond the words themselves.
// It is a measurement, logged (and printed by make bench), not yet a requirement: the engine,
// which knows only the words it reads, scores far below issue 32's 0.7 there (see heldOutFloor).
func TestQualityHeldOut(t *testing.T) {
	ls := loadHeldOut(t)
	a := New(DefaultParams())
	a.Analyze(conversationsOf(ls), corpusNow)
	ari, n := quality(ls, issuesInOrder(a))
	t.Logf("held out: %d conversations, %d issues, %d clusters, ARI %.3f (issue 32 asks ≥ %.1f)", len(ls), n, len(a.clusters), ari, heldOutGoal)
	if n != len(ls) {
		t.Fatalf("%d issues from %d one-message conversations", n, len(ls))
	}
	if ari < heldOutFloor {
		t.Fatalf("ARI %.3f on the held-out corpus, below its measured %.2f", ari, heldOutFloor)
	}
}

// heldOutGoal is what issue 32 asks of the held-out corpus; heldOutFloor what the engine scored
// there when the corpus was written (before any change, and none since was tuned on it).
const (
	heldOutGoal  = 0.7
	heldOutFloor = 0.07
)

func TestQualityOnSubset(t *testing.T) {
	ls := loadCorpus(t)
	var subset []labelled
	for i, l := range ls {
		if i%2 == 0 {
			subset = append(subset, l)
		}
	}
	a := New(DefaultParams())
	a.Analyze(conversationsOf(subset), time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
	wantQuality(t, "subset", subset, a)
}

// wantQuality logs how the analyser grouped ls and fails below an adjusted Rand index of 0.7
// against the corpus's topics.
func wantQuality(t *testing.T, what string, ls []labelled, a *Analyzer) {
	t.Helper()
	ari, n := quality(ls, issuesInOrder(a))
	t.Logf("%s: %d conversations, %d issues, %d clusters, ARI %.3f", what, len(ls), n, len(a.clusters), ari)
	if ari < 0.7 {
		t.Fatalf("ARI %.3f < 0.7", ari)
	}
}

// TestQualityStreaming feeds the corpus in order of creation, twenty conversations a batch, as
// an organization's conversations would arrive.
func TestQualityStreaming(t *testing.T) {
	ls := loadCorpus(t)
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].CreatedAt.Before(ls[j].CreatedAt) })
	a := New(DefaultParams())
	for i := 0; i < len(ls); i += 20 {
		a.Analyze(conversationsOf(ls[i:min(i+20, len(ls))]), corpusNow)
	}
	wantQuality(t, "streamed in batches of 20", ls, a)
}

func BenchmarkAnalyze10000(b *testing.B) {
	ls := loadCorpus(b)
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	whole := New(DefaultParams())
	whole.Analyze(conversationsOf(ls), now)
	corpusARI, _ := quality(ls, issuesInOrder(whole))

	synth := synthesize(ls, 10000)
	batch := conversationsOf(synth)
	b.ResetTimer()
	var a *Analyzer
	for i := 0; i < b.N; i++ {
		a = New(DefaultParams())
		a.Analyze(batch, now)
	}
	b.StopTimer()
	ari, _ := quality(synth, issuesInOrder(a))
	held := loadHeldOut(b)
	ha := New(DefaultParams())
	ha.Analyze(conversationsOf(held), now)
	heldARI, _ := quality(held, issuesInOrder(ha))
	b.ReportMetric(corpusARI, "ARI-corpus")
	b.ReportMetric(heldARI, "ARI-heldout")
	b.ReportMetric(ari, "ARI-10000")
	b.ReportMetric(float64(len(a.clusters)), "clusters-10000")
}
