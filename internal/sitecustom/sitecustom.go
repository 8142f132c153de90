// Package sitecustom layers a site's customization documents (issue 30 item 4): the site's own
// over the defaults, a site space's overrides over the site's. The API answers the layered
// document; the published pages read the fields they show from it (View).
package sitecustom

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/quire-docs/quire/store"
)

// Merge lays over on base, in place: objects merge field by field, anything else replaces, and
// null removes the field (its default, or the site's value, shows again).
func Merge(base, over map[string]any) {
	for k, v := range over {
		if v == nil {
			delete(base, k)
			continue
		}
		if vo, ok := v.(map[string]any); ok {
			if bo, ok := base[k].(map[string]any); ok {
				Merge(bo, vo)
				continue
			}
			cp := map[string]any{}
			Merge(cp, vo)
			base[k] = cp
			continue
		}
		base[k] = v
	}
}

// Decode reads a stored or received document.
func Decode(doc []byte) (map[string]any, error) {
	m := map[string]any{}
	if len(doc) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, fmt.Errorf("sitecustom: a customization is not a JSON object: %w", err)
	}
	return m, nil
}

// Layered is a site's document, with a site space's overrides over it when siteSpaceID is set,
// and when either was last put (zero when neither was).
func Layered(ctx context.Context, st store.SiteCustomizations, siteID, siteSpaceID string) (map[string]any, time.Time, error) {
	out := map[string]any{}
	var updated time.Time
	ids := []string{""}
	if siteSpaceID != "" {
		ids = append(ids, siteSpaceID)
	}
	for _, id := range ids {
		c, err := st.FindSiteCustomization(ctx, siteID, id)
		if store.ErrorCode(err) == store.ENOTFOUND {
			continue
		}
		if err != nil {
			return nil, time.Time{}, err
		}
		m, err := Decode(c.Settings)
		if err != nil {
			return nil, time.Time{}, err
		}
		Merge(out, m)
		if c.UpdatedAt.After(updated) {
			updated = c.UpdatedAt
		}
	}
	return out, updated, nil
}

// Layer lays documents over each other, the last on top, into a new document (none of them
// changes).
func Layer(docs ...map[string]any) map[string]any {
	out := map[string]any{}
	for _, d := range docs {
		Merge(out, d)
	}
	return out
}
