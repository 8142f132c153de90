package markdown

import (
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Options tune a conversion. The zero value converts without context: page links are written
// /pages/<id> and read as such, cross-space links as /spaces/<space>/pages/<id>.
type Options struct {
	// SpaceID is the space the document belongs to: page refs into it carry no `space`.
	SpaceID string
	// PagePath is the path of the page the markdown belongs to, for relative `.md` links.
	PagePath string
	// ResolvePage, when set, finds a page of the revision by id or path (for /pages/<path> and
	// relative .md links, which then become page refs).
	ResolvePage func(idOrPath string) (id string, ok bool)
}

// Link destinations in markdown and the ContentRefs they stand for:
//
//	#<anchor>                              {kind: anchor, anchor}
//	/pages/<id>                            {kind: page, page}
//	/pages/<id>#<anchor>                   {kind: anchor, anchor, page}
//	/spaces/<space>/pages/<id>[#<anchor>]  the same with `space` (another space)
//	/files/<id>                            {kind: file, file}
//	anything else                          {kind: url, url}

// refFor is the ContentRef of a markdown link destination.
func (o Options) refFor(dest string) map[string]any {
	dest = strings.TrimSpace(dest)
	asURL := map[string]any{"kind": "url", "url": dest}
	if len(dest) > 1 && dest[0] == '#' {
		return map[string]any{"kind": "anchor", "anchor": dest[1:]}
	}
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || u.RawQuery != "" || u.ForceQuery || u.Opaque != "" {
		return asURL
	}
	p, space, page := u.Path, "", ""
	segs := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case strings.HasPrefix(p, "/spaces/") && len(segs) == 4 && segs[2] == "pages" && segs[1] != "" && segs[3] != "":
		space, page = segs[1], segs[3]
		if space == o.SpaceID {
			space = ""
		}
	case strings.HasPrefix(p, "/pages/"):
		x := strings.Trim(strings.TrimPrefix(p, "/pages/"), "/")
		if x == "" {
			return asURL
		}
		if o.ResolvePage != nil {
			if id, ok := o.ResolvePage(x); ok {
				page = id
				break
			}
		}
		if strings.Contains(x, "/") {
			return asURL
		}
		page = x
	case strings.HasPrefix(p, "/files/") && len(segs) == 2 && segs[1] != "" && u.Fragment == "":
		return map[string]any{"kind": "file", "file": segs[1]}
	case o.ResolvePage != nil && !strings.HasPrefix(p, "/") && strings.HasSuffix(strings.ToLower(p), ".md"):
		target := path.Clean(path.Join(path.Dir(o.PagePath), strings.TrimSuffix(p, path.Ext(p))))
		if strings.EqualFold(path.Base(target), "readme") {
			target = path.Dir(target)
		}
		id, ok := o.ResolvePage(target)
		if !ok {
			return asURL
		}
		page = id
	default:
		return asURL
	}
	var ref map[string]any
	if u.Fragment != "" {
		ref = map[string]any{"kind": "anchor", "anchor": u.Fragment, "page": page}
	} else {
		ref = map[string]any{"kind": "page", "page": page}
	}
	if space != "" {
		ref["space"] = space
	}
	return ref
}

// destFor is the markdown link destination of a ContentRef; "" when it has none (a user, a
// collection… : the link is written as its text).
func (o Options) destFor(ref map[string]any) string {
	pages := func(space, page string) string {
		if space != "" && space != o.SpaceID {
			return "/spaces/" + space + "/pages/" + page
		}
		return "/pages/" + page
	}
	switch str(ref, "kind") {
	case "url":
		return str(ref, "url")
	case "file":
		if f := str(ref, "file"); f != "" {
			return "/files/" + f
		}
	case "page":
		if p := str(ref, "page"); p != "" {
			return pages(str(ref, "space"), p)
		}
	case "anchor":
		a, p := str(ref, "anchor"), str(ref, "page")
		if p == "" {
			return "#" + a
		}
		return pages(str(ref, "space"), p) + "#" + a
	case "space":
		if s := str(ref, "space"); s != "" {
			return "/spaces/" + s
		}
	}
	return ""
}

// Heading anchors: the heading's text lowercased, runs of other characters than [a-z0-9._+-]
// made one "-", made unique in the document with -1, -2… (the public schema's id pattern is
// ^[-a-z0-9.+_]+$).
var (
	notAnchor   = regexp.MustCompile(`[^a-z0-9._+-]+`)
	validAnchor = regexp.MustCompile(`^[-a-z0-9.+_]+$`)
)

func slug(s string) string {
	return strings.Trim(notAnchor.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// anchors hands out the heading ids of one document.
type anchors map[string]bool

// auto is the id a heading with this text gets when none is given ("" when it has none).
func (a anchors) auto(text string) string {
	base := slug(text)
	if base == "" {
		return ""
	}
	id := base
	for i := 1; a[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	return id
}

func (a anchors) use(id string) {
	if id != "" {
		a[id] = true
	}
}
