package pdf

// The blocks of a page's markdown: paragraphs, headings, lists, quotes, code and tables (their
// text: inline.go; the layout they share: layout.go).

import (
	"strconv"
	"strings"

	"github.com/quire-docs/quire/internal/markdown"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

func (r *renderer) children(n ast.Node, indent float64) {
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		r.block(ch, indent)
	}
}

// setIndent moves the left margin; the cursor moves with it when it was at the old margin.
func (r *renderer) setIndent(indent float64) {
	indent = min(indent, maxIndent)
	left, _, _, _ := r.pdf.GetMargins()
	atMargin := r.pdf.GetX() <= left+0.01
	r.pdf.SetLeftMargin(margin + indent)
	if atMargin {
		r.pdf.SetX(margin + indent)
	}
}

func (r *renderer) block(n ast.Node, indent float64) {
	pdf := r.pdf
	r.setIndent(indent)
	switch n := n.(type) {
	case *ast.Heading:
		size := map[int]float64{1: 16, 2: 14, 3: 12.5}[n.Level]
		if size == 0 {
			size = 11.5
		}
		pdf.Ln(1.5)
		r.paragraph(n, size, style{bold: true})
		pdf.Ln(1)
	case *ast.Paragraph:
		r.paragraph(n, bodySize, style{})
		pdf.Ln(blockGap)
	case *ast.TextBlock: // the text of a tight list item: no gap after it
		r.paragraph(n, bodySize, style{})
	case *ast.ThematicBreak:
		y := pdf.GetY() + 2
		pdf.SetDrawColor(200, 200, 200)
		pdf.SetLineWidth(0.3)
		pdf.Line(margin+indent, y, pageWidth(pdf)-margin, y)
		pdf.Ln(4 + blockGap)
	case *ast.Blockquote:
		r.quote++
		r.children(n, indent+indentStep)
		r.quote--
		r.setIndent(indent)
	case *ast.List:
		r.list(n, indent)
		// A tight list's items end without a gap; the list as a whole has one, unless it is
		// nested in an item of another list.
		if _, nested := n.Parent().(*ast.ListItem); n.IsTight && !nested {
			pdf.Ln(blockGap)
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		r.code(n)
		pdf.Ln(blockGap)
	case *east.Table:
		r.table(n)
		pdf.Ln(blockGap)
	case *ast.HTMLBlock:
		pdf.SetFont("Helvetica", "", bodySize)
		r.textColor(false)
		pdf.MultiCell(0, lineHeight(bodySize), encode(strings.TrimRight(markdown.SourceText(n.Lines(), r.src), "\n")), "", "L", false)
		pdf.Ln(blockGap)
	default:
		r.children(n, indent)
	}
}

// list prints the items of a list, each with its bullet or number in the indentation.
func (r *renderer) list(n *ast.List, indent float64) {
	pdf := r.pdf
	num := n.Start
	if num == 0 && n.IsOrdered() {
		num = 1
	}
	marker := "\u2022"
	if !n.IsOrdered() {
		if indent >= 2*indentStep {
			marker = "\u2013"
		}
	}
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		m := marker
		if n.IsOrdered() {
			m = strconv.Itoa(num) + "."
			num++
		}
		r.setIndent(indent)
		pdf.SetX(margin + min(indent, maxIndent-indentStep))
		pdf.SetFont("Helvetica", "", bodySize)
		r.textColor(false)
		pdf.CellFormat(indentStep, lineHeight(bodySize), encode(m), "", 0, "L", false, 0, "")
		if it.FirstChild() == nil { // an empty item
			pdf.Ln(lineHeight(bodySize))
			continue
		}
		r.children(it, indent+indentStep)
	}
	r.setIndent(indent)
}

// code prints a code block in a monospace font on a grey band.
func (r *renderer) code(n ast.Node) {
	pdf := r.pdf
	body := strings.TrimRight(markdown.SourceText(n.Lines(), r.src), "\n")
	pdf.SetFont("Courier", "", codeSize)
	pdf.SetTextColor(30, 30, 30)
	pdf.SetFillColor(243, 243, 243)
	h := lineHeight(codeSize)
	pdf.CellFormat(0, 1.5, "", "", 1, "L", true, 0, "")
	for _, line := range strings.Split(body, "\n") {
		pdf.MultiCell(0, h, encode(line), "", "L", true)
	}
	pdf.CellFormat(0, 1.5, "", "", 1, "L", true, 0, "")
}

// table prints a table a row a line, cells separated by bars, the header row in bold.
func (r *renderer) table(n *east.Table) {
	pdf := r.pdf
	h := lineHeight(bodySize)
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		_, header := row.(*east.TableHeader)
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, markdown.InlineText(cell, r.src))
		}
		st := ""
		if header {
			st = "B"
		}
		pdf.SetFont("Helvetica", st, bodySize)
		r.textColor(false)
		pdf.MultiCell(0, h, encode(strings.Join(cells, "  |  ")), "", "L", false)
		if header {
			left, _, _, _ := pdf.GetMargins()
			pdf.SetDrawColor(200, 200, 200)
			pdf.SetLineWidth(0.2)
			pdf.Line(left, pdf.GetY()+0.5, pageWidth(pdf)-margin, pdf.GetY()+0.5)
			pdf.Ln(1)
		}
	}
}
