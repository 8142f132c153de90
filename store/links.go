package store

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/quire-docs/quire/internal/markdown"
)

// Link is one stored link.
type Link struct {
	PageID string // the page holding it
	Kind   string // page | file | url | openapi (Target: the specification's slug)
	Target string
}

// LinkTarget is a target of a revision's links, with its status and the pages linking to it.
type LinkTarget struct {
	Kind    string
	Target  string
	Status  string // ok | broken | in-app
	Sources []string
}

// LinkStats counts a revision's links (each page's link to a target once).
type LinkStats struct {
	Total  int
	Broken int
}

// LinkFilter narrows a link list: to one page's links, to one status. AppPrefix is the URL
// prefix of quire's own app: URL links under it are `in-app`.
type LinkFilter struct {
	PageID    *string
	Status    *string
	AppPrefix string
}

// LinkResolver finds link targets in the content being written.
type LinkResolver interface {
	HasPage(id string) bool
	PathID(path string) (string, bool)
}

// ResolveLink turns a link destination of the page at pagePath into a stored link; ok is false
// for what is not a link to record (an anchor in the same page, an unknown scheme).
func ResolveLink(dest, pagePath string, r LinkResolver) (kind, target string, ok bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "#") {
		return "", "", false
	}
	u, err := url.Parse(dest)
	if err != nil {
		return "", "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return "url", dest, true
	case "":
	default:
		return "", "", false
	}
	p := u.Path
	switch {
	case strings.HasPrefix(p, "/pages/"):
		x := strings.Trim(strings.TrimPrefix(p, "/pages/"), "/")
		if r.HasPage(x) {
			return "page", x, true
		}
		if id, ok := r.PathID(x); ok {
			return "page", id, true
		}
		return "page", dest, true
	case strings.HasPrefix(p, "/files/"):
		return "file", strings.Trim(strings.TrimPrefix(p, "/files/"), "/"), true
	case strings.HasSuffix(strings.ToLower(p), ".md") && !strings.HasPrefix(p, "/"):
		dir := path.Dir(pagePath)
		target := path.Clean(path.Join(dir, strings.TrimSuffix(p, path.Ext(p))))
		if base := path.Base(target); strings.EqualFold(base, "readme") {
			target = path.Dir(target)
		}
		if id, ok := r.PathID(target); ok {
			return "page", id, true
		}
		return "page", dest, true
	}
	return "", "", false
}

// PageLinks extracts and resolves the links of pages (their Markdown set).
func PageLinks(pages []*RevisionPage, r LinkResolver) []Link {
	dests := make([][]string, len(pages))
	for i, p := range pages {
		dests[i] = markdown.Links(p.Markdown)
	}
	return resolvePageLinks(pages, dests, r)
}

// PageLinksAndSections is PageLinks, with each page's search sections (SplitSections, by page in
// the order of pages) from the same parse of its markdown.
func PageLinksAndSections(pages []*RevisionPage, r LinkResolver) ([]Link, [][]SearchSection) {
	dests := make([][]string, len(pages))
	sections := make([][]SearchSection, len(pages))
	for i, p := range pages {
		var parts []markdown.Section
		dests[i], parts = markdown.LinksAndSections(p.Title, p.Markdown, maxSections)
		sections[i] = searchSections(parts)
	}
	return resolvePageLinks(pages, dests, r), sections
}

// resolvePageLinks resolves the link destinations of pages (dests, by page).
func resolvePageLinks(pages []*RevisionPage, dests [][]string, r LinkResolver) []Link {
	if pre, ok := r.(linkPreloader); ok {
		// What resolution will ask is read first, at once: a read per link cost a merge of 10
		// edited pages ten round trips.
		var asked askedResolver
		for i, p := range pages {
			for _, d := range dests[i] {
				ResolveLink(d, p.Path, &asked)
			}
		}
		if len(asked.ids)+len(asked.paths) > 0 {
			pre.PreloadLinks(asked.ids, asked.paths)
		}
	}
	var out []Link
	for i, p := range pages {
		seen := map[[2]string]bool{}
		for _, d := range dests[i] {
			kind, target, ok := ResolveLink(d, p.Path, r)
			if !ok || seen[[2]string{kind, target}] {
				continue
			}
			seen[[2]string{kind, target}] = true
			out = append(out, Link{PageID: p.ID, Kind: kind, Target: target})
		}
		for _, m := range openAPIBlock.FindAllStringSubmatch(p.Markdown, -1) {
			if key := [2]string{"openapi", m[1]}; !seen[key] {
				seen[key] = true
				out = append(out, Link{PageID: p.ID, Kind: "openapi", Target: m[1]})
			}
		}
	}
	return out
}

