package conversations

import (
	"fmt"
	"math"
	"sort"
)

// group is a cluster while a batch is being assigned: an existing cluster (id set, old members
// fixed) or a new one.
type group struct {
	id   string
	old  []*issueState
	cent *centroid
}

// assign places the fresh issues (already added to the vocabulary) in clusters and returns, per
// cluster ID, the fresh issues it gained, and the earlier issues that moved because their
// cluster merged into another (touched then holds both clusters). Earlier issues move in no
// other way.
func (a *Analyzer) assign(fresh []*issueState, touched map[string]bool) (out map[string][]*issueState, moved []*issueState) {
	if len(fresh) == 0 {
		return nil, nil
	}
	a.refresh()
	sort.Slice(fresh, func(i, j int) bool { return fresh[i].key < fresh[j].key })

	var groups []*group
	for _, id := range sortedKeys(a.clusters) {
		cs := a.clusters[id]
		g := &group{id: id}
		for _, mid := range sortedKeys(cs.members) {
			g.old = append(g.old, cs.members[mid])
		}
		if len(g.old) > 0 {
			groups = append(groups, g)
		}
	}
	at := make([]int, len(fresh))
	for i := range at {
		at[i] = -1
	}

	// 1. Join existing clusters, all against the same centroids.
	if len(groups) > 0 {
		idx := a.index(groups, fresh, at)
		for i, is := range fresh {
			if g, s := idx.best(is.vec, -1); s >= a.p.AssignThreshold {
				at[i] = g
			}
		}
	}

	// 2. Seed new clusters among the rest: densest first.
	groups = a.seed(groups, fresh, at)

	// 3. Refine: move each fresh issue to the cluster nearest to it (its own cluster counted
	// without it), all against the same centroids, until nothing moves.
	for r := 0; r < a.p.RefineRounds; r++ {
		idx := a.index(groups, fresh, at)
		next := make([]int, len(at))
		moved := 0
		for i, is := range fresh {
			next[i] = at[i]
			g, s := idx.best(is.vec, at[i])
			if g != at[i] && s >= a.p.AssignThreshold && s > idx.score(is.vec, at[i]) {
				next[i] = g
				moved++
			}
		}
		at = next
		if moved == 0 {
			break
		}
	}

	// 4. Merge new clusters into a near cluster (new or existing).
	at, final := a.merge(groups, fresh, at)
	for g, r := range final {
		if r == g || groups[g].id == "" {
			continue
		}
		// groups[g] was merged into groups[r]: move its issues from earlier batches.
		from := a.clusters[groups[g].id]
		to := groups[r].id
		for _, is := range from.members {
			delete(from.members, is.ID)
			a.clusters[to].members[is.ID] = is
			is.Cluster = to
			moved = append(moved, is)
		}
		touched[groups[g].id] = true
		touched[to] = true
	}

	// Existing clusters keep their IDs; new ones are numbered in the order of their first issue.
	out = map[string][]*issueState{}
	newID := map[int]string{}
	for i, is := range fresh {
		g := at[i]
		id := groups[g].id
		if id == "" {
			if id = newID[g]; id == "" {
				id = fmt.Sprintf("cl_%06d", a.nextSeq)
				a.nextSeq++
				newID[g] = id
				a.clusters[id] = &clusterState{rec: ClusterRecord{ID: id}, members: map[string]*issueState{}}
			}
		}
		a.clusters[id].members[is.ID] = is
		out[id] = append(out[id], is)
	}
	return out, moved
}

// seed clusters the unassigned fresh issues among themselves: issues are linked when the
// cosine of their word vectors reaches LinkThreshold; in order of decreasing link count (ties
// by key), an unassigned issue opens a new cluster and takes its unassigned neighbours.
func (a *Analyzer) seed(groups []*group, fresh []*issueState, at []int) []*group {
	var rest []int
	for i := range fresh {
		if at[i] < 0 {
			rest = append(rest, i)
		}
	}
	if len(rest) == 0 {
		return groups
	}
	wv := make([][]fw, len(rest))
	post := map[int32][]fw{} // feature → (position in rest, weight)
	for r, i := range rest {
		wv[r] = wordVector(fresh[i].vec, a.vocab.word)
		for _, e := range wv[r] {
			post[e.f] = append(post[e.f], fw{int32(r), e.w})
		}
	}
	scores := make([]float32, len(rest))
	var hit []int32
	neighbours := func(r int, visit func(int)) {
		for _, e := range wv[r] {
			for _, p := range post[e.f] {
				if scores[p.f] == 0 {
					hit = append(hit, p.f)
				}
				scores[p.f] += e.w * p.w
			}
		}
		for _, o := range hit {
			if int(o) != r && float64(scores[o]) >= a.p.LinkThreshold {
				visit(int(o))
			}
			scores[o] = 0
		}
		hit = hit[:0]
	}
	degree := make([]int, len(rest))
	for r := range rest {
		neighbours(r, func(int) { degree[r]++ })
	}
	order := make([]int, len(rest))
	for r := range order {
		order[r] = r
	}
	sort.SliceStable(order, func(x, y int) bool { return degree[order[x]] > degree[order[y]] })
	for _, r := range order {
		if at[rest[r]] >= 0 {
			continue
		}
		g := len(groups)
		groups = append(groups, &group{})
		at[rest[r]] = g
		neighbours(r, func(o int) {
			if at[rest[o]] < 0 {
				at[rest[o]] = g
			}
		})
	}
	return groups
}

