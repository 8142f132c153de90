package web

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// webTree is the page tree of a site space's current revision as the visitor sees it.
type webTree struct {
	all     map[string]*store.RevisionPage // every page of the revision, by id and by path
	visible []*store.RevisionPage          // pages whose conditions (and their parents') hold, in tree order
	nav     []*store.RevisionPage          // of those, the ones not hidden (nor under a hidden page)
	landing *store.RevisionPage
	url     string // the variant's URL
	seen    map[string]bool
	// docs are the listed document pages: what previous/next and the sitemap go through (groups
	// are headings, links open their targets).
	docs []*store.RevisionPage
	// spaceURL is where a link to a space opens ("" nowhere the visitor can go); nil: nowhere.
	spaceURL func(spaceID string) string
}

// loadTree reads the tree a visitor with claims sees; all (members in the app) sees every page,
// hidden ones listed too.
func (s *Server) loadTree(ctx context.Context, ss *store.SiteSpace, claims map[string]any, variantURL string, all bool) (*webTree, error) {
	rev, err := s.Store.FindRevision(ctx, ss.Space.ID, ss.Space.RevisionID)
	if err != nil {
		return nil, err
	}
	t := &webTree{all: make(map[string]*store.RevisionPage, 2*len(rev.Pages)), url: variantURL, seen: map[string]bool{}}
	shown, listed := map[string]bool{}, map[string]bool{}
	for _, p := range rev.Pages { // parents come before their children
		t.all[p.ID], t.all["path:"+p.Path] = p, p
		parentShown, parentListed := true, true
		if p.ParentID != nil {
			parentShown, parentListed = shown[*p.ParentID], listed[*p.ParentID]
		}
		if !all && (!parentShown || !access.Visible(p.Condition, claims)) {
			continue
		}
		shown[p.ID], t.seen[p.ID] = true, true
		t.visible = append(t.visible, p)
		if all || parentListed && !p.Hidden {
			listed[p.ID] = true
			t.nav = append(t.nav, p)
		}
	}
	var firstVisible *store.RevisionPage
	for _, p := range t.visible {
		if p.Kind() == store.PageDocument && firstVisible == nil {
			firstVisible = p
		}
	}
	for _, p := range t.nav {
		if p.Kind() == store.PageDocument {
			t.docs = append(t.docs, p)
		}
	}
	switch {
	case ss.PageID != nil && t.seen[*ss.PageID] && t.all[*ss.PageID].Kind() == store.PageDocument:
		// The site space's own home page, when the visitor may read it.
		t.landing = t.all[*ss.PageID]
	case len(t.docs) > 0:
		t.landing = t.docs[0]
	default:
		t.landing = firstVisible
	}
	return t, nil
}

// pageURL is where a page of the tree is read: the variant's root for its first page.
func (t *webTree) pageURL(p *store.RevisionPage) string {
	if p == t.landing {
		return t.url + "/"
	}
	return t.url + "/" + p.Path
}

// find returns a visible page by path ("" is the landing page).
func (t *webTree) find(path string) *store.RevisionPage {
	if path == "" {
		return t.landing
	}
	if p := t.all["path:"+path]; p != nil && t.seen[p.ID] && p.Kind() == store.PageDocument {
		return p
	}
	return nil
}

// openURL is where an entry of the sidebar (or a search hit) leads: a document's page, a link's
// target, a group's first listed document. ok is false when it leads nowhere the visitor can go.
func (t *webTree) openURL(p *store.RevisionPage) (u string, external, ok bool) {
	switch p.Kind() {
	case store.PageGroup:
		for _, d := range t.docs {
			if d.ParentID != nil && *d.ParentID == p.ID {
				return t.pageURL(d), false, true
			}
		}
		return "", false, false
	case store.PageLink:
		target := p.Target
		switch {
		case target == nil:
		case target.Kind == store.TargetURL:
			return target.URL, true, true
		case target.Kind == store.TargetPage && target.Space == "":
			if d := t.all[target.Page]; d != nil && t.seen[d.ID] && d.Kind() == store.PageDocument {
				return t.pageURL(d), false, true
			}
		case target.Kind == store.TargetSpace && t.spaceURL != nil:
			if u := t.spaceURL(target.Space); u != "" {
				return u, false, true
			}
		}
		return "", false, false
	}
	return t.pageURL(p), false, true
}

// webNav is an entry of the sidebar: a page, a link (External when it leaves quire) or a group's
// heading over its pages.
type webNav struct {
	Title, URL, Emoji string
	Current           bool
	Group, External   bool
	Children          []*webNav
}

// sidebar is the tree of listed pages, the current one marked. A link that leads nowhere the
// visitor can go is left out.
func (t *webTree) sidebar(current *store.RevisionPage) []*webNav {
	byID := map[string]*webNav{}
	var root []*webNav
	for _, p := range t.nav {
		n := &webNav{Title: p.NavTitle(), Current: p == current, Group: p.Kind() == store.PageGroup}
		if !n.Group {
			u, external, ok := t.openURL(p)
			if !ok {
				continue
			}
			n.URL, n.External = u, external
		}
		if p.Emoji != nil {
			n.Emoji = emojiText(*p.Emoji)
		}
		byID[p.ID] = n
		if p.ParentID != nil && byID[*p.ParentID] != nil {
			byID[*p.ParentID].Children = append(byID[*p.ParentID].Children, n)
		} else {
			root = append(root, n)
		}
	}
	return root
}

// emojiText is an emoji as characters: GitBook stores them as code points ("1f680").
func emojiText(e string) string {
	if !codePoints.MatchString(e) {
		return e
	}
	var b strings.Builder
	for _, part := range strings.Split(e, "-") {
		if r, err := strconv.ParseUint(part, 16, 32); err == nil && utf8.ValidRune(rune(r)) {
			b.WriteRune(rune(r))
		}
	}
	return b.String()
}

var codePoints = regexp.MustCompile(`^[0-9a-fA-F]{2,6}(-[0-9a-fA-F]{2,6})*$`)
