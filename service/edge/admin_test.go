package edge

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/openapi/apidoc"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// With ADMIN_ADDR, one handler on two listeners: the operator's routes answer 404 on the public
// one, whatever the method or the spelling of the path, and are served on the operator's, which
// serves nothing else; served alone (no ADMIN_ADDR), one listener serves both.
func TestTheOperatorsRoutesAreServedOnTheirListenerAlone(t *testing.T) {
	h := testHandler(t)
	listen := func() net.Listener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return ln
	}
	public, admin, single := listen(), listen(), listen()
	ctx, cancel := context.WithCancel(context.Background())
	split, one := make(chan error, 1), make(chan error, 1)
	go func() { split <- ServeSplit(ctx, public, admin, h, time.Second) }()
	go func() { one <- Serve(ctx, single, h, time.Second) }()
	do := func(ln net.Listener, method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, "http://"+ln.Addr().String()+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer 0123456789abcdef")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var e struct{ Code string }
		_ = json.Unmarshal(b, &e)
		return resp.StatusCode, e.Code
	}
	for _, c := range []struct{ method, path string }{{"POST", "/admin"}, {"GET", "/admin"}, {"POST", "/%61dmin"}, {"POST", "/flags/../admin"}, {"DELETE", "/admin/anything"}} {
		if code, errCode := do(public, c.method, c.path, `{"a":1}`); code != 404 || errCode != CodeNotFound {
			t.Errorf("public %s %s: %d %s, want 404 NOT_FOUND", c.method, c.path, code, errCode)
		}
	}
	if code, _ := do(admin, "POST", "/admin", `{"a":1}`); code != 200 {
		t.Errorf("the operator's listener: POST /admin answered %d", code)
	}
	if code, errCode := do(admin, "GET", "/flags?on=true", ""); code != 404 || errCode != CodeNotFound {
		t.Errorf("the operator's listener: GET /flags answered %d %s, want 404", code, errCode)
	}
	if code, _ := do(public, "GET", "/flags?on=true", ""); code != 200 {
		t.Errorf("public GET /flags answered %d", code)
	}
	for _, path := range []string{"/admin", "/flags?on=true"} {
		method := map[string]string{"/admin": "POST", "/flags?on=true": "GET"}[path]
		if code, _ := do(single, method, path, `{"a":1}`); code != 200 {
			t.Errorf("one listener: %s %s answered %d", method, path, code)
		}
	}
	cancel()
	if err := <-split; err != nil {
		t.Errorf("ServeSplit: %v", err)
	}
	<-one
}

const splitSpec = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x/credit:
    post:
      operationId: publicCredit
      responses: {"200": {description: ok}}
  /admin:
    post:
      operationId: admin
      security: [{bearerAuth: []}]
      responses: {"200": {description: ok}}
  /admin/sponsors/{id}/credit:
    post:
      operationId: credit
      security: [{bearerAuth: []}]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, pattern: "^sp_[0-9a-f]+$"}}
      responses: {"200": {description: ok}}
components:
  securitySchemes:
    bearerAuth: {type: http, scheme: bearer}
