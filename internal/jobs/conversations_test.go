package jobs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/internal/conversations"
	"github.com/quire-docs/quire/internal/conversations/corpustest"
	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/sqlite"
	"github.com/quire-docs/quire/store/storetest"
)

// labelled is a conversation of the engine's labelled corpus with its topics.
type labelled = corpustest.Labelled[store.ConversationPart]

func loadCorpus(tb testing.TB) []labelled {
	tb.Helper()
	return corpustest.Load[store.ConversationPart](tb)
}

// perturbed makes n conversations from the corpus, deterministically: each a corpus
// conversation with a fresh id and a few letters and words dropped or swapped.
func perturbed(ls []labelled, n int) []labelled {
	rng := rand.New(rand.NewPCG(16, 10000))
	out := make([]labelled, n)
	for i := range out {
		l := ls[rng.IntN(len(ls))]
		l.ID = fmt.Sprintf("synth-%05d", i)
		parts := make([]store.ConversationPart, len(l.Parts))
		for j, p := range l.Parts {
			parts[j] = store.ConversationPart{Type: p.Type, Role: p.Role, Body: corpustest.Perturb(rng, p.Body, false)}
		}
		l.Parts = parts
		out[i] = l
	}
	return out
}

type fixture struct {
	st    *sqlite.Store
	clock *clock
	org   string
}

func newFixture(tb testing.TB, path string, c *clock) *fixture {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	st.Clock = c.Now
	tb.Cleanup(func() { st.Close() })
	return &fixture{st: st, clock: c}
}

func (f *fixture) makeOrg(tb testing.TB) {
	tb.Helper()
	f.org = storetest.MustOwner(tb, f.st, "owner@example.com").Org.ID
}

func (f *fixture) ingest(tb testing.TB, ls []labelled) {
	tb.Helper()
	for _, l := range ls {
		created := l.CreatedAt
		in := store.ConversationInput{ID: l.ID, Source: l.Source, Parts: l.Parts, CreatedAt: &created}
		if l.Subject != "" {
			s := l.Subject
			in.Subject = &s
		}
		if err := f.st.IngestConversations(context.Background(), f.org, in); err != nil {
			tb.Fatal(err)
		}
	}
}

