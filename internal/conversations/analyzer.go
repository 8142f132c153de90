package conversations

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// New returns an empty Analyzer.
func New(p Params) *Analyzer {
	return &Analyzer{
		p:        p,
		vocab:    newVocabulary(),
		issues:   map[string]*issueState{},
		byConv:   map[string][]string{},
		clusters: map[string]*clusterState{},
		surface:  map[string]map[string]int{},
		nextSeq:  1,
	}
}

// Analyze ingests a batch of conversations in one pass: conversations already known (same
// Source and ID) lose their previous issues, every conversation's issues are extracted, and
// the new issues join existing clusters or form new ones. Within a batch, the order of
// conversations does not matter; when one (Source, ID) appears twice, the later CreatedAt wins
// (then the larger content, so the choice is still order-free). now is the analysis time:
// IngestedAt of the issues, CreatedAt/UpdatedAt of the clusters, and the weekly pulse's end.
func (a *Analyzer) Analyze(batch []Conversation, now time.Time) Result {
	now = now.UTC()
	latest := map[string]Conversation{}
	for _, c := range batch {
		k := convKey(c.Source, c.ID)
		if old, ok := latest[k]; !ok || newer(c, old) {
			latest[k] = c
		}
	}
	keys := sortedKeys(latest)

	touched := map[string]bool{}
	dropped := map[string]bool{}
	for _, k := range keys {
		for _, id := range a.byConv[k] {
			is := a.issues[id]
			touched[is.Cluster] = true
			dropped[id] = true
			a.removeIssue(is)
		}
		delete(a.byConv, k)
	}

	var fresh []*issueState
	for _, k := range keys {
		c := latest[k]
		created := c.CreatedAt.UTC()
		if c.CreatedAt.IsZero() {
			created = now
		}
		for i, e := range extractIssues(c) {
			is := &issueState{
				Issue: Issue{
					ID: issueID(c.Source, c.ID, i), Title: e.title, Summary: e.summary,
					Conversation: c.ID, Source: c.Source, CreatedAt: created, IngestedAt: now, Text: e.text,
				},
				key: fmt.Sprintf("%s\x00%03d", k, i),
			}
			a.addIssue(is)
			fresh = append(fresh, is)
			delete(dropped, is.ID)
		}
	}

	gained, moved := a.assign(fresh, touched)
	for id, g := range gained {
		touched[id] = true
		for _, is := range g {
			is.Cluster = id
		}
	}

	var res Result
	for _, is := range fresh {
		res.Issues = append(res.Issues, is.Issue)
	}
	sort.Slice(res.Issues, func(i, j int) bool { return res.Issues[i].ID < res.Issues[j].ID })
	for _, is := range moved {
		res.MovedIssues = append(res.MovedIssues, is.Issue)
	}
	sort.Slice(res.MovedIssues, func(i, j int) bool { return res.MovedIssues[i].ID < res.MovedIssues[j].ID })
	res.RemovedIssues = sortedKeys(dropped)
	for _, id := range sortedKeys(touched) {
		cs, ok := a.clusters[id]
		switch {
		case !ok:
		case len(cs.members) == 0:
			delete(a.clusters, id)
			res.DeletedClusters = append(res.DeletedClusters, id)
		default:
			if cs.rec.CreatedAt.IsZero() {
				cs.rec.CreatedAt = now
			}
			cs.rec.UpdatedAt = now
			res.Clusters = append(res.Clusters, a.describe(cs, now))
		}
	}
	return res
}

func newer(c, old Conversation) bool {
	if !c.CreatedAt.Equal(old.CreatedAt) {
		return c.CreatedAt.After(old.CreatedAt)
	}
	return fingerprint(c) > fingerprint(old)
}

func fingerprint(c Conversation) string {
	var b strings.Builder
	b.WriteString(c.Subject)
	for _, p := range c.Parts {
		b.WriteString("\x00" + p.Type + "\x00" + p.Role + "\x00" + p.Body)
	}
	return b.String()
}

