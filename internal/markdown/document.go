// Package markdown converts between a page's markdown and the API's rich-text document, in the
// shape of the public JSONDocument schema (blocks, inlines, text leaves with marks, fragments).
// Markdown is parsed with goldmark (CommonMark + GFM); the document goes back to markdown so that
// documents sent by clients (comment bodies, page content) are stored as markdown.
package markdown

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// SchemaVersion is the version of the document schema produced.
const SchemaVersion = 1

// Document is the rich-text form: top-level blocks.
type Document struct {
	Object string         `json:"object"` // "document"
	Data   map[string]any `json:"data"`
	Nodes  []*Node        `json:"nodes"`
	Meta   map[string]any `json:"meta,omitempty"` // the editor's own (a token), kept as given
}

// Node is a block, an inline, a text node or a fragment. Which fields are on the wire depends on
// the kind (see MarshalJSON): text nodes carry leaves, blocks and inlines a type, data and (unless
// void) nodes, fragments a name and nodes.
type Node struct {
	Object    string         `json:"object"` // block | inline | text | fragment
	Type      string         `json:"type,omitempty"`
	Key       string         `json:"key,omitempty"`
	IsVoid    *bool          `json:"isVoid,omitempty"`
	Data      map[string]any `json:"data,omitempty"`
	Nodes     []*Node        `json:"nodes,omitempty"`
	Leaves    []*Leaf        `json:"leaves,omitempty"`
	Fragments []*Node        `json:"fragments,omitempty"`
	Fragment  string         `json:"fragment,omitempty"` // a fragment's name
	Meta      map[string]any `json:"meta,omitempty"`     // the editor's own (an id, a token), kept as given
}

// Leaf is a run of text with the same marks.
type Leaf struct {
	Object string  `json:"object"` // "leaf"
	Text   string  `json:"text"`
	Marks  []*Mark `json:"marks"`
}

// Mark is a text style: bold, italic, code, strikethrough (documents from clients may carry others).
type Mark struct {
	Object string         `json:"object"` // "mark"
	Type   string         `json:"type"`
	Data   map[string]any `json:"data,omitempty"`
}

// MarshalJSON writes the fields each kind of node has on the wire: the public schemas require
// `data` and `fragments` on some nodes even when empty, and `nodes` on every non-void block.
func (n *Node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	field := func(name string, v any) error {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(`"` + name + `":`)
		enc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(enc)
		return nil
	}
	if err := field("object", n.Object); err != nil {
		return nil, err
	}
	if n.Type != "" {
		if err := field("type", n.Type); err != nil {
			return nil, err
		}
	}
	if n.Key != "" {
		if err := field("key", n.Key); err != nil {
			return nil, err
		}
	}
	if n.Fragment != "" {
		if err := field("fragment", n.Fragment); err != nil {
			return nil, err
		}
	}
	if n.IsVoid != nil {
		if err := field("isVoid", *n.IsVoid); err != nil {
			return nil, err
		}
	}
	if n.Data != nil {
		if err := field("data", n.Data); err != nil {
			return nil, err
		}
	}
	if n.Meta != nil {
		if err := field("meta", n.Meta); err != nil {
			return nil, err
		}
	}
	switch {
	case n.Object == "text":
		leaves := n.Leaves
		if leaves == nil {
			leaves = []*Leaf{}
		}
		if err := field("leaves", leaves); err != nil {
			return nil, err
		}
	case n.Nodes != nil || n.IsVoid == nil || !*n.IsVoid:
		nodes := n.Nodes
		if nodes == nil {
			nodes = []*Node{}
		}
		if err := field("nodes", nodes); err != nil {
			return nil, err
		}
	}
	if n.Fragments != nil {
		if err := field("fragments", n.Fragments); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalJSON writes empty marks as [] (the schema requires the array).
func (l Leaf) MarshalJSON() ([]byte, error) {
	type leaf Leaf
	c := leaf(l)
	if c.Object == "" {
		c.Object = "leaf"
	}
	if c.Marks == nil {
		c.Marks = []*Mark{}
	}
	return json.Marshal(c)
}

// MarshalJSON writes an empty node list as [] and a missing data as {}.
func (d Document) MarshalJSON() ([]byte, error) {
	type doc Document
	c := doc(d)
	if c.Object == "" {
		c.Object = "document"
	}
	if c.Data == nil {
		c.Data = map[string]any{}
	}
	if c.Nodes == nil {
		c.Nodes = []*Node{}
	}
	return json.Marshal(c)
}

// Text is the plain text of nodes and their descendants (fragments excluded): their leaves, and
// what void inlines show as text (an emoji, a formula, a button's label, a mention).
func Text(nodes []*Node) string {
	var b bytes.Buffer
	var walk func([]*Node)
	walk = func(nodes []*Node) {
		for _, n := range nodes {
			for _, l := range n.Leaves {
				b.WriteString(l.Text)
			}
			if n.Object == "inline" {
				switch n.Type {
				case "emoji":
					b.WriteString(emojiText(str(n.Data, "code")))
				case "inline-math":
					b.WriteString(str(n.Data, "formula"))
				case "expression":
					b.WriteString(str(n.Data, "expression"))
				case "button":
					b.WriteString(str(n.Data, "label"))
				case "mention":
					b.WriteString(refText(refOf(n)))
				}
			}
			walk(n.Nodes)
		}
	}
	walk(nodes)
	return b.String()
}

// refText is how a ref reads as text: its id, a user's as @id, a URL as itself.
func refText(ref map[string]any) string {
	switch kind := str(ref, "kind"); kind {
	case "user":
		return "@" + str(ref, "user")
	case "reusable-content":
		return str(ref, "reusableContent")
	case "openapi":
		return str(ref, "spec")
	case "":
		return ""
	default:
		return str(ref, kind)
	}
}

// ref is a ContentRef as the document holds it (data.ref of links and images).
func refOf(n *Node) map[string]any {
	r, _ := n.Data["ref"].(map[string]any)
	return r
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// Find returns where the first block of a type sits in a document, as a field path
// ("nodes[3].fragments[1].nodes[0]"); ok false when it holds none.
func Find(doc *Document, typ string) (path string, ok bool) {
	if doc == nil {
		return "", false
	}
	var find func(nodes []*Node, at string) (string, bool)
	find = func(nodes []*Node, at string) (string, bool) {
		for i, n := range nodes {
			here := at + "[" + strconv.Itoa(i) + "]"
			if n.Object == "block" && n.Type == typ {
				return here, true
			}
			if p, ok := find(n.Nodes, here+".nodes"); ok {
				return p, true
			}
			if p, ok := find(n.Fragments, here+".fragments"); ok {
				return p, true
			}
		}
		return "", false
	}
	return find(doc.Nodes, "nodes")
}

// emojiText is the character of an emoji inline whose code is its hex code point(s).
func emojiText(code string) string {
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		var r rune
		for _, c := range strings.ToLower(part) {
			switch {
			case c >= '0' && c <= '9':
				r = r*16 + (c - '0')
			case c >= 'a' && c <= 'f':
				r = r*16 + (c - 'a' + 10)
			default:
				return ""
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}
