package conversations

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

var corpusNow = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// majorityClusters maps each topic to the cluster holding most of its issues.
func majorityClusters(ls []labelled, a *Analyzer) map[string]string {
	topicOf := map[string]string{}
	for _, l := range ls {
		topicOf[convKey(l.Source, l.ID)] = l.Topics[0]
	}
	counts := map[string]map[string]int{}
	for _, is := range issuesInOrder(a) {
		tp := topicOf[convKey(is.Source, is.Conversation)]
		if counts[tp] == nil {
			counts[tp] = map[string]int{}
		}
		counts[tp][is.Cluster]++
	}
	out := map[string]string{}
	for tp, m := range counts {
		best := ""
		for _, id := range sortedKeys(m) {
			if best == "" || m[id] > m[best] {
				best = id
			}
		}
		out[tp] = best
	}
	return out
}

func TestShuffledBatchGivesIdenticalOutput(t *testing.T) {
	ls := loadCorpus(t)
	convs := conversationsOf(ls)
	ref := New(DefaultParams())
	refRes := ref.Analyze(convs, corpusNow)
	for seed := uint64(1); seed <= 3; seed++ {
		shuffled := append([]Conversation(nil), convs...)
		rand.New(rand.NewPCG(seed, seed)).Shuffle(len(shuffled), func(i, j int) {
			shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
		})
		a := New(DefaultParams())
		res := a.Analyze(shuffled, corpusNow)
		if !reflect.DeepEqual(res, refRes) {
			t.Fatalf("seed %d: the batch result differs from the unshuffled one", seed)
		}
		if !reflect.DeepEqual(a.Clusters(corpusNow), ref.Clusters(corpusNow)) || !reflect.DeepEqual(a.Issues(), ref.Issues()) {
			t.Fatalf("seed %d: the state differs from the unshuffled one", seed)
		}
	}
}

func TestSecondBatchJoinsExistingClusters(t *testing.T) {
	ls := loadCorpus(t)
	first, second := ls[:len(ls)*2/3], ls[len(ls)*2/3:]
	for _, mergeExisting := range []bool{true, false} {
		p := DefaultParams()
		p.MergeExisting = mergeExisting
		a := New(p)
		a.Analyze(conversationsOf(first), corpusNow)
		before := map[string]string{}
		for _, is := range a.Issues() {
			before[is.ID] = is.Cluster
		}
		majority := majorityClusters(first, a)

		later := corpusNow.Add(24 * time.Hour)
		res := a.Analyze(conversationsOf(second), later)
		// Earlier issues move only when their whole cluster merges into another.
		moved := map[string]bool{}
		for _, is := range res.MovedIssues {
			moved[is.ID] = true
		}
		deleted := map[string]bool{}
		for _, id := range res.DeletedClusters {
			deleted[id] = true
		}
		into := map[string]string{}
		for _, is := range a.Issues() {
			c, ok := before[is.ID]
			if !ok || c == is.Cluster {
				if moved[is.ID] {
					t.Errorf("issue %s reported moved but stayed in %s", is.ID, c)
				}
				continue
			}
			if !mergeExisting || !moved[is.ID] || !deleted[c] || (into[c] != "" && into[c] != is.Cluster) {
				t.Fatalf("merge existing %v: issue %s moved from %s to %s (reported %v, cluster deleted %v)", mergeExisting, is.ID, c, is.Cluster, moved[is.ID], deleted[c])
			}
			into[c] = is.Cluster
		}
		topicOf := map[string]string{}
		for _, l := range second {
			topicOf[convKey(l.Source, l.ID)] = l.Topics[0]
		}
		joined, total := 0, 0
		for _, is := range res.Issues {
			tp := topicOf[convKey(is.Source, is.Conversation)]
			if tp == "noise" {
				continue
			}
			total++
			target := majority[tp]
			if into[target] != "" {
				target = into[target]
			}
			if is.Cluster == target {
				joined++
			}
		}
		if share := float64(joined) / float64(total); share < 0.8 {
			t.Errorf("merge existing %v: %d of %d topical issues of the second batch joined their topic's existing cluster", mergeExisting, joined, total)
		}
		for _, c := range res.Clusters {
			if c.UpdatedAt != later {
				t.Errorf("cluster %s touched by the batch has updatedAt %v", c.ID, c.UpdatedAt)
			}
			if c.CreatedAt.After(c.UpdatedAt) {
				t.Errorf("cluster %s created after its update", c.ID)
			}
		}
		if ari, _ := quality(ls, issuesInOrder(a)); ari < 0.7 {
			t.Errorf("merge existing %v: ARI after two batches %.3f < 0.7", mergeExisting, ari)
		}
	}
}

