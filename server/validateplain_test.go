package server

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"
)

// TestPlainRequestsNeedNoValidation holds kin-openapi to what the validator settles from the
// spec: a route marked plain passes the whole validation (its original operation, security
// included) for requests without a query string or body, whatever its path parameters hold; and
// every operation whose security requirements were dropped passes kin-openapi's check of them.
func TestPlainRequestsNeedNoValidation(t *testing.T) {
	doc, err := embeddedSpec()
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(doc, "/v1")
	if !v.plain[v.routes["GET /v1/spaces/:spaceId"]] {
		t.Fatal("GET /v1/spaces/:spaceId is not plain")
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
	plain, dropped := 0, 0
	for key, route := range v.routes {
		orig := doc.Paths.Find(route.Path).GetOperation(route.Method)
		full := &routers.Route{Spec: doc, Path: route.Path, PathItem: route.PathItem, Method: route.Method, Operation: orig}
		if route.Operation != orig {
			dropped++
			req := httptest.NewRequest(route.Method, "/", nil)
			security := orig.Security
			if security == nil {
				security = &doc.Security
			}
			err := openapi3filter.ValidateSecurityRequirements(context.Background(),
				&openapi3filter.RequestValidationInput{Request: req, Route: full, Options: opts}, *security)
			if err != nil {
				t.Errorf("%s: security dropped, yet kin-openapi refuses: %v", key, err)
			}
		}
		if !v.plain[route] {
			continue
		}
		plain++
		for _, value := range []string{"x", "lRzv3qRTIrEH4nlZ0GNG", "%2F..%20ü", "123", "true", "null", "a,b"} {
			params := map[string]string{}
			for _, ref := range append(route.PathItem.Parameters, orig.Parameters...) {
				if ref.Value.In == "path" {
					params[ref.Value.Name] = value
				}
			}
			req := httptest.NewRequest(route.Method, "/", nil)
			req.Header.Set("Authorization", "Bearer x")
			err := openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
				Request: req, PathParams: params, Route: full, Options: opts})
			if err != nil {
				t.Errorf("%s marked plain, yet kin-openapi refuses path parameters %q: %v", key, value, err)
			}
			if req.URL.RawQuery != "" {
				t.Errorf("%s marked plain, yet kin-openapi wrote defaults into the query: %s", key, req.URL.RawQuery)
			}
		}
	}
	t.Logf("%d of %d routes plain, %d with security settled from the spec", plain, len(v.routes), dropped)
	if dropped == 0 {
		t.Error("no operation had its security settled")
	}
}

// TestPlainRoutesStillValidateQueries: a plain route's request with a query string, or with an
// empty path parameter, is still validated.
func TestPlainRoutesStillValidateQueries(t *testing.T) {
	doc, err := embeddedSpec()
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(doc, "/v1")
	e := echo.New()
	ok := func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }
	for _, tc := range []struct {
		target, id string
		valid      bool
	}{
		{"/v1/spaces/abc", "abc", true},
		{"/v1/spaces/abc?shareKey=k", "abc", true},
		{"/v1/spaces/abc?shareKey=" + strings.Repeat("k", 129), "abc", false},
		{"/v1/spaces/abc?shareKey=%zz", "abc", false},
		{"/v1/spaces/", "", false},
	} {
		c := e.NewContext(httptest.NewRequest(http.MethodGet, tc.target, nil), httptest.NewRecorder())
		c.SetPath("/v1/spaces/:spaceId")
		c.SetParamNames("spaceId")
		c.SetParamValues(tc.id)
		err := v.middleware(ok)(c)
		var he *httpError
		if tc.valid && err != nil || !tc.valid && !(errors.As(err, &he) && he.status == http.StatusBadRequest) {
			t.Errorf("GET %s: %v, want valid %v", tc.target, err, tc.valid)
		}
	}
}