// linkPreloader is a LinkResolver that reads at once the pages by id and by path that resolving
// links will ask it for.
type linkPreloader interface {
	PreloadLinks(ids, paths []string)
}

// askedResolver records what ResolveLink asks, and finds nothing.
type askedResolver struct{ ids, paths []string }

func (a *askedResolver) HasPage(id string) bool {
	a.ids = append(a.ids, id)
	return false
}

func (a *askedResolver) PathID(path string) (string, bool) {
	a.paths = append(a.paths, path)
	return "", false
}

// openAPIBlock is a GitBook block that shows part of one of the organization's OpenAPI
// specifications, named by slug: {% openapi-operation spec="petstore" path="/pets" method="get" %},
// likewise openapi-schemas and openapi-webhook.
var openAPIBlock = regexp.MustCompile(`\{%\s*openapi-(?:operation|schemas|webhook)\b[^%]*?\bspec\s*=\s*"([^"]+)"`)

// OpenAPILinkKey is how an OpenAPI specification of the revision's organization is listed in the
// files set LinkStatus reads: its slug, prefixed so no file id can be mistaken for it.
func OpenAPILinkKey(slug string) string { return "openapi:" + slug }

var refLink = regexp.MustCompile(`\]\(\s*/(pages|files)/([^)\s#?/]+)`)

// relRefLink is a relative link to a batch ref: ./<ref>.md for a page, ./<ref> for a file.
var relRefLink = regexp.MustCompile(`\]\(\s*(?:<\./([^>#?/]+)>|\./([^)\s#?/]+))`)

// RewriteRefs replaces the batch's refs in markdown links (/pages/<ref> and ./<ref>.md for pages,
// /files/<ref> and ./<ref> for files) by the ids they were given, so the stored markdown links to
// ids: /pages/<id> and /files/<id>.
func RewriteRefs(md string, pageRefs, fileRefs map[string]string) string {
	if len(pageRefs) == 0 && len(fileRefs) == 0 {
		return md
	}
	md = refLink.ReplaceAllStringFunc(md, func(m string) string {
		sub := refLink.FindStringSubmatch(m)
		refs := pageRefs
		if sub[1] == "files" {
			refs = fileRefs
		}
		if id, ok := refs[sub[2]]; ok {
			return strings.Replace(m, "/"+sub[1]+"/"+sub[2], "/"+sub[1]+"/"+id, 1)
		}
		return m
	})
	return relRefLink.ReplaceAllStringFunc(md, func(m string) string {
		sub := relRefLink.FindStringSubmatch(m)
		name := sub[1] + sub[2]
		if id, ok := fileRefs[name]; ok {
			return "](/files/" + id
		}
		if strings.HasSuffix(name, ".md") {
			if id, ok := pageRefs[strings.TrimSuffix(name, ".md")]; ok {
				return "](/pages/" + id
			}
		}
		return m
	})
}

// LinkStatus is ok, broken or in-app. files holds the revision's file ids and, under
// OpenAPILinkKey, the slugs of its organization's OpenAPI specifications.
func LinkStatus(l Link, pages, files map[string]bool, appPrefix string) string {
	switch {
	case l.Kind == "page" && !pages[l.Target], l.Kind == "file" && !files[l.Target],
		l.Kind == "openapi" && !files[OpenAPILinkKey(l.Target)]:
		return "broken"
	case l.Kind == "url" && appPrefix != "" && strings.HasPrefix(l.Target, appPrefix):
		return "in-app"
	}
	return "ok"
}
