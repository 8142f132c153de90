package server_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// testIdP is an identity provider in the test process: its own key and certificate, and
// crewjam/saml's IdP code to read quire's AuthnRequests and sign Responses.
type testIdP struct {
	key      *rsa.PrivateKey
	cert     *x509.Certificate
	entityID string
	ssoURL   string
}

func newTestIdP(t testing.TB, entityID string) *testIdP {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "test identity provider"},
		NotBefore:    time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:     time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testIdP{key: key, cert: cert, entityID: entityID, ssoURL: "https://idp.example/sso"}
}

func (i *testIdP) certPEM() string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: i.cert.Raw}))
}

// certBase64 is the certificate as IdP consoles hand it out: the base64 body, folded.
func (i *testIdP) certBase64() string {
	b := base64.StdEncoding.EncodeToString(i.cert.Raw)
	var lines []string
	for len(b) > 64 {
		lines, b = append(lines, b[:64]), b[64:]
	}
	return strings.Join(append(lines, b), "\n")
}

func (i *testIdP) idp(now time.Time) *saml.IdentityProvider {
	meta, _ := url.Parse(i.entityID)
	sso, _ := url.Parse(i.ssoURL)
	return &saml.IdentityProvider{Key: i.key, Signer: i.key, Certificate: i.cert, MetadataURL: *meta, SSOURL: *sso,
		Clock: dsig.NewFakeClockAt(now)}
}

// assertionFor is a Response to be made: who signs in, and what to tamper with.
type assertionFor struct {
	email, name string
	requestID   string    // InResponseTo ("" for an IdP-initiated login)
	relayState  string    // posted with the Response
	now         time.Time // the IdP's clock
	acsURL      string    // where the IdP believes it sends the Response (Destination, Recipient)
	audience    string    // the SP entity id the assertion is restricted to
	unsigned    bool
	mutate      func(*saml.Assertion)
	// encryptTo, when set, is quire's SP descriptor: the assertion is encrypted to its key.
	encryptTo *saml.SPSSODescriptor
}

// response makes a Response the way an IdP does (DefaultAssertionMaker, signed assertion, signed
// Response) and answers it base64-encoded, as the POST binding carries it.
func (i *testIdP) response(t testing.TB, a assertionFor) string {
	t.Helper()
	req := &saml.IdpAuthnRequest{
		IDP:                     i.idp(a.now),
		HTTPRequest:             httptest.NewRequest("GET", "/", nil),
		Now:                     a.now,
		Request:                 saml.AuthnRequest{ID: a.requestID},
		ServiceProviderMetadata: &saml.EntityDescriptor{EntityID: a.audience},
		SPSSODescriptor:         a.encryptTo,
		ACSEndpoint:             &saml.IndexedEndpoint{Binding: saml.HTTPPostBinding, Location: a.acsURL},
		RelayState:              a.relayState,
	}
	if req.SPSSODescriptor == nil {
		req.SPSSODescriptor = &saml.SPSSODescriptor{}
	}
	session := &saml.Session{ID: "s1", Index: "1", CreateTime: a.now, ExpireTime: a.now.Add(time.Hour),
		NameID: a.email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: a.email, UserCommonName: a.name}
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, session); err != nil {
		t.Fatal(err)
	}
	if a.mutate != nil {
		a.mutate(req.Assertion)
	}
	if err := req.MakeResponse(); err != nil {
		t.Fatal(err)
	}
	el := req.ResponseEl
	if a.unsigned {
		for _, parent := range []*etree.Element{el, el.FindElement("./Assertion")} {
			if sig := parent.FindElement("./Signature"); sig != nil {
				parent.RemoveChild(sig)
			}
		}
	}
	doc := etree.NewDocument()
	doc.SetRoot(el)
	raw, err := doc.WriteToBytes()
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(raw)
}

// loginFor is the assertion a well-behaved IdP makes for a provider, now.
func (ts *testServer) loginFor(p gen.SAMLProvider, email, name string) assertionFor {
	return assertionFor{email: email, name: name, now: ts.Clock.Now(), acsURL: p.Service.AcsURL, audience: p.Service.EntityID}
}

// acsPath is the path part of a provider's ACS URL (quire's base URL in tests is not the server's).
func acsPath(t testing.TB, p gen.SAMLProvider) string {
	u, err := url.Parse(p.Service.AcsURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

// postACS posts a Response to the provider's ACS URL and answers the status and the JSON body.
func (ts *testServer) postACS(t testing.TB, p gen.SAMLProvider, samlResponse, relayState string) (int, map[string]any) {
	t.Helper()
	form := url.Values{"SAMLResponse": {samlResponse}}
	if relayState != "" {
		form.Set("RelayState", relayState)
	}
	res, raw := readResponse(t)(http.PostForm(ts.URL+acsPath(t, p), form))
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("ACS answered %d, not JSON: %s", res.StatusCode, raw)
	}
	return res.StatusCode, body
}

// fixedSP hands the IdP quire's metadata, as an admin would upload it.
type fixedSP struct{ meta *saml.EntityDescriptor }

func (f fixedSP) GetServiceProvider(*http.Request, string) (*saml.EntityDescriptor, error) {
	return f.meta, nil
}

// spMetadata fetches and parses quire's SP metadata for a provider.
func (ts *testServer) spMetadata(t testing.TB, p gen.SAMLProvider) *saml.EntityDescriptor {
	t.Helper()
	u, _ := url.Parse(p.Service.EntityID)
	res, err := http.Get(ts.URL + u.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("metadata: %d %s", res.StatusCode, raw)
	}
	meta, err := samlsp.ParseMetadata(raw)
	if err != nil {
		t.Fatalf("metadata does not parse: %v\n%s", err, raw)
	}
	return meta
}

func decodeB64(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	return string(b), err
}

func encodeB64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func storeProviderCertificate(cert string) store.SAMLProviderUpdate {
	return store.SAMLProviderUpdate{Certificate: &cert}
}