func (a *Analyzer) addIssue(is *issueState) {
	is.words, is.grams, is.surfaces = a.vocab.features(is.Text)
	a.vocab.add(is.words, is.grams, 1)
	for _, s := range is.surfaces {
		m := a.surface[s[0]]
		if m == nil {
			m = map[string]int{}
			a.surface[s[0]] = m
		}
		m[s[1]]++
	}
	a.issues[is.ID] = is
	k := convKey(is.Source, is.Conversation)
	a.byConv[k] = append(a.byConv[k], is.ID)
	a.stale = true
}

func (a *Analyzer) removeIssue(is *issueState) {
	a.vocab.add(is.words, is.grams, -1)
	for _, s := range is.surfaces {
		if m := a.surface[s[0]]; m != nil {
			if m[s[1]]--; m[s[1]] <= 0 {
				delete(m, s[1])
			}
		}
	}
	delete(a.issues, is.ID)
	if cs := a.clusters[is.Cluster]; cs != nil {
		delete(cs.members, is.ID)
	}
	a.stale = true
}

// Issues returns every issue, sorted by ID.
func (a *Analyzer) Issues() []Issue {
	out := make([]Issue, 0, len(a.issues))
	for _, id := range sortedKeys(a.issues) {
		out = append(out, a.issues[id].Issue)
	}
	return out
}

// Clusters describes every cluster as of now, sorted by ID.
func (a *Analyzer) Clusters(now time.Time) []Cluster {
	out := make([]Cluster, 0, len(a.clusters))
	for _, id := range sortedKeys(a.clusters) {
		out = append(out, a.describe(a.clusters[id], now.UTC()))
	}
	return out
}

// NextSeq is the sequence number the next new cluster's ID is made from (part of State).
func (a *Analyzer) NextSeq() int { return a.nextSeq }

// State exports what a store persists.
func (a *Analyzer) State() State {
	s := State{Issues: a.Issues(), NextSeq: a.nextSeq}
	for _, id := range sortedKeys(a.clusters) {
		s.Clusters = append(s.Clusters, a.clusters[id].rec)
	}
	return s
}

// Restore rebuilds an Analyzer from a persisted State; analysing a batch with it gives the same
// result as with the Analyzer the State came from.
func Restore(p Params, s State) *Analyzer {
	a := New(p)
	if s.NextSeq > a.nextSeq {
		a.nextSeq = s.NextSeq
	}
	for _, r := range s.Clusters {
		a.clusters[r.ID] = &clusterState{rec: r, members: map[string]*issueState{}}
	}
	issues := append([]Issue(nil), s.Issues...)
	sort.Slice(issues, func(i, j int) bool { return issues[i].ID < issues[j].ID })
	positions := map[string]int{}
	for _, iss := range issues {
		k := convKey(iss.Source, iss.Conversation)
		is := &issueState{Issue: iss}
		a.addIssue(is)
		cs := a.clusters[iss.Cluster]
		if cs == nil {
			cs = &clusterState{rec: ClusterRecord{ID: iss.Cluster}, members: map[string]*issueState{}}
			a.clusters[iss.Cluster] = cs
		}
		cs.members[iss.ID] = is
		positions[k]++
	}
	for id, cs := range a.clusters {
		if len(cs.members) == 0 {
			delete(a.clusters, id) // a record without issues describes nothing
		}
	}
	// Keys and per-conversation issue order come from the issue IDs' positions.
	for k, ids := range a.byConv {
		for i := 0; i < len(ids); i++ {
			for j := 0; j < positions[k]; j++ {
				src, conv, _ := strings.Cut(k, "\x00")
				if issueID(src, conv, j) == ids[i] {
					a.issues[ids[i]].key = fmt.Sprintf("%s\x00%03d", k, j)
				}
			}
		}
	}
	return a
}
