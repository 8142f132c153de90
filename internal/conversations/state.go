package conversations

import "sort"

// Analyzer holds the issues and clusters of one organization. It is not safe for concurrent
// use.
type Analyzer struct {
	p        Params
	vocab    *vocabulary
	issues   map[string]*issueState
	byConv   map[string][]string // conversation key → issue IDs
	clusters map[string]*clusterState
	surface  map[string]map[string]int // stem → surface form → occurrences
	nextSeq  int
	stale    bool      // vectors predate the current vocabulary counts
	slab     []float32 // backing store of dense centroids, reused across rounds
}

type issueState struct {
	Issue
	key          string // source, conversation, position: the order of ties
	words, grams []fc
	surfaces     [][2]string
	vec          []fw
}

type clusterState struct {
	rec     ClusterRecord
	members map[string]*issueState
}

func convKey(source, id string) string { return source + "\x00" + id }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// refresh recomputes every issue's vector under the current IDF.
func (a *Analyzer) refresh() {
	if !a.stale {
		return
	}
	for _, is := range a.issues {
		is.vec = a.vocab.vector(is.words, is.grams, a.p.WordWeight)
	}
	a.stale = false
}

// Params are the clustering's tunables; DefaultParams documents the values and why.
type Params struct {
	WordWeight      float64 // share of the cosine that comes from words (the rest: trigrams)
	AssignThreshold float64 // least issue–cluster cosine to join a cluster
	LinkThreshold   float64 // least issue–issue word cosine to link two new issues
	MergeThreshold  float64 // least cluster–cluster average link to merge a new cluster
	MergeExisting   bool    // let two existing clusters merge (their issues then move)
	Candidates      int     // clusters scored exactly per issue, after the word-index pre-selection
	RefineRounds    int     // at most this many reassignment rounds per batch
}

// DefaultParams are tuned on the labelled corpus in testdata (corpus_test.go measures them,
// tune_test.go sweeps them).
func DefaultParams() Params {
	return Params{
		WordWeight:      0.60,
		AssignThreshold: 0.20,
		LinkThreshold:   0.30,
		MergeThreshold:  0.12,
		MergeExisting:   true,
		Candidates:      10,
		RefineRounds:    3,
	}
}
