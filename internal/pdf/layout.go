package pdf

// What the blocks and their text share: the layout's measures, the renderer's state and the
// encodings a PDF string takes.

import (
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-pdf/fpdf"
)

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

// style is how a run of inline text is set.
type style struct {
	bold, italic, mono, strike, link bool
	muted                            bool // link URLs and image alt texts
}

// encode turns UTF-8 text into the core fonts' Windows-1252: characters it lacks become "?",
// tabs four spaces, and other control characters are dropped.
func encode(s string) string {
	m := cp1252()
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case c == '\t':
			b = append(b, "    "...)
		case c == '\n':
			b = append(b, '\n')
		case c < 0x20 || c == 0x7f:
		case c < 0x80:
			b = append(b, byte(c))
		default:
			if e, ok := m[c]; ok {
				b = append(b, e)
			} else {
				b = append(b, '?')
			}
		}
	}
	return string(b)
}

// utf16Text is text for a PDF text string outside content streams (outline entries): UTF-16BE
// with its byte order mark, so any character shows.
func utf16Text(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2, 2+2*len(u))
	b[0], b[1] = 0xFE, 0xFF
	for _, c := range u {
		b = append(b, byte(c>>8), byte(c))
	}
	return string(b)
}

func pageWidth(pdf *fpdf.Fpdf) float64 {
	w, _ := pdf.GetPageSize()
	return w
}
