package translate_test

import (
	"context"
	"os"
	"testing"

	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/internal/translate/apytest"
)

// BenchmarkTranslateApertium is the translation throughput against a real Apertium (APy with
// apertium-eng-spa, started here): the texts of testdata's two pages, English → Spanish, the way
// a run sends them, in words per second. Skipped without Apertium (make bench prints it when
// installed).
func BenchmarkTranslateApertium(b *testing.B) {
	apy := apytest.Start(b, "eng-spa")
	c := translate.NewAPy(apy.URL, "", loopback())
	var segments []string
	words := 0
	for _, name := range []string{"testdata/structure.md", "testdata/blocks.md"} {
		src, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		tx := translate.Markdown(string(src), nil)
		segments = append(segments, tx.Segments()...)
		words += tx.Words()
	}
	ctx := context.Background()
	if _, err := c.Translate(ctx, segments, "eng", "spa"); err != nil { // the pipeline starts
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		out, err := c.Translate(ctx, segments, "eng", "spa")
		if err != nil || len(out) != len(segments) {
			b.Fatalf("%d translations for %d texts: %v", len(out), len(segments), err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(words*b.N)/b.Elapsed().Seconds(), "words/s")
}
