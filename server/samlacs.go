package server

import (
	"errors"
	"net/http"
	"net/mail"
	"strings"

	"github.com/crewjam/saml"
	"github.com/labstack/echo/v4"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// SAMLLogin is what the ACS URL answers for a login the identity provider vouched for: an API
// token of the member's user (shown this once) and the membership it signed in to.
type SAMLLogin struct {
	Token        string     `json:"token"`
	Organization string     `json:"organization"`
	User         gen.User   `json:"user"`
	Member       gen.Member `json:"member"`
	// Created is true when the login created the user.
	Created bool `json:"created"`
}

// samlChecks name the check a refused Response failed, in the order they are tried: the
// library attaches each kind to its error (errors.Is), and the message says which one it was.
var samlChecks = []struct {
	kind error
	msg  string
}{
	{saml.ErrMalformedMessage, "malformed: the SAMLResponse is not a well-formed SAML Response."},
	{saml.ErrUntrustedCertificate, "signature: the Response is not signed with the provider's certificate."},
	{saml.ErrInvalidSignature, "signature: the Response's signature does not verify against the provider's certificate."},
	{saml.ErrDestinationMismatch, "destination: the Response is not addressed to this provider's ACS URL."},
	{saml.ErrAudienceMismatch, "audience: the assertion is not meant for this service provider's entity ID."},
	{saml.ErrExpired, "expired: the assertion is outside its validity window (too old, or past NotOnOrAfter)."},
	{saml.ErrNotYetValid, "expired: the assertion is not valid yet (NotBefore or IssueInstant in the future)."},
	{saml.ErrIssuerMismatch, "issuer: the Response is not issued by the provider's entity ID."},
	{saml.ErrRequestIDMismatch, "request: the Response answers no login started here (InResponseTo)."},
	{saml.ErrDecryptionFailed, "encryption: the assertion cannot be decrypted."},
	{saml.ErrMissingElement, "malformed: the Response lacks a required element."},
	{saml.ErrUnsupported, "malformed: the Response uses something this service provider does not support."},
}

// samlRefusal is the 403 for a Response the library refused, naming the failed check.
func samlRefusal(err error) error {
	var status saml.ErrBadStatus
	if errors.As(err, &status) {
		return &httpError{http.StatusForbidden, "status: the identity provider did not answer success (" + status.Status + ")."}
	}
	var ire *saml.InvalidResponseError
	if errors.As(err, &ire) && ire.PrivateErr != nil && strings.Contains(ire.PrivateErr.Error(), "signature element not present") {
		// Neither the Response nor its assertion is signed (the library has no error kind for it).
		return &httpError{http.StatusForbidden, "signature: the Response and its assertion are unsigned."}
	}
	for _, c := range samlChecks {
		if errors.Is(err, c.kind) {
			return &httpError{http.StatusForbidden, c.msg}
		}
	}
	return &httpError{http.StatusForbidden, "malformed: the SAML Response was refused."}
}

// assertionEmail is the signed-in person's email: the usual email attributes, else a NameID
// that is an address.
func assertionEmail(a *saml.Assertion) string {
	for _, st := range a.AttributeStatements {
		for _, attr := range st.Attributes {
			switch strings.ToLower(attr.Name) {
			case "email", "mail", "emailaddress", "urn:oid:0.9.2342.19200300.100.1.3",
				"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress":
				for _, v := range attr.Values {
					if addr, err := mail.ParseAddress(strings.TrimSpace(v.Value)); err == nil {
						return addr.Address
					}
				}
			}
		}
	}
	if a.Subject != nil && a.Subject.NameID != nil {
		if addr, err := mail.ParseAddress(strings.TrimSpace(a.Subject.NameID.Value)); err == nil {
			return addr.Address
		}
	}
	return ""
}

// assertionName is the person's display name, when the assertion carries one.
func assertionName(a *saml.Assertion) string {
	for _, st := range a.AttributeStatements {
		for _, attr := range st.Attributes {
			switch strings.ToLower(attr.Name) {
			case "displayname", "name", "cn", "urn:oid:2.5.4.3", "urn:oid:2.16.840.1.113730.3.1.241",
				"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name":
				if len(attr.Values) > 0 && strings.TrimSpace(attr.Values[0].Value) != "" {
					return strings.TrimSpace(attr.Values[0].Value)
				}
			}
		}
	}
	return ""
}

func (s *Server) serveSAMLACS(c echo.Context) error {
	next := ""
	err := s.acs(c, &next)
	if err != nil && next != "" && s.Web != nil {
		if status, msg := apiError(c.Request(), err); status < http.StatusInternalServerError {
			return s.Web.AppSSORefused(c, status, msg)
		}
	}
	return err
}

// acs checks a posted Response and signs its person in; next is set, once the RelayState is
// verified, to the app path a login started from the app returns to.
func (s *Server) acs(c echo.Context, nextOut *string) error {
	p, sp, err := s.samlProvider(c)
	if err != nil {
		return err
	}
	r := c.Request()
	if err := r.ParseForm(); err != nil {
		return &httpError{http.StatusForbidden, "malformed: the form does not parse."}
	}
	if r.Form.Get("SAMLart") != "" {
		// Resolving an artifact would have quire call the identity provider: not supported.
		return &httpError{http.StatusForbidden, "malformed: the artifact binding is not supported; POST the Response."}
	}
	if r.PostForm.Get("SAMLResponse") == "" {
		return &httpError{http.StatusForbidden, "malformed: no SAMLResponse was posted."}
	}
	ids, next := s.readRelay(p.ID, r.PostForm.Get("RelayState"))
	*nextOut = next
	assertion, err := sp.ParseResponse(r, ids)
	if err != nil {
		var ire *saml.InvalidResponseError
		if errors.As(err, &ire) {
			s.Log.InfoContext(r.Context(), "saml response refused", "provider", p.ID, "err", ire.PrivateErr)
		}
		return samlRefusal(err)
	}
	email := assertionEmail(assertion)
	if email == "" {
		return &httpError{http.StatusForbidden, "email: the assertion names no email address (attribute or NameID)."}
	}
	// Kept until the library would refuse the assertion as too old anyway.
	expires := assertion.IssueInstant.Add(saml.MaxIssueDelay + saml.MaxClockSkew)
	// The sign-in is audited as its user's (whom the store finds or makes).
	audit := &store.AuditRecord{ID: store.NewAuditID(), RequestID: RequestID(r.Context()), Action: samlSignInAction.ID,
		Source: "ui", OrganizationID: p.OrganizationID, Target: store.AuditParty{Type: "user"},
		Payload: map[string]any{"samlProvider": p.ID}}
	login, err := s.Store.LoginWithSAML(store.WithAudit(r.Context(), audit), p.ID, store.SAMLAssertion{
		ID: assertion.ID, ExpiresAt: expires, Email: email, DisplayName: assertionName(assertion)})
	switch store.ErrorCode(err) {
	case store.ECONFLICT:
		return &httpError{http.StatusForbidden, "replay: this assertion was already used to sign in."}
	case store.EFORBIDDEN:
		return err
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if next != "" {
		// Started from the app: a session bound to the login's token, and back to the app.
		if err := s.Web.StartAppSession(c, login.Token); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, next)
	}
	return c.JSON(http.StatusOK, SAMLLogin{
		Token:        login.Token,
		Organization: p.OrganizationID,
		User:         s.toAPIUser(&login.Member.User),
		Member:       s.toAPIMember(login.Member),
		Created:      login.UserCreated,
	})
}
