package web

import (
	"context"
	"sort"
	"strings"

	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// webSite is a published site as one visitor sees it: only the sections, site spaces and pages
// whose conditions hold for the visitor's claims.
type webSite struct {
	site     *store.Site
	base     string // URL path prefix of the site: "/s/{id}", or "" at its own hostname
	claims   map[string]any
	st       *store.SiteStructure
	sections []*webSection // in tab order
	def      *webSection
	lang     string
	custom   webCustom // the site's customization documents (read by customization.go)
}

// webCustom is a site's customization as its owner put it (issue 30 item 4): the site's
// document and its site spaces' overrides.
type webCustom struct {
	site   map[string]any
	spaces map[string]map[string]any
	fonts  map[string]*store.CustomFont // the custom fonts the documents use, of the site's organization
}

// webSection is a section (or, for a site without sections, the site's root) with the site
// spaces the visitor sees: its variants.
type webSection struct {
	sec    *store.SiteSection // nil: the root of a site without sections
	url    string
	spaces []*store.SiteSpace
	def    *store.SiteSpace
}

// webTab is an entry of a navigation bar: a section, a variant, a group of sections, or an
// external link.
type webTab struct {
	Title, URL string
	Current    bool
	External   bool
	Children   []webTab
}

// loadStructure reads the site's structure and keeps what the visitor sees.
func (s *Server) loadStructure(ctx context.Context, w *webSite) error {
	all, err := s.Store.FindSiteStructure(ctx, w.site.ID)
	if err != nil {
		return err
	}
	w.st = access.ForVisitor(all, w.claims)
	live := func(list []*store.SiteSpace) []*store.SiteSpace {
		var out []*store.SiteSpace
		for _, ss := range list {
			if ss.Space != nil && ss.Space.DeletedAt == nil {
				out = append(out, ss)
			}
		}
		return out
	}
	pick := func(list []*store.SiteSpace) *store.SiteSpace {
		for _, ss := range list {
			if ss.Default {
				return ss
			}
		}
		return list[0]
	}
	if len(all.Sections) == 0 {
		if spaces := live(w.st.RootSiteSpaces); len(spaces) > 0 {
			w.sections = []*webSection{{spaces: spaces, def: pick(spaces)}}
		}
	} else {
		for _, sec := range w.orderedSections(nil) {
			if spaces := live(sec.SiteSpaces); len(spaces) > 0 {
				w.sections = append(w.sections, &webSection{sec: sec, spaces: spaces, def: pick(spaces)})
			}
		}
	}
	if len(w.sections) == 0 {
		return nil
	}
	w.def = w.sections[0]
	for _, ws := range w.sections {
		if ws.sec != nil && ws.sec.Default {
			w.def = ws
		}
	}
	for _, ws := range w.sections {
		ws.url = w.base
		if ws != w.def {
			ws.url = w.base + "/" + ws.sec.Path
		}
	}
	if lang := w.def.def.Space.Language; lang != nil && *lang != "" {
		w.lang = *lang
	}
	return nil
}

// orderedSections lists the visible sections under a group (nil: the root) depth first, in the
// order the tab bar shows them.
func (w *webSite) orderedSections(group *string) []*store.SiteSection {
	var out []*store.SiteSection
	for _, e := range w.children(group) {
		if e.sec != nil {
			out = append(out, e.sec)
		} else if e.group != nil {
			out = append(out, w.orderedSections(&e.group.ID)...)
		}
	}
	return out
}

type structureEntry struct {
	position float64
	sec      *store.SiteSection
	group    *store.SiteSectionGroup
	link     *store.SiteExternalLink
}

// children are the sections, groups and external links directly under a group (nil: the root),
// by position.
func (w *webSite) children(group *string) []structureEntry {
	var out []structureEntry
	for _, sec := range w.st.Sections {
		if store.EqualPtr(sec.GroupID, group) {
			out = append(out, structureEntry{position: sec.Position, sec: sec})
		}
	}
	for _, g := range w.st.Groups {
		if store.EqualPtr(g.ParentID, group) {
			out = append(out, structureEntry{position: g.Position, group: g})
		}
	}
	for _, l := range w.st.ExternalLinks {
		if store.EqualPtr(l.GroupID, group) {
			out = append(out, structureEntry{position: l.Position, link: l})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].position < out[j].position })
	return out
}

