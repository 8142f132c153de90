package server_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

// fakeResolver answers DNS lookups from its maps.
type fakeResolver struct {
	mu     sync.Mutex
	cnames map[string]string
	hosts  map[string][]string
}

func (r *fakeResolver) LookupCNAME(_ context.Context, host string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.cnames[host]; ok {
		return c, nil
	}
	return host + ".", nil
}

func (r *fakeResolver) LookupHost(_ context.Context, host string) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hosts[host], nil
}

func (r *fakeResolver) set(host, cname string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cnames[host], r.hosts[host] = cname, addrs
}

// TestCustomHostnames: a site's hostname is read, checked against quire's configured address
// through DNS (a CNAME to it, or the same addresses), and removed; a hostname another site has is
// refused; other organizations see none of it.
func TestCustomHostnames(t *testing.T) {
	t.Parallel()
	dns := &fakeResolver{cnames: map[string]string{}, hosts: map[string][]string{"sites.quire.test": {"203.0.113.5"}}}
	w := newWorld(t, server.Options{Resolver: dns, HostnameTarget: "sites.quire.test"})
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{"title": "Docs"})
	other := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{"title": "Other"})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id+"/sites/"+site.Id, map[string]any{"hostname": "docs.acme.test"})
	w.Expect(t, http.StatusConflict, w.admin, "PATCH", "/orgs/"+w.org.Id+"/sites/"+other.Id, map[string]any{"hostname": "docs.acme.test"})

	path := "/custom-hostnames/docs.acme.test"
	h := getJSON[gen.CustomHostname](t, w.testServer, w.reader, path)
	if h.Hostname != "docs.acme.test" || h.Target.Site != site.Id || h.IsActive || h.Status != nil || h.Urls.Location != testBaseURL+"/v1"+path {
		t.Fatalf("hostname before a check: %+v", h)
	}
	status := func() (string, bool) {
		t.Helper()
		h := getJSON[gen.CustomHostname](t, w.testServer, w.reader, path)
		return string(*h.Status), h.IsActive
	}

	w.Expect(t, http.StatusConflict, w.admin, "PATCH", path, nil)
	if s, active := status(); s != "dns_no_cname" || active {
		t.Fatalf("unresolved: %s %v", s, active)
	}
	dns.set("docs.acme.test", "elsewhere.example.", "198.51.100.7")
	wantMessage(t, w.Expect(t, http.StatusConflict, w.admin, "PATCH", path, nil), "elsewhere.example", "sites.quire.test")
	if s, active := status(); s != "dns_wrong_cname" || active {
		t.Fatalf("wrong CNAME: %s %v", s, active)
	}
	dns.set("docs.acme.test", "sites.quire.test.", "203.0.113.5")
	w.Expect(t, http.StatusNoContent, w.admin, "PATCH", path, nil)
	if s, active := status(); s != "dns_passed" || !active {
		t.Fatalf("CNAME to quire: %s %v", s, active)
	}
	dns.set("docs.acme.test", "", "203.0.113.5") // an A record with quire's address
	w.Expect(t, http.StatusNoContent, w.admin, "PATCH", path, nil)

	w.Expect(t, http.StatusForbidden, w.reader, "PATCH", path, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", path, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "PATCH", path, nil)
	w.Expect(t, http.StatusNoContent, w.outsider, "DELETE", path, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/custom-hostnames/nowhere.acme.test", nil)

	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", path, nil)
	if got := getJSON[gen.Site](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/sites/"+site.Id); got.Hostname != nil {
		t.Fatalf("the site kept its hostname: %v", *got.Hostname)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", path, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", path, nil)
	// Free again: the other site may take it.
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id+"/sites/"+other.Id, map[string]any{"hostname": "docs.acme.test"})
}

// TestSubdomain: an organization's hostname is its subdomain, for its members only.
func TestSubdomain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, map[string]any{"hostname": "acme-docs"})
	sub := getJSON[gen.Subdomain](t, w.testServer, w.reader, "/subdomains/acme-docs")
	if sub.Subdomain != "acme-docs" || sub.Target.Organization != w.org.Id || !sub.IsActive {
		t.Fatalf("subdomain: %+v", sub)
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/subdomains/acme-docs", nil)
	w.Expect(t, http.StatusNotFound, w.reader, "GET", "/subdomains/nobody-here", nil)
	w.Expect(t, http.StatusBadRequest, w.reader, "GET", "/subdomains/A_B", nil)
}
