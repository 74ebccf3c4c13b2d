package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// tokenList is GET /tokenlist.json, checked as the generated client reads it.
func tokenList(t testing.TB, s *server, etag string) *registryapi.GetTokenListResponse {
	t.Helper()
	params := &registryapi.GetTokenListParams{}
	if etag != "" {
		params.IfNoneMatch = &etag
	}
	resp, err := s.public.GetTokenListWithResponse(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func listVersion(t testing.TB, s *server) (string, string) {
	t.Helper()
	resp := tokenList(t, s, "")
	if resp.StatusCode() != 200 || resp.JSON200 == nil {
		t.Fatalf("GET /tokenlist.json: %d %s", resp.StatusCode(), resp.Body)
	}
	v := resp.JSON200.Version
	return strings.Join([]string{itoa(v.Major), itoa(v.Minor), itoa(v.Patch)}, "."), resp.HTTPResponse.Header.Get("ETag")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The list through a registry's life: none while no token is enabled; then each add, update,
// disable, enable, removal and icon bumps the version by the format's rules, a write that
// changes nothing the list says bumps nothing, the ETag answers 304 until the list changes, and a
// restart serves the same version (a new PUBLIC_BASE_URL, which changes the logos, is a patch).
func TestTokenListVersions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	usdc, weth := tokenBySymbol(t, "vUSDC"), tokenBySymbol(t, "vWETH")

	empty := tokenList(t, s, "")
	wantError(t, "an empty registry's list", 404, empty.Body, empty.StatusCode(), "TOKEN_LIST_EMPTY")

	step := func(what, want string) string {
		t.Helper()
		got, etag := listVersion(t, s)
		if got != want {
			t.Fatalf("after %s: version %s, want %s", what, got, want)
		}
		return etag
	}
	upsert(t, s, registryapi.TokenInput{Address: usdc.Address.Hex(), Category: ptr("stablecoin"), UnderlyingChain: ptr("ethereum")})
	etag := step("the first token", "1.0.0")
	if again := tokenList(t, s, etag); again.StatusCode() != 304 || again.HTTPResponse.Header.Get("ETag") != etag {
		t.Fatalf("If-None-Match with the list's ETag: %d", again.StatusCode())
	}
	// Any web app may read it (no CORS_ALLOWED_ORIGINS here), and shared caches may keep it.
	first := tokenList(t, s, "").HTTPResponse.Header
	if first.Get("Access-Control-Allow-Origin") != "*" || first.Get("Cache-Control") != "public, max-age=15" || first.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v", first)
	}
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex()})
	step("an added token", "1.1.0")
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex(), Category: ptr("wrapped ETH")})
	step("a new category", "1.1.1")
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex(), SortOrder: ptr(int32(-1))})
	etag = step("a new order", "1.1.2")
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex(), SortOrder: ptr(int32(-1))})
	if e := step("a write that changes nothing", "1.1.2"); e != etag {
		t.Fatalf("an unchanged list has a new ETag")
	}
	if old := tokenList(t, s, etag); old.StatusCode() != 304 {
		t.Fatalf("an unchanged list: %d, want 304", old.StatusCode())
	}
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex(), Enabled: ptr(false)})
	step("a disabled token", "2.0.0")
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex(), Category: ptr("other")})
	step("a disabled token's change", "2.0.0")
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex(), Enabled: ptr(true)})
	step("an enabled token", "2.1.0")
	if r := uploadIcon(t, s, usdc.Address.Hex(), map[string][]byte{"file": pngBytes(1)}); r.StatusCode() != 200 {
		t.Fatalf("icon: %d %s", r.StatusCode(), r.Body)
	}
	step("an icon", "2.1.1")
	del, err := s.admin.DeleteTokenWithResponse(ctx, weth.Address.Hex())
	if err != nil || del.StatusCode() != 204 {
		t.Fatalf("DELETE: %v %d %s", err, del.StatusCode(), del.Body)
	}
	etag = step("a removed token", "3.0.0")
	gone, _ := s.admin.DeleteTokenWithResponse(ctx, weth.Address.Hex())
	wantError(t, "DELETE of a removed token", 404, gone.Body, gone.StatusCode(), "TOKEN_NOT_FOUND")
	if r, _ := s.public.DeleteTokenWithResponse(ctx, usdc.Address.Hex()); r.StatusCode() != 401 {
		t.Fatalf("DELETE without the key: %d", r.StatusCode())
	}

	// What the list says of the token left.
	l := tokenList(t, s, "").JSON200
	if len(l.Tokens) != 1 || l.Name != "vaultd" || l.Tags == nil || (*l.Tags)["stablecoin"].Name != "stablecoin" {
		t.Fatalf("list %+v", l)
	}
	e := l.Tokens[0]
	got, _ := s.public.GetTokenWithResponse(ctx, usdc.Address.Hex())
	if e.Address != usdc.Address.Hex() || e.ChainId != int64(testChain.ChainID) || e.Symbol != usdc.Symbol || e.Decimals != int(usdc.Decimals) ||
		e.LogoURI == nil || *e.LogoURI != got.JSON200.Icon || !strings.HasPrefix(*e.LogoURI, s.url+"/icons/") ||
		e.Extensions.TokenId.High+e.Extensions.TokenId.Low[2:] != got.JSON200.TokenId ||
		e.Extensions.UnderlyingChain == nil || *e.Extensions.UnderlyingChain != "ethereum" || e.Tags == nil || (*e.Tags)[0] != "stablecoin" {
		t.Fatalf("entry %+v of %+v", e, got.JSON200)
	}
	s.close()

	// A restart serves the same list: the same bytes, so the same ETag.
	same := startServer(t, dir, map[string]string{"PUBLIC_BASE_URL": s.url})
	if v, e := listVersion(t, same); v != "3.0.0" || e != etag {
		t.Fatalf("after a restart: %s %s, want 3.0.0 %s", v, e, etag)
	}
	same.close()
	moved := startServer(t, dir, map[string]string{"PUBLIC_BASE_URL": "https://registry.example"})
	if v, _ := listVersion(t, moved); v != "3.0.1" {
		t.Fatalf("after a restart with a new PUBLIC_BASE_URL: %s, want 3.0.1", v)
	}
	if l := tokenList(t, moved, "").JSON200; !strings.HasPrefix(*l.Tokens[0].LogoURI, "https://registry.example/icons/") {
		t.Fatalf("logo %s", *l.Tokens[0].LogoURI)
	}
}

