package markdown

// The converter from markdown to a Document: its state and the nodes every part of it builds
// (blocks: frommarkdown.go; inlines: frominlines.go; tables: fromtable.go).

import (
	"strconv"
)

type converter struct {
	src     []byte
	opts    Options
	keys    int
	anchors anchors
}

func (c *converter) key() string {
	c.keys++
	return strconv.Itoa(c.keys)
}

var (
	yes = func() *bool { b := true; return &b }()
	no  = func() *bool { b := false; return &b }()
)

// textBlock is a block of inlines, with an empty text node when it has none.
func (c *converter) textBlock(typ string, data map[string]any, inlines []*Node) *Node {
	if len(inlines) == 0 {
		inlines = []*Node{c.text("", nil)}
	}
	return c.block(typ, data, inlines)
}

func (c *converter) text(s string, marks []string) *Node {
	if s == "" {
		marks = nil // marks on no text are nothing markdown can hold
	}
	leaf := &Leaf{Object: "leaf", Text: s, Marks: []*Mark{}}
	for _, m := range marks {
		leaf.Marks = append(leaf.Marks, &Mark{Object: "mark", Type: m})
	}
	return &Node{Object: "text", Key: c.key(), Leaves: []*Leaf{leaf}}
}

func (c *converter) block(typ string, data map[string]any, children []*Node) *Node {
	if data == nil {
		data = map[string]any{}
	}
	return &Node{Object: "block", Type: typ, Key: c.key(), IsVoid: no, Data: data, Nodes: children}
}
