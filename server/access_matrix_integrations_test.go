package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The rows of integrations. The matrix's integration is private to the organization, so the
// outsider cannot tell it exists (404); members read it and its installation lists (a member
// who administers nothing lists none); publishing, installing, configuring, minting tokens,
// events and development mode take the admin role.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

// matrixIntegrationState is what the rows share in one world: the integration, its installation
// on the organization, and one of its events.
type matrixIntegrationState struct {
	name, installation, event string
}

var matrixIntegrations = map[*matrixWorld]*matrixIntegrationState{}

func (w *matrixWorld) integrationBody() map[string]any {
	return map[string]any{"organization": w.org.Id, "title": "Matrix", "description": "d", "script": "s",
		"scopes": []string{"space:content:read"}, "visibility": "private"}
}

// freshIntegration publishes a private integration of the organization as the admin.
func (w *matrixWorld) freshIntegration(t *testing.T) string {
	t.Helper()
	w.n++
	name := "matrix-" + string(rune('a'+w.n%26)) + "-" + w.org.Id[:6] + "-" + itoa(w.n)
	w.Expect(t, http.StatusOK, w.admin, "POST", "/integrations/"+name, w.integrationBody())
	return name
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func (w *matrixWorld) integration(t *testing.T) *matrixIntegrationState {
	t.Helper()
	if s := matrixIntegrations[w]; s != nil {
		return s
	}
	s := &matrixIntegrationState{name: w.freshIntegration(t)}
	var n gen.IntegrationInstallation
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/integrations/"+s.name+"/installations", map[string]any{"organization": w.org.Id}).Decode(t, &n)
	s.installation = n.Id
	var events gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/"+s.name+"/events", nil).Decode(t, &events)
	s.event = events.Items[0].Id
	matrixIntegrations[w] = s
	return s
}

func matrixIntegrationRows() []matrixRow {
	in := func(t *testing.T, w *matrixWorld, rest string) string {
		return "/integrations/" + w.integration(t).name + rest
	}
	installation := func(t *testing.T, w *matrixWorld, rest string) string {
		s := w.integration(t)
		return "/integrations/" + s.name + "/installations/" + s.installation + rest
	}
	return []matrixRow{
		matrixGet("listIntegrations", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(w *matrixWorld) string { return "/integrations" }),
		{"getIntegrationByName", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/integrations/"+w.integration(t).name, nil)
		}},
		{"publishIntegration", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/integrations/"+w.integration(t).name, w.integrationBody())
		}},
		// As deleteSiteById: an integration the caller cannot see answers 204 and stays.
		{"unpublishIntegration", matrixWant{401, 401, 204, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			path := "/integrations/" + w.freshIntegration(t)
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"listIntegrationInstallations", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", in(t, w, "/installations"), nil)
		}},
		{"installIntegration", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/integrations/"+w.freshIntegration(t)+"/installations", map[string]any{"organization": w.org.Id})
		}},
		{"updateIntegrationInstallation", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", installation(t, w, ""), map[string]any{"externalIds": []string{"x"}})
		}},
		{"createIntegrationInstallationToken", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", installation(t, w, "/tokens"), nil)
		}},
		{"installIntegrationOnSpace", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", installation(t, w, "/spaces"), map[string]any{"space": w.freshSpace(t)})
		}},
		{"installIntegrationOnSite", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", installation(t, w, "/sites"), map[string]any{"siteId": w.freshSite(t)})
		}},
		{"listIntegrationEvents", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", in(t, w, "/events"), nil)
		}},
		{"getIntegrationEvent", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			s := w.integration(t)
			return matrixReq("GET", "/integrations/"+s.name+"/events/"+s.event, nil)
		}},
		{"listIntegrationSpaceInstallations", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", in(t, w, "/spaces"), nil)
		}},
		{"listIntegrationSiteInstallations", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", in(t, w, "/sites"), nil)
		}},
		{"setIntegrationDevelopmentMode", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", in(t, w, "/dev"), map[string]any{"tunnelUrl": "https://tunnel.example.com"})
		}},
		{"disableIntegrationDevelopmentMode", matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", in(t, w, "/dev"), nil)
		}},
		// As the installation list: members who administer nothing see no installation.
		{"getIntegrationInstallationById", matrixWant{401, 401, 404, 404, 404, 404, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", installation(t, w, ""), nil)
		}},
	}
}
