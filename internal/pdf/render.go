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
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/quire-docs/quire/internal/markdown"
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

// Every block starts where the cursor is (after a list marker, on the marker's line) and ends
// with the cursor at the left margin of the next line.
