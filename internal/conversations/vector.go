package conversations

import (
	"math"
	"sort"
	"strings"
)

// fc is a feature's count in one issue; fw a feature's weight in a vector. Both are kept in
// slices sorted by feature ID.
type fc struct {
	f int32
	n float32
}

type fw struct {
	f int32
	w float32
}

// vocabulary interns feature strings and counts, for each, the issues holding it.
type vocabulary struct {
	ids   map[string]int32
	names []string
	word  []bool // word feature (unigram or bigram) rather than character trigram
	df    []int32
	docs  int
}

func newVocabulary() *vocabulary { return &vocabulary{ids: map[string]int32{}} }

func (v *vocabulary) id(name string, word bool) int32 {
	if id, ok := v.ids[name]; ok {
		return id
	}
	id := int32(len(v.names))
	v.ids[name] = id
	v.names = append(v.names, name)
	v.word = append(v.word, word)
	v.df = append(v.df, 0)
	return id
}

// features computes an issue's word features (stemmed content words, and bigrams of adjacent
// content words within a line) and character features (trigrams of each content word padded
// with "#", unstemmed, so "biling" still shares most trigrams with "billing").
func (v *vocabulary) features(text string) (words, grams []fc, surfaces [][2]string) {
	wc := map[int32]float32{}
	gc := map[int32]float32{}
	for _, line := range strings.Split(text, "\n") {
		prev := ""
		for _, raw := range splitWords(line, false) {
			t := strings.ToLower(raw)
			if len(t) < 2 || stopwords[t] {
				continue
			}
			s := stem(t)
			wc[v.id("w:"+s, true)]++
			surfaces = append(surfaces, [2]string{s, raw})
			if prev != "" {
				wc[v.id("b:"+prev+" "+s, true)]++
			}
			prev = s
			if r := []rune("#" + t + "#"); len(r) >= 5 {
				for i := 0; i+3 <= len(r); i++ {
					gc[v.id("g:"+string(r[i:i+3]), false)]++
				}
			}
		}
	}
	return sortedCounts(wc), sortedCounts(gc), surfaces
}

func sortedCounts(m map[int32]float32) []fc {
	out := make([]fc, 0, len(m))
	for f, n := range m {
		out = append(out, fc{f, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].f < out[j].f })
	return out
}

func (v *vocabulary) add(words, grams []fc, delta int32) {
	for _, c := range words {
		v.df[c.f] += delta
	}
	for _, c := range grams {
		v.df[c.f] += delta
	}
	v.docs += int(delta)
}

func (v *vocabulary) idf(f int32) float32 {
	return float32(math.Log(float64(v.docs+1)/float64(v.df[f]+1))) + 1
}

// vector weighs counts by sublinear TF × IDF, scales the word block to unit length times
// sqrt(wordWeight) and the trigram block to sqrt(1-wordWeight): the result has unit length and
// the cosine of two vectors is wordWeight·cos(words) + (1-wordWeight)·cos(trigrams).
func (v *vocabulary) vector(words, grams []fc, wordWeight float64) []fw {
	out := make([]fw, 0, len(words)+len(grams))
	block := func(cs []fc, scale float64) {
		start := len(out)
		var norm float64
		for _, c := range cs {
			w := (1 + float32(math.Log(float64(c.n)))) * v.idf(c.f)
			out = append(out, fw{c.f, w})
			norm += float64(w) * float64(w)
		}
		if norm == 0 {
			return
		}
		k := float32(scale / math.Sqrt(norm))
		for i := start; i < len(out); i++ {
			out[i].w *= k
		}
	}
	if len(grams) == 0 {
		wordWeight = 1
	}
	if len(words) == 0 {
		wordWeight = 0
	}
	block(words, math.Sqrt(wordWeight))
	block(grams, math.Sqrt(1-wordWeight))
	sort.Slice(out, func(i, j int) bool { return out[i].f < out[j].f })
	return out
}

// wordVector is the unit-length word block alone, for issue-to-issue links.
func wordVector(vec []fw, isWord []bool) []fw {
	var out []fw
	var norm float64
	for _, e := range vec {
		if isWord[e.f] {
			out = append(out, e)
			norm += float64(e.w) * float64(e.w)
		}
	}
	if norm > 0 {
		k := float32(1 / math.Sqrt(norm))
		for i := range out {
			out[i].w *= k
		}
	}
	return out
}

// centroid is the sum of its members' vectors.
type centroid struct {
	sum   map[int32]float32
	dense []float32 // sum as an array over the vocabulary, when there is room for it
	norm  float64   // |sum|
	n     int
}

func newCentroid() *centroid { return &centroid{sum: map[int32]float32{}} }

func (c *centroid) add(vec []fw) {
	for _, e := range vec {
		c.sum[e.f] += e.w
	}
	c.n++
}

func (c *centroid) finish() {
	feats := make([]int32, 0, len(c.sum))
	for f := range c.sum {
		feats = append(feats, f)
	}
	sort.Slice(feats, func(i, j int) bool { return feats[i] < feats[j] })
	var s float64
	for _, f := range feats { // in a fixed order: float sums depend on it
		w := c.sum[f]
		s += float64(w) * float64(w)
	}
	c.norm = math.Sqrt(s)
}

func (c *centroid) dot(vec []fw) float64 {
	var d float64
	if c.dense != nil {
		for _, e := range vec {
			d += float64(e.w) * float64(c.dense[e.f])
		}
		return d
	}
	for _, e := range vec {
		d += float64(e.w) * float64(c.sum[e.f])
	}
	return d
}

// cosine of a unit vector with the centroid; with member set, of the centroid without that
// vector (which must be one of its members), so a member's own weight does not hold it in place.
func (c *centroid) cosine(vec []fw, member bool) float64 {
	d := c.dot(vec)
	if !member {
		if c.norm == 0 {
			return 0
		}
		return d / c.norm
	}
	n2 := c.norm*c.norm - 2*d + 1
	if c.n <= 1 || n2 <= 1e-9 {
		return 0
	}
	return (d - 1) / math.Sqrt(n2)
}
