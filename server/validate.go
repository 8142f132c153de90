package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// validator checks every request against openapi.yaml before its handler runs. The operation is
// found from Echo's matched route (a map built once from the spec), so there is no second router.
type validator struct {
	routes map[string]*routers.Route // "METHOD /v1/echo/:path" -> route
	opts   *openapi3filter.Options
	// defaults are the operations whose request body sets a default somewhere: only their
	// bodies can have a null replaced by a default (refuseNullDefaults).
	defaults map[*openapi3.Operation]bool
	// plain are the routes whose validation passes for any request without a query string and
	// with no path parameter empty (takesAnyPlainRequest): such a request is not validated.
	plain map[*routers.Route]bool
}

func newValidator(doc *openapi3.T, prefix string) *validator {
	v := &validator{routes: map[string]*routers.Route{}, defaults: map[*openapi3.Operation]bool{}, plain: map[*routers.Route]bool{}, opts: &openapi3filter.Options{
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, // auth ran before, in authenticate
		KeepValidatedValue: true,                                  // the handler binds what was validated
	}}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			op = withoutMetSecurity(doc, op)
			route := &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}
			v.routes[method+" "+prefix+EchoPath(path)] = route
			if op.Security != nil && len(*op.Security) == 0 && takesAnyPlainRequest(item, op) {
				v.plain[route] = true
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					if setsDefault(mt.Schema, map[*openapi3.Schema]bool{}) {
						v.defaults[op] = true
					}
				}
			}
		}
	}
	return v
}

// setsDefault tells whether a schema, or one it holds, has a default.
func setsDefault(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) bool {
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return false
	}
	s := ref.Value
	seen[s] = true
	if s.Default != nil {
		return true
	}
	for _, group := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, sub := range group {
			if setsDefault(sub, seen) {
				return true
			}
		}
	}
	for _, p := range s.Properties {
		if setsDefault(p, seen) {
			return true
		}
	}
	return setsDefault(s.Items, seen) || setsDefault(s.AdditionalProperties.Schema, seen)
}

// EchoPath turns an OpenAPI path template (/spaces/{spaceId}) into Echo's (/spaces/:spaceId).
func EchoPath(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '{':
			b.WriteByte(':')
		case '}':
		default:
			b.WriteByte(path[i])
		}
	}
	return b.String()
}

// refusedDataRoutes are the routes ("METHOD /v1/echo/:path") of the operations that answer data
// they refuse with 412 instead of 400, as GitBook's do: those whose responses in openapi.yaml
// have a 412 and no 400 (createCustomFont, updateCustomFont).
func refusedDataRoutes(doc *openapi3.T, prefix string) map[string]bool {
	out := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.Responses.Value("412") != nil && op.Responses.Value("400") == nil {
				out[method+" "+prefix+EchoPath(path)] = true
			}
		}
	}
	return out
}

func (v *validator) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		route := v.routes[req.Method+" "+c.Path()]
		if route == nil {
			return next(c)
		}
		if req.URL.RawQuery == "" && v.plain[route] && noneEmpty(c.ParamNames(), c.ParamValues()) {
			return next(c)
		}
		if err := checkQuery(req.URL.RawQuery); err != nil {
			return err
		}
		if route.Operation.RequestBody != nil && req.Body != nil && req.Body != http.NoBody {
			body, err := checkSingleJSONValue(req)
			if err != nil {
				return err
			}
			if err := v.refuseNullDefaults(req, route, body); err != nil {
				return err
			}
		}
		names, values := c.ParamNames(), c.ParamValues()
		params := make(map[string]string, len(names))
		for i, n := range names {
			if i < len(values) {
				params[n] = values[i]
			}
		}
		err := openapi3filter.ValidateRequest(req.Context(), &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route, Options: v.opts,
		})
		if err != nil {
			return &httpError{http.StatusBadRequest, validationMessage(err)}
		}
		return next(c)
	}
}

// noneEmpty tells whether every path parameter has a value that is not empty.
func noneEmpty(names, values []string) bool {
	if len(values) < len(names) {
		return false
	}
	for _, v := range values[:len(names)] {
		if v == "" {
			return false
		}
	}
	return true
}

// validationMessage says in one line which parameter or field is wrong and why; kin-openapi's
// own messages dump whole schemas.
func validationMessage(err error) string {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return "Invalid request."
	}
	reason := re.Reason
	var se *openapi3.SchemaError
	field := ""
	if errors.As(re.Err, &se) {
		var path []string
		se, path = innermost(se)
		reason = se.Reason
		if se.Schema != nil && se.SchemaField == "discriminator" && se.Schema.Discriminator != nil && len(se.Schema.Discriminator.Mapping) > 0 {
			d := se.Schema.Discriminator
			values := make([]string, 0, len(d.Mapping))
			for v := range d.Mapping {
				values = append(values, v)
			}
			sort.Strings(values)
			if v, ok := se.Value.(string); ok {
				reason = fmt.Sprintf("%q is not one of %s", v, strings.Join(values, ", "))
			} else {
				reason = "required: one of " + strings.Join(values, ", ")
			}
		}
		if len(path) > 0 {
			field = fieldPath(path)
		}
	} else if re.Err != nil && reason == "" {
		reason = re.Err.Error()
	}
	switch {
	case re.Parameter != nil:
		if reason == "" && re.Err != nil {
			reason = re.Err.Error()
		}
		return fieldMessage(re.Parameter.In+" parameter", re.Parameter.Name, reason)
	case re.RequestBody != nil:
		if field != "" {
			return fieldMessage("body field", field, reason)
		}
		if strings.Contains(reason, "doesn't match schema") && se != nil {
			return "Invalid body: " + se.Reason
		}
		if re.Err != nil && (reason == "" || strings.HasPrefix(reason, "doesn't match")) {
			return "Invalid body: " + re.Err.Error()
		}
		return "Invalid body: " + reason
	}
	return "Invalid request: " + reason
}

