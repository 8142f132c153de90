// Package pdf renders pages of markdown into a PDF with github.com/go-pdf/fpdf: a title
// line, then each page with its title as a heading and its markdown (parsed by goldmark, CommonMark
// + GFM) as headings, paragraphs, lists, quotes, code blocks, tables and rules. Links print as
// their text followed by their URL, images as their alt text.
//
// Text is set in the PDF core fonts (Helvetica, Courier), which cover Windows-1252: characters
// outside it print as "?" rather than fail.
package pdf

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Document describes the whole export.
type Document struct {
	Title    string    // first line of the first page, and the PDF's Title
	Subtitle string    // a line under the title ("" for none)
	Created  time.Time // the PDF's creation date (zero: now)
}

// Page is one page of content.
type Page struct {
	Title    string
	Markdown string
	Depth    int // 0 for a top-level page of the export, 1 for its subpages…
}

// Creator is the PDF's Creator.
const Creator = "quire"

// Layout, in millimetres and points.
const (
	margin     = 20.0
	bodySize   = 10.5
	codeSize   = 9.0
	indentStep = 6.0  // list and quote indentation
	maxIndent  = 60.0 // deeper nesting prints at this indentation, leaving room for text
	blockGap   = 2.2  // space after a block
	ptToMM     = 25.4 / 72
	lineFactor = 1.35
)

// lineHeight is the height of a line of text set at size points.
func lineHeight(size float64) float64 { return size * ptToMM * lineFactor }

// Writer builds one PDF. It is not safe for concurrent use.
type Writer struct {
	pdf       *fpdf.Fpdf
	pages     int
	lastLevel int
}

// New starts a PDF with the document's title line.
func New(doc Document) *Writer {
	pdf := fpdf.New("P", "mm", "A4", "")
	// Uncompressed content streams: the text of the pages stays greppable in the file's bytes (the
	// tests look for page titles; search tools and diffing benefit too). Exports are text, so the
	// cost is small.
	pdf.SetCompression(false)
	pdf.SetTitle(doc.Title, true)
	pdf.SetCreator(Creator, false)
	pdf.SetProducer(Creator, false)
	created := doc.Created
	if created.IsZero() {
		created = time.Now()
	}
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(true, margin)
	pdf.AliasNbPages("{nb}")
	pdf.SetFooterFunc(func() {
		pdf.SetY(-margin + 6)
		pdf.SetFont("Helvetica", "", 8)
		pdf.SetTextColor(140, 140, 140)
		pdf.CellFormat(0, 5, strconv.Itoa(pdf.PageNo())+" / {nb}", "", 0, "C", false, 0, "")
	})
	pdf.AddPage()
	pdf.SetTextColor(20, 20, 20)
	pdf.SetFont("Helvetica", "B", 24)
	pdf.MultiCell(0, lineHeight(24), encode(doc.Title), "", "L", false)
	if doc.Subtitle != "" {
		pdf.SetFont("Helvetica", "", 12)
		pdf.SetTextColor(110, 110, 110)
		pdf.MultiCell(0, lineHeight(12), encode(doc.Subtitle), "", "L", false)
	}
	pdf.Ln(3)
	pdf.SetDrawColor(200, 200, 200)
	pdf.SetLineWidth(0.3)
	pdf.Line(margin, pdf.GetY(), pageWidth(pdf)-margin, pdf.GetY())
	pdf.Ln(8)
	return &Writer{pdf: pdf, lastLevel: -1}
}

func pageWidth(pdf *fpdf.Fpdf) float64 {
	w, _ := pdf.GetPageSize()
	return w
}

// AddPage prints a page: the first follows the title line, the others start a new sheet.
func (w *Writer) AddPage(p Page) {
	pdf := w.pdf
	if pdf.Err() {
		return
	}
	if w.pages > 0 {
		pdf.AddPage()
	}
	w.pages++
	// The outline (bookmarks) mirrors the page tree; a level may only go one deeper than the last.
	level := max(0, min(p.Depth, w.lastLevel+1))
	w.lastLevel = level
	pdf.Bookmark(utf16Text(p.Title), level, -1)

	size := max(16, 20-2*float64(p.Depth))
	pdf.SetLeftMargin(margin)
	pdf.SetX(margin)
	pdf.SetTextColor(20, 20, 20)
	pdf.SetFont("Helvetica", "B", size)
	pdf.MultiCell(0, lineHeight(size), encode(p.Title), "", "L", false)
	pdf.Ln(3)

	src := []byte(p.Markdown)
	r := &renderer{pdf: pdf, src: src}
	root := markdown.Parse(src)
	r.children(root, 0)
	pdf.SetLeftMargin(margin)
}

// Output writes the PDF.
func (w *Writer) Output(out io.Writer) error {
	if err := w.pdf.Output(out); err != nil {
		return fmt.Errorf("pdf: %w", err)
	}
	return nil
}

// Render writes a PDF of pages.
func Render(out io.Writer, doc Document, pages []Page) error {
	w := New(doc)
	for _, p := range pages {
		w.AddPage(p)
	}
	return w.Output(out)
}

// renderer prints the blocks of one page's markdown.
type renderer struct {
	pdf   *fpdf.Fpdf
	src   []byte
	quote int // blockquote depth: quoted text is grey

	pending      strings.Builder // the run not yet written
	pendingSize  float64
	pendingStyle style
	pendingURL   string
}

// Every block starts where the cursor is (after a list marker, on the marker's line) and ends
// with the cursor at the left margin of the next line.

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

// cp1252 maps the runes above ASCII that Windows-1252 (the encoding of fpdf's core fonts) holds
// to their bytes, from fpdf's own code page table.
var cp1252 = sync.OnceValue(func() map[rune]byte {
	tr := fpdf.New("P", "mm", "A4", "").UnicodeTranslatorFromDescriptor("cp1252")
	m := map[rune]byte{}
	// Windows-1252 holds U+00A0–U+00FF and a few dozen runes below U+2200 (quotes, dashes, €, ™).
	for c := rune(0x80); c < 0x2200; c++ {
		if s := tr(string(c)); len(s) == 1 && s[0] >= 0x80 {
			m[c] = s[0]
		}
	}
	return m
})
