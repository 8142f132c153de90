package conversations

import (
	"math"
	"sort"
	"strings"
	"time"
)

// Description limits.
const (
	labelTerms        = 3
	summaryIssues     = 3
	maxLabelLen       = 80
	maxClusterSummary = 500
	defaultIcon       = "circle-question"
)

// icons is the fixed set of cluster icons (Font Awesome names, as GitBook's Icon strings are)
// with the words that choose them, in order of precedence.
var icons = []struct {
	name  string
	words string
}{
	{"right-to-bracket", "login log sign signin logout sso saml oauth okta password 2fa mfa otp authenticat session locked lockout"},
	{"credit-card", "billing bill invoice invoices charge charged payment pay refund subscription plan pricing price card vat receipt seats"},
	{"magnifying-glass", "search searching results result find query index indexed"},
	{"file-pdf", "pdf export exported print printing download"},
	{"code", "api rate limit limits 429 throttled throttling quota endpoint token requests sdk"},
	{"link-slash", "link links broken 404 redirect redirects anchor url urls"},
	{"rocket", "publish published publishing deploy deployed live unpublish visibility"},
	{"globe", "domain domains dns cname ssl certificate https subdomain"},
	{"lock", "permission permissions access role roles invite invited admin editor viewer forbidden 403"},
	{"plug", "integration integrations slack github gitlab jira sync webhook webhooks zapier install"},
	{"language", "translation translations translate translated language languages locale localization french german spanish"},
	{"gauge-high", "slow slowly performance lag laggy loading load latency timeout speed spinner freezes"},
	{"bug", "crash crashes crashed bug error errors exception"},
}

var iconStems = func() []map[string]bool {
	out := make([]map[string]bool, len(icons))
	for i, ic := range icons {
		out[i] = map[string]bool{}
		for _, w := range strings.Fields(ic.words) {
			out[i][stem(w)] = true
		}
	}
	return out
}()

type term struct {
	feature string // "w:stem" or "b:stem stem"
	score   float64
}

func (a *Analyzer) describe(cs *clusterState, now time.Time) Cluster {
	a.refresh()
	members := make([]*issueState, 0, len(cs.members))
	for _, id := range sortedKeys(cs.members) {
		members = append(members, cs.members[id])
	}
	c := Cluster{
		ID: cs.rec.ID, CreatedAt: cs.rec.CreatedAt, UpdatedAt: cs.rec.UpdatedAt,
		Sources: map[string]int{},
	}
	convs := map[string]bool{}
	created := make([]time.Time, 0, len(members))
	for _, is := range members {
		c.Issues = append(c.Issues, is.ID)
		c.Sources[is.Source]++
		convs[convKey(is.Source, is.Conversation)] = true
		created = append(created, is.CreatedAt)
	}
	c.WeeklyPulse = WeeklyPulse(created, now)
	c.Stats = Stats{Issues: len(members), Conversations: len(convs)}
	terms := a.distinctiveTerms(members)
	c.Label = a.label(terms)
	c.Icon = icon(terms)
	c.Summary = a.summary(members)
	return c
}

// WeeklyPulse counts times per week over the PulseWeeks weeks ending with the week of now
// (Monday 00:00 UTC to Monday), oldest first; times outside those weeks are not counted.
func WeeklyPulse(times []time.Time, now time.Time) [PulseWeeks]int {
	var out [PulseWeeks]int
	current := weekStart(now)
	for _, t := range times {
		weeks := int(current.Sub(weekStart(t)).Hours()) / (24 * 7)
		if weeks >= 0 && weeks < PulseWeeks {
			out[PulseWeeks-1-weeks]++
		}
	}
	return out
}

// PulseStart is the first instant the weekly pulse ending with the week of now counts.
func PulseStart(now time.Time) time.Time { return weekStart(now).AddDate(0, 0, -7*(PulseWeeks-1)) }

// weekStart is the Monday 00:00 UTC opening the week of t.
func weekStart(t time.Time) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
}

