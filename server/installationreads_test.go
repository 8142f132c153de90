package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestGetIntegrationInstallationById(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.publish(t, "readable", publishBody(w.org.Id, "space:content:read"))
	mine := w.install(t, w.admin, "readable", w.org.Id)
	theirs := w.install(t, w.outsider, "readable", w.other.Id)
	path := func(id string) string { return "/integrations/readable/installations/" + id }

	var got gen.IntegrationInstallation
	w.Expect(t, http.StatusOK, w.admin, "GET", path(mine.Id), nil).Decode(t, &got)
	if got.Id != mine.Id || got.Status != mine.Status || got.Urls.Location != mine.Urls.Location {
		t.Errorf("read %+v, installed %+v", got, mine)
	}
	// The integration's authors read every installation; another organization's admins their own.
	w.Expect(t, http.StatusOK, w.admin, "GET", path(theirs.Id), nil).Decode(t, &got)
	if got.Id != theirs.Id {
		t.Errorf("read %+v", got)
	}
	w.Expect(t, http.StatusOK, w.outsider, "GET", path(theirs.Id), nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", path(mine.Id), nil)
	w.Expect(t, http.StatusNotFound, w.reader, "GET", path(theirs.Id), nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", path("nope"), nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/nope/installations/"+mine.Id, nil)
	w.Expect(t, http.StatusUnauthorized, nil, "GET", path(mine.Id), nil)

	// An installation token reads its own installation, no other.
	var tok gen.IntegrationInstallationToken
	w.Expect(t, http.StatusOK, w.admin, "POST", path(theirs.Id)+"/tokens", nil).Decode(t, &tok)
	inst := &testUser{Token: tok.Token}
	w.Expect(t, http.StatusOK, inst, "GET", path(theirs.Id), nil).Decode(t, &got)
	if got.Id != theirs.Id {
		t.Errorf("the installation reads %+v", got)
	}
	w.Expect(t, http.StatusForbidden, inst, "GET", path(mine.Id), nil)
}

func TestDisableIntegrationDevelopmentMode(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.publish(t, "devoff", publishBody(w.org.Id))
	dev := "/integrations/devoff/dev"
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", dev, map[string]any{"tunnelUrl": "https://tunnel.example.com", "all": true})
	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", dev, nil)
	w.Expect(t, http.StatusForbidden, w.outsider, "DELETE", dev, nil) // a public integration: visible, not theirs
	w.Expect(t, http.StatusNotFound, w.admin, "DELETE", "/integrations/nope/dev", nil)
	in, _ := w.Store.FindIntegrationByName(context.Background(), "devoff")
	if in.DevTunnelURL == nil {
		t.Fatal("a refused call cleared the tunnel")
	}
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", dev, nil)
	in, _ = w.Store.FindIntegrationByName(context.Background(), "devoff")
	if in.DevTunnelURL != nil || in.DevAll {
		t.Fatalf("dev mode after disabling: %v %v", in.DevTunnelURL, in.DevAll)
	}
	// Disabling again is no error.
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", dev, nil)
}
