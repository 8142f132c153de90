package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html"
	"mime"
	"net/url"
	"strings"
	"time"

	xhtml "golang.org/x/net/html"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/store"
)

// Embeds: what a URL shows when a page embeds it. The page is fetched through a fetcher with the
// guarded fetcher's address rule and tighter bounds; its oEmbed endpoint, when it names one, gives
// the embed, else its OpenGraph tags or title. Answers are kept in a bounded in-process cache:
// they describe other sites, not quire's data, so no write of quire's can make them stale.

const (
	embedTimeout   = 5 * time.Second
	embedMaxBytes  = 512 << 10
	embedTTL       = time.Hour
	embedFailTTL   = time.Minute // after an error status or a timeout, the page is tried again sooner
	embedCacheSize = 1000
)

// embedFetcher is made on first use, from the server's fetcher as Handler configured it.
func (s *Server) embedFetcher() *fetch.Fetcher {
	s.embeds.once.Do(func() {
		s.embeds.fetcher = fetch.New(fetch.Options{AllowPrivate: s.Fetcher.Options().AllowPrivate,
			Timeout: embedTimeout, MaxBytes: embedMaxBytes, UserAgent: "quire (embeds)"})
		s.embeds.cache = map[string]embedEntry{}
	})
	return s.embeds.fetcher
}

func (s *Server) GetEmbedByUrl(ctx context.Context, req gen.GetEmbedByUrlRequestObject) (gen.GetEmbedByUrlResponseObject, error) {
	e, err := s.embed(ctx, req.Params.Url)
	if err != nil {
		return nil, err
	}
	return gen.GetEmbedByUrl200JSONResponse(e), nil
}

func (s *Server) GetEmbedByUrlInSpace(ctx context.Context, req gen.GetEmbedByUrlInSpaceRequestObject) (gen.GetEmbedByUrlInSpaceResponseObject, error) {
	if _, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead); err != nil {
		return nil, err
	}
	e, err := s.embed(ctx, req.Params.Url)
	if err != nil {
		return nil, err
	}
	return gen.GetEmbedByUrlInSpace200JSONResponse(e), nil
}

// embed answers the embed of a URL, from the cache when it is there and fresh.
func (s *Server) embed(ctx context.Context, raw string) (gen.Embed, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return gen.Embed{}, store.Errorf(store.EINVALID, "url: must be an absolute http or https URL.")
	}
	f := s.embedFetcher()
	c := &s.embeds
	c.mu.Lock()
	hit, ok := c.cache[raw]
	c.mu.Unlock()
	if ok && time.Now().Before(hit.expires) {
		return hit.embed, nil
	}
	e, read, err := resolveEmbed(ctx, f, u)
	if err != nil {
		return e, err
	}
	ttl := embedTTL
	if !read {
		ttl = embedFailTTL
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.cache) >= embedCacheSize {
		for k, v := range c.cache {
			if !time.Now().Before(v.expires) {
				delete(c.cache, k)
			}
		}
		for k := range c.cache {
			if len(c.cache) < embedCacheSize {
				break
			}
			delete(c.cache, k)
		}
	}
	c.cache[raw] = embedEntry{embed: e, expires: time.Now().Add(ttl)}
	return e, nil
}

// resolveEmbed reads a URL's embed; read is false when the fetch failed (an error status, a
// timeout, an unreachable host), and the embed is then a plain link. An address the fetcher refuses is the caller's error (400).
func resolveEmbed(ctx context.Context, f *fetch.Fetcher, u *url.URL) (e gen.Embed, read bool, err error) {
	link := gen.Embed{Type: gen.EmbedTypeLink, Title: u.String(), Site: u.Hostname()}
	res, err := f.Get(ctx, u.String())
	if err != nil {
		if errors.Is(err, fetch.ErrForbidden) || errors.Is(err, fetch.ErrScheme) {
			return link, false, store.Errorf(store.EINVALID, "url: %s", err.Error())
		}
		return link, false, nil
	}
	if mt, _, _ := mime.ParseMediaType(res.ContentType); mt != "text/html" && mt != "application/xhtml+xml" {
		return link, true, nil
	}
	base, err := url.Parse(res.URL)
	if err != nil {
		base = u
	}
	m := readHeadMeta(res.Body)
	if m.title != "" {
		link.Title = m.title
	}
	if m.site != "" {
		link.Site = m.site
	}
	if icon := absoluteURL(base, m.icon); icon != "" {
		link.Icon = &icon
	}
	if endpoint := absoluteURL(base, m.oembed); endpoint != "" {
		if e, ok := readOEmbed(ctx, f, endpoint, link); ok {
			return e, true, nil
		}
	}
	return link, true, nil
}