// merge joins new clusters (and, with MergeExisting, existing ones that gained issues) to near
// clusters, agglomeratively: in each round, every such cluster (larger first) is joined to the cluster with which it has the highest average link (the mean
// cosine over all pairs of their issues, dot(sumA, sumB)/(|A||B|)) when that reaches
// MergeThreshold; rounds repeat, on the merged clusters, until none merges. Average link is used
// rather than the cosine of centroids because it does not penalise tight clusters: in a large
// batch, near-duplicate messages form tight sub-clusters of one topic whose centroids are far
// apart although their issues are as alike as any of the topic. It returns the fresh issues'
// groups and, per group, the group it ended in.
func (a *Analyzer) merge(groups []*group, fresh []*issueState, at []int) ([]int, []int) {
	into := map[int]int{}
	gainedFresh := map[int]bool{}
	for _, g := range at {
		gainedFresh[g] = true
	}
	for round := 0; round < 8; round++ {
		idx := a.index(groups, fresh, at)
		parent := make([]int, len(groups))
		for g := range parent {
			parent[g] = g
		}
		find := func(g int) int {
			for parent[g] != g {
				parent[g] = parent[parent[g]]
				g = parent[g]
			}
			return g
		}
		var order []int
		for g, gr := range groups {
			if gr.cent.n > 0 && (gr.id == "" || a.p.MergeExisting && gainedFresh[g]) {
				order = append(order, g)
			}
		}
		sort.SliceStable(order, func(x, y int) bool { return groups[order[x]].cent.n > groups[order[y]].cent.n })
		merged := 0
		for _, g := range order {
			vec := unitVector(groups[g].cent)
			best, bestScore := -1, a.p.MergeThreshold
			for _, c := range idx.candidates(vec, -1) {
				if c == g || groups[c].cent.n == 0 {
					continue
				}
				// vec is sumG/|sumG|, so the dot times |sumG| is dot(sumG, sumC).
				s := groups[c].cent.dot(vec) * groups[g].cent.norm / float64(groups[c].cent.n*groups[g].cent.n)
				if s > bestScore || s == bestScore && c < best {
					best, bestScore = c, s
				}
			}
			if best < 0 {
				continue
			}
			rg, rb := find(g), find(best)
			if rg == rb || (!a.p.MergeExisting && groups[rg].id != "" && groups[rb].id != "") {
				continue
			}
			if rootOf(groups, rb, rg) {
				rg, rb = rb, rg
			}
			parent[rb] = rg
			merged++
		}
		for i, g := range at {
			at[i] = find(g)
		}
		for g := range groups {
			if r := find(g); r != g && groups[g].id != "" {
				// An existing cluster merged away: its issues go to the root.
				groups[r].old = append(groups[r].old, groups[g].old...)
				groups[g].old = nil
				into[g] = r
				gainedFresh[r] = true
			}
		}
		for _, r := range at {
			gainedFresh[r] = true
		}
		if merged == 0 {
			break
		}
	}
	// Follow chains of merges to the final cluster.
	final := make([]int, len(groups))
	for g := range groups {
		r := g
		for {
			n, ok := into[r]
			if !ok {
				break
			}
			r = n
		}
		final[g] = r
	}
	return at, final
}

// rootOf reports whether group x rather than y should remain when they merge: an existing
// cluster over a new one, then the larger, then the older ID (existing) or lower index (new).
func rootOf(groups []*group, x, y int) bool {
	gx, gy := groups[x], groups[y]
	if (gx.id != "") != (gy.id != "") {
		return gx.id != ""
	}
	if gx.cent.n != gy.cent.n {
		return gx.cent.n > gy.cent.n
	}
	if gx.id != "" {
		return gx.id < gy.id
	}
	return x < y
}

