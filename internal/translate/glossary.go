package translate

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// Term is a glossary term of a run: From as the source writes it (matched as a whole word), To
// what the translation writes in its place, never sent to the translator (From itself: kept).
type Term struct{ From, To string }

// Kept makes terms kept as they are.
func Kept(terms []string) []Term {
	out := make([]Term, len(terms))
	for i, t := range terms {
		out[i] = Term{t, t}
	}
	return out
}

// Terms are the terms a run from source into target honours: the organization glossary's entries
// with a term in the source language, written as their term in the target (kept when they have
// none), and the items of the instructions' lists, kept (an entry of the glossary wins over an
// item with the same term). Longer terms come first, so "Quire Cloud" is matched before "Quire";
// then in the order given.
func Terms(entries []*store.GlossaryEntry, instructions json.RawMessage, source, target string) []Term {
	var out []Term
	seen := map[string]bool{}
	for _, e := range entries {
		from := e.Translations[source]
		if from == "" || seen[from] || len(out) >= maxTerms {
			continue
		}
		to := e.Translations[target]
		if to == "" {
			to = from
		}
		seen[from] = true
		out = append(out, Term{from, to})
	}
	for _, t := range Glossary(instructions) {
		if !seen[t] && len(out) < maxTerms {
			seen[t] = true
			out = append(out, Term{t, t})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].From) > len(out[j].From) })
	return out
}

// maxTerms bounds the glossary taken from a translation's instructions.
const maxTerms = 500

// Glossary returns the terms a translation keeps as they are, taken from its instructions: the
// LibreTranslate protocol has no field for instructions or glossaries, so the only part of them
// that can be honoured is the items of their lists (bulleted, numbered or task lists), each a term
// not to translate, wherever they sit (in tabs, steps, an expandable's body, a table's cells). Longer terms come first, so "Quire Cloud" is kept whole before "Quire".
func Glossary(instructions json.RawMessage) []string {
	if len(instructions) == 0 {
		return nil
	}
	var doc markdown.Document
	if err := json.Unmarshal(instructions, &doc); err != nil {
		return nil
	}
	seen := map[string]bool{}
	var terms []string
	var walk func(nodes []*markdown.Node)
	walk = func(nodes []*markdown.Node) {
		for _, n := range nodes {
			if n.Type == "list-item" {
				term := strings.Join(strings.Fields(markdown.Text(n.Nodes)), " ")
				if term != "" && len(term) <= 100 && !seen[term] && len(terms) < maxTerms {
					seen[term] = true
					terms = append(terms, term)
				}
				continue
			}
			walk(n.Nodes)
			walk(n.Fragments) // an expandable's body, a table's cells, an annotation's note
		}
	}
	walk(doc.Nodes)
	sort.SliceStable(terms, func(i, j int) bool { return len(terms[i]) > len(terms[j]) })
	return terms
}