`

// The listener a request is served on is decided on the route the router takes it to: no
// spelling of an operator's route (an encoded slash or dot, any letter case, a doubled slash)
// reaches it, its admin key check or its validation through the public listener, whatever the
// cleaned, decoded path says; the operator's listener serves those routes, and the public one
// every other.
func TestNoSpellingReachesTheOperatorsRoutesOnThePublicListener(t *testing.T) {
	var reached atomic.Int64 // requests that reached an operator's route, its middleware first
	reg := prometheus.NewRegistry()
	h, err := NewHandler(HandlerOptions{
		SpecYAML: []byte(splitSpec), AdminKey: "0123456789abcdef", Metrics: reg, Gatherer: reg,
		API: func(r chi.Router) {
			ok := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }
			r.Post("/x/credit", ok)
			r.Group(func(r chi.Router) {
				r.Use(func(next http.Handler) http.Handler {
					return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Add(1); next.ServeHTTP(w, r) })
				})
				r.Post("/admin", ok)
				r.Post("/admin/sponsors/{id}/credit", ok)
			})
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	public, admin := listenLoopback(t), listenLoopback(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeSplit(ctx, public, admin, h, time.Second) }()
	defer func() { cancel(); <-done }()
	do := func(ln net.Listener, method, path string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, "http://"+ln.Addr().String()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer 0123456789abcdef")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var e struct{ Code string }
		_ = json.Unmarshal(b, &e)
		return resp.StatusCode, e.Code
	}
	for _, c := range []struct{ method, path string }{
		{"POST", "/admin/sponsors/..%2F..%2Fx/credit"},
		{"POST", "/admin/sponsors/..%2f..%2fx/credit"},
		{"POST", "/admin/sponsors/%2e%2e%2F%2e%2e%2Fx/credit"},
		{"POST", "/admin/sponsors/%2E%2E%2f%2E%2E%2fx/credit"},
		{"POST", "/admin/sponsors/sp_ab%2F..%2F..%2F..%2Fx/credit"},
		{"POST", "/%61dmin/sponsors/..%2F..%2Fx/credit"},
		{"GET", "/admin/sponsors/..%2F..%2Fx/credit"},
		{"HEAD", "/admin/sponsors/..%2F..%2Fx/credit"},
		{"POST", "//admin/sponsors/sp_ab/credit"},
		{"POST", "/admin//sponsors/sp_ab/credit"},
		{"POST", "/admin/sponsors/sp_ab/credit"},
		{"POST", "/admin%2Fsponsors%2Fsp_ab%2Fcredit"},
		{"POST", "/admin"},
		{"GET", "/admin"},
		{"POST", "/x/..%2F..%2Fadmin"},
	} {
		if code, errCode := do(public, c.method, c.path); code != 404 || (c.method != "HEAD" && errCode != CodeNotFound) {
			t.Errorf("public %s %s: %d %s, want 404 NOT_FOUND", c.method, c.path, code, errCode)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the public listener took %d requests to an operator's route", n)
	}
	for _, path := range []string{"/admin", "/admin/sponsors/sp_ab/credit"} {
		if code, _ := do(admin, "POST", path); code != 200 {
			t.Errorf("the operator's listener: POST %s answered %d", path, code)
		}
	}
	if code, errCode := do(admin, "GET", "/admin/sponsors/sp_ab/credit"); code != 405 {
		t.Errorf("the operator's listener: GET of a POST route answered %d %s, want 405", code, errCode)
	}
	if code, errCode := do(admin, "POST", "/x/credit"); code != 404 || errCode != CodeNotFound {
		t.Errorf("the operator's listener: POST /x/credit answered %d %s, want 404", code, errCode)
	}
	if code, _ := do(public, "POST", "/x/credit"); code != 200 {
		t.Errorf("public POST /x/credit answered %d", code)
	}
}

func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// A replace or cancel naming another wallet than the replica's is refused 409 WALLET_MISMATCH;
// the replica's own, in any letter case, passes.
func TestSameWallet(t *testing.T) {
	ours := common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	for _, w := range []string{ours.Hex(), strings.ToLower(ours.Hex())} {
		if err := SameWallet(w, ours); err != nil {
			t.Errorf("%s: %v", w, err)
		}
	}
	for _, w := range []string{"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "", "0x1234"} {
		if e := AsError(SameWallet(w, ours)); e.Status != 409 || e.Code != CodeWalletMismatch || !strings.Contains(e.Message, ours.Hex()) {
			t.Errorf("%q: %+v", w, e)
		}
	}
}

// ADMIN_ADDR is a host and port, and needs an admin key; every problem is listed.
func TestAdminAddr(t *testing.T) {
	load := func(vars map[string]string) (AdminConfig, error) {
		e := config.NewEnv(func(k string) string { return vars[k] })
		c := LoadAdminConfig(e)
		return c, e.Err()
	}
	key := "0123456789abcdef"
	for _, addr := range []string{":9010", "127.0.0.1:9010", "[::1]:9010", "admin.internal:9010"} {
		if c, err := load(map[string]string{"ADMIN_ADDR": addr, "ADMIN_API_KEY": key}); err != nil || c.Addr != addr {
			t.Errorf("%s: %v %q", addr, err, c.Addr)
		}
	}
	for _, addr := range []string{"9010", ":0", ":65536", "host:", "a b:9010"} {
		if _, err := load(map[string]string{"ADMIN_ADDR": addr, "ADMIN_API_KEY": key}); err == nil || !strings.Contains(err.Error(), "ADMIN_ADDR must be") {
			t.Errorf("%q accepted: %v", addr, err)
		}
	}
	if _, err := load(map[string]string{"ADMIN_ADDR": ":9010"}); err == nil || !strings.Contains(err.Error(), "ADMIN_API_KEY is not") {
		t.Errorf("ADMIN_ADDR without a key: %v", err)
	}
	if c, err := load(nil); err != nil || c.Addr != "" {
		t.Errorf("unset: %v %q", err, c.Addr)
	}
}

// docsSpec has a public route and the operator's, each with a schema, a tag and a response of
// its own, and a schema both use.
const docsSpec = `openapi: 3.0.3
info: {title: t, version: "1"}
tags: [{name: public}, {name: admin}]
paths:
  /x/credit:
    post:
      operationId: publicCredit
      tags: [public]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Credit"}}}}
  /admin/sponsors:
    get:
      operationId: listSponsors
      tags: [admin]
      security: [{bearerAuth: []}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Sponsors"}}}}
        "401": {$ref: "#/components/responses/Unauthorized"}
components:
  responses:
    Unauthorized: {description: no key, headers: {WWW-Authenticate: {$ref: "#/components/headers/WWWAuthenticate"}}}
  headers:
    WWWAuthenticate: {description: the scheme, schema: {type: string}}
  schemas:
    Amount: {type: string, pattern: "^[0-9]+$"}
    Credit: {type: object, properties: {amount: {$ref: "#/components/schemas/Amount"}}}
    Sponsors: {type: object, properties: {total: {$ref: "#/components/schemas/Amount"}}}
  securitySchemes:
    bearerAuth: {type: http, scheme: bearer}
`

// publicOf is spec's public document, made as `go generate ./openapi` makes a service's.
func publicOf(t *testing.T, spec string) []byte {
	t.Helper()
	whole, err := openapi3.NewLoader().LoadFromData([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	public, err := apidoc.Public(whole)
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := apidoc.YAML(public)
	if err != nil {
		t.Fatal(err)
	}
	return yaml
}

// Partners and the operator read different documents: the public listener's /openapi.yaml,
// /openapi.json (and so /docs) are the public document the service gives (PublicYAML: without
// the operator's routes and what only they use, their tag, schema, response, header, security
// scheme), served as given, and the operator's whole document is at /admin/openapi.yaml and
// /admin/openapi.json, on the admin listener alone with ADMIN_ADDR, on the one listener without
// it, and never without the admin key: 401 with the service's error body. A service without an
// admin key has no operator's document.
func TestPartnersAndTheOperatorReadDifferentDocuments(t *testing.T) {
	const key = "0123456789abcdef"
	public := publicOf(t, docsSpec)
	handler := func(adminKey string) http.Handler {
		reg := prometheus.NewRegistry()
		h, err := NewHandler(HandlerOptions{
			SpecYAML: []byte(docsSpec), PublicYAML: public, AdminKey: adminKey, Metrics: reg, Gatherer: reg,
			API: func(r chi.Router) {
				ok := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }
				r.Post("/x/credit", ok)
				r.Get("/admin/sponsors", ok)
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	partners, admin, single, keyless := listenLoopback(t), listenLoopback(t), listenLoopback(t), listenLoopback(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 3)
	go func() { done <- ServeSplit(ctx, partners, admin, handler(key), time.Second) }()
	go func() { done <- Serve(ctx, single, handler(key), time.Second) }()
	go func() { done <- Serve(ctx, keyless, handler(""), time.Second) }()
	defer func() { cancel(); <-done; <-done; <-done }()
	get := func(ln net.Listener, path, bearer string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+path, nil)
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	load := func(what string, data []byte) *openapi3.T {
		t.Helper()
		doc, err := openapi3.NewLoader().LoadFromData(data)
		if err == nil {
			err = doc.Validate(context.Background())
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return doc
	}

	for _, ln := range []net.Listener{partners, single, keyless} {
		for _, path := range []string{"/openapi.yaml", "/openapi.json"} {
			resp, body := get(ln, path, "")
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
			}
			if path == "/openapi.yaml" && string(body) != string(public) {
				t.Errorf("GET /openapi.yaml is not the public document given: %s", body)
			}
			doc := load(path, body)
			if doc.Paths.Value("/x/credit") == nil || doc.Paths.Len() != 1 {
				t.Errorf("%s: paths %v, want /x/credit alone", path, doc.Paths.InMatchingOrder())
			}
			c := doc.Components
			if len(doc.Tags) != 1 || doc.Tags[0].Name != "public" || len(c.Schemas) != 2 || c.Schemas["Credit"] == nil || c.Schemas["Amount"] == nil ||
				len(c.Responses) != 0 || len(c.Headers) != 0 || len(c.SecuritySchemes) != 0 {
				t.Errorf("%s: tags %v, components %v %v %v %v: what only the operator's routes use is left", path, tagNames(doc.Tags), slices.Sorted(maps.Keys(c.Schemas)),
					slices.Sorted(maps.Keys(c.Responses)), slices.Sorted(maps.Keys(c.Headers)), slices.Sorted(maps.Keys(c.SecuritySchemes)))
			}
		}
	}

	for _, c := range []struct {
		name string
		ln   net.Listener
	}{{"the admin listener", admin}, {"the one listener", single}} {
		resp, body := get(c.ln, "/admin/openapi.yaml", key)
		if resp.StatusCode != 200 || string(body) != docsSpec {
			t.Errorf("%s: GET /admin/openapi.yaml with the key: %d %s", c.name, resp.StatusCode, body)
		}
		resp, body = get(c.ln, "/admin/openapi.json", key)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: GET /admin/openapi.json with the key: %d %s", c.name, resp.StatusCode, body)
		}
		if doc := load("/admin/openapi.json", body); doc.Paths.Value("/admin/sponsors") == nil || doc.Components.SecuritySchemes["bearerAuth"] == nil {
			t.Errorf("%s: /admin/openapi.json is not the whole document: %s", c.name, body)
		}
		for _, path := range []string{"/admin/openapi.yaml", "/admin/openapi.json"} {
			for _, bearer := range []string{"", "not-the-key"} {
				resp, body := get(c.ln, path, bearer)
				var e struct{ Error, Code string }
				if resp.StatusCode != 401 || json.Unmarshal(body, &e) != nil || e.Code != CodeUnauthorized || e.Error == "" ||
					resp.Header.Get("WWW-Authenticate") == "" || strings.Contains(string(body), "/admin/sponsors") {
					t.Errorf("%s: GET %s with key %q: %d %v %s, want 401 UNAUTHORIZED", c.name, path, bearer, resp.StatusCode, resp.Header, body)
				}
			}
		}
		if resp, body := get(c.ln, "/admin/docs", ""); resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: GET /admin/docs: %d %s", c.name, resp.StatusCode, body)
		}
	}
	for _, c := range []struct {
		name string
		ln   net.Listener
	}{{"the public listener", partners}, {"a service without an admin key", keyless}} {
		for _, path := range []string{"/admin/openapi.yaml", "/admin/openapi.json", "/admin/docs"} {
			resp, body := get(c.ln, path, key)
			if resp.StatusCode != 404 || strings.Contains(string(body), "/admin/sponsors") {
				t.Errorf("%s: GET %s: %d %s, want 404", c.name, path, resp.StatusCode, body)
			}
		}
	}
	if resp, body := get(admin, "/openapi.yaml", key); resp.StatusCode != 404 {
		t.Errorf("the admin listener serves the public document: %d %s", resp.StatusCode, body)
	}
}

func tagNames(tags openapi3.Tags) []string {
	var names []string
	for _, t := range tags {
		names = append(names, t.Name)
	}
	return names
}

// A handler given no public document serves none: no /openapi.yaml, /openapi.json or /docs; one
// given a "public" document that holds an operator's route is not made.
func TestThePublicDocumentIsCheckedAndOptional(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := NewHandler(HandlerOptions{SpecYAML: []byte(docsSpec), PublicYAML: []byte(docsSpec), Metrics: reg, Gatherer: reg, API: func(chi.Router) {}}); err == nil {
		t.Error("the whole document was taken as the public one")
	}
	h, err := NewHandler(HandlerOptions{SpecYAML: []byte(docsSpec), Metrics: reg, Gatherer: reg, API: func(chi.Router) {}})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/openapi.yaml", "/openapi.json", "/docs"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, rec.Code)
		}
	}
}