// run lets the analysis delay pass and runs the due jobs through the runner quire uses.
func (f *fixture) run(tb testing.TB) int {
	tb.Helper()
	f.clock.now = f.clock.now.Add(store.ConversationAnalysisDelay)
	r := jobs.New(f.st, slog.New(slog.NewTextHandler(io.Discard, nil)))
	n, err := r.RunDue(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// issues reads every stored issue, sorted by id.
func (f *fixture) issues(tb testing.TB) []store.ConversationIssue {
	tb.Helper()
	var out []store.ConversationIssue
	p := store.Page{Limit: 1000}
	for {
		l, err := f.st.FindConversationIssues(context.Background(), f.org, store.ConversationIssueFilter{}, p)
		if err != nil {
			tb.Fatal(err)
		}
		for _, iw := range l.Items {
			out = append(out, *iw.Issue)
		}
		if l.Next == "" {
			break
		}
		p.Cursor = l.Next
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ari scores stored issues against the corpus labels as the engine's own tests do: an issue's
// topic is its conversation's topic in the same position, each off-topic issue a class alone.
func ari(ls []labelled, issues []store.ConversationIssue) float64 {
	topics := map[string][]string{}
	for _, l := range ls {
		topics[l.Source+"\x00"+l.ID] = l.Topics
	}
	// Issues in conversation order, then in their order within the conversation.
	pos := func(is store.ConversationIssue) int {
		for j := 0; j < 8; j++ {
			if conversations.IssueID(is.Source, is.Conversation, j) == is.ID {
				return j
			}
		}
		return 8
	}
	sort.SliceStable(issues, func(i, j int) bool {
		a, b := issues[i], issues[j]
		if a.Source+"\x00"+a.Conversation != b.Source+"\x00"+b.Conversation {
			return a.Source+"\x00"+a.Conversation < b.Source+"\x00"+b.Conversation
		}
		return pos(a) < pos(b)
	})
	position := map[string]int{}
	var truth, pred []string
	for _, is := range issues {
		k := is.Source + "\x00" + is.Conversation
		ts := topics[k]
		i := min(position[k], len(ts)-1)
		position[k]++
		tp := ts[i]
		if tp == "noise" {
			tp = "noise:" + is.ID
		}
		truth = append(truth, tp)
		pred = append(pred, is.Cluster)
	}
	return conversations.AdjustedRandIndex(truth, pred)
}

// Half the labelled corpus, ingested through the store and analysed by the job: the clusters
// match the topics (the quality bar of issue 16 on a smaller set).
func TestConversationAnalysisQuality(t *testing.T) {
	ls := loadCorpus(t)
	var half []labelled
	for i, l := range ls {
		if i%2 == 0 {
			half = append(half, l)
		}
	}
	f := newFixture(t, t.TempDir()+"/quire.db", &clock{now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)})
	f.makeOrg(t)
	f.ingest(t, half)
	if n := f.run(t); n != 1 {
		t.Fatalf("ran %d jobs for %d ingestions, want 1", n, len(half))
	}
	issues := f.issues(t)
	score := ari(half, issues)
	t.Logf("%d conversations, %d issues, ARI %.3f", len(half), len(issues), score)
	if score < 0.7 {
		t.Fatalf("ARI %.3f < 0.7", score)
	}
}

// Analysis is incremental across passes and restarts: two passes with a restart between them
// store what the engine gives for the same two batches in memory.
func TestConversationAnalysisSurvivesRestart(t *testing.T) {
	ls := loadCorpus(t)
	first, second := ls[:200], ls[200:]
	path := t.TempDir() + "/quire.db"
	c := &clock{now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)}
	f := newFixture(t, path, c)
	f.makeOrg(t)
	f.ingest(t, first)
	f.run(t)
	t1 := c.now
	f.st.Close()

	c.now = c.now.Add(time.Hour)
	g := newFixture(t, path, c)
	g.org = f.org
	g.ingest(t, second)
	g.run(t)
	t2 := c.now
	got := g.issues(t)

	engine := func(ls []labelled) []conversations.Conversation {
		var out []conversations.Conversation
		for _, l := range ls {
			ec := conversations.Conversation{ID: l.ID, Source: l.Source, Subject: l.Subject, CreatedAt: l.CreatedAt}
			for _, p := range l.Parts {
				ec.Parts = append(ec.Parts, conversations.Part{Type: p.Type, Role: p.Role, Body: p.Body})
			}
			out = append(out, ec)
		}
		return out
	}
	a := conversations.New(conversations.DefaultParams())
	a.Analyze(engine(first), t1)
	a.Analyze(engine(second), t2)
	want := a.Issues()
	if len(got) != len(want) {
		t.Fatalf("stored %d issues, the engine has %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.ID != g.ID || w.Cluster != g.Cluster || w.Title != g.Title || !w.IngestedAt.Equal(g.IngestedAt) {
			t.Fatalf("issue %d: stored %+v, engine %+v", i, g, w)
		}
	}
	clusters, err := g.st.FindConversationsClusters(context.Background(), g.org, store.ConversationsClusterFilter{}, store.Page{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	engineClusters := a.Clusters(t2)
	if clusters.Count != len(engineClusters) {
		t.Fatalf("stored %d clusters, the engine has %d", clusters.Count, len(engineClusters))
	}
	byID := map[string]*store.ConversationsCluster{}
	for _, k := range clusters.Items {
		byID[k.ID] = k
	}
	for _, ec := range engineClusters {
		k := byID[ec.ID]
		if k == nil || k.Label != ec.Label || k.Icon != ec.Icon || k.Summary != ec.Summary || k.Issues != ec.Stats.Issues ||
			k.Conversations != ec.Stats.Conversations || !reflect.DeepEqual(k.Sources, ec.Sources) {
			t.Fatalf("cluster %s: stored %+v, engine %+v", ec.ID, k, ec)
		}
	}
}

// Two quire nodes on one database run the same job at once: the conversations are analysed
// once, and the stored result is what one pass gives.
func TestConversationAnalysisTwoNodes(t *testing.T) {
	ls := loadCorpus(t)[:120]
	path := t.TempDir() + "/quire.db"
	c := &clock{now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)}
	a := newFixture(t, path, c)
	a.makeOrg(t)
	a.ingest(t, ls)
	b := newFixture(t, path, c)
	b.org = a.org
	c.now = c.now.Add(store.ConversationAnalysisDelay)

	var wg sync.WaitGroup
	results := make([]int, 2)
	errs := make([]error, 2)
	for i, f := range []*fixture{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = jobs.AnalyseConversations(context.Background(), f.st, f.org)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && store.ErrorCode(err) != store.ECONFLICT {
			t.Fatalf("node %d: %v", i, err)
		}
	}
	twoNodes := a.issues(t)

	single := newFixture(t, t.TempDir()+"/single.db", &clock{now: c.now})
	single.makeOrg(t)
	single.ingest(t, ls)
	if _, err := jobs.AnalyseConversations(context.Background(), single.st, single.org); err != nil {
		t.Fatal(err)
	}
	want := single.issues(t)
	if len(twoNodes) != len(want) {
		t.Fatalf("two nodes stored %d issues, one node %d (read %v, errors %v)", len(twoNodes), len(want), results, errs)
	}
	for i := range want {
		if twoNodes[i].ID != want[i].ID || twoNodes[i].Cluster != want[i].Cluster {
			t.Fatalf("issue %d: %+v vs %+v", i, twoNodes[i], want[i])
		}
	}
	an, err := a.st.StartConversationAnalysis(context.Background(), a.org)
	if err != nil || len(an.Pending) != 0 {
		t.Fatalf("after both nodes: %d pending, %v", len(an.Pending), err)
	}
}

// BenchmarkConversationsAnalyse10000 is the time to analyse 10,000 conversations end to end: each
// ingested through the store (one transaction each, as the API does), then the one analysis job
// they queued, run by the job runner. It reports the two parts and the adjusted Rand index of the
// stored clusters against the corpus labels; the cpu-s figures are the process's CPU time in
// each part, the figure that holds on a machine other work shares.
func BenchmarkConversationsAnalyse10000(b *testing.B) {
	ls := loadCorpus(b)
	synth := perturbed(ls, 10000)
	var ingest, analyse, ingestCPU, analyseCPU time.Duration
	var issues []store.ConversationIssue
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f := newFixture(b, b.TempDir()+"/quire.db", &clock{now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)})
		f.makeOrg(b)
		b.StartTimer()
		start, startCPU := time.Now(), cpuTime()
		f.ingest(b, synth)
		mid, midCPU := time.Now(), cpuTime()
		if n := f.run(b); n != 1 {
			b.Fatalf("ran %d jobs, want 1", n)
		}
		ingest += mid.Sub(start)
		analyse += time.Since(mid)
		ingestCPU += midCPU - startCPU
		analyseCPU += cpuTime() - midCPU
		b.StopTimer()
		issues = f.issues(b)
		f.st.Close()
		b.StartTimer()
	}
	b.ReportMetric(ingest.Seconds()/float64(b.N), "s-ingest")
	b.ReportMetric(analyse.Seconds()/float64(b.N), "s-analyse")
	b.ReportMetric(ingestCPU.Seconds()/float64(b.N), "cpu-s-ingest")
	b.ReportMetric(analyseCPU.Seconds()/float64(b.N), "cpu-s-analyse")
	b.ReportMetric(ari(synth, issues), "ARI-10000")

	whole := newFixture(b, b.TempDir()+"/corpus.db", &clock{now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)})
	whole.makeOrg(b)
	whole.ingest(b, ls)
	whole.run(b)
	b.ReportMetric(ari(ls, whole.issues(b)), "ARI-corpus")
}

// A running loop woken by WakeAfter runs the job a request enqueued without waiting for its tick.
func TestWakeAfterRunsDueJobsPromptly(t *testing.T) {
	c := &clock{now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)}
	st := mustOpen(t, t.TempDir()+"/quire.db", c)
	defer st.Close()
	ran := make(chan string, 1)
	r := &jobs.Runner{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Handlers: map[string]jobs.Handler{
		"note": {Run: func(_ context.Context, payload string) error { ran <- payload; return nil }},
	}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Loop(ctx, time.Hour) }()
	defer func() { cancel(); <-done }()
	time.Sleep(50 * time.Millisecond) // the loop's first pass finds nothing
	if err := st.EnqueueJob(context.Background(), "note", "woken", c.now); err != nil {
		t.Fatal(err)
	}
	r.WakeAfter(10 * time.Millisecond)
	select {
	case p := <-ran:
		if p != "woken" {
			t.Fatalf("ran %q", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the woken loop did not run the job")
	}
}
