package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/publicspec"
)

// publicOps returns the operations of a GitBook published spec by id.
func publicOps(t testing.TB, version string) map[string]*openapi3.Operation {
	t.Helper()
	publicOpsMu.Lock()
	defer publicOpsMu.Unlock()
	if ops, ok := publicOpsByVersion[version]; ok {
		return ops
	}
	doc, err := publicspec.Load(version)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]*openapi3.Operation{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			ops[op.OperationID] = op
		}
	}
	publicOpsByVersion[version] = ops
	return ops
}

var (
	publicOpsMu        sync.Mutex
	publicOpsByVersion = map[string]map[string]*openapi3.Operation{}
)

// wantPublic checks a response body against the response schema of operation op in GitBook's
// published spec of the given version.
func wantPublic(t *testing.T, version, op string, r *response) {
	t.Helper()
	o := publicOps(t, version)[op]
	if o == nil {
		t.Fatalf("%s has no operation %s", version, op)
	}
	res := o.Responses.Status(r.Status)
	if res == nil || res.Value.Content.Get("application/json") == nil {
		t.Fatalf("%s: %s declares no JSON answer with status %d", version, op, r.Status)
	}
	var body any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if err := res.Value.Content.Get("application/json").Schema.Value.VisitJSON(body); err != nil {
		t.Fatalf("%s answer does not validate against GitBook's %s spec: %v\nbody: %s", op, version, err, r.Body)
	}
}

// The objects and sites of this area validate against GitBook's published specs: the gap-fill
// operations against 0.202.0, the seed's against 0.146.0 (and, where both describe the same
// object, against both).
func TestAnswersValidateAgainstThePublicSpecs(t *testing.T) {
	t.Parallel()
	const v146, v202 = "0.146.0", "0.202.0"
	ts := newTestServer(t)
	ada := ts.MustCreateUser(t, "ada@docs.test", "Ada")
	rita := ts.MustCreateUser(t, "rita@readers.test", "Rita")

	wantPublic(t, v202, "getApiInformation", ts.Expect(t, http.StatusOK, nil, "GET", "/", nil))
	wantPublic(t, v202, "getAuthenticatedUser", ts.Expect(t, http.StatusOK, ada, "GET", "/user", nil))
	created := ts.Expect(t, http.StatusCreated, ada, "POST", "/orgs", map[string]any{"title": "Docs Inc"})
	wantPublic(t, v202, "createOrganization", created)
	var org gen.Organization
	created.Decode(t, &org)
	ts.MustAddMember(t, ada, org.Id, rita, "read")
	for _, v := range []string{v146, v202} {
		wantPublic(t, v, "getOrganizationById", ts.Expect(t, http.StatusOK, rita, "GET", "/orgs/"+org.Id, nil))
	}
	sp := ts.Expect(t, http.StatusCreated, ada, "POST", "/orgs/"+org.Id+"/spaces", map[string]any{"title": "Guide"})
	wantPublic(t, v202, "createSpace", sp)
	var space gen.Space
	sp.Decode(t, &space)
	wantPublic(t, v146, "getSpaceById", ts.Expect(t, http.StatusOK, rita, "GET", "/spaces/"+space.Id, nil))

	sites := "/orgs/" + org.Id + "/sites"
	site := ts.Expect(t, http.StatusCreated, ada, "POST", sites, map[string]any{"title": "Docs"})
	wantPublic(t, v146, "createSite", site)
	var s gen.Site
	site.Decode(t, &s)
	base := sites + "/" + s.Id
	var sec gen.SiteSection
	added := ts.Expect(t, http.StatusCreated, ada, "POST", base+"/sections", map[string]any{"spaceId": space.Id, "title": "Guide"})
	wantPublic(t, v146, "addSectionToSite", added)
	added.Decode(t, &sec)
	ts.Expect(t, http.StatusOK, ada, "PATCH", base+"/sections/"+sec.Id, map[string]any{"condition": `visitor.claims.roles.includes("admin")`})
	group := ts.Expect(t, http.StatusCreated, ada, "POST", base+"/section-groups", map[string]any{"title": "More", "sections": []string{sec.Id}})
	for _, v := range []string{v146, v202} {
		wantPublic(t, v, "addSectionGroupToSite", group)
		wantPublic(t, v, "listSiteSections", ts.Expect(t, http.StatusOK, rita, "GET", base+"/sections", nil))
		wantPublic(t, v, "listSiteSpaces", ts.Expect(t, http.StatusOK, rita, "GET", base+"/site-spaces", nil))
	}

	schema := ts.Expect(t, http.StatusOK, ada, "PUT", base+"/adaptive-schema", map[string]any{"jsonSchema": kindsSchema()})
	for _, v := range []string{v146, v202} {
		wantPublic(t, v, "updateSiteAdaptiveSchema", schema)
		wantPublic(t, v, "getSiteAdaptiveSchema", ts.Expect(t, http.StatusOK, rita, "GET", base+"/adaptive-schema", nil))
		wantPublic(t, v, "listSiteAdaptiveTemplateConditions", ts.Expect(t, http.StatusOK, rita, "GET", base+"/adaptive-schema/template-conditions", nil))
	}

	published := ts.Expect(t, http.StatusOK, ada, "POST", base+"/publish", nil)
	wantPublic(t, v202, "publishSite", published)
	token := visitorToken(t, ts, jwt.MapClaims{"roles": []any{"admin"}})
	for _, v := range []string{v146, v202} {
		view := ts.Expect(t, http.StatusOK, rita, "GET", base+"/published?visitorToken="+url.QueryEscape(token), nil)
		wantPublic(t, v, "getPublishedContentSite", view)
		wantPublic(t, v, "getSiteById", ts.Expect(t, http.StatusOK, rita, "GET", base, nil))
	}
	wantPublic(t, v202, "unpublishSite", ts.Expect(t, http.StatusOK, ada, "POST", base+"/unpublish", nil))
}
