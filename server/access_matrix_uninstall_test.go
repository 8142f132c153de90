package server_test

import (
	"net/http"
	"testing"
)

// The rows of an installation's life after setup: its space and site installations one by one,
// uninstalling, and the organization's installation list. The matrix's integration is private,
// so the outsider gets 404; the members below admin get 403 (reading an installation's space and
// site installations, like changing them, takes the admin role of its organization).
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

// installedOn sets the matrix's installation up on a fresh space or site ("spaces" or "sites")
// and returns the path of that space or site installation.
func (w *matrixWorld) installedOn(t *testing.T, kind string) string {
	t.Helper()
	s := w.integration(t)
	base := "/integrations/" + s.name + "/installations/" + s.installation + "/" + kind
	if kind == "spaces" {
		id := w.freshSpace(t)
		w.Expect(t, http.StatusCreated, w.admin, "POST", base, map[string]any{"space": id})
		return base + "/" + id
	}
	id := w.freshSite(t)
	w.Expect(t, http.StatusCreated, w.admin, "POST", base, map[string]any{"siteId": id})
	return base + "/" + id
}

func matrixUninstallRows() []matrixRow {
	installation := func(t *testing.T, w *matrixWorld, rest string) string {
		s := w.integration(t)
		return "/integrations/" + s.name + "/installations/" + s.installation + rest
	}
	admins := matrixWant{401, 401, 404, 403, 403, 403, 200}
	removed := matrixWant{401, 401, 404, 403, 403, 403, 205}
	remove := func(kind string) func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
		return func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			path := w.installedOn(t, kind)
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}
	}
	return []matrixRow{
		{"listIntegrationInstallationSpaces", admins, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", installation(t, w, "/spaces"), nil)
		}},
		{"listIntegrationInstallationSites", admins, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", installation(t, w, "/sites"), nil)
		}},
		{"getIntegrationSpaceInstallation", admins, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.installedOn(t, "spaces"), nil)
		}},
		{"getIntegrationSiteInstallation", admins, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.installedOn(t, "sites"), nil)
		}},
		{"updateIntegrationSpaceInstallation", admins, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.installedOn(t, "spaces"), map[string]any{"externalIds": []string{"x"}})
		}},
		{"updateIntegrationSiteInstallation", admins, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.installedOn(t, "sites"), map[string]any{"externalIds": []string{"x"}})
		}},
		{"uninstallIntegrationFromSpace", removed, remove("spaces")},
		{"uninstallIntegrationFromSite", removed, remove("sites")},
		{"uninstallIntegration", removed, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			name := w.freshIntegration(t)
			var n struct{ Id string }
			w.Expect(t, http.StatusCreated, w.admin, "POST", "/integrations/"+name+"/installations", map[string]any{"organization": w.org.Id}).Decode(t, &n)
			path := "/integrations/" + name + "/installations/" + n.Id
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"listOrganizationInstallations", admins, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/installations"), nil)
		}},
	}
}
