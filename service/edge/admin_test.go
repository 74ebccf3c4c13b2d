package edge

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

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