func TestRestoreContinuesLikeTheOriginal(t *testing.T) {
	ls := loadCorpus(t)
	first, second := conversationsOf(ls[:200]), conversationsOf(ls[200:])
	a := New(DefaultParams())
	a.Analyze(first, corpusNow)
	st := a.State()
	st.Clusters = append(st.Clusters, ClusterRecord{ID: "cl_999999"}) // a stray record, no issues
	b := Restore(DefaultParams(), st)
	if !reflect.DeepEqual(b.Clusters(corpusNow), a.Clusters(corpusNow)) {
		t.Fatal("restored clusters differ")
	}
	later := corpusNow.Add(time.Hour)
	if ra, rb := a.Analyze(second, later), b.Analyze(second, later); !reflect.DeepEqual(ra, rb) {
		t.Fatal("a restored analyzer analyses the next batch differently")
	}
}

func TestReingestionReplacesIssues(t *testing.T) {
	ls := loadCorpus(t)
	a := New(DefaultParams())
	a.Analyze(conversationsOf(ls), corpusNow)
	majority := majorityClusters(ls, a)
	billing := majority["billing"]
	billingBefore := len(a.clusters[billing].members)

	c := Conversation{ID: "re-1", Source: "email", CreatedAt: corpusNow, Parts: []Part{
		msg("user", "We were charged twice for our subscription this month, please refund the duplicate invoice charge."),
	}}
	res := a.Analyze([]Conversation{c}, corpusNow)
	if len(res.Issues) != 1 || res.Issues[0].Cluster != billing {
		t.Fatalf("billing conversation: %+v, want one issue in %s", res.Issues, billing)
	}
	id := res.Issues[0].ID
	if got := len(a.clusters[billing].members); got != billingBefore+1 {
		t.Fatalf("billing cluster has %d issues, want %d", got, billingBefore+1)
	}

	// The same ID from another source is another conversation.
	other := c
	other.Source = "integration:intercom:support"
	a.Analyze([]Conversation{other}, corpusNow)
	if got := len(a.clusters[billing].members); got != billingBefore+2 {
		t.Fatalf("billing cluster has %d issues after the same ID from another source, want %d", got, billingBefore+2)
	}

	// Re-ingested about something else: same issue ID, now in the login cluster.
	c.Parts = []Part{msg("user", "I can't log in, our SAML SSO sign in fails and the password reset email never arrives.")}
	later := corpusNow.Add(time.Hour)
	res = a.Analyze([]Conversation{c}, later)
	if len(res.Issues) != 1 || res.Issues[0].ID != id || res.Issues[0].Cluster != majority["login"] {
		t.Fatalf("re-ingested: %+v, want issue %s in %s", res.Issues, id, majority["login"])
	}
	if len(res.RemovedIssues) != 0 {
		t.Errorf("removed %v, want none (the issue ID was reused)", res.RemovedIssues)
	}
	if got := len(a.clusters[billing].members); got != billingBefore+1 {
		t.Fatalf("billing cluster has %d issues after re-ingestion, want %d", got, billingBefore+1)
	}
	if n := len(a.Issues()); n != countIssues(a) {
		t.Fatal("issue index out of step")
	}

	// Re-ingested as chatter: the issue goes, and a cluster it leaves empty is deleted.
	lone := Conversation{ID: "lone", Source: "email", CreatedAt: corpusNow, Parts: []Part{msg("user", "Zyxwv qwertzu plonk frobnicator glimmerwort.")}}
	res = a.Analyze([]Conversation{lone}, later)
	loneCluster := res.Issues[0].Cluster
	if len(a.clusters[loneCluster].members) != 1 {
		t.Fatalf("gibberish joined a populated cluster %s", loneCluster)
	}
	lone.Parts = []Part{msg("user", "Thanks, all good now!")}
	res = a.Analyze([]Conversation{lone}, later)
	if len(res.Issues) != 0 || !reflect.DeepEqual(res.RemovedIssues, []string{issueID("email", "lone", 0)}) || !reflect.DeepEqual(res.DeletedClusters, []string{loneCluster}) {
		t.Fatalf("chatter re-ingestion: %+v", res)
	}
	if _, ok := a.clusters[loneCluster]; ok {
		t.Fatal("empty cluster kept")
	}
}

