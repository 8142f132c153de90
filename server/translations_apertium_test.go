package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/internal/translate/apytest"
)

// A real space translated English → Spanish through Apertium's APy (Debian's apertium-apy and
// apertium-eng-spa, started here on a free port and stopped at the end): the text is Spanish,
// code, URLs, link targets and {% %} tags are untouched, the structure is kept, and the result
// space's links stay inside it. The translator's protocol is probed (--translator auto).
func TestTranslationThroughApertium(t *testing.T) {
	t.Parallel()
	apy := apytest.Start(t, "eng-spa")
	w := newTranslationWorld(t)
	f := fetch.New(fetch.Options{AllowPrivate: true})
	probe, err := translate.New(translate.ProtocolAuto, apy.URL, "", f)
	if err != nil {
		t.Fatal(err)
	}
	w.Runner.Translations(probe)
	src := w.writeLinkedSource(t)

	tr := w.run(t, w.create(t, "es", nil).Id)
	if tr.LastError != nil || tr.Result == nil || tr.Stats.LatestPages != 2 || tr.Stats.LatestWords < 40 {
		t.Fatalf("the run: %+v %v\nAPy: %s", tr.Stats, tr.LastError, apy.Output())
	}
	if p := probe.(*translate.Probe).Protocol(); p != translate.ProtocolApertium {
		t.Fatalf("probed %q", p)
	}
	titles, err := translate.NewAPy(apy.URL, "", f).Translate(context.Background(), []string{"Getting started", "Installation"}, "eng", "spa")
	if err != nil || titles[0] == "Getting started" || titles[1] == "Installation" {
		t.Fatalf("APy translates the titles as %q %v", titles, err)
	}
	w.checkResultLinks(t, src, tr.Result.Space, titles[0], titles[1])
	_, order := w.pages(t, tr.Result.Space)
	if len(order) != 2 {
		t.Fatalf("result pages %v", order)
	}
	_, startMD := w.pageByTitle(t, tr.Result.Space, titles[0])
	_, installMD := w.pageByTitle(t, tr.Result.Space, titles[1])
	for _, es := range []string{"instalación", "servidor"} {
		if !strings.Contains(strings.ToLower(startMD+installMD), es) {
			t.Errorf("no %q in the Spanish pages:\n%s\n---\n%s", es, startMD, installMD)
		}
	}
	if !strings.HasPrefix(installMD, "## ") || strings.Count(startMD, "\n\n") != strings.Count(linkedStartMD, "\n\n") {
		t.Errorf("the structure changed:\n%s\n---\n%s", startMD, installMD)
	}
}
