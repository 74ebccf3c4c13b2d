package edge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

func TestResolveClientIP(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	for _, c := range []struct {
		name   string
		remote string
		xff    []string
		want   string
	}{
		{"direct client, no header", "203.0.113.7:5555", nil, "203.0.113.7"},
		{"direct client spoofs the header", "203.0.113.7:5555", []string{"1.2.3.4"}, "203.0.113.7"},
		{"through a trusted proxy", "10.0.0.2:80", []string{"198.51.100.9"}, "198.51.100.9"},
		{"client prepends a spoofed hop", "10.0.0.2:80", []string{"1.2.3.4, 198.51.100.9"}, "198.51.100.9"},
		{"two trusted proxies", "10.0.0.2:80", []string{"198.51.100.9, 10.0.0.3"}, "198.51.100.9"},
		{"several header lines", "10.0.0.2:80", []string{"1.2.3.4", "198.51.100.9"}, "198.51.100.9"},
		{"garbage hop", "10.0.0.2:80", []string{"1.2.3.4, not-an-ip"}, "10.0.0.2"},
		{"only trusted hops", "10.0.0.2:80", []string{"10.0.0.5"}, "10.0.0.5"},
		{"ipv6 loopback proxy", "[::1]:80", []string{"2001:db8::1"}, "2001:db8::1"},
		{"mapped ipv4", "[::ffff:203.0.113.7]:1", nil, "203.0.113.7"},
	} {
		if got := ResolveClientIP(c.remote, c.xff, trusted).String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if got := ResolveClientIP("127.0.0.1:1", []string{"1.2.3.4"}, nil).String(); got != "127.0.0.1" {
		t.Errorf("no trusted proxies: header believed (%s)", got)
	}
}

const testSpec = `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: "https://api.example.org"}] # never the host the tests reach: every check holds for any host
paths:
  /boom:
    get:
      operationId: boom
      responses: {"200": {description: ok}}
  /flags:
    get:
      operationId: flags
      parameters:
        - {name: on, in: query, schema: {type: boolean}}
      responses: {"200": {description: ok}}
  /admin:
    post:
      operationId: admin
      security: [{bearerAuth: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [a], additionalProperties: false, properties: {a: {type: integer}}}
      responses: {"200": {description: ok}}
components:
  securitySchemes:
    bearerAuth: {type: http, scheme: bearer}
`

func testHandler(t *testing.T) http.Handler {
	t.Helper()
	reg := prometheus.NewRegistry()
	h, err := NewHandler(HandlerOptions{
		SpecYAML: []byte(testSpec), PublicYAML: publicOf(t, testSpec), AdminKey: "0123456789abcdef", Metrics: reg, Gatherer: reg,
		API: func(r chi.Router) {
			r.Get("/boom", func(w http.ResponseWriter, r *http.Request) { panic("kaboom") })
			r.Get("/flags", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "on="+r.URL.Query().Get("on")) })
			r.Post("/admin", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestEveryLayerAnswersWithTheErrorShape(t *testing.T) {
	h := testHandler(t)
	for _, c := range []struct {
		name, method, path, body, auth string
		status                         int
		code                           string
	}{
		{"panic", "GET", "/boom", "", "", 500, CodeInternal},
		{"unknown path", "GET", "/nope", "", "", 404, CodeNotFound},
		{"wrong method", "DELETE", "/boom", "", "", 405, CodeMethodNotAllowed},
		{"no key", "POST", "/admin", `{"a":1}`, "", 401, CodeUnauthorized},
		{"no key, bad body", "POST", "/admin", `{`, "", 401, CodeUnauthorized},
		{"bad body", "POST", "/admin", `{"a":"x"}`, "Bearer 0123456789abcdef", 400, CodeInvalidRequest},
		{"extra field", "POST", "/admin", `{"a":1,"b":2}`, "Bearer 0123456789abcdef", 400, CodeInvalidRequest},
		{"too large", "POST", "/admin", `{"a":1,"pad":"` + strings.Repeat("x", DefaultBodyLimit) + `"}`, "Bearer 0123456789abcdef", 413, CodePayloadTooLarge},
	} {
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body struct{ Error, Code string }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != c.status || body.Code != c.code || body.Error == "" {
			t.Errorf("%s: %d %s, want %d %s", c.name, rec.Code, rec.Body, c.status, c.code)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q", c.name, ct)
		}
		if strings.Contains(rec.Body.String(), "kaboom") {
			t.Errorf("%s: the panic value leaks", c.name)
		}
	}
	req := httptest.NewRequest("POST", "/admin", strings.NewReader(`{"a":1,"b":2}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer 0123456789abcdef")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `field \"b\" is not accepted`) {
		t.Errorf("extra field message: %s", rec.Body)
	}
}

func TestRequestIDIsKeptOrMade(t *testing.T) {
	h := testHandler(t)
	for in, keep := range map[string]bool{"abc-123": true, "": false, "bad id with spaces": false, strings.Repeat("a", 65): false} {
		req := httptest.NewRequest("GET", "/nope", nil)
		if in != "" {
			req.Header.Set("X-Request-Id", in)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Header().Get("X-Request-Id")
		if got == "" || (got == in) != keep {
			t.Errorf("X-Request-Id %q → %q", in, got)
		}
	}
}

// Request-path logs (a panic, an error answer) go to the service's logger, under its name.
func TestRequestLogsGoToTheServiceLogger(t *testing.T) {
	var buf bytes.Buffer
	reg := prometheus.NewRegistry()
	h, err := NewHandler(HandlerOptions{
		SpecYAML: []byte(testSpec), AdminKey: "0123456789abcdef", Metrics: reg, Gatherer: reg,
		Logger: NewLogger(&buf, slog.LevelDebug, "svc-x"),
		API: func(r chi.Router) {
			r.Get("/boom", func(w http.ResponseWriter, r *http.Request) { panic("kaboom") })
			r.Get("/flags", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "on="+r.URL.Query().Get("on")) })
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/boom", "/nope"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	var msgs []string
	for line := range strings.Lines(buf.String()) {
		var rec struct {
			Msg, Service, Code, Route string
			Status                    int
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Service != "svc-x" {
			t.Fatalf("log line %q: %v", line, err)
		}
		msgs = append(msgs, fmt.Sprintf("%s/%s%s%.0d", rec.Msg, rec.Code, rec.Route, rec.Status))
	}
	// Each request's access line, the panicking one's too (written as the panic passes); a
	// panic is one ERROR line, with its code and route as an error answer's line has them.
	want := []string{"request//boom500", "panic while serving a request/" + CodeInternal + "/boom500", "no such endpoint/" + CodeNotFound + "unmatched404", "request/unmatched404"}
	if !slices.Equal(msgs, want) {
		t.Fatalf("logged %q, want %q", msgs, want)
	}
	// The panic's 500 is counted as every answer is (the server-error alert reads it).
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counted := map[string]float64{}
	for _, mf := range families {
		if mf.GetName() != "vaultd_http_requests_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			counted[labels["route"]+" "+labels["status"]] = m.GetCounter().GetValue()
		}
	}
	if counted["/boom 500"] != 1 || counted["unmatched 404"] != 1 {
		t.Fatalf("requests counted %v, want /boom's 500 and the unmatched 404 once each", counted)
	}
}

// The strict HTTP surface: one JSON value per body, booleans spelled true or false, HEAD where
// GET is, Allow on 405, the Bearer scheme in any case, a percent-encoded path that spells a
// route, and a 413 a client still sending its body can read.
func TestStrictHTTPSurface(t *testing.T) {
	h := httptest.NewServer(testHandler(t))
	defer h.Close()
	do := func(method, path, body, auth string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, h.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, string(data)
	}
	for _, body := range []string{`{"a":1} trailing`, `{"a":1}{"a":2}`, `{"a":1} 2`} {
		if resp, b := do("POST", "/admin", body, "Bearer 0123456789abcdef"); resp.StatusCode != 400 || !strings.Contains(b, "data after the JSON value") {
			t.Errorf("%q: %d %s", body, resp.StatusCode, b)
		}
	}
	if resp, b := do("POST", "/admin", `{"a":1}`+"\n", "bearer 0123456789abcdef"); resp.StatusCode != 200 {
		t.Errorf("lower-case bearer, a trailing newline: %d %s", resp.StatusCode, b)
	}
	for _, v := range []string{"1", "TRUE", "t", "yes"} {
		if resp, b := do("GET", "/flags?on="+v, "", ""); resp.StatusCode != 400 || !strings.Contains(b, `query parameter \"on\": must be true or false`) {
			t.Errorf("on=%s: %d %s", v, resp.StatusCode, b)
		}
	}
	for _, v := range []string{"true", "false"} {
		if resp, b := do("GET", "/flags?on="+v, "", ""); resp.StatusCode != 200 || b != "on="+v {
			t.Errorf("on=%s: %d %s", v, resp.StatusCode, b)
		}
	}
	if resp, b := do("HEAD", "/flags?on=true", "", ""); resp.StatusCode != 200 || b != "" {
		t.Errorf("HEAD: %d %q", resp.StatusCode, b)
	}
	if resp, _ := do("HEAD", "/openapi.yaml", "", ""); resp.StatusCode != 200 {
		t.Errorf("HEAD /openapi.yaml: %d", resp.StatusCode)
	}
	if resp, _ := do("DELETE", "/flags", "", ""); resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("405: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	if resp, b := do("GET", "/%66lags?on=true", "", ""); resp.StatusCode != 200 || b != "on=true" {
		t.Errorf("/%%66lags: %d %s", resp.StatusCode, b)
	}
	// 2 MiB sent with its length against a 64 KiB limit: the server reads the body before it
	// answers 413, so the connection stays usable: a client still sending reads the answer, and
	// the next request on the same connection is served (without the read, the server would
	// close the connection on the client).
	conn, err := net.Dial("tcp", h.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	big := `{"a":1,"pad":"` + strings.Repeat("x", 2<<20) + `"}`
	go fmt.Fprintf(conn, "POST /admin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer 0123456789abcdef\r\nContent-Length: %d\r\n\r\n%sGET /flags?on=true HTTP/1.1\r\nHost: x\r\n\r\n", len(big), big)
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for _, want := range []int{413, 200} {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("reading the answer %d on the connection: %v", want, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("answer %d, want %d", resp.StatusCode, want)
		}
	}
}

// A body whose Content-Type the operation does not list (or a body without one) is a 415
// UNSUPPORTED_MEDIA_TYPE naming what the operation accepts (docs/design.md, "Error codes"),
// not a 400: the body may well be right, in a form the operation does not read. The key is
// still checked first, and a parameter on the media type, or its case, changes nothing.
func TestUnsupportedMediaType(t *testing.T) {
	h := httptest.NewServer(testHandler(t))
	defer h.Close()
	const key = "Bearer 0123456789abcdef"
	for _, c := range []struct {
		name, contentType, body, auth string
		status                        int
		code                          string
	}{
		{"text", "text/plain", `{"a":1}`, key, 415, CodeUnsupportedMediaType},
		{"a form", "application/x-www-form-urlencoded", "a=1", key, 415, CodeUnsupportedMediaType},
		{"multipart", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n", key, 415, CodeUnsupportedMediaType},
		{"no Content-Type", "", `{"a":1}`, key, 415, CodeUnsupportedMediaType},
		{"not a media type", "json", `{"a":1}`, key, 415, CodeUnsupportedMediaType},
		{"no key", "text/plain", `{"a":1}`, "", 401, CodeUnauthorized},
		{"no body", "text/plain", "", key, 400, CodeInvalidRequest},
		{"a charset", "application/json; charset=utf-8", `{"a":1}`, key, 200, ""},
		{"capitals", "Application/JSON", `{"a":1}`, key, 200, ""},
	} {
		req, _ := http.NewRequest("POST", h.URL+"/admin", strings.NewReader(c.body))
		if c.contentType != "" {
			req.Header.Set("Content-Type", c.contentType)
		}
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var body struct{ Error, Code string }
		_ = json.Unmarshal(data, &body)
		if resp.StatusCode != c.status || body.Code != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, resp.StatusCode, data, c.status, c.code)
		}
		if c.status == 415 && !strings.Contains(body.Error, "application/json") {
			t.Errorf("%s: the message does not name what is accepted: %q", c.name, body.Error)
		}
	}
}

// Every service serves /docs: its own page, which may fetch only from the service itself (the
// headless-Chromium check that it renders every operation offline is web/example/test/docs.mjs).
func TestDocsPage(t *testing.T) {
	rec := httptest.NewRecorder()
	testHandler(t).ServeHTTP(rec, httptest.NewRequest("GET", "/docs", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") || !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("/docs: %d %v", rec.Code, rec.Header())
	}
	if !strings.Contains(rec.Body.String(), `new URL("openapi.json", location.href)`) || strings.Contains(rec.Body.String(), "https://") {
		t.Fatal("/docs does not render openapi.json by itself, or names another site")
	}
}

// A domain's refusal is answered with the status of the service's table, the domain's code,
// message and cause; one without a status or a code (a reason missing from a table) is a 500 that
// never shows the message, not a guess.
func TestRefusal(t *testing.T) {
	cause := errors.New("cause")
	if e := Refusal(http.StatusConflict, "TAKEN", "already taken", cause); e.Status != 409 || e.Code != "TAKEN" || e.Message != "already taken" || !errors.Is(e, cause) {
		t.Fatalf("a mapped reason: %#v", e)
	}
	for _, e := range []*Error{Refusal(0, "TAKEN", "secret detail", nil), Refusal(http.StatusConflict, "", "secret detail", nil)} {
		if e.Status != 500 || e.Code != CodeInternal || strings.Contains(e.Message, "secret") {
			t.Fatalf("an unmapped reason: %#v", e)
		}
	}
}

// A service's one function (HandlerOptions.Answer) answers its admissions' refusals as it answers
// its handlers' errors; an error it does not know is a 500 INTERNAL, logged once, its cause in the
// log and never in the answer.
func TestAdmissionsAreAnsweredByTheServicesAnswer(t *testing.T) {
	errSlowDown, errSecret := errors.New("slow down"), errors.New("secret detail")
	answer := func(err error) *Error {
		if errors.Is(err, errSlowDown) {
			return &Error{Status: http.StatusTooManyRequests, Code: "SLOW_DOWN", Message: "slow down", RetryAfter: 2 * time.Second}
		}
		return Internal(err)
	}
	var logs bytes.Buffer
	reg := prometheus.NewRegistry()
	h, err := NewHandler(HandlerOptions{
		SpecYAML: []byte(testSpec), Metrics: reg, Gatherer: reg, Answer: answer,
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Admit: map[string]Admission{"GET /flags": func(r *http.Request) (ratelimit.Quota, error) {
			if r.URL.Query().Get("on") == "true" {
				return ratelimit.Quota{}, errSlowDown
			}
			return ratelimit.Quota{}, errSecret
		}},
		API: func(r chi.Router) {
			r.Get("/flags", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/flags?on=true", nil))
	if rec.Code != 429 || !strings.Contains(rec.Body.String(), `"code":"SLOW_DOWN"`) || rec.Header().Get("Retry-After") != "2" {
		t.Fatalf("a refusal the service answers: %d %s %v", rec.Code, rec.Body, rec.Header())
	}
	logs.Reset()
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/flags?on=false", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"code":"INTERNAL"`) || strings.Contains(rec.Body.String(), "secret") {
		t.Fatalf("an error the service does not know: %d %s", rec.Code, rec.Body)
	}
	if n := strings.Count(logs.String(), `"level":"ERROR"`); n != 1 || !strings.Contains(logs.String(), "secret detail") {
		t.Fatalf("an error the service does not know was logged %d times at error level, want once with its cause:\n%s", n, logs.String())
	}
}

// Requests net/http refuses before any handler runs (a path with a bad escape, headers over the
// limit) get the error shape of every other answer: JSON {error, code} and an X-Request-Id, not
// net/http's plain text.
func TestMalformedRequestsGetTheErrorShape(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Serve(ctx, ln, testHandler(t), time.Second); close(done) }()
	defer func() { cancel(); <-done }()
	for _, c := range []struct {
		name, request string
		status        int
	}{
		{"bad escape", "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"no host", "GET /flags HTTP/1.1\r\n\r\n", 400},
		{"headers too large", "GET /flags HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 80<<10) + "\r\n\r\n", 431},
	} {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(c.request))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		conn.Close()
		var e struct{ Error, Code string }
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("X-Request-Id") == "" ||
			json.Unmarshal(body, &e) != nil || e.Code != CodeInvalidRequest || !strings.HasPrefix(e.Error, "malformed request: ") {
			t.Errorf("%s: %d %v %s", c.name, resp.StatusCode, resp.Header, body)
		}
	}
	// Everything else passes through untouched.
	resp, err := http.Get("http://" + ln.Addr().String() + "/flags?on=true")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "on=true" {
		t.Fatalf("a good request: %d %s", resp.StatusCode, body)
	}
}
