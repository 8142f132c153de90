// Command gencorpus writes the labelled conversation corpus used by the conversations package's
// quality test and benchmark:
//
//	go run ./internal/conversations/testdata/gencorpus > internal/conversations/testdata/corpus.jsonl
//
// It composes conversations from the phrase banks in topics.go and noise.go with a fixed seed,
// so the output is the same on every run. Each line is one conversation with its topic labels
// ("noise" for off-topic ones; two labels, in order, for conversations raising two problems).
package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

type part struct {
	Type string `json:"type"`
	Role string `json:"role"`
	Body string `json:"body"`
}

type conversation struct {
	ID        string    `json:"id"`
	Source    string    `json:"source"`
	Subject   string    `json:"subject"`
	Parts     []part    `json:"parts"`
	CreatedAt time.Time `json:"createdAt"`
	Topics    []string  `json:"topics"`
}

const (
	perTopic   = 26
	multiTopic = 30
	noiseCount = 40
)

var (
	rng = rand.New(rand.NewPCG(16, 2026))
	end = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
)

func main() {
	var out []conversation
	for _, t := range topics {
		for i := 0; i < perTopic; i++ {
			out = append(out, single(t))
		}
	}
	for i := 0; i < multiTopic; i++ {
		a := topics[rng.IntN(len(topics))]
		b := topics[rng.IntN(len(topics))]
		for b.name == a.name {
			b = topics[rng.IntN(len(topics))]
		}
		out = append(out, double(a, b))
	}
	for i := 0; i < noiseCount; i++ {
		out = append(out, noise())
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for i, c := range out {
		c.ID = fmt.Sprintf("conv-%04d", i+1)
		if err := enc.Encode(c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func pick(xs []string) string { return xs[rng.IntN(len(xs))] }

func chance(p float64) bool { return rng.Float64() < p }

func source() string {
	switch n := rng.IntN(10); {
	case n < 5:
		return "email"
	case n < 8:
		return "integration:intercom:support"
	default:
		return "integration:slack:community"
	}
}

// body composes the sentences about one problem: the statement, details, an attempt, an ask, in
// a loosely varied order.
func body(t topic) []string {
	s := []string{pick(t.problems)}
	for _, d := range rng.Perm(len(t.details))[:rng.IntN(3)] {
		s = append(s, t.details[d])
	}
	if chance(0.5) {
		s = append(s, pick(t.attempts))
	}
	if chance(0.25) {
		s = append(s, pick(genericAttempts))
	}
	if chance(0.6) {
		s = append(s, pick(t.asks))
	}
	if len(s) > 2 && chance(0.3) { // the context first, the problem after
		s[0], s[1] = s[1], s[0]
	}
	return s
}

func wrap(sentences []string) []string {
	var s []string
	if chance(0.7) {
		s = append(s, pick(greetings))
	}
	if chance(0.3) {
		s = append(s, pick(intros))
	}
	s = append(s, sentences...)
	if chance(0.6) {
		s = append(s, pick(closings))
	}
	if chance(0.5) {
		s = append(s, pick(signoffs)+"\n"+pick(names))
	}
	return s
}

func single(t topic) conversation {
	c := conversation{Source: source(), Topics: []string{t.name}, CreatedAt: when()}
	if chance(0.8) {
		c.Subject = typos(pick(t.subjects))
	}
	c.Parts = parts(wrap(body(t)), t)
	return c
}

func double(a, b topic) conversation {
	c := conversation{Source: source(), Topics: []string{a.name, b.name}, CreatedAt: when()}
	if chance(0.6) {
		c.Subject = typos(pick(a.subjects))
	}
	s := body(a)
	s = append(s, upper(pick(shifts))+" "+lowerFirst(pick(b.problems)))
	for _, d := range rng.Perm(len(b.details))[:rng.IntN(2)] {
		s = append(s, b.details[d])
	}
	c.Parts = parts(wrap(s), a)
	return c
}

func noise() conversation {
	c := conversation{Source: source(), Topics: []string{"noise"}, CreatedAt: when()}
	if chance(0.5) {
		c.Subject = pick(noiseSubjects)
	}
	c.Parts = []part{{Type: "message", Role: "user", Body: format(wrap([]string{pick(noiseMessages)}))}}
	if chance(0.3) {
		c.Parts = append(c.Parts, part{Type: "message", Role: "team-member", Body: pick(teamReplies)})
	}
	return c
}

// parts turns sentences into messages: usually one user message; sometimes a team-member reply
// (mentioning other topics' words, which must be ignored) and a user follow-up.
func parts(sentences []string, t topic) []part {
	ps := []part{{Type: "message", Role: "user", Body: format(sentences)}}
	if chance(0.35) {
		reply := pick(teamReplies)
		if chance(0.5) {
			reply += " " + pick(topics[rng.IntN(len(topics))].asks)
		}
		ps = append(ps, part{Type: "message", Role: "team-member", Body: reply})
		follow := pick(followUps)
		if chance(0.4) {
			follow = pick(t.details) + " " + follow
		}
		ps = append(ps, part{Type: "message", Role: "user", Body: format([]string{follow})})
	}
	return ps
}

// format lays sentences out in one of several styles, then adds typos.
func format(sentences []string) string {
	for i := range sentences {
		sentences[i] = typos(sentences[i])
	}
	switch rng.IntN(6) {
	case 0: // one paragraph
		return strings.Join(sentences, " ")
	case 1: // hasty: lowercase, no final periods
		for i, s := range sentences {
			sentences[i] = strings.TrimRight(strings.ToLower(s), ".")
		}
		return strings.Join(sentences, ". ")
	case 2: // HTML from a help-desk widget
		return "<p>" + strings.Join(sentences, "</p><p>") + "</p>"
	case 3: // markdown with emphasis
		sentences[len(sentences)/2] = "**" + sentences[len(sentences)/2] + "**"
		return strings.Join(sentences, "\n\n")
	default: // one line each
		return strings.Join(sentences, "\n")
	}
}

// typos misspells about one word in twenty-five: a dropped, doubled or swapped letter.
func typos(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		if len(w) < 5 || !chance(0.04) {
			continue
		}
		r := []rune(w)
		k := 1 + rng.IntN(len(r)-3)
		switch rng.IntN(3) {
		case 0:
			r = append(r[:k], r[k+1:]...)
		case 1:
			r = append(r[:k+1], r[k:]...)
		default:
			r[k], r[k+1] = r[k+1], r[k]
		}
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

func when() time.Time {
	return end.Add(-time.Duration(rng.IntN(91*24*60)) * time.Minute)
}

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func lowerFirst(s string) string {
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}
