package server_test

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/quire-docs/quire/gen"
)

// TestCustomizedSiteInABrowser: in a real browser, a customized site shows its primary colour,
// its custom font (loaded from the site), its logo, a header link to a page and an external
// link in the tab bar; the feedback buttons record an event the API then counts; and the app's
// site page shows the insights chart.
func TestCustomizedSiteInABrowser(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	w := newWebWorld(t)
	fontFile := fakeFont("wOF2")
	if data, err := os.ReadFile("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"); err == nil {
		fontFile = data // a real font, so the browser loads it
	}
	key, status := w.uploadKind(t, w.admin, "customization_font", "acme.ttf", "font/ttf", fontFile)
	if status != http.StatusOK {
		t.Fatalf("font upload: %d", status)
	}
	var font gen.CustomFont
	w.Expect(t, http.StatusCreated, w.admin, "PUT", "/orgs/"+w.org.Id+"/fonts", map[string]any{"fontFamily": "Acme Sans",
		"fontFaces": []any{map[string]any{"weight": 400, "storageKey": key}}}).Decode(t, &font)
	api := "/orgs/" + w.org.Id + "/sites/" + w.site.Id
	base := w.URL + "/s/" + w.site.Id
	logo := base + "/~files/" + w.guideSection.SiteSpaces[0].Id + "/" + w.logo
	w.Expect(t, http.StatusOK, w.admin, "PUT", api+"/customization", map[string]any{
		"title": "Acme Handbook",
		"styling": map[string]any{"primaryColor": map[string]any{"light": "#aa0000", "dark": "#aa0000"},
			"font": map[string]any{"id": font.Id, "custom": true, "fontFamily": font.FontFamily, "fontFaces": font.FontFaces}},
		"header": map[string]any{"preset": "default", "logo": map[string]any{"light": logo, "dark": logo},
			"links": []any{map[string]any{"title": "Install now", "to": map[string]any{"kind": "page", "page": w.pages["install"]}, "links": []any{}}}},
		"feedback": map[string]any{"enabled": true},
		"themes":   map[string]any{"default": "light", "toggeable": true},
	})
	w.Expect(t, http.StatusCreated, w.admin, "POST", api+"/external-links", map[string]any{"title": "Status page", "url": "https://status.example.com/"})

	if st := b.open(base + "/"); st != 200 {
		t.Fatalf("the site answered %d", st)
	}
	if got := b.eval(`getComputedStyle(document.querySelector('.search button')).backgroundColor`); got != "rgb(170, 0, 0)" {
		t.Errorf("primary colour: %s", got)
	}
	if got := b.eval(`getComputedStyle(document.body).fontFamily`); !strings.HasPrefix(got, `"Acme Sans"`) {
		t.Errorf("body font: %s", got)
	}
	if len(fontFile) > 1000 {
		loaded := ""
		for i := 0; i < 50 && loaded != "loaded"; i++ {
			loaded = b.eval(`[...document.fonts].filter(f => f.family.includes('Acme Sans')).map(f => f.status).join(',')`)
			time.Sleep(100 * time.Millisecond)
		}
		if loaded != "loaded" {
			t.Errorf("the custom font did not load: %q", loaded)
		}
	}
	if got := b.eval(`String(document.querySelector('img.logo').naturalWidth > 0)`); got != "true" {
		t.Errorf("the logo did not load")
	}
	if got := b.eval(`[...document.querySelectorAll('.tabs a.external')].map(a => a.textContent + ' ' + a.href).join()`); got != "Status page https://status.example.com/" {
		t.Errorf("external link: %q", got)
	}
	b.screenshot("customized-site")
	if st := b.click(`.header-links a`); st != 200 {
		t.Fatalf("the header link answered %d", st)
	}
	if got := b.text("main h1"); got != "Install" {
		t.Fatalf("the header link led to %q", got)
	}

	// The feedback buttons record a rating.
	if st := b.click(`form.feedback button[value="good"]`); st != 200 {
		t.Fatalf("feedback answered %d", st)
	}
	if got := b.text("form.feedback p"); !strings.Contains(got, "Thank you") {
		t.Fatalf("after feedback: %q", got)
	}
	agg := w.Expect(t, http.StatusOK, w.admin, "POST", api+"/insights/events/aggregate", map[string]any{"range": "last7Days",
		"select":  []any{map[string]any{"column": "eventPageFeedbackRating"}, map[string]any{"column": "eventsCount"}},
		"groupBy": []any{map[string]any{"column": "eventPageFeedbackRating"}},
		"where":   []any{map[string]any{"column": "eventType", "values": []any{"page_post_feedback"}}}})
	if body := string(agg.Body); !strings.Contains(body, `"values":["good"]`) || !strings.Contains(body, `"values":[1]`) {
		t.Fatalf("the feedback event: %s", body)
	}

	// The app's site page shows the chart.
	b.open(w.URL + "/app/o/" + w.org.Id + "/sites/" + w.site.Id)
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("email"), w.admin.Email), chromedp.SendKeys(chromedp.ID("token"), w.admin.Token)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Submit(chromedp.ID("token"))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.location(), "/sites/"+w.site.Id) {
		b.open(w.URL + "/app/o/" + w.org.Id + "/sites/" + w.site.Id)
	}
	if got := b.text("section.insights figure figcaption"); !strings.Contains(got, "Install") || !strings.Contains(got, "1 good") {
		t.Fatalf("the chart's caption: %q", got)
	}
	if got := b.eval(`String(document.querySelectorAll('section.insights svg.chart g.day').length)`); got != "14" {
		t.Fatalf("days drawn: %s", got)
	}
	b.screenshot("app-insights-chart")
}