// Replicas on one Postgres serve one list: a write at one bumps it once, every replica answers
// the same bytes and ETag, and a replica started later (or restarted) bumps nothing.
func TestTokenListReplicas(t *testing.T) {
	t.Parallel()
	db := sqldbtest.Postgres(t)
	over := func() map[string]string {
		return map[string]string{"DATABASE_URL": db, "PUBLIC_BASE_URL": "https://registry.example"}
	}
	replicas := []*server{startServer(t, "", over()), startServer(t, "", over())}
	upsert(t, replicas[0], registryapi.TokenInput{Address: tokenBySymbol(t, "vUSDC").Address.Hex()})
	converged(t, replicas, 1)
	upsert(t, replicas[1], registryapi.TokenInput{Address: tokenBySymbol(t, "vWBTC").Address.Hex()})
	converged(t, replicas, 2)
	upsert(t, replicas[0], registryapi.TokenInput{Address: tokenBySymbol(t, "vUSDC").Address.Hex(), Enabled: ptr(false)})
	converged(t, replicas, 1)
	replicas = append(replicas, startServer(t, "", over()))
	var etag string
	for i, s := range replicas {
		// A replica follows the others' writes asynchronously: wait for it to hold the last.
		edgetest.WaitFor(t, "replica to serve 2.0.0", func() bool { v, _ := listVersion(t, s); return v == "2.0.0" })
		_, e := listVersion(t, s)
		if etag == "" {
			etag = e
		}
		if e != etag {
			t.Fatalf("replica %d: ETag %s, replica 0's %s", i, e, etag)
		}
	}
	// Restarted, every replica serves the same list: nothing was bumped.
	for _, s := range replicas {
		s.close()
	}
	again := startServer(t, "", over())
	if v, e := listVersion(t, again); v != "2.0.0" || e != etag {
		t.Fatalf("after a restart: %s %s, want 2.0.0 %s", v, e, etag)
	}
}
