package server

import (
	"net/url"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// A document page's cover image, as content batches set it and pages answer it.

// pageCover reads change i's cover.
func pageCover(i int, in gen.PageCoverInput) (*store.PageCover, error) {
	c := &store.PageCover{}
	var err error
	if c.File, c.URL, err = coverRef(i, "cover.ref", in.Ref); err != nil {
		return nil, err
	}
	if in.RefDark != nil {
		if c.DarkFile, c.DarkURL, err = coverRef(i, "cover.refDark", *in.RefDark); err != nil {
			return nil, err
		}
	}
	if in.YPos != nil {
		c.YPos = float64(*in.YPos)
	}
	if in.Height != nil {
		c.Height = float64(*in.Height)
	}
	return c, nil
}

// coverRef reads a cover's image: a file (by id or batch ref) or an http(s) address.
func coverRef(i int, field string, r gen.PageCoverRef) (file, address string, err error) {
	switch r.Kind {
	case gen.PageCoverRefKindFile:
		if r.File == nil || r.Url != nil {
			return "", "", batchError(i, field, "a file cover names its file (file) and nothing else")
		}
		return *r.File, "", nil
	default:
		if r.Url == nil || r.File != nil {
			return "", "", batchError(i, field, "a url cover names its address (url) and nothing else")
		}
		u, perr := url.Parse(*r.Url)
		if perr != nil || !u.IsAbs() || u.Host == "" || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) {
			return "", "", batchError(i, field+".url", "%q is not an http or https address", *r.Url)
		}
		return "", *r.Url, nil
	}
}

// toAPICover answers a page's cover (nil: none).
func toAPICover(c *store.PageCover) *gen.PageCover {
	if c == nil {
		return nil
	}
	ref := func(file, address string) gen.PageCoverRef {
		if file != "" {
			return gen.PageCoverRef{Kind: gen.PageCoverRefKindFile, File: &file}
		}
		return gen.PageCoverRef{Kind: gen.PageCoverRefKindUrl, Url: &address}
	}
	out := &gen.PageCover{Ref: ref(c.File, c.URL), YPos: float32(c.YPos)}
	if c.DarkFile != "" || c.DarkURL != "" {
		dark := ref(c.DarkFile, c.DarkURL)
		out.RefDark = &dark
	}
	if c.Height != 0 {
		h := float32(c.Height)
		out.Height = &h
	}
	return out
}
