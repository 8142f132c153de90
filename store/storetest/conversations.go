package storetest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

func strp(s string) *string { return &s }

// conversationsIngestMany: one call stores several conversations and queues one analysis; a
// later item with an item's id replaces it; a call with none changes nothing.
func conversationsIngestMany(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	if err := w.st.IngestConversations(ctx, w.org); err != nil {
		t.Fatal(err)
	}
	n, err := w.st.PendingJobs(ctx)
	if err != nil || n[store.JobAnalyseConversations] != 0 {
		t.Fatalf("an empty ingestion queued analysis: %v %v", n, err)
	}
	msg := func(body string) []store.ConversationPart {
		return []store.ConversationPart{{Type: "message", Role: "user", Body: body}}
	}
	if err := w.st.IngestConversations(ctx, w.org,
		store.ConversationInput{ID: "a", Source: "email", Parts: msg("first")},
		store.ConversationInput{ID: "b", Source: "email", Subject: strp("B"), Parts: msg("other")},
		store.ConversationInput{ID: "a", Source: "email", Parts: msg("second")},
	); err != nil {
		t.Fatal(err)
	}
	all, err := w.st.FindConversations(ctx, w.org, nil, store.Page{})
	if err != nil || all.Count != 2 {
		t.Fatalf("list after one call with three items: count %d, %v", all.Count, err)
	}
	a, err := w.st.FindConversation(ctx, w.org, "a")
	if err != nil || a.Revision != 2 || a.Parts[0].Body != "second" || !a.Pending {
		t.Fatalf("conversation a %+v, %v", a, err)
	}
	b, err := w.st.FindConversation(ctx, w.org, "b")
	if err != nil || b.Revision != 1 || *b.Subject != "B" || !b.Pending {
		t.Fatalf("conversation b %+v, %v", b, err)
	}
	if n, err = w.st.PendingJobs(ctx); err != nil || n[store.JobAnalyseConversations] != 1 {
		t.Fatalf("pending analysis jobs %v (%v), want 1", n, err)
	}
}

