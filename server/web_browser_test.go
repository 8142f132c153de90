package server_test

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/golang-jwt/jwt/v5"
)

// The published web in a real browser: Debian's chromium, driven by chromedp. It skips only
// when no chromium binary is installed (.ci/run installs one).

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artifactsDir is where the browser test leaves its screenshots: $QUIRE_ARTIFACTS, else
// testdata/artifacts/web at the repository's root (gitignored).
func artifactsDir(t *testing.T) string {
	dir := os.Getenv("QUIRE_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "testdata", "artifacts", "web")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser is one headless chromium with a fresh profile.
type browser struct {
	t   *testing.T
	ctx context.Context
	dir string
}

func newBrowser(t *testing.T) *browser {
	path := chromiumPath()
	if path == "" {
		t.Skip("no chromium binary on PATH (apt-get install chromium): the browser test of the published web is skipped")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return &browser{t: t, ctx: ctx, dir: artifactsDir(t)}
}

// open navigates to a URL and answers the final response's status.
func (b *browser) open(u string) int64 {
	b.t.Helper()
	res, err := chromedp.Run(b.ctx, chromedp.NavigateResponse(u))
	if err != nil {
		b.t.Fatalf("open %s: %v", u, err)
	}
	return res.Status
}

// click clicks the element a CSS selector finds and waits for the page it leads to.
func (b *browser) click(sel string) int64 {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		b.t.Fatalf("click %s: %v", sel, err)
	}
	return res.Status
}

// search types a query into the search box and submits it.
func (b *browser) search(q string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("q"), q)); err != nil {
		b.t.Fatal(err)
	}
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Submit(chromedp.ID("q"))); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (b *browser) eval(js string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatalf("eval %s: %v", js, err)
	}
	return s
}

func (b *browser) location() string {
	b.t.Helper()
	u, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatal(err)
	}
	return u
}

func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// colorScheme makes the page see prefers-color-scheme as light or dark.
func (b *browser) colorScheme(scheme string) {
	b.t.Helper()
	err := chromedp.Do(b.ctx, func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return chromedp.Void{}, err
	})
	if err != nil {
		b.t.Fatal(err)
	}
}

// a11yReport is what the accessibility check reads from a page.
const a11yReport = `JSON.stringify({
  lang: document.documentElement.lang,
  title: document.title,
  main: document.querySelectorAll('main').length,
  banner: document.querySelectorAll('body > header').length,
  contentinfo: document.querySelectorAll('body > footer').length,
  navs: Array.from(document.querySelectorAll('nav')).map(n => n.getAttribute('aria-label') || ''),
  imgsWithoutAlt: Array.from(document.images).filter(i => !i.hasAttribute('alt') || i.alt.trim() === '').length,
  emptyLinks: Array.from(document.links).filter(a => !(a.textContent.trim() || a.getAttribute('aria-label'))).length,
  unlabelled: Array.from(document.querySelectorAll('input:not([type=hidden])')).filter(i => !(i.labels && i.labels.length) && !i.getAttribute('aria-label')).length,
  h1: document.querySelectorAll('h1').length,
})`

// checkA11y checks the accessibility basics of the current page.
func (b *browser) checkA11y(what string) {
	b.t.Helper()
	r := b.eval(a11yReport)
	for _, want := range []string{`"lang":"en"`, `"main":1`, `"banner":1`, `"contentinfo":1`, `"imgsWithoutAlt":0`,
		`"emptyLinks":0`, `"unlabelled":0`, `"h1":1`} {
		if !strings.Contains(r, want) {
			b.t.Errorf("%s: accessibility: want %s in %s", what, want, r)
		}
	}
	if strings.Contains(r, `"title":""`) || strings.Contains(r, `""]`) || strings.Contains(r, `"",`) {
		b.t.Errorf("%s: accessibility: a title and labelled navigation landmarks expected: %s", what, r)
	}
}

// contrastPairs reads the theme's colours as the page computes them: body text, muted text,
// links and the search button, each with its background.
const contrastPairs = `JSON.stringify((() => {
  const c = (sel, prop) => { const e = document.querySelector(sel); return e ? getComputedStyle(e)[prop] : ''; };
  const bg = c('body', 'backgroundColor');
  return [
    ['text', c('body', 'color'), bg],
    ['link', c('main .markdown a', 'color'), bg],
    ['muted', c('.pager a span', 'color'), bg],
    ['button', c('.search button', 'color'), c('.search button', 'backgroundColor')],
  ];
})())`