// distinctiveTerms ranks a cluster's word features by class-based TF-IDF: the share of its
// issues holding the term times the term's IDF over all issues. In clusters of three issues or
// more a term must appear in two of them.
func (a *Analyzer) distinctiveTerms(members []*issueState) []term {
	count := map[int32]int{}
	for _, is := range members {
		for _, c := range is.words {
			count[c.f]++
		}
	}
	var out []term
	for f, n := range count {
		if len(members) >= 3 && n < 2 {
			continue
		}
		name := a.vocab.names[f]
		if strings.HasPrefix(name, "w:") && isDigits(name[2:]) && len(name) < 5 {
			continue // a bare short number makes a poor label
		}
		out = append(out, term{name, float64(n) / float64(len(members)) * float64(a.vocab.idf(f))})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].feature < out[j].feature
	})
	return out
}

// label names the cluster by its most distinctive terms, each written in its commonest surface
// form, skipping terms that repeat a word of one already chosen.
func (a *Analyzer) label(terms []term) string {
	var parts []string
	used := map[string]bool{}
	for _, t := range terms {
		if len(parts) == labelTerms {
			break
		}
		stems := strings.Fields(t.feature[2:])
		dup := false
		for _, s := range stems {
			dup = dup || used[s]
		}
		if dup {
			continue
		}
		var words []string
		for _, s := range stems {
			used[s] = true
			words = append(words, a.surfaceOf(s))
		}
		parts = append(parts, strings.Join(words, " "))
	}
	if len(parts) == 0 {
		return "Other"
	}
	return truncate(upperFirst(strings.Join(parts, ", ")), maxLabelLen)
}

// surfaceOf writes a stem as its commonest lowercase word, or in the case users write it in
// when three times in four they write it the same non-lowercase way (SSO, PDF, GitHub, English).
func (a *Analyzer) surfaceOf(s string) string {
	lower := map[string]int{}
	for w, c := range a.surface[s] {
		lower[strings.ToLower(w)] += c
	}
	best, n := s, 0
	for w, c := range lower {
		if c > n || c == n && w < best {
			best, n = w, c
		}
	}
	for w, c := range a.surface[s] {
		if w != best && strings.ToLower(w) == best && 4*c >= 3*n {
			return w
		}
	}
	return best
}

// icon picks the icon whose words weigh most among the cluster's ten most distinctive terms.
func icon(terms []term) string {
	if len(terms) > 10 {
		terms = terms[:10]
	}
	best, bestScore := defaultIcon, 0.0
	for i, set := range iconStems {
		var s float64
		for _, t := range terms {
			for _, st := range strings.Fields(t.feature[2:]) {
				if set[st] {
					s += t.score
				}
			}
		}
		if s > bestScore {
			best, bestScore = icons[i].name, s
		}
	}
	return best
}

// summary joins the titles of the issues nearest the cluster's centroid.
func (a *Analyzer) summary(members []*issueState) string {
	cent := newCentroid()
	for _, is := range members {
		cent.add(is.vec)
	}
	cent.finish()
	type ranked struct {
		is *issueState
		s  float64
	}
	rs := make([]ranked, len(members))
	for i, is := range members {
		s := cent.dot(is.vec)
		if cent.norm > 0 {
			s /= cent.norm
		}
		rs[i] = ranked{is, math.Round(s*1e9) / 1e9}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].s > rs[j].s })
	var parts []string
	var chosen []map[string]bool
	for _, r := range rs {
		if len(parts) == summaryIssues {
			break
		}
		t := strings.TrimRight(r.is.Title, " …")
		grams := trigramSet(t)
		if t == "" || nearAny(grams, chosen) {
			continue // the same sentence again, perhaps with a typo
		}
		chosen = append(chosen, grams)
		if !strings.ContainsAny(t[len(t)-1:], ".!?") {
			t += "."
		}
		parts = append(parts, t)
	}
	return truncate(strings.Join(parts, " "), maxClusterSummary)
}

// trigramSet is the set of character trigrams of a sentence's lowercased words.
func trigramSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range tokens(s) {
		r := []rune("#" + t + "#")
		for i := 0; i+3 <= len(r); i++ {
			out[string(r[i:i+3])] = true
		}
	}
	return out
}

// nearAny reports whether a sentence's trigrams overlap one of the others' by 60% or more
// (Jaccard), as the same sentence with a typo or two does.
func nearAny(grams map[string]bool, others []map[string]bool) bool {
	for _, o := range others {
		common := 0
		for g := range grams {
			if o[g] {
				common++
			}
		}
		if union := len(grams) + len(o) - common; union > 0 && float64(common)/float64(union) >= 0.6 {
			return true
		}
	}
	return false
}
