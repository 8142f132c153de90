package sqlstore

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// foldSamples are texts the PostgreSQL index folds: ASCII, Latin with diacritics (precomposed and
// decomposed), other scripts, marks that are not diacritics, and long text (a Chain's buffers
// fill and flush several times).
var foldSamples = func() []string {
	s := []string{
		"", "Getting Started", "Café crème brûlée", "Cafe\u0301 cre\u0300me", "Ñandú résumé naïve",
		"Łódź Świętokrzyskie", "İstanbul Straße", "Ελληνικά ΆΈΉ", "日本語のテキスト", "ﬁne ﬂow",
		"emoji 🙂 and a combining e\u0301\u0301", "हिन्दी देवनागरी", "tab\tand\nnewline",
	}
	long := ""
	for i := range 400 {
		long += fmt.Sprintf("Señor Müller %d déjà vu, ", i)
	}
	return append(s, long)
}()

// ftsText folds as the chain it replaced did (NFD, combining marks removed, NFC) when that chain
// is used by one goroutine, so an index written without a race reads the same.
func TestFTSTextMatchesTheChain(t *testing.T) {
	for _, s := range foldSamples {
		chain := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		want, _, err := transform.String(chain, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := ftsText(s); got != strings.ToLower(want) {
			t.Errorf("ftsText(%q) = %q, want %q", s, got, strings.ToLower(want))
		}
	}
}

// Issue 24's regression test: searches and merges fold text on many goroutines at once. With the
// package-level transform.Chain ftsText used to share, this test fails: the race detector (make
// test runs it) reports the race, and without it answers come out garbled or the fold panics.
func TestFTSTextConcurrent(t *testing.T) {
	want := make([]string, len(foldSamples))
	for i, s := range foldSamples {
		want[i] = ftsText(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 300 {
				i := (g + n) % len(foldSamples)
				if got := ftsText(foldSamples[i]); got != want[i] {
					select {
					case errs <- fmt.Sprintf("goroutine %d: ftsText(%.40q) = %.40q, want %.40q", g, foldSamples[i], got, want[i]):
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// What the fold costs per call against the shared chain it replaced (used by one goroutine, the
// only way it was ever correct), on ASCII text (most pages) and on text with diacritics.
func BenchmarkFTSText(b *testing.B) {
	chain := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	for _, c := range []struct{ name, text string }{
		{"ascii", strings.Repeat("Install the command line tool and sign in. ", 20)},
		{"diacritics", strings.Repeat("Señor Müller orders a crème brûlée à la carte. ", 20)},
	} {
		b.Run(c.name+"/ftsText", func(b *testing.B) {
			for range b.N {
				ftsText(c.text)
			}
		})
		b.Run(c.name+"/sharedChain", func(b *testing.B) {
			for range b.N {
				s, _, _ := transform.String(chain, c.text)
				strings.ToLower(s)
			}
		})
	}
}