var rgbRE = regexp.MustCompile(`rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)`)

// luminance is WCAG's relative luminance of an rgb() colour.
func luminance(t *testing.T, css string) float64 {
	m := rgbRE.FindStringSubmatch(css)
	if m == nil {
		t.Fatalf("colour %q", css)
	}
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseFloat(m[i+1], 64)
		v /= 255
		if v <= 0.03928 {
			v /= 12.92
		} else {
			v = math.Pow((v+0.055)/1.055, 2.4)
		}
		l += w * v
	}
	return l
}

// checkContrast checks WCAG AA (4.5:1) for the theme's text colours in the current scheme.
func (b *browser) checkContrast(scheme string) {
	b.t.Helper()
	raw := b.eval(contrastPairs)
	for _, m := range regexp.MustCompile(`\["(\w+)","([^"]*)","([^"]*)"\]`).FindAllStringSubmatch(raw, -1) {
		l1, l2 := luminance(b.t, m[2]), luminance(b.t, m[3])
		ratio := (math.Max(l1, l2) + 0.05) / (math.Min(l1, l2) + 0.05)
		b.t.Logf("%s theme: %s %s on %s: contrast %.2f", scheme, m[1], m[2], m[3], ratio)
		if ratio < 4.5 {
			b.t.Errorf("%s theme: %s contrast %.2f (%s on %s) is under 4.5", scheme, m[1], ratio, m[2], m[3])
		}
	}
}

