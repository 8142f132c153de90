package markdown

import (
	"fmt"
	"sort"
	"strings"
)

// tableColumn is a column of a table block: its definition id, title and alignment.
type tableColumn struct {
	id, title, align string
}

// tableShape reads a table block: its columns (in the view's order) and its records' values (in
// their orderIndex order).
func tableShape(n *Node) ([]tableColumn, []map[string]any) {
	defs, _ := n.Data["definition"].(map[string]any)
	var ids []string
	if view, ok := n.Data["view"].(map[string]any); ok {
		if cols, ok := view["columns"].([]any); ok {
			for _, c := range cols {
				if s, ok := c.(string); ok {
					ids = append(ids, s)
				}
			}
		} else if cols, ok := view["columns"].([]string); ok {
			ids = append(ids, cols...)
		}
	}
	if ids == nil {
		for id := range defs {
			ids = append(ids, id)
		}
		sort.Strings(ids)
	}
	var cols []tableColumn
	for _, id := range ids {
		def, _ := defs[id].(map[string]any)
		align := str(def, "textAlignment")
		if align == "" {
			align = "left"
		}
		cols = append(cols, tableColumn{id: id, title: str(def, "title"), align: align})
	}
	type record struct {
		id, order string
		values    map[string]any
	}
	recs, _ := n.Data["records"].(map[string]any)
	var list []record
	for id, r := range recs {
		rm, _ := r.(map[string]any)
		values, _ := rm["values"].(map[string]any)
		list = append(list, record{id: id, order: str(rm, "orderIndex"), values: values})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].order != list[j].order {
			return list[i].order < list[j].order
		}
		return list[i].id < list[j].id
	})
	rows := make([]map[string]any, 0, len(list))
	for _, r := range list {
		rows = append(rows, r.values)
	}
	return cols, rows
}

// fragmentNamed finds a fragment of a node by name.
func fragmentNamed(n *Node, name string) *Node {
	for _, f := range n.Fragments {
		if f.Fragment == name {
			return f
		}
	}
	return nil
}

// cellFragment is the fragment a text cell's value names, if any.
func cellFragment(n *Node, v any) *Node {
	if name, ok := v.(string); ok && name != "" {
		return fragmentNamed(n, name)
	}
	return nil
}

// cellText is the plain text of a cell value that is not a fragment.
func cellText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		var parts []string
		for _, x := range v {
			parts = append(parts, cellText(x))
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		if u := str(v, "url"); u != "" {
			return u
		}
		return str(v, str(v, "kind"))
	}
	return fmt.Sprint(v)
}

// tableRows is a table as plain text: the header titles, then each row's cells.
func tableRows(n *Node) [][]string {
	cols, rows := tableShape(n)
	var out [][]string
	var head []string
	for _, c := range cols {
		head = append(head, c.title)
	}
	out = append(out, head)
	for _, r := range rows {
		var cells []string
		for _, c := range cols {
			if f := cellFragment(n, r[c.id]); f != nil {
				cells = append(cells, strings.TrimSpace(Text(f.Nodes)))
			} else {
				cells = append(cells, cellText(r[c.id]))
			}
		}
		out = append(out, cells)
	}
	return out
}
