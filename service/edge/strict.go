package edge

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/go-chi/chi/v5"
)

// The HTTP surface accepts exactly what the OpenAPI documents say, and what RFC 9110 asks of
// every server: one JSON value per body, booleans spelled true or false, HEAD wherever GET is,
// an Allow header on 405, the Bearer scheme in any letter case, and a percent-encoded path that
// spells a route being that route.

func init() {
	// A JSON body is one JSON value: data after it ("{…} trailing", two objects) is refused
	// by the validator, with 400, before any handler runs.
	openapi3filter.RegisterBodyDecoder("application/json", strictJSON)
}

func strictJSON(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	dec := json.NewDecoder(body)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: errors.New("data after the JSON value")}
	}
	return v, nil
}

// strictQuery refuses boolean query parameters spelled other than true or false (kin-openapi
// and the generated binders would take 1, t or TRUE).
func strictQuery(spec *openapi3.T) (func(http.Handler) http.Handler, error) {
	router, err := gorillamux.NewRouter(spec)
	if err != nil {
		return nil, err
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.RawQuery != "" {
				if err := checkBooleans(router, r); err != nil {
					WriteError(w, r, err)
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}, nil
}

func checkBooleans(router routers.Router, r *http.Request) error {
	probe := r
	if r.Method == http.MethodHead {
		probe = r.Clone(r.Context())
		probe.Method = http.MethodGet
	}
	route, _, err := router.FindRoute(probe)
	if err != nil {
		return nil // the validator answers for unknown routes
	}
	params := append(openapi3.Parameters{}, route.PathItem.Parameters...)
	params = append(params, route.Operation.Parameters...)
	query := r.URL.Query()
	for _, p := range params {
		if p.Value == nil || p.Value.In != openapi3.ParameterInQuery || p.Value.Schema == nil || p.Value.Schema.Value == nil ||
			!p.Value.Schema.Value.Type.Is(openapi3.TypeBoolean) {
			continue
		}
		for _, v := range query[p.Value.Name] {
			if v != "true" && v != "false" {
				return InvalidRequest("query parameter %q: must be true or false, got %q", p.Value.Name, v)
			}
		}
	}
	return nil
}

// headAsGet serves a HEAD request as the GET it mirrors: validated and handled as a GET; the
// server, which knows the request was a HEAD, sends the headers and no body.
func headAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		next.ServeHTTP(w, get)
	})
}

// headWriter drops a body written for a HEAD request.
type headWriter struct{ http.ResponseWriter }

func (h headWriter) Write(b []byte) (int, error) { return len(b), nil }
func (h headWriter) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// plainPath routes a percent-encoded path by what it spells (/%74okens is /tokens); an encoded
// slash keeps its meaning inside a segment.
func plainPath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawPath != "" && !strings.Contains(strings.ToLower(r.URL.RawPath), "%2f") {
			r.URL.RawPath = ""
		}
		next.ServeHTTP(w, r)
	})
}

// allowed lists the methods mux routes path for, for a 405's Allow header.
func allowed(mux chi.Routes, path string) string {
	var out []string
	for _, m := range routeMethods {
		if mux.Match(chi.NewRouteContext(), m, path) || (m == http.MethodHead && mux.Match(chi.NewRouteContext(), http.MethodGet, path)) {
			out = append(out, m)
		}
	}
	return strings.Join(out, ", ")
}

// drainLimit is how much of a refused body is read before answering, so that a client still
// sending it reads the answer instead of a reset connection.
const drainLimit = 8 << 20

func drain(r *http.Request) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, drainLimit))
	}
}
