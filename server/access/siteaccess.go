package access

import (
	"context"
	"crypto/subtle"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/store"
)

// Who may open a site: a share-link site opens with its own key or the key of one of its active
// share links; a visitor token is good when signed with the server's visitor secret or with the
// site's own key (its publishing auth settings), so regenerating that key refuses the tokens
// signed with the old one.

// ShareKeyOpens tells whether a key opens a site: the site's own key, or an active share link's.
func (r *Rules) ShareKeyOpens(ctx context.Context, site *store.Site, key string) (bool, error) {
	if key == "" {
		return false, nil
	}
	if site.ShareKey != "" && subtle.ConstantTimeCompare([]byte(key), []byte(site.ShareKey)) == 1 {
		return true, nil
	}
	l, err := r.Store.FindSiteShareLinkByKey(ctx, site.ID, key)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return l.Active, nil
}

// SiteVisitorClaims verifies a visitor token for a site: signed with the server's visitor secret
// (VisitorClaims) or with the site's own key.
func (r *Rules) SiteVisitorClaims(ctx context.Context, site *store.Site, token string) (map[string]any, error) {
	claims, err := r.VisitorClaims(token)
	if err == nil {
		return claims, nil
	}
	auth, aerr := r.Store.SitePublishingAuth(ctx, site.ID)
	if aerr != nil {
		return nil, aerr
	}
	siteClaims := jwt.MapClaims{}
	if _, serr := jwt.ParseWithClaims(token, siteClaims, func(t *jwt.Token) (any, error) { return []byte(auth.PrivateKey), nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(r.Store.Now)); serr != nil {
		return nil, serr
	}
	return siteClaims, nil
}