// innermost descends from a oneOf error to the error of the one branch that was tried (the
// discriminator chose it), so the message names the field at fault, not the whole item. It
// returns that error and its full path.
func innermost(se *openapi3.SchemaError) (*openapi3.SchemaError, []string) {
	path := se.JSONPointer()
	for se.SchemaField == "oneOf" && se.Origin != nil {
		var multi openapi3.MultiError
		if !errors.As(se.Origin, &multi) {
			break
		}
		inner := onlyBranchOfType(multi)
		if inner == nil {
			break
		}
		ip := inner.JSONPointer()
		if len(ip) < len(path) || !slices.Equal(ip[:len(path)], path) {
			ip = append(path, ip...)
		}
		se, path = inner, ip
	}
	if se.SchemaField == "discriminator" && se.Schema != nil && se.Schema.Discriminator != nil {
		path = append(path, se.Schema.Discriminator.PropertyName)
	}
	return se, path
}

// onlyBranchOfType returns the error of the one oneOf branch the value could be: the only error,
// or the only one that is not a mismatch of the value's own type (an array sent where a oneOf
// takes an object or an array of them fails the object branch at its root, and the array branch
// at the item at fault, which is the one to name). Nil when no single branch is left.
func onlyBranchOfType(multi openapi3.MultiError) *openapi3.SchemaError {
	var found *openapi3.SchemaError
	for _, err := range multi {
		var se *openapi3.SchemaError
		if !errors.As(err, &se) {
			return nil
		}
		if len(multi) > 1 && se.SchemaField == "type" && len(se.JSONPointer()) == 0 {
			continue
		}
		if found != nil {
			return nil
		}
		found = se
	}
	return found
}

// fieldPath writes a JSON pointer as a field path: changes[3].operation, or [3].parts when the
// body is an array.
func fieldPath(p []string) string {
	var b strings.Builder
	for _, part := range p {
		if _, err := strconv.Atoi(part); err == nil {
			b.WriteString("[" + part + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(part)
	}
	return b.String()
}

func init() {
	// `format: uri` is enforced: an absolute URL with a scheme and a host. kin-openapi leaves the
	// format unchecked unless a validator is defined for it.
	openapi3.DefineStringFormatValidator("uri", openapi3.NewCallbackValidator(func(s string) error {
		u, err := url.Parse(s)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return errors.New("must be an absolute URL")
		}
		return nil
	}))
}

// checkQuery refuses a query string that does not decode: Go's URL parsing would silently drop
// the parameter (`limit=%zz` read as no limit at all).
func checkQuery(raw string) error {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		if strings.Contains(pair, ";") {
			return &httpError{http.StatusBadRequest, "Invalid query: ';' is not a parameter separator."}
		}
		key, value, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(key)
		if err != nil {
			return &httpError{http.StatusBadRequest, fmt.Sprintf("Invalid query: parameter name %q is not URL-encoded correctly.", key)}
		}
		if _, err := url.QueryUnescape(value); err != nil {
			return &httpError{http.StatusBadRequest, fieldMessage("query parameter", name, "the value is not URL-encoded correctly")}
		}
	}
	return nil
}

// checkSingleJSONValue refuses a JSON body that is not exactly one JSON value: the validator and
// the handler decode the first value and would apply `{"title":"T"}}}garbage` as if it were
// `{"title":"T"}`. The body is read once (within the body limit) and put back for them.
// It returns the JSON body it read (nil for a body that is not JSON).
func checkSingleJSONValue(req *http.Request) ([]byte, error) {
	if !strings.Contains(req.Header.Get("Content-Type"), "json") {
		return nil, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		var tooLarge *echo.HTTPError
		if errors.As(err, &tooLarge) {
			return nil, err // the body limit's 413
		}
		return nil, badRequest("Invalid body: it could not be read.")
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	if len(bytes.TrimSpace(body)) == 0 {
		return body, nil // the validator says whether a body is required
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return nil, &httpError{http.StatusBadRequest, "Invalid body: not valid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &httpError{http.StatusBadRequest, "Invalid body: unexpected data after the JSON value."}
	}
	return body, nil
}

// refuseNullDefaults refuses an explicit null where the schema does not take null. kin-openapi
// writes a property's default in place of a missing property and of a null one alike (it tests
// value[name] == nil), before it checks the value: `{"all": null}` reached the handler as
// `{"all": false}` although `all` is a boolean. A body holding a null is checked once more
// without defaults, so the null itself meets its schema; other bodies, and every body of an
// operation whose schema sets no default (a content batch's among them), cost nothing more.
func (v *validator) refuseNullDefaults(req *http.Request, route *routers.Route, body []byte) error {
	if !v.defaults[route.Operation] || !bytes.Contains(body, []byte("null")) {
		return nil
	}
	strict := req.Clone(req.Context())
	strict.Body = io.NopCloser(bytes.NewReader(body))
	strict.GetBody = nil
	opts := *v.opts
	opts.SkipSettingDefaults, opts.KeepValidatedValue = true, false
	err := openapi3filter.ValidateRequestBody(req.Context(), &openapi3filter.RequestValidationInput{
		Request: strict, Route: route, Options: &opts,
	}, route.Operation.RequestBody.Value)
	if err != nil {
		return &httpError{http.StatusBadRequest, validationMessage(err)}
	}
	return nil
}

// checkWebURL refuses a URL other than an absolute http or https one (a link or an image a page
// will show), naming field.
func checkWebURL(field, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return store.FieldErrorf(field, "an absolute http or https URL is needed")
	}
	return nil
}
