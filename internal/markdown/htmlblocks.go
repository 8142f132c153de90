package markdown

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"strconv"

	"github.com/yuin/goldmark/ast"
)

// Blocks only the caller can render (an OpenAPI block shows part of a specification the store
// holds, a reusable-content block another document): ToHTML hands each, as the parser read it, to
// HTMLOptions.Block, and puts what it answers where the block was, after the page itself has been
// sanitized — what Block answers must be escaped or sanitized by the caller. (The placeholder a
// block leaves to the caller is written by renderEmbed, tagline.go.)

// Block is a block of a page the caller may render.
type Block struct {
	Type string // openapi-operation, openapi-schemas, openapi-webhook, or reusable-content
	// Attrs are an OpenAPI block's attributes as its tag writes them (spec, path, method, name,
	// schemas…), lower-cased names.
	Attrs map[string]string
	// Include is what a reusable-content block's tag names: a reusable content's id, or a path.
	Include string
}

// embeds asks render for the HTML of each block it renders, marking those blocks with a
// placeholder only this rendering knows; the answered function puts the HTML in place of each
// placeholder of the sanitized output.
func embeds(root ast.Node, render func(Block) ([]byte, bool)) func([]byte) []byte {
	if render == nil {
		return nil
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	mark := "quireblock" + hex.EncodeToString(nonce[:]) + "x"
	var out [][]byte
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var b Block
		switch n := n.(type) {
		case *openAPINode:
			b = Block{Type: n.typ, Attrs: n.attrs}
		case *includeNode:
			b = Block{Type: "reusable-content", Include: n.name}
		default:
			return ast.WalkContinue, nil
		}
		if html, ok := render(b); ok {
			n.SetAttribute(attrEmbed, []byte(mark+strconv.Itoa(len(out))))
			out = append(out, html)
		}
		return ast.WalkSkipChildren, nil
	})
	if len(out) == 0 {
		return nil
	}
	return func(html []byte) []byte {
		for i, b := range out {
			html = bytes.Replace(html, []byte("<p>"+mark+strconv.Itoa(i)+"</p>"), b, 1)
		}
		return html
	}
}
