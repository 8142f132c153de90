package markdown

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GitBook's markdown (Git Sync) writes the blocks that show part of an organization's OpenAPI
// specification, named by its slug, as tags on a line of their own:
//
//	{% openapi-operation spec="petstore" path="/pets" method="get" %}
//	[OpenAPI petstore](https://…)
//	{% endopenapi-operation %}
//
//	{% openapi-schemas spec="petstore" schemas="Pet,Error" grouped="false" %}
//	{% openapi-webhook spec="petstore" name="newPet" method="post" %}
//
// What sits between a tag and its closing tag (GitBook writes a link to the specification there,
// for readers that know no tags) is not part of the block; the closing tag is optional. quire reads
// them as the openapi-operation, openapi-schemas and openapi-webhook blocks of a document, and
// writes those blocks back as tags.

var kindOpenAPI = ast.NewNodeKind("GitBookOpenAPI")

type openAPINode struct {
	ast.BaseBlock
	typ   string            // the block's type: the tag's name
	attrs map[string]string // its attributes
	open  bool              // a closing tag follows: the lines up to it belong to the block
}

func (n *openAPINode) Kind() ast.NodeKind { return kindOpenAPI }

func (n *openAPINode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Type": n.typ}, nil)
}

var (
	openAPIOpen = regexp.MustCompile(`^\{%\s*(openapi-(?:operation|schemas|webhook))((?:\s+[a-zA-Z]+\s*=\s*"[^"]*")*)\s*%\}\s*$`)
	openAPIAttr = regexp.MustCompile(`([a-zA-Z]+)\s*=\s*"([^"]*)"`)
	// openAPIEnd matches the closing tag of any of them, and openAPIAny an opening one anywhere.
	openAPIEnd = regexp.MustCompile(`(?m)^[ \t]{0,3}\{%\s*end(openapi-(?:operation|schemas|webhook))\s*%\}[ \t]*\r?$`)
	openAPIAny = regexp.MustCompile(`(?m)^[ \t]{0,3}\{%\s*openapi-(?:operation|schemas|webhook)\b`)
)

type openAPIParser struct{}

func (openAPIParser) Trigger() []byte { return []byte{'{'} }

func (openAPIParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	_, seg := reader.PeekLine()
	m := tagLine(reader, openAPIOpen)
	if m == nil {
		return nil, parser.NoChildren
	}
	n := &openAPINode{typ: string(m[1]), attrs: map[string]string{}}
	for _, a := range openAPIAttr.FindAllSubmatch(m[2], -1) {
		n.attrs[strings.ToLower(string(a[1]))] = string(a[2])
	}
	if n.attrs["spec"] == "" {
		return nil, parser.NoChildren
	}
	// The block runs to its closing tag when one comes before the next block of its kinds.
	rest := reader.Source()[seg.Stop:]
	if end := openAPIEnd.FindSubmatchIndex(rest); end != nil && string(rest[end[2]:end[3]]) == n.typ {
		next := openAPIAny.FindIndex(rest)
		n.open = next == nil || next[0] > end[0]
	}
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

func (openAPIParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*openAPINode)
	if !n.open {
		return parser.Close
	}
	line, _ := reader.PeekLine()
	reader.AdvanceToEOL()
	if openAPIEnd.Match(bytes.TrimRight(line, "\n")) {
		return parser.Close
	}
	return parser.Continue | parser.NoChildren
}

