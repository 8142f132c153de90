package translate

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/quire-docs/quire/internal/markdown"
)

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
