package webimport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"

	"github.com/quire-docs/quire/internal/fetch"
)

// Getter fetches a URL (the guarded fetcher).
type Getter interface {
	Get(ctx context.Context, rawURL string) (*fetch.Response, error)
}

// Limits bound a crawl.
type Limits struct {
	MaxPages int   // pages kept
	MaxDepth int   // links followed from the start page (0: the start page alone)
	MaxBytes int64 // bytes of HTML read in all
}

// DefaultLimits are a crawl's bounds unless told otherwise.
var DefaultLimits = Limits{MaxPages: 50, MaxDepth: 3, MaxBytes: 20 << 20}

// UserAgent is the name a crawl reads robots.txt for.
const UserAgent = "quire"

// Crawl reads a website from start: the HTML pages of the same site (scheme and host) that links
// reach, breadth first, in the order their links appear, within lim and as robots.txt allows.
// progress, when set, is told of each page read; an error from it stops the crawl (a cancelled run).
func Crawl(ctx context.Context, g Getter, start string, lim Limits, progress func([]Doc) error) ([]Doc, error) {
	u, err := url.Parse(start)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", start)
	}
	u.Fragment = ""
	robots := readRobots(ctx, g, u)
	if !robots.allows(u.EscapedPath()) {
		return nil, fmt.Errorf("%s's robots.txt disallows %s", u.Host, u.EscapedPath())
	}
	type item struct {
		url   string
		depth int
	}
	queue := []item{{u.String(), 0}}
	seen := map[string]bool{u.String(): true}
	var docs []Doc
	var read int64
	var firstErr error
	for len(queue) > 0 && len(docs) < lim.MaxPages {
		it := queue[0]
		queue = queue[1:]
		res, err := g.Get(ctx, it.url)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if mt, _, _ := mime.ParseMediaType(res.ContentType); mt != "text/html" && mt != "application/xhtml+xml" {
			continue
		}
		if read += int64(len(res.Body)); read > lim.MaxBytes {
			break
		}
		doc, err := FromHTML(res.Body, res.URL)
		if err != nil {
			continue
		}
		doc.SourceURL = it.url
		docs = append(docs, doc)
		if progress != nil {
			if err := progress(docs); err != nil {
				return nil, err
			}
		}
		if it.depth >= lim.MaxDepth {
			continue
		}
		base, err := url.Parse(res.URL)
		if err != nil {
			continue
		}
		for _, href := range links(res.Body) {
			l, err := base.Parse(strings.TrimSpace(href))
			if err != nil || l.Scheme != u.Scheme || !strings.EqualFold(l.Host, u.Host) {
				continue
			}
			l.Fragment = ""
			if seen[l.String()] || !robots.allows(l.EscapedPath()) {
				continue
			}
			seen[l.String()] = true
			queue = append(queue, item{l.String(), it.depth + 1})
		}
	}
	if len(docs) == 0 {
		if firstErr != nil {
			return nil, firstErr
		}
		return nil, errors.New("the website has no HTML page to import at " + start)
	}
	return docs, nil
}

// robots is what robots.txt says to this crawler: path prefixes allowed and disallowed.
type robots struct{ allow, disallow []string }

// allows applies the longest matching rule (Allow winning a tie), as RFC 9309 says.
func (r robots) allows(p string) bool {
	if p == "" {
		p = "/"
	}
	best, ok := -1, true
	for _, a := range r.allow {
		if strings.HasPrefix(p, a) && len(a) >= best {
			best, ok = len(a), true
		}
	}
	for _, d := range r.disallow {
		if strings.HasPrefix(p, d) && len(d) > best {
			best, ok = len(d), false
		}
	}
	return ok
}

// readRobots reads the site's robots.txt: the group naming this crawler, else the "*" group. A
// site without one (or that cannot be read) allows everything.
func readRobots(ctx context.Context, g Getter, site *url.URL) robots {
	res, err := g.Get(ctx, site.Scheme+"://"+site.Host+"/robots.txt")
	if err != nil {
		return robots{}
	}
	groups := map[string]*robots{}
	var agents []string
	inRules := false
	sc := bufio.NewScanner(strings.NewReader(string(res.Body)))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		switch key {
		case "user-agent":
			if inRules {
				agents, inRules = nil, false
			}
			agents = append(agents, strings.ToLower(val))
		case "allow", "disallow":
			inRules = true
			if val == "" {
				continue
			}
			for _, a := range agents {
				if groups[a] == nil {
					groups[a] = &robots{}
				}
				if key == "allow" {
					groups[a].allow = append(groups[a].allow, val)
				} else {
					groups[a].disallow = append(groups[a].disallow, val)
				}
			}
		}
	}
	if r := groups[UserAgent]; r != nil {
		return *r
	}
	if r := groups["*"]; r != nil {
		return *r
	}
	return robots{}
}