func countIssues(a *Analyzer) int {
	n := 0
	for _, ids := range a.byConv {
		n += len(ids)
	}
	return n
}

func TestDuplicateInBatchLatestWins(t *testing.T) {
	older := Conversation{ID: "d", Source: "email", CreatedAt: corpusNow.Add(-time.Hour), Parts: []Part{msg("user", "The PDF export is missing images.")}}
	newer := Conversation{ID: "d", Source: "email", CreatedAt: corpusNow, Parts: []Part{msg("user", "Our custom domain has an SSL certificate error.")}}
	for _, batch := range [][]Conversation{{older, newer}, {newer, older}} {
		res := New(DefaultParams()).Analyze(batch, corpusNow)
		if len(res.Issues) != 1 || !strings.Contains(res.Issues[0].Title, "custom domain") {
			t.Fatalf("got %+v, want the newer conversation's issue", res.Issues)
		}
	}
}

func TestWeeklyPulse(t *testing.T) {
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC) // a Wednesday; the week began Monday 2 March
	at := []time.Time{
		time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), // this week's first instant: week 12
		now, // week 12
		time.Date(2026, 3, 8, 23, 59, 0, 0, time.UTC),                   // this week's Sunday, later than now: week 12
		time.Date(2026, 3, 1, 23, 59, 0, 0, time.UTC),                   // last Sunday: week 11
		time.Date(2026, 2, 23, 9, 0, 0, 0, time.UTC),                    // week 11
		time.Date(2025, 12, 8, 0, 0, 0, 0, time.UTC),                    // twelve weeks before this Monday: week 0
		time.Date(2025, 12, 7, 23, 59, 0, 0, time.UTC),                  // thirteen weeks back: outside
		time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC),                     // next week: outside
		time.Date(2026, 3, 4, 12, 0, 0, 0, time.FixedZone("X", 5*3600)), // 07:00 UTC: week 12
	}
	var batch []Conversation
	for i, t0 := range at {
		batch = append(batch, Conversation{ID: string(rune('a' + i)), Source: "email", CreatedAt: t0, Parts: []Part{
			msg("user", "The exported PDF is missing all the images when I export the space to PDF."),
		}})
	}
	a := New(DefaultParams())
	a.Analyze(batch, now)
	cs := a.Clusters(now)
	if len(cs) != 1 {
		t.Fatalf("got %d clusters, want 1", len(cs))
	}
	want := [PulseWeeks]int{0: 1, 11: 2, 12: 4}
	if cs[0].WeeklyPulse != want {
		t.Fatalf("pulse = %v, want %v", cs[0].WeeklyPulse, want)
	}
	// A week later everything shifts one to the left.
	nextWeek := a.Clusters(now.AddDate(0, 0, 7))[0].WeeklyPulse
	if want := [PulseWeeks]int{10: 2, 11: 4, 12: 1}; nextWeek != want {
		t.Fatalf("pulse a week later = %v, want %v", nextWeek, want)
	}
	if cs[0].Stats.Issues != len(at) || cs[0].Stats.Conversations != len(at) || cs[0].Sources["email"] != len(at) {
		t.Fatalf("stats %+v sources %v", cs[0].Stats, cs[0].Sources)
	}
}