func unitVector(c *centroid) []fw {
	out := make([]fw, 0, len(c.sum))
	for f, w := range c.sum {
		out = append(out, fw{f, float32(float64(w) / c.norm)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].f < out[j].f })
	return out
}

// clusterIndex scores vectors against the groups' centroids: an inverted index over the
// centroids' word features pre-selects the Candidates groups with the highest word score, then
// those are scored exactly (words and trigrams).
type clusterIndex struct {
	groups []*group
	post   map[int32][]fw // word feature → (group, weight in the unit centroid)
	k      int
	scores []float64
	hit    []int // scratch
	top    []int // scratch
}

func (a *Analyzer) index(groups []*group, fresh []*issueState, at []int) *clusterIndex {
	for _, g := range groups {
		g.cent = newCentroid()
		for _, is := range g.old {
			g.cent.add(is.vec)
		}
	}
	for i, g := range at {
		if g >= 0 {
			groups[g].cent.add(fresh[i].vec)
		}
	}
	idx := &clusterIndex{groups: groups, post: map[int32][]fw{}, k: a.p.Candidates, scores: make([]float64, len(groups))}
	a.densify(groups)
	for gi, g := range groups {
		g.cent.finish()
		if g.cent.n == 0 {
			continue
		}
		feats := make([]int32, 0, len(g.cent.sum))
		for f := range g.cent.sum {
			if a.vocab.word[f] {
				feats = append(feats, f)
			}
		}
		sort.Slice(feats, func(i, j int) bool { return feats[i] < feats[j] })
		for _, f := range feats {
			idx.post[f] = append(idx.post[f], fw{int32(gi), float32(float64(g.cent.sum[f]) / g.cent.norm)})
		}
	}
	return idx
}

// denseBudget bounds the floats spent on dense centroids: the largest clusters, the ones most
// often scored, get an array over the vocabulary instead of a map lookup per feature.
const denseBudget = 1 << 23

func (a *Analyzer) densify(groups []*group) {
	size := len(a.vocab.names)
	if size == 0 {
		return
	}
	order := make([]int, 0, len(groups))
	for g := range groups {
		if groups[g].cent.n >= 2 {
			order = append(order, g)
		}
	}
	sort.SliceStable(order, func(x, y int) bool { return groups[order[x]].cent.n > groups[order[y]].cent.n })
	if max := denseBudget / size; len(order) > max {
		order = order[:max]
	}
	if cap(a.slab) < len(order)*size {
		a.slab = make([]float32, len(order)*size)
	}
	for i, g := range order {
		d := a.slab[i*size : (i+1)*size : (i+1)*size]
		clear(d)
		for f, w := range groups[g].cent.sum {
			d[f] = w
		}
		groups[g].cent.dense = d
	}
}

// candidates are the k groups sharing the most word weight with vec, and own if set.
func (x *clusterIndex) candidates(vec []fw, own int) []int {
	hit := x.hit
	for _, e := range vec {
		for _, p := range x.post[e.f] {
			if x.scores[p.f] == 0 {
				hit = append(hit, int(p.f))
			}
			x.scores[p.f] += float64(e.w * p.w)
		}
	}
	// Keep the k best (score descending, then group ascending) by insertion into a short list.
	better := func(g, h int) bool {
		if x.scores[g] != x.scores[h] {
			return x.scores[g] > x.scores[h]
		}
		return g < h
	}
	top := x.top[:0]
	for _, g := range hit {
		if len(top) == x.k && !better(g, top[len(top)-1]) {
			continue
		}
		if len(top) < x.k {
			top = append(top, g)
		} else {
			top[len(top)-1] = g
		}
		for i := len(top) - 1; i > 0 && better(top[i], top[i-1]); i-- {
			top[i], top[i-1] = top[i-1], top[i]
		}
	}
	for _, g := range hit {
		x.scores[g] = 0
	}
	x.hit = hit[:0]
	x.top = top
	hit = append([]int(nil), top...)
	if own >= 0 {
		hit = append(hit, own)
	}
	return hit
}

func (x *clusterIndex) score(vec []fw, g int) float64 {
	if g < 0 {
		return math.Inf(-1)
	}
	return x.groups[g].cent.cosine(vec, true)
}

// best is the group nearest to vec (own: the group vec belongs to, or -1) and its cosine; ties
// go to the lower group index.
func (x *clusterIndex) best(vec []fw, own int) (int, float64) {
	best, bestScore := -1, math.Inf(-1)
	for _, g := range x.candidates(vec, own) {
		if x.groups[g].cent.n == 0 {
			continue
		}
		s := x.groups[g].cent.cosine(vec, g == own)
		if s > bestScore || s == bestScore && g < best {
			best, bestScore = g, s
		}
	}
	return best, bestScore
}