// conversationsIngest: ingestion stores and replaces conversations per (source, id), and queues
// one analysis job per organization however many conversations arrive before it starts.
func conversationsIngest(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	pending := func(want int) {
		t.Helper()
		n, err := w.st.PendingJobs(ctx)
		if err != nil || n[store.JobAnalyseConversations] != want {
			t.Fatalf("pending analysis jobs %v (%v), want %d", n, err, want)
		}
	}
	ingest := func(in store.ConversationInput) {
		t.Helper()
		if err := w.st.IngestConversations(ctx, w.org, in); err != nil {
			t.Fatal(err)
		}
	}
	created := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	ingest(store.ConversationInput{ID: "c1", Source: "email", Subject: strp("Invoice"),
		Parts: []store.ConversationPart{{Type: "message", Role: "user", Body: "The invoice is wrong."}},
		URL:   strp("https://help.example/c1"), Attributes: map[string]string{"plan": "pro"}, CreatedAt: &created})
	for i := 0; i < 20; i++ {
		ingest(store.ConversationInput{ID: fmt.Sprintf("n%02d", i), Source: "integration:intercom:inst1",
			Parts: []store.ConversationPart{{Type: "message", Role: "user", Body: "Search is slow."}}})
	}
	pending(1)
	jobs, err := w.st.DueJobs(ctx, 10)
	if err != nil || len(jobs) != 0 {
		t.Fatalf("the analysis job is due before its delay: %v %v", jobs, err)
	}
	// Each ingestion while the job waits moves it later, but not past its bound.
	queuedAt := clock.Now()
	for clock.Now().Sub(queuedAt) < store.ConversationAnalysisMaxWait+5*time.Second {
		clock.advance(store.ConversationAnalysisDelay * 9 / 10)
		if jobs, _ = w.st.DueJobs(ctx, 10); len(jobs) != 0 && clock.Now().Before(queuedAt.Add(store.ConversationAnalysisMaxWait)) {
			t.Fatalf("the job ran %s into a burst", clock.Now().Sub(queuedAt))
		}
		if len(jobs) != 0 {
			break
		}
		ingest(store.ConversationInput{ID: "n00", Source: "integration:intercom:inst1", Parts: []store.ConversationPart{}})
	}
	if len(jobs) != 1 {
		t.Fatalf("the job was not due %s after it was queued", clock.Now().Sub(queuedAt))
	}
	pending(1)
	if len(jobs) != 1 || jobs[0].Kind != store.JobAnalyseConversations || jobs[0].Payload != `{"organization":"`+w.org+`"}` {
		t.Fatalf("due jobs %+v", jobs)
	}

	c, err := w.st.FindConversation(ctx, w.org, "c1")
	if err != nil {
		t.Fatal(err)
	}
	want := store.Conversation{ID: "c1", Source: "email", Subject: strp("Invoice"),
		Parts: []store.ConversationPart{{Type: "message", Role: "user", Body: "The invoice is wrong."}},
		URL:   strp("https://help.example/c1"), Attributes: map[string]string{"plan": "pro"},
		MetadataCreatedAt: &created, CreatedAt: created, IngestedAt: c.IngestedAt, Revision: 1, Pending: true}
	if !reflect.DeepEqual(*c, want) {
		t.Fatalf("conversation %+v, want %+v", *c, want)
	}

	// Re-ingesting replaces it; without a creation time it keeps the one it had.
	clock.advance(time.Minute)
	ingest(store.ConversationInput{ID: "c1", Source: "email", Parts: []store.ConversationPart{{Type: "message", Role: "user", Body: "Now the PDF export fails."}}})
	c, _ = w.st.FindConversation(ctx, w.org, "c1")
	if c.Revision != 2 || c.Subject != nil || c.URL != nil || len(c.Attributes) != 0 || c.MetadataCreatedAt != nil ||
		!c.CreatedAt.Equal(created) || c.Parts[0].Body != "Now the PDF export fails." || !c.IngestedAt.Equal(clock.Now()) {
		t.Fatalf("re-ingested conversation %+v", *c)
	}
	pending(1)

	// The same id from another source is another conversation; get answers the last ingested.
	clock.advance(time.Minute)
	ingest(store.ConversationInput{ID: "c1", Source: "integration:intercom:inst1", Parts: []store.ConversationPart{}})
	if c, _ = w.st.FindConversation(ctx, w.org, "c1"); c.Source != "integration:intercom:inst1" {
		t.Fatalf("get c1 answered the one from %s", c.Source)
	}
	all, err := w.st.FindConversations(ctx, w.org, nil, store.Page{})
	if err != nil || all.Count != 22 || len(all.Items) != 22 {
		t.Fatalf("list: %d items, count %d, %v", len(all.Items), all.Count, err)
	}
	for i := 1; i < len(all.Items); i++ {
		if all.Items[i].CreatedAt.After(all.Items[i-1].CreatedAt) {
			t.Fatalf("list not newest first at %d", i)
		}
	}
	// Paging walks every conversation once.
	seen := map[string]bool{}
	p := store.Page{Limit: 5}
	for pages := 0; ; pages++ {
		l, err := w.st.FindConversations(ctx, w.org, strp("integration:intercom:inst1"), p)
		if err != nil || l.Count != 21 {
			t.Fatalf("page: count %d, %v", l.Count, err)
		}
		for _, c := range l.Items {
			k := c.Source + "/" + c.ID
			if seen[k] || c.Source != "integration:intercom:inst1" {
				t.Fatalf("page repeats or leaks %s", k)
			}
			seen[k] = true
		}
		if l.Next == "" {
			break
		}
		p.Cursor = l.Next
	}
	if len(seen) != 21 {
		t.Fatalf("paging saw %d conversations, want 21", len(seen))
	}
	if _, err := w.st.FindConversations(ctx, w.org, nil, store.Page{Cursor: "nope"}); store.ErrorCode(err) != store.EINVALID {
		t.Fatalf("bad cursor: %v", err)
	}

	// Once the job has started, the next ingestion queues another.
	if _, err := w.st.StartConversationAnalysis(ctx, w.org); err != nil {
		t.Fatal(err)
	}
	ingest(store.ConversationInput{ID: "late", Source: "email", Parts: []store.ConversationPart{}})
	ingest(store.ConversationInput{ID: "later", Source: "email", Parts: []store.ConversationPart{}})
	pending(2)

	// Another organization sees none of it.
	other, err := w.st.CreateOrganization(ctx, "Other", w.user)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.FindConversation(ctx, other.ID, "c1"); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("another organization found c1: %v", err)
	}
	if l, _ := w.st.FindConversations(ctx, other.ID, nil, store.Page{}); l.Count != 0 {
		t.Fatalf("another organization lists %d conversations", l.Count)
	}
}