func TestClusterDescriptions(t *testing.T) {
	ls := loadCorpus(t)
	a := New(DefaultParams())
	a.Analyze(conversationsOf(ls), corpusNow)
	majority := majorityClusters(ls, a)
	clusters := map[string]Cluster{}
	for _, c := range a.Clusters(corpusNow) {
		clusters[c.ID] = c
	}
	expect := map[string]struct {
		icon  string
		words []string
	}{
		"login":        {"right-to-bracket", []string{"sso", "log", "sign", "password"}},
		"billing":      {"credit-card", []string{"invoice", "billing", "charge", "card"}},
		"search":       {"magnifying-glass", []string{"search"}},
		"pdf":          {"file-pdf", []string{"pdf", "export"}},
		"ratelimit":    {"code", []string{"api", "limit", "rate"}},
		"links":        {"link-slash", []string{"link"}},
		"publishing":   {"rocket", []string{"publish", "site", "live"}},
		"permissions":  {"lock", []string{"role", "permission", "member", "access"}},
		"integrations": {"plug", []string{"integration", "sync", "github", "slack"}},
		"translations": {"language", []string{"translat", "language"}},
		"performance":  {"gauge-high", []string{"slow", "load", "lag"}},
		"domains":      {"globe", []string{"domain", "dns", "certificate"}},
	}
	for tp, e := range expect {
		c := clusters[majority[tp]]
		if c.Icon != e.icon {
			t.Errorf("%s: icon %q, want %q (label %q)", tp, c.Icon, e.icon, c.Label)
		}
		label := strings.ToLower(c.Label)
		found := false
		for _, w := range e.words {
			found = found || strings.Contains(label, w)
		}
		if !found || len(c.Label) > maxLabelLen {
			t.Errorf("%s: label %q names none of %v", tp, c.Label, e.words)
		}
		titles := map[string]bool{}
		for _, id := range c.Issues {
			titles[strings.TrimRight(a.issues[id].Title, ".!?…")] = true
		}
		first := strings.SplitN(c.Summary, ". ", 2)[0]
		if c.Summary == "" || !titles[strings.TrimRight(first, ".!?…")] {
			t.Errorf("%s: summary %q does not open with a member's title", tp, c.Summary)
		}
	}
	// Words users write in capitals keep them.
	for tp, word := range map[string]string{"pdf": "PDF", "login": "SSO", "ratelimit": "API"} {
		if label := clusters[majority[tp]].Label; !strings.Contains(label, word) {
			t.Errorf("%s: label %q lacks %q", tp, label, word)
		}
	}
	allowed := map[string]bool{defaultIcon: true}
	for _, ic := range icons {
		allowed[ic.name] = true
	}
	for _, c := range clusters {
		if !allowed[c.Icon] || len(c.Icon) > 50 || c.Label == "" {
			t.Errorf("cluster %s: icon %q label %q", c.ID, c.Icon, c.Label)
		}
		if c.Stats.Issues != len(c.Issues) || c.Stats.Conversations > c.Stats.Issues {
			t.Errorf("cluster %s: stats %+v for %d issues", c.ID, c.Stats, len(c.Issues))
		}
		n := 0
		for _, v := range c.Sources {
			n += v
		}
		if n != c.Stats.Issues {
			t.Errorf("cluster %s: sources %v sum to %d, not %d", c.ID, c.Sources, n, c.Stats.Issues)
		}
	}
}

func TestEmptyAndOffTopicInput(t *testing.T) {
	a := New(DefaultParams())
	if res := a.Analyze(nil, corpusNow); len(res.Issues)+len(res.RemovedIssues)+len(res.Clusters)+len(res.DeletedClusters) != 0 || len(a.Clusters(corpusNow)) != 0 {
		t.Fatalf("empty batch: %+v", res)
	}
	res := a.Analyze([]Conversation{
		{ID: "hi", Source: "email", Parts: []Part{msg("user", "Hello! Just saying thanks, you are great. Cheers, Sam")}},
		{ID: "staff", Source: "email", Parts: []Part{msg("team-member", "Your SSO certificate expired.")}},
	}, corpusNow)
	if len(res.Issues) != 0 || len(res.Clusters) != 0 {
		t.Fatalf("chatter produced %+v", res)
	}

	ls := loadCorpus(t)
	a.Analyze(conversationsOf(ls), corpusNow)
	topical := map[string]bool{}
	for tp, id := range majorityClusters(ls, a) {
		if tp != "noise" {
			topical[id] = true
		}
	}
	res = a.Analyze([]Conversation{
		{ID: "poem", Source: "email", Parts: []Part{msg("user", "Roses bloom in the quiet garden while the old cat sleeps on the warm windowsill.")}},
	}, corpusNow)
	if len(res.Issues) != 1 || topical[res.Issues[0].Cluster] {
		t.Fatalf("an off-topic message joined a topic cluster: %+v", res.Issues)
	}
	if c := res.Clusters[0]; c.Icon != defaultIcon || c.Stats.Issues != 1 {
		t.Errorf("off-topic cluster: %+v", c)
	}
}
