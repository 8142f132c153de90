package markdown

// Reading a GFM table into the public schema's table (its shape, shared with writing: table.go).

import (
	"fmt"
	"strconv"

	east "github.com/yuin/goldmark/extension/ast"
)

// table is the public schema's table: a void block whose columns are text definitions, whose
// rows are records, and whose cells are fragments (named in the record's values) of paragraphs.
func (c *converter) table(n *east.Table) *Node {
	var cols []string
	definition := map[string]any{}
	records := map[string]any{}
	var fragments []*Node
	row := 0
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		if _, header := r.(*east.TableHeader); header {
			i := 0
			for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
				id := "c" + strconv.Itoa(i+1)
				align := "left"
				if i < len(n.Alignments) {
					switch n.Alignments[i] {
					case east.AlignCenter:
						align = "center"
					case east.AlignRight:
						align = "right"
					}
				}
				cols = append(cols, id)
				definition[id] = map[string]any{"id": id, "title": Text(c.inlines(cell, nil)), "type": "text", "textAlignment": align}
				i++
			}
			continue
		}
		values := map[string]any{}
		i := 0
		for cell := r.FirstChild(); cell != nil && i < len(cols); cell = cell.NextSibling() {
			frag := &Node{Object: "fragment", Key: c.key(), Fragment: "r" + strconv.Itoa(row+1) + cols[i],
				Nodes: []*Node{c.textBlock("paragraph", nil, c.inlines(cell, nil))}}
			fragments = append(fragments, frag)
			values[cols[i]] = frag.Fragment
			i++
		}
		records["r"+strconv.Itoa(row+1)] = map[string]any{"orderIndex": fmt.Sprintf("a%06d", row), "values": values}
		row++
	}
	if fragments == nil {
		fragments = []*Node{}
	}
	if cols == nil {
		cols = []string{}
	}
	data := map[string]any{
		"view":       map[string]any{"type": "grid", "columns": cols, "hideHeader": false},
		"records":    records,
		"definition": definition,
	}
	return &Node{Object: "block", Type: "table", Key: c.key(), IsVoid: yes, Data: data, Fragments: fragments}
}