func TestWebInABrowser(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	w := newWebWorld(t)
	base := w.URL + "/s/" + w.site.Id

	// The landing page: sidebar, variants, outline; accessible, readable in both themes.
	if st := b.open(base + "/"); st != 200 {
		t.Fatalf("home answered %d", st)
	}
	if got := b.text("main h1"); got != "Introduction" {
		t.Fatalf("home h1 %q", got)
	}
	b.checkA11y("home")
	b.colorScheme("light")
	b.checkContrast("light")
	b.screenshot("home-light")
	b.colorScheme("dark")
	b.checkContrast("dark")
	if bg := b.eval(`getComputedStyle(document.body).backgroundColor`); luminance(t, bg) > 0.1 {
		t.Errorf("dark theme background %s is not dark", bg)
	}
	b.screenshot("home-dark")
	b.colorScheme("light")

	// Follow the sidebar, then an in-page link to an anchor of another page.
	b.click(`nav.sidebar a[href$="/install"]`)
	if got := b.text("main h1"); got != "Install" {
		t.Fatalf("after the sidebar link: h1 %q", got)
	}
	b.checkA11y("install")
	b.open(base + "/")
	b.click(`main .markdown a[href$="/install/linux#packages"]`)
	if got, loc := b.text("main h1"), b.location(); got != "Linux" || !strings.HasSuffix(loc, "/install/linux#packages") {
		t.Fatalf("after the in-page link: h1 %q at %s", got, loc)
	}
	b.screenshot("linux")

	// Switch variant.
	b.click(`.variants a[href$="/guide-v2/"]`)
	if got := b.text("main h1"); got != "Welcome to v2" {
		t.Fatalf("after switching variant: h1 %q", got)
	}
	b.checkA11y("variant")

	// Search, and follow a result.
	b.search("frobnicator")
	if got := b.text("main .count"); !strings.HasPrefix(got, "2 results") {
		t.Fatalf("search: %q", got)
	}
	b.screenshot("search")
	b.checkA11y("search")
	b.click(`ol.results a[href*="/install/linux"]`)
	if got := b.text("main h1"); got != "Linux" {
		t.Fatalf("search result led to %q", got)
	}

	// Visitors with different claims see different sections; switch section.
	tabs := func() string {
		return b.eval(`Array.from(document.querySelectorAll('nav.tabs a')).map(a => a.textContent).join(',')`)
	}
	b.open(base + "/?jwt_token=" + url.QueryEscape(w.token(t, jwt.MapClaims{"plan": "pro"})))
	if strings.Contains(b.location(), "jwt_token") {
		t.Errorf("the token stayed in the address: %s", b.location())
	}
	if got := tabs(); got != "Guide,API" {
		t.Fatalf("a pro visitor sees tabs %q", got)
	}
	b.click(`nav.tabs a[href$="/api/"]`)
	if got := b.text("main h1"); got != "Endpoints" {
		t.Fatalf("after switching section: h1 %q", got)
	}
	b.screenshot("section-api")
	b.checkA11y("api section")
	b.open(base + "/?jwt_token=" + url.QueryEscape(w.token(t, jwt.MapClaims{"employee": true})))
	if got := tabs(); got != "Guide,Staff" {
		t.Fatalf("an employee sees tabs %q", got)
	}
	if st := b.open(base + "/api/"); st != 404 {
		t.Errorf("an employee opening the API section: %d", st)
	}
	b.screenshot("not-found")
	if got := b.text("main h1"); got != "Page not found" {
		t.Errorf("404 page h1 %q", got)
	}

	// A share-link site: nothing without its key, the site with it, and still after (cookie).
	secret := w.URL + "/s/" + w.secret.Id
	if st := b.open(secret + "/"); st != 404 {
		t.Fatalf("share-link site without its key: %d", st)
	}
	if st := b.open(secret + "/?share=" + w.shareKey); st != 200 {
		t.Fatalf("share-link site with its key: %d", st)
	}
	if got := b.text("main h1"); got != "Introduction" {
		t.Fatalf("share-link site: h1 %q", got)
	}
	if st := b.open(secret + "/install"); st != 200 {
		t.Fatalf("share-link site after the key, without it: %d", st)
	}
	b.screenshot("share-link")

	// The script-bearing page shows its title as text and runs nothing.
	b.open(base + "/script-alert-title-script-tricky")
	if got := b.text("main h1"); !strings.Contains(got, "<script>") {
		t.Errorf("escaped title shows as %q", got)
	}
	if n := b.eval(`String(document.scripts.length)`); n != "0" {
		t.Errorf("%s scripts in the page", n)
	}
	// The app: sign in, open the space, then a change request's diff.
	cr := w.create(t, w.admin, w.guide.Id, "Faster install")
	w.apply(t, w.admin, w.guide.Id, cr.Id, editPage(w.pages["install"], "Installing takes ten seconds."))
	if st := b.open(w.URL + "/app/s/" + w.guide.Id); st != 200 {
		t.Fatalf("app without a session: %d", st)
	}
	if !strings.Contains(b.location(), "/app/login") {
		t.Fatalf("app without a session went to %s", b.location())
	}
	b.checkA11y("app login")
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("email"), w.admin.Email), chromedp.SendKeys(chromedp.ID("token"), w.admin.Token)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Submit(chromedp.ID("token"))); err != nil {
		t.Fatal(err)
	}
	if got := b.text("main h1"); got != "Introduction" {
		t.Fatalf("after signing in: h1 %q at %s", got, b.location())
	}
	b.click(`ul.items a[href$="/change-requests/2"]`)
	if got := b.text("main h1"); got != "Faster install" {
		t.Fatalf("change request page: h1 %q", got)
	}
	if got := b.text(".lines .dadd"); got != "+ Installing takes ten seconds." {
		t.Errorf("diff line %q", got)
	}
	b.checkA11y("app change request")
	b.screenshot("app-change-request")
	if strings.Contains(b.eval(`document.documentElement.outerHTML`), w.admin.Token) {
		t.Error("the API token is in an app page")
	}
	// Signing out through the button (its form carries the session's form token) ends the session.
	if st := b.click(`form[action="/app/logout"] button`); st != 200 || !strings.Contains(b.location(), "/app/login") {
		t.Fatalf("sign-out: %d at %s", st, b.location())
	}
	b.open(w.URL + "/app/s/" + w.guide.Id)
	if !strings.Contains(b.location(), "/app/login") {
		t.Fatalf("after signing out the app went to %s", b.location())
	}

	fmt.Fprintf(os.Stderr, "web browser test: screenshots in %s\n", b.dir)
}
