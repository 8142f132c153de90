package server

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Custom hostnames and subdomains. A site with a hostname is served at it (quire behind a proxy
// that terminates TLS: server/web/hosts.go); a DNS check says whether the name points at quire's
// configured address, looked up through an injectable resolver.

// hostnameTarget is the address custom hostnames must point at: the one configured, else the
// base URL's host.
func hostnameTarget(configured, baseURL string) string {
	if configured != "" {
		return strings.ToLower(configured)
	}
	if u, err := url.Parse(baseURL); err == nil {
		return strings.ToLower(u.Hostname())
	}
	return ""
}

// check looks a hostname up and says what it points at: dns_passed when at quire's address,
// dns_no_cname when it resolves to nothing, dns_wrong_cname when elsewhere (where, in detail).
func (h hostnameChecks) check(ctx context.Context, hostname string) (status, detail string) {
	var want []string
	for _, part := range strings.Split(h.target, ",") {
		if ip := net.ParseIP(strings.TrimSpace(part)); ip != nil {
			want = append(want, ip.String())
		}
	}
	targetName := ""
	if len(want) == 0 {
		targetName = strings.TrimSuffix(h.target, ".")
	}
	cname, _ := h.resolver.LookupCNAME(ctx, hostname)
	cname = strings.ToLower(strings.TrimSuffix(cname, "."))
	if targetName != "" && cname == targetName {
		return "dns_passed", ""
	}
	addrs, _ := h.resolver.LookupHost(ctx, hostname)
	if len(addrs) == 0 && (cname == "" || cname == hostname) {
		return "dns_no_cname", hostname + " does not resolve"
	}
	if targetName != "" {
		want, _ = h.resolver.LookupHost(ctx, targetName)
	}
	for _, a := range addrs {
		if slices.Contains(want, a) {
			return "dns_passed", ""
		}
	}
	where := strings.Join(addrs, ", ")
	if cname != "" && cname != hostname {
		where = cname
	}
	return "dns_wrong_cname", fmt.Sprintf("%s points at %s, not at quire's address %s", hostname, where, h.target)
}

// findHostnameSite returns the site with a hostname when the caller has min on it (ENOTFOUND
// otherwise, as for a hostname no site has).
func (s *Server) findHostnameSite(ctx context.Context, hostname string, min store.Role) (*store.Site, error) {
	site, err := s.Store.FindSiteByHostname(ctx, strings.ToLower(hostname))
	if err != nil {
		return nil, err
	}
	site, _, err = s.Access.FindSite(ctx, site.OrganizationID, site.ID, min)
	return site, err
}

func (s *Server) GetCustomHostname(ctx context.Context, req gen.GetCustomHostnameRequestObject) (gen.GetCustomHostnameResponseObject, error) {
	site, err := s.findHostnameSite(ctx, req.Hostname, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out := gen.CustomHostname{Object: gen.CustomHostnameObjectCustomHostname, Hostname: *site.Hostname}
	out.Target.Type, out.Target.Site = gen.SiteTargetTypeSite, site.ID
	out.Urls.Location = s.apiURL("/custom-hostnames/" + *site.Hostname)
	c, err := s.Store.FindSiteHostnameCheck(ctx, site.ID, *site.Hostname)
	switch {
	case err == nil:
		status := gen.CustomHostnameStatus(c.Status)
		out.Status, out.IsActive = &status, c.Status == "dns_passed"
	case store.ErrorCode(err) != store.ENOTFOUND:
		return nil, err
	}
	return gen.GetCustomHostname200JSONResponse(out), nil
}

func (s *Server) DnsRevalidateCustomHostname(ctx context.Context, req gen.DnsRevalidateCustomHostnameRequestObject) (gen.DnsRevalidateCustomHostnameResponseObject, error) {
	site, err := s.findHostnameSite(ctx, req.Hostname, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	status, detail := s.hostnames.check(ctx, *site.Hostname)
	if err := s.Store.RecordSiteHostnameCheck(ctx, &store.SiteHostnameCheck{SiteID: site.ID, Hostname: *site.Hostname, Status: status}); err != nil {
		return nil, err
	}
	if status != "dns_passed" {
		return nil, store.Errorf(store.ECONFLICT, "%s (%s).", detail, status)
	}
	return gen.DnsRevalidateCustomHostname204Response{}, nil
}

func (s *Server) RemoveCustomHostname(ctx context.Context, req gen.RemoveCustomHostnameRequestObject) (gen.RemoveCustomHostnameResponseObject, error) {
	site, err := s.findHostnameSite(ctx, req.Hostname, store.RoleCreate)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return gen.RemoveCustomHostname204Response{}, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.UpdateSite(ctx, site.ID, store.SiteUpdate{SetHostname: true}); err != nil {
		return nil, err
	}
	return gen.RemoveCustomHostname205Response{}, nil
}

func (s *Server) GetSubdomain(ctx context.Context, req gen.GetSubdomainRequestObject) (gen.GetSubdomainResponseObject, error) {
	orgID, err := s.Store.FindOrganizationIDByHostname(ctx, req.Subdomain)
	if err != nil {
		return nil, err
	}
	if _, err := s.Access.RequireOrgRole(ctx, orgID, store.RoleRead); err != nil {
		return nil, err
	}
	out := gen.Subdomain{Object: gen.SubdomainObjectSubdomain, Subdomain: strings.ToLower(req.Subdomain), IsActive: true}
	out.Target.Type, out.Target.Organization = gen.OrganizationTargetTypeOrganization, orgID
	return gen.GetSubdomain200JSONResponse(out), nil
}
