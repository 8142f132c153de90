package server_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The rows of SSO (issue 14): only organization admins manage SAML providers; the login infos
// are public (a sign-in page shows them before anyone has a token).
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

var matrixSAML = struct {
	sync.Mutex
	idp       *testIdP
	providers map[*matrixWorld]string
}{providers: map[*matrixWorld]string{}}

// samlProvider is the matrix organization's SAML provider, made on first use.
func (w *matrixWorld) samlProvider(t *testing.T) string {
	matrixSAML.Lock()
	defer matrixSAML.Unlock()
	if id, ok := matrixSAML.providers[w]; ok {
		return id
	}
	if matrixSAML.idp == nil {
		matrixSAML.idp = newTestIdP(t, "https://idp.example/metadata")
	}
	id := w.freshSAMLProviderLocked(t)
	matrixSAML.providers[w] = id
	return id
}

func (w *matrixWorld) freshSAMLProviderLocked(t *testing.T) string {
	var p gen.SAMLProvider
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.orgPath("/saml"), providerBody(matrixSAML.idp, w.name("IdP"))).Decode(t, &p)
	return p.Id
}

func matrixSSORows() []matrixRow {
	return []matrixRow{
		{"listSAMLProvidersInOrganizationById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			w.samlProvider(t)
			return matrixReq("GET", w.orgPath("/saml"), nil)
		}},
		{"createOrganizationSAMLProvider", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			w.samlProvider(t)
			return matrixReq("POST", w.orgPath("/saml"), providerBody(matrixSAML.idp, "Matrix"))
		}},
		{"getOrganizationSAMLProviderById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/saml/"+w.samlProvider(t)), nil)
		}},
		{"updateOrganizationSAMLProvider", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.orgPath("/saml/"+w.samlProvider(t)), map[string]any{"label": "Renamed"})
		}},
		{"deleteOrganizationSAMLProvider", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			w.samlProvider(t)
			matrixSAML.Lock()
			id := w.freshSAMLProviderLocked(t)
			matrixSAML.Unlock()
			r := matrixReq("DELETE", w.orgPath("/saml/"+id), nil)
			r.gone = func(t *testing.T) bool { return w.status(t, w.orgPath("/saml/"+id)) == 404 }
			return r
		}},
		{"listSSOProviderLoginsInOrganization", matrixWant{200, 200, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/sso"), nil)
		}},
	}
}