// localized is a title in a language, when it has one there.
func localized(title string, l store.Localized, lang string) string {
	if t := l[lang]; t != "" {
		return t
	}
	return title
}

// tabs is the tab bar: sections, external links, and groups as menus of them, titled in lang;
// none for a site with one section and no external link.
func (w *webSite) tabs(current *webSection, lang string) []webTab {
	if len(w.sections) == 0 || w.sections[0].sec == nil || len(w.sections) < 2 && len(w.st.ExternalLinks) == 0 {
		return nil
	}
	return w.groupTabs(nil, current, lang)
}

func (w *webSite) groupTabs(group *string, current *webSection, lang string) []webTab {
	byID := map[string]*webSection{}
	for _, ws := range w.sections {
		byID[ws.sec.ID] = ws
	}
	var out []webTab
	for _, e := range w.children(group) {
		if e.link != nil {
			out = append(out, webTab{Title: localized(e.link.Title, e.link.LocalizedTitle, lang), URL: e.link.URL, External: true})
			continue
		}
		if e.sec != nil {
			if ws := byID[e.sec.ID]; ws != nil {
				out = append(out, webTab{Title: localized(e.sec.Title, e.sec.LocalizedTitle, lang), URL: ws.url + "/", Current: ws == current})
			}
			continue
		}
		if kids := w.groupTabs(&e.group.ID, current, lang); len(kids) > 0 {
			t := webTab{Title: localized(e.group.Title, e.group.LocalizedTitle, lang), Children: kids}
			for _, k := range kids {
				t.Current = t.Current || k.Current
			}
			out = append(out, t)
		}
	}
	return out
}

// variantURL is where a variant of a section is read.
func (ws *webSection) variantURL(ss *store.SiteSpace) string {
	if ss == ws.def {
		return ws.url
	}
	return ws.url + "/" + ss.Path
}

// variants is the variant switcher of a section (nothing with one variant): hidden site spaces
// are left out, but for the one being read.
func (ws *webSection) variants(current *store.SiteSpace) []webTab {
	var out []webTab
	for _, ss := range ws.spaces {
		if ss.Hidden && ss != current {
			continue
		}
		out = append(out, webTab{Title: ss.DisplayTitle(), URL: ws.variantURL(ss) + "/", Current: ss == current})
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// spaceURL is where a space is read on the site: the variant of a section that shows it ("" when
// the site shows it nowhere the visitor sees).
func (w *webSite) spaceURL(spaceID string) string {
	for _, ws := range w.sections {
		for _, ss := range ws.spaces {
			if ss.Space.ID == spaceID {
				return ws.variantURL(ss) + "/"
			}
		}
	}
	return ""
}

// resolve reads a path of the site as section, variant and page path: a first segment naming a
// section picks it (else the default section), a next one naming one of its variants picks it
// (else the default variant); the rest is the page's path.
func (w *webSite) resolve(rest string) (*webSection, *store.SiteSpace, string) {
	segs := strings.FieldsFunc(rest, func(r rune) bool { return r == '/' })
	ws := w.def
	if len(segs) > 0 {
		for _, x := range w.sections {
			if x.sec != nil && x.sec.Path == segs[0] {
				ws, segs = x, segs[1:]
				break
			}
		}
	}
	ss := ws.def
	if len(segs) > 0 {
		for _, v := range ws.spaces {
			if v.Path == segs[0] {
				ss, segs = v, segs[1:]
				break
			}
		}
	}
	return ws, ss, strings.Join(segs, "/")
}

// webLink is a link with its text (previous/next, search results).
type webLink struct {
	Title, URL, Context, Snippet string
}
