package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	"github.com/labstack/echo/v4"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/quire-docs/quire/store"
)

// The SAML login (issue 14), outside /v1 and without a token: the start URL sends the browser to
// the identity provider with an AuthnRequest (HTTP-Redirect binding, query-signed with quire's
// SP key); the provider POSTs its signed Response to the ACS URL, which crewjam/saml checks
// (signature against the provider's certificate, issuer, destination, audience, validity window,
// InResponseTo) before the store consumes the assertion once and answers an API token.
const (
	samlStartRoute    = "/sso/saml/:providerId/start"
	samlACSRoute      = "/sso/saml/:providerId/acs"
	samlMetadataRoute = "/sso/saml/:providerId/metadata"
)

// spKeySetting holds quire's SAML service-provider key and certificate (PEM), made once and
// shared by every node through the settings table, as the visitor secret is.
const spKeySetting = "saml_sp_key"

func (s *Server) spKeyPair(ctx context.Context) (*rsa.PrivateKey, *x509.Certificate, error) {
	s.samlKeys.mu.Lock()
	defer s.samlKeys.mu.Unlock()
	if s.samlKeys.key != nil {
		return s.samlKeys.key, s.samlKeys.cert, nil
	}
	stored, err := s.Store.Setting(ctx, spKeySetting)
	if err != nil {
		return nil, nil, err
	}
	if stored == "" {
		fresh, err := newSPKeyPEM(s.Store.Now())
		if err != nil {
			return nil, nil, err
		}
		// Another node may have stored its pair first: everyone uses the stored one.
		if stored, err = s.Store.EnsureSetting(ctx, spKeySetting, fresh); err != nil {
			return nil, nil, err
		}
	}
	key, cert, err := parseSPKeyPEM(stored)
	if err != nil {
		return nil, nil, err
	}
	s.samlKeys.key, s.samlKeys.cert = key, cert
	return key, cert, nil
}

// newSPKeyPEM makes an RSA key and a self-signed certificate for it (IdPs only pin it).
func newSPKeyPEM(now time.Time) (string, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return "", err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "quire SAML service provider"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(20, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", err
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})) +
		string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), nil
}

func parseSPKeyPEM(text string) (*rsa.PrivateKey, *x509.Certificate, error) {
	var key *rsa.PrivateKey
	var cert *x509.Certificate
	rest := []byte(text)
	for {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			break
		}
		switch block.Type {
		case "PRIVATE KEY":
			k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("server: bad SAML SP key: %w", err)
			}
			var ok bool
			if key, ok = k.(*rsa.PrivateKey); !ok {
				return nil, nil, errors.New("server: the SAML SP key is not an RSA key")
			}
		case "CERTIFICATE":
			c, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("server: bad SAML SP certificate: %w", err)
			}
			cert = c
		}
	}
	if key == nil || cert == nil {
		return nil, nil, errors.New("server: the SAML SP setting lacks its key or certificate")
	}
	return key, cert, nil
}

// serviceProvider is quire's SAML service provider for one identity provider, reading the
// store's clock. A provider whose certificate no longer parses answers 403 saying so.
func (s *Server) serviceProvider(ctx context.Context, p *store.SAMLProvider) (*saml.ServiceProvider, error) {
	idpCert, err := parseIdPCertificate(p.Certificate)
	if err != nil {
		return nil, &httpError{http.StatusForbidden, "certificate: the provider's certificate does not parse, so nobody can sign in through it; an admin must set it again."}
	}
	key, cert, err := s.spKeyPair(ctx)
	if err != nil {
		return nil, err
	}
	acs, _ := url.Parse(s.samlURL(p.ID, "acs"))
	meta, _ := url.Parse(s.samlURL(p.ID, "metadata"))
	return &saml.ServiceProvider{
		EntityID:    meta.String(),
		Key:         key,
		Certificate: cert,
		MetadataURL: *meta,
		AcsURL:      *acs,
		IDPMetadata: &saml.EntityDescriptor{
			EntityID: p.EntityID,
			IDPSSODescriptors: []saml.IDPSSODescriptor{{
				SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
					ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
					KeyDescriptors: []saml.KeyDescriptor{{Use: "signing", KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
						X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(idpCert.Raw)}}}}}},
				}},
				SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.SSOURL}},
			}},
		},
		AuthnNameIDFormat: saml.EmailAddressNameIDFormat,
		// Logins the identity provider starts carry no InResponseTo; the replay record still
		// accepts each assertion once.
		AllowIDPInitiated: true,
		SignatureMethod:   dsig.RSASHA256SignatureMethod,
		Clock:             dsig.NewFakeClockAt(s.Store.Now()),
		// The identity provider's certificate is pinned by the admin: its dates do not matter.
		IgnoreCertificateExpiry: true,
	}, nil
}