func (openAPIParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (openAPIParser) CanInterruptParagraph() bool { return true }

func (openAPIParser) CanAcceptIndentedLine() bool { return false }

// openAPIBlock converts a tag to its block: the specification as an openapi ref, and what the
// tag points at in it.
func (c *converter) openAPIBlock(n *openAPINode) *Node {
	data := map[string]any{"ref": map[string]any{"kind": "openapi", "spec": n.attrs["spec"]}}
	switch n.typ {
	case "openapi-operation":
		data["path"], data["method"] = n.attrs["path"], strings.ToLower(n.attrs["method"])
	case "openapi-webhook":
		data["name"], data["method"] = n.attrs["name"], strings.ToLower(n.attrs["method"])
	case "openapi-schemas":
		schemas := []any{}
		for _, s := range strings.Split(n.attrs["schemas"], ",") {
			if s = strings.TrimSpace(s); s != "" {
				schemas = append(schemas, s)
			}
		}
		data["schemas"] = schemas
		if g, err := strconv.ParseBool(n.attrs["grouped"]); err == nil {
			data["grouped"] = g
		}
		if t, ok := n.attrs["title"]; ok {
			data["title"] = t
		}
	}
	if h, err := strconv.ParseBool(n.attrs["headless"]); err == nil && n.typ != "openapi-schemas" {
		data["headless"] = h
	}
	return &Node{Object: "block", Type: n.typ, Key: c.key(), IsVoid: yes, Data: data}
}

// renderOpenAPI renders a block, where no reader of the specification replaced it first (the
// published pages do, with the operation itself), as its label.
func renderOpenAPI(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering && !renderEmbed(w, n) {
		o := n.(*openAPINode)
		label := o.attrs["schemas"]
		if o.typ != "openapi-schemas" {
			name := o.attrs["path"]
			if o.typ == "openapi-webhook" {
				name = o.attrs["name"]
			}
			label = strings.ToUpper(o.attrs["method"]) + " " + name
		}
		_, _ = w.WriteString(`<p class="openapi"><code>`)
		_, _ = w.Write(util.EscapeHTML([]byte(label)))
		_, _ = w.WriteString("</code></p>\n")
	}
	return ast.WalkSkipChildren, nil
}

// openAPILabel is how an OpenAPI block reads as text: the method and path of an operation, the
// method and name of a webhook, the names of schemas.
func openAPILabel(n *Node) string {
	switch n.Type {
	case "openapi-operation":
		return strings.ToUpper(str(n.Data, "method")) + " " + str(n.Data, "path")
	case "openapi-webhook":
		return strings.ToUpper(str(n.Data, "method")) + " " + str(n.Data, "name")
	}
	return strings.Join(schemaNames(n), ", ")
}

func schemaNames(n *Node) []string {
	var names []string
	if list, ok := n.Data["schemas"].([]any); ok {
		for _, x := range list {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	}
	return names
}

// openAPITag writes an OpenAPI block as its tag, or "" when a value cannot be written in one (a
// quote in it, or no specification named).
func openAPITag(n *Node) string {
	spec := str(refOf(n), "spec")
	if spec == "" || str(refOf(n), "kind") != "openapi" {
		return ""
	}
	attrs := [][2]string{{"spec", spec}}
	switch n.Type {
	case "openapi-operation":
		attrs = append(attrs, [2]string{"path", str(n.Data, "path")}, [2]string{"method", str(n.Data, "method")})
	case "openapi-webhook":
		attrs = append(attrs, [2]string{"name", str(n.Data, "name")}, [2]string{"method", str(n.Data, "method")})
	case "openapi-schemas":
		attrs = append(attrs, [2]string{"schemas", strings.Join(schemaNames(n), ",")})
		if g, ok := n.Data["grouped"].(bool); ok {
			attrs = append(attrs, [2]string{"grouped", strconv.FormatBool(g)})
		}
		if t, ok := n.Data["title"].(string); ok {
			attrs = append(attrs, [2]string{"title", t})
		}
	}
	if h, ok := n.Data["headless"].(bool); ok && n.Type != "openapi-schemas" {
		attrs = append(attrs, [2]string{"headless", strconv.FormatBool(h)})
	}
	var b strings.Builder
	b.WriteString("{% " + n.Type)
	for _, a := range attrs {
		if strings.ContainsAny(a[1], "\"%\n\r") {
			return ""
		}
		b.WriteString(" " + a[0] + `="` + a[1] + `"`)
	}
	b.WriteString(" %}\n{% end" + n.Type + " %}")
	return b.String()
}