// oEmbed is the part of an oEmbed answer quire reads.
type oEmbed struct {
	Type         string `json:"type"`
	Title        string `json:"title"`
	ProviderName string `json:"provider_name"`
	HTML         string `json:"html"`
	URL          string `json:"url"`
}

// readOEmbed fetches an oEmbed endpoint (under the same rules) and makes the embed from it, over
// what the page itself said; ok is false when it gives nothing usable.
func readOEmbed(ctx context.Context, f *fetch.Fetcher, endpoint string, page gen.Embed) (gen.Embed, bool) {
	res, err := f.Get(ctx, endpoint)
	if err != nil {
		return page, false
	}
	var o oEmbed
	if err := json.Unmarshal(res.Body, &o); err != nil {
		return page, false
	}
	e := page
	if o.Title != "" {
		e.Title = o.Title
	}
	if o.ProviderName != "" {
		e.Site = o.ProviderName
	}
	switch {
	case (o.Type == "rich" || o.Type == "video") && o.HTML != "":
		e.Type, e.Html = gen.EmbedTypeRich, &o.HTML
	case o.Type == "photo" && o.URL != "":
		if img, err := url.Parse(o.URL); err == nil && (img.Scheme == "http" || img.Scheme == "https") {
			h := `<img src="` + html.EscapeString(o.URL) + `" alt="` + html.EscapeString(e.Title) + `">`
			e.Type, e.Html = gen.EmbedTypeRich, &h
		}
	}
	return e, true
}

// headMeta is what a page's head says about it.
type headMeta struct {
	title, site, icon, oembed string
}

// readHeadMeta reads the head of an HTML page: its title (og:title over <title>), site name
// (og:site_name), icon and oEmbed endpoint. It stops at the body.
func readHeadMeta(body []byte) headMeta {
	var m headMeta
	var title, ogTitle string
	z := xhtml.NewTokenizer(bytes.NewReader(body))
	inTitle := false
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return m.withTitle(ogTitle, title)
		case xhtml.TextToken:
			if inTitle {
				title += string(z.Text())
			}
		case xhtml.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "title":
				inTitle = false
			case "head":
				return m.withTitle(ogTitle, title)
			}
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			switch string(name) {
			case "body":
				return m.withTitle(ogTitle, title)
			case "title":
				inTitle = true
			case "meta":
				switch attrs["property"] {
				case "og:title":
					ogTitle = attrs["content"]
				case "og:site_name":
					m.site = strings.TrimSpace(attrs["content"])
				}
			case "link":
				rel := strings.Fields(strings.ToLower(attrs["rel"]))
				switch {
				case hasWord(rel, "alternate") && strings.EqualFold(attrs["type"], "application/json+oembed") && m.oembed == "":
					m.oembed = attrs["href"]
				case hasWord(rel, "icon") && m.icon == "":
					m.icon = attrs["href"]
				}
			}
		}
	}
}

func (m headMeta) withTitle(og, title string) headMeta {
	m.title = strings.TrimSpace(og)
	if m.title == "" {
		m.title = strings.Join(strings.Fields(title), " ")
	}
	return m
}

func hasWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

// absoluteURL resolves a page's reference against its URL; only http(s) results count.
func absoluteURL(base *url.URL, ref string) string {
	if strings.TrimSpace(ref) == "" {
		return ""
	}
	r, err := base.Parse(strings.TrimSpace(ref))
	if err != nil || (r.Scheme != "http" && r.Scheme != "https") {
		return ""
	}
	return r.String()
}