// samlProvider finds the provider a login URL names (404 in the API's error shape otherwise).
func (s *Server) samlProvider(c echo.Context) (*store.SAMLProvider, *saml.ServiceProvider, error) {
	p, err := s.Store.FindSAMLProviderByID(c.Request().Context(), c.Param("providerId"))
	if err != nil {
		return nil, nil, err
	}
	sp, err := s.serviceProvider(c.Request().Context(), p)
	if err != nil {
		return nil, nil, err
	}
	return p, sp, nil
}

// relayState carries the AuthnRequest's id through the identity provider, MACed so the ACS can
// trust it as the request it answers without keeping per-login state on any node. A login started
// from the app carries, under the same MAC, the app path to return to (next).
func (s *Server) relayState(providerID, requestID, next string) string {
	r := requestID + "." + s.relayMAC(providerID, requestID, next)
	if next != "" {
		r += "." + next
	}
	return r
}

func (s *Server) relayMAC(providerID, requestID, next string) string {
	m := hmac.New(sha256.New, s.VisitorSecret)
	m.Write([]byte("saml-relay\x00" + providerID + "\x00" + requestID))
	if next != "" {
		m.Write([]byte("\x00app\x00" + next))
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// readRelay reads a RelayState: the AuthnRequest ids a Response may answer (the one it vouches
// for) and, for a login started from the app, the app path to return to.
func (s *Server) readRelay(providerID, relay string) (ids []string, next string) {
	id, rest, ok := strings.Cut(relay, ".")
	mac, next, _ := strings.Cut(rest, ".")
	if !ok || strings.ContainsRune(id, 0) || subtle.ConstantTimeCompare([]byte(mac), []byte(s.relayMAC(providerID, id, next))) != 1 {
		return nil, ""
	}
	return []string{id}, next
}

// serveSAMLStart sends the browser to the identity provider. With return=/app… the login was
// started from the app: the ACS then opens an app session and goes back there.
func (s *Server) serveSAMLStart(c echo.Context) error {
	next := c.QueryParam("return")
	if next != "" && (s.Web == nil || s.Web.AppReturnPath(next) != next || len(next) > 512) {
		return &httpError{http.StatusBadRequest, "return: a path of the app (/app…, at most 512 characters) is required."}
	}
	p, sp, err := s.samlProvider(c)
	if err != nil {
		return err
	}
	req, err := sp.MakeAuthenticationRequest(p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return err
	}
	u, err := req.Redirect(s.relayState(p.ID, req.ID, next), sp)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, u.String())
}

func (s *Server) serveSAMLMetadata(c echo.Context) error {
	_, sp, err := s.samlProvider(c)
	if err != nil {
		return err
	}
	el, err := sp.SignedMetadata()
	if err != nil {
		return err
	}
	doc := etree.NewDocument()
	doc.SetRoot(el)
	out, err := doc.WriteToBytes()
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "application/samlmetadata+xml", out)
}

// samlURL is quire's own URL of a provider's SAML endpoint: start, acs or metadata (the SP entity id).
func (s *Server) samlURL(providerID, what string) string {
	return s.BaseURL + "/sso/saml/" + url.PathEscape(providerID) + "/" + what
}

// parseIdPCertificate reads an identity provider's certificate as admins paste it: PEM, or the
// base64 body of the DER as metadata files and IdP consoles hand it out (whitespace allowed).
func parseIdPCertificate(text string) (*x509.Certificate, error) {
	der := []byte(nil)
	if block, _ := pem.Decode([]byte(strings.TrimSpace(text))); block != nil {
		if block.Type != "CERTIFICATE" {
			return nil, badRequest("certificate: a PEM block of type " + block.Type + " is not a CERTIFICATE.")
		}
		der = block.Bytes
	} else {
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return nil, badRequest("certificate: neither PEM nor the base64 body of an X.509 certificate.")
		}
		der = b
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, badRequest("certificate: not a parseable X.509 certificate (" + err.Error() + ").")
	}
	return cert, nil
}