// conversationsAnalysis: a pass reads the state and pending conversations after claiming the
// queue, saves in one transaction, loses to a pass that saved first, and leaves conversations
// re-ingested meanwhile pending; clusters list in every order, with a pulse from the clock.
func conversationsAnalysis(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)} // a Wednesday
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	if an, err := w.st.StartConversationAnalysis(ctx, w.org); err != nil || len(an.Pending) != 0 || an.NextSeq != 1 {
		t.Fatalf("empty organization: %+v %v", an, err)
	}
	msg := []store.ConversationPart{{Type: "message", Role: "user", Body: "x"}}
	weeksAgo := func(n int) *time.Time { t := clock.Now().AddDate(0, 0, -7*n); return &t }
	for i, ago := range []int{0, 0, 1, 12, 13} {
		if err := w.st.IngestConversations(ctx, w.org, store.ConversationInput{ID: fmt.Sprintf("c%d", i), Source: "email", Parts: msg, CreatedAt: weeksAgo(ago)}); err != nil {
			t.Fatal(err)
		}
	}
	a, err := w.st.StartConversationAnalysis(ctx, w.org)
	if err != nil || len(a.Pending) != 5 {
		t.Fatalf("pass A: %d pending, %v", len(a.Pending), err)
	}
	b, err := w.st.StartConversationAnalysis(ctx, w.org)
	if err != nil || len(b.Pending) != 5 || b.Version != a.Version {
		t.Fatalf("pass B: %+v, %v", b, err)
	}
	// c4 is re-ingested while the passes run.
	if err := w.st.IngestConversations(ctx, w.org, store.ConversationInput{ID: "c4", Source: "email", Parts: msg, CreatedAt: weeksAgo(13)}); err != nil {
		t.Fatal(err)
	}
	issue := func(conv, cluster string) store.ConversationIssue {
		for _, c := range a.Pending {
			if c.ID == conv {
				return store.ConversationIssue{ID: "iss_" + conv, Title: "T " + conv, Summary: "S " + conv, Source: "email",
					Conversation: conv, Cluster: cluster, CreatedAt: c.CreatedAt, IngestedAt: clock.Now(), Text: "text " + conv}
			}
		}
		t.Fatalf("no pending %s", conv)
		return store.ConversationIssue{}
	}
	res := store.ConversationAnalysisResult{Version: a.Version, NextSeq: 3,
		Issues: []store.ConversationIssue{issue("c0", "cl_1"), issue("c1", "cl_1"), issue("c2", "cl_1"), issue("c3", "cl_1"), issue("c4", "cl_2")},
		Clusters: []store.ConversationsCluster{
			{ID: "cl_1", Label: "Big", Icon: "gear", Summary: "Four", Sources: map[string]int{"email": 4}, Issues: 4, Conversations: 4, CreatedAt: clock.Now(), UpdatedAt: clock.Now()},
			{ID: "cl_2", Label: "Small", Icon: "bug", Summary: "One", Sources: map[string]int{"email": 1}, Issues: 1, Conversations: 1, CreatedAt: clock.Now(), UpdatedAt: clock.Now().Add(time.Second)},
		}}
	for _, c := range a.Pending {
		res.Processed = append(res.Processed, store.ConversationRef{Source: c.Source, ID: c.ID, Revision: c.Revision})
	}
	if err := w.st.SaveConversationAnalysis(ctx, w.org, res); err != nil {
		t.Fatal(err)
	}
	res.Version = b.Version
	if err := w.st.SaveConversationAnalysis(ctx, w.org, res); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("the second pass saved over the first: %v", err)
	}
	next, err := w.st.StartConversationAnalysis(ctx, w.org)
	if err != nil || next.NextSeq != 3 || len(next.Issues) != 5 || len(next.Clusters) != 2 || len(next.Pending) != 1 || next.Pending[0].ID != "c4" || next.Pending[0].Revision != 2 {
		t.Fatalf("after the save: %+v %v", next, err)
	}
	if c, _ := w.st.FindConversation(ctx, w.org, "c0"); c.Pending || c.ProcessedAt == nil {
		t.Fatalf("c0 not processed: %+v", c)
	}

	k, err := w.st.FindConversationsCluster(ctx, w.org, "cl_1")
	if err != nil {
		t.Fatal(err)
	}
	if want := [store.PulseWeeks]int{0: 1, 11: 1, 12: 2}; k.WeeklyPulse != want || k.Label != "Big" || k.Issues != 4 || k.Sources["email"] != 4 {
		t.Fatalf("cluster %+v, pulse want %v", k, want)
	}
	clock.set(clock.Now().AddDate(0, 0, 7)) // the pulse is read from the clock
	if k, _ = w.st.FindConversationsCluster(ctx, w.org, "cl_1"); k.WeeklyPulse != [store.PulseWeeks]int{10: 1, 11: 2} {
		t.Fatalf("a week later the pulse is %v", k.WeeklyPulse)
	}
	if _, err := w.st.FindConversationsCluster(ctx, w.org, "cl_9"); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("missing cluster: %v", err)
	}

	ids := func(f store.ConversationsClusterFilter, p store.Page) ([]string, string) {
		t.Helper()
		l, err := w.st.FindConversationsClusters(ctx, w.org, f, p)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, k := range l.Items {
			out = append(out, k.ID)
		}
		return out, l.Next
	}
	for _, tc := range []struct {
		f    store.ConversationsClusterFilter
		want []string
	}{
		{store.ConversationsClusterFilter{}, []string{"cl_2", "cl_1"}},
		{store.ConversationsClusterFilter{Asc: true}, []string{"cl_1", "cl_2"}},
		{store.ConversationsClusterFilter{OrderBy: "issues"}, []string{"cl_1", "cl_2"}},
		{store.ConversationsClusterFilter{OrderBy: "conversations", Asc: true}, []string{"cl_2", "cl_1"}},
		{store.ConversationsClusterFilter{OrderBy: "tasksTotal", Asc: true}, []string{"cl_1", "cl_2"}},
		// c4 (in cl_2) was re-ingested, and the pass that will read it has claimed the queue.
		{store.ConversationsClusterFilter{Status: "pending"}, nil},
		{store.ConversationsClusterFilter{Status: "analysing"}, []string{"cl_2"}},
	} {
		if got, _ := ids(tc.f, store.Page{}); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
		// One at a time, the pages give the same order.
		var paged []string
		p := store.Page{Limit: 1}
		for {
			got, next := ids(tc.f, p)
			paged = append(paged, got...)
			if next == "" {
				break
			}
			p.Cursor = next
		}
		if !reflect.DeepEqual(paged, tc.want) {
			t.Errorf("%+v paged: %v, want %v", tc.f, paged, tc.want)
		}
	}
	if _, err := w.st.FindConversationsClusters(ctx, w.org, store.ConversationsClusterFilter{OrderBy: "size"}, store.Page{}); store.ErrorCode(err) != store.EINVALID {
		t.Fatalf("bad order: %v", err)
	}
	// Re-ingested again: queued, and no pass has started on it.
	if err := w.st.IngestConversations(ctx, w.org, store.ConversationInput{ID: "c4", Source: "email", Parts: msg, CreatedAt: weeksAgo(13)}); err != nil {
		t.Fatal(err)
	}
	if got, _ := ids(store.ConversationsClusterFilter{Status: "pending"}, store.Page{}); !reflect.DeepEqual(got, []string{"cl_2"}) {
		t.Errorf("pending: %v", got)
	}
	if got, _ := ids(store.ConversationsClusterFilter{Status: "analysing"}, store.Page{}); got != nil {
		t.Errorf("analysing: %v", got)
	}

	// Issues: filters and paging, each with its conversation.
	list := func(f store.ConversationIssueFilter) []string {
		t.Helper()
		var out []string
		p := store.Page{Limit: 2}
		for {
			l, err := w.st.FindConversationIssues(ctx, w.org, f, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, iw := range l.Items {
				if iw.Conversation.ID != iw.Issue.Conversation {
					t.Fatalf("issue %s came with conversation %s", iw.Issue.ID, iw.Conversation.ID)
				}
				out = append(out, iw.Issue.ID)
			}
			if l.Next == "" {
				return out
			}
			p.Cursor = l.Next
		}
	}
	if got := list(store.ConversationIssueFilter{}); !reflect.DeepEqual(got, []string{"iss_c1", "iss_c0", "iss_c2", "iss_c3", "iss_c4"}) &&
		!reflect.DeepEqual(got, []string{"iss_c0", "iss_c1", "iss_c2", "iss_c3", "iss_c4"}) {
		t.Errorf("issues newest first: %v", got)
	}
	if got := list(store.ConversationIssueFilter{Cluster: strp("cl_2")}); !reflect.DeepEqual(got, []string{"iss_c4"}) {
		t.Errorf("cluster cl_2: %v", got)
	}
	if got := list(store.ConversationIssueFilter{Conversation: strp("c3")}); !reflect.DeepEqual(got, []string{"iss_c3"}) {
		t.Errorf("conversation c3: %v", got)
	}
	iw, err := w.st.FindConversationIssue(ctx, w.org, "iss_c2")
	if err != nil || iw.Issue.Title != "T c2" || iw.Issue.Cluster != "cl_1" || iw.Conversation.ID != "c2" || iw.Issue.Text != "text c2" {
		t.Fatalf("issue: %+v %v", iw, err)
	}

	// A later pass moves and removes issues and deletes a cluster.
	later, _ := w.st.StartConversationAnalysis(ctx, w.org)
	moved := issue("c3", "cl_2")
	if err := w.st.SaveConversationAnalysis(ctx, w.org, store.ConversationAnalysisResult{Version: later.Version, NextSeq: 3,
		Issues: []store.ConversationIssue{moved}, RemovedIssues: []string{"iss_c4"}, DeletedClusters: []string{"cl_1"},
		Clusters:  []store.ConversationsCluster{{ID: "cl_2", Label: "Moved", Icon: "bug", Summary: "", Sources: map[string]int{"email": 1}, Issues: 1, Conversations: 1, CreatedAt: clock.Now(), UpdatedAt: clock.Now()}},
		Processed: []store.ConversationRef{{Source: "email", ID: "c4", Revision: 3}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.FindConversationIssue(ctx, w.org, "iss_c4"); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("removed issue: %v", err)
	}
	if iw, _ := w.st.FindConversationIssue(ctx, w.org, "iss_c3"); iw.Issue.Cluster != "cl_2" {
		t.Fatalf("moved issue in %s", iw.Issue.Cluster)
	}
	if got, _ := ids(store.ConversationsClusterFilter{}, store.Page{}); !reflect.DeepEqual(got, []string{"cl_2"}) {
		t.Fatalf("clusters after the pass: %v", got)
	}
	if got, _ := ids(store.ConversationsClusterFilter{Status: "pending"}, store.Page{}); got != nil {
		t.Errorf("pending after the pass: %v", got)
	}
}
