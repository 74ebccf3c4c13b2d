package registry_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/registry"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
)

var ctx = context.Background()

func tokenBySymbol(t testing.TB, symbol string) devchain.Token {
	t.Helper()
	for _, tok := range testChain.Tokens {
		if tok.Symbol == symbol {
			return tok
		}
	}
	t.Fatalf("no dev token %s", symbol)
	return devchain.Token{}
}

func upsert(t testing.TB, s *server, in registryapi.TokenInput) *registryapi.UpsertTokenResponse {
	t.Helper()
	resp, err := s.admin.UpsertTokenWithResponse(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func listTokens(t testing.TB, c *registryapi.ClientWithResponses, params *registryapi.ListTokensParams) *registryapi.ListTokensResponse {
	t.Helper()
	resp, err := c.ListTokensWithResponse(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestEmptyRegistryListsNothing(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	resp := listTokens(t, s.public, nil)
	if resp.StatusCode() != 200 || resp.JSON200 == nil || resp.JSON200.Tokens == nil || len(resp.JSON200.Tokens) != 0 {
		t.Fatalf("got %d %s, want 200 with an empty array", resp.StatusCode(), resp.Body)
	}
	if !strings.Contains(string(resp.Body), `"tokens":[]`) {
		t.Fatalf("body %s: want tokens as an empty array, not null", resp.Body)
	}
}

// Every dev token is read from the chain: 18, 6 and 8 decimals, and the bytes32 legacy token.
func TestCreateReadsMetadataFromChain(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	for _, tok := range testChain.Tokens {
		resp := upsert(t, s, registryapi.TokenInput{Address: strings.ToLower(tok.Address.Hex())})
		if resp.StatusCode() != http.StatusCreated || resp.JSON201 == nil {
			t.Fatalf("%s: got %d %s, want 201", tok.Symbol, resp.StatusCode(), resp.Body)
		}
		got := *resp.JSON201
		if loc := resp.HTTPResponse.Header.Get("Location"); loc != "/tokens/"+tok.Address.Hex() {
			t.Errorf("%s: Location %q", tok.Symbol, loc)
		}
		wantID, _ := tokenid.Hex(tok.Address, testChain.ChainID)
		want := registryapi.Token{Address: tok.Address.Hex(), Name: tok.Name, Symbol: tok.Symbol, Decimals: int(tok.Decimals),
			TokenId: wantID, Enabled: true}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", tok.Symbol, got, want)
		}
	}
	if legacy := tokenBySymbol(t, "vMKR"); !legacy.Legacy {
		t.Fatal("the dev chain's vMKR should be the bytes32 token")
	}
}

func TestUpdateKeepsOmittedFields(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	tok := tokenBySymbol(t, "vUSDC")
	created := upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Category: ptr("stablecoin"), SortOrder: ptr(int32(7)),
		UnderlyingChain: ptr("ethereum"), Icon: ptr("https://example.com/usdc.png")})
	if created.StatusCode() != 201 {
		t.Fatalf("create: %d %s", created.StatusCode(), created.Body)
	}
	updated := upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Enabled: ptr(false)})
	if updated.StatusCode() != 200 || updated.JSON200 == nil {
		t.Fatalf("update: %d %s, want 200", updated.StatusCode(), updated.Body)
	}
	want := *created.JSON201
	want.Enabled = false
	if got := *updated.JSON200; got != want {
		t.Fatalf("update changed more than enabled:\n got %+v\nwant %+v", got, want)
	}
	again := upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Category: ptr(""), Icon: ptr("")})
	if again.StatusCode() != 200 || again.JSON200.Category != "" || again.JSON200.Icon != "" || again.JSON200.SortOrder != 7 {
		t.Fatalf("clearing category and icon: %d %s", again.StatusCode(), again.Body)
	}
}

func TestChainFieldsAreNotAccepted(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	tok := tokenBySymbol(t, "vWETH")
	for _, field := range []string{`"name":"X"`, `"symbol":"X"`, `"decimals":3`, `"tokenId":"0x01"`, `"bogus":1`} {
		body := `{"address":"` + tok.Address.Hex() + `",` + field + `}`
		resp, err := s.admin.UpsertTokenWithBodyWithResponse(ctx, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		name := strings.Trim(strings.Split(field, ":")[0], `"`)
		wantError(t, field, 400, resp.Body, resp.StatusCode(), "INVALID_REQUEST")
		if !strings.Contains(string(resp.Body), `\"`+name+`\" is not accepted`) {
			t.Errorf("%s: message %s does not say the field is not accepted", field, resp.Body)
		}
	}
	if n := len(listTokens(t, s.public, nil).JSON200.Tokens); n != 0 {
		t.Fatalf("refused requests added %d tokens", n)
	}
}

func TestBadPayloads(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	addr := tokenBySymbol(t, "vWETH").Address.Hex()
	for _, c := range []struct{ name, body, code string }{
		{"missing address", `{}`, "INVALID_REQUEST"},
		{"short address", `{"address":"0x1234"}`, "INVALID_REQUEST"},
		{"not JSON", `{"address":`, "INVALID_REQUEST"},
		{"wrong type", `{"address":"` + addr + `","enabled":"yes"}`, "INVALID_REQUEST"},
		{"sortOrder overflow", `{"address":"` + addr + `","sortOrder":99999999999}`, "INVALID_REQUEST"},
		{"long category", `{"address":"` + addr + `","category":"` + strings.Repeat("x", 65) + `"}`, "INVALID_REQUEST"},
		{"javascript icon", `{"address":"` + addr + `","icon":"javascript:alert(1)"}`, "INVALID_REQUEST"},
		{"ftp icon", `{"address":"` + addr + `","icon":"ftp://example.com/x.png"}`, "INVALID_REQUEST"},
		{"svg data URI", `{"address":"` + addr + `","icon":"data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)) + `"}`, "UNSUPPORTED_MEDIA_TYPE"},
		{"text as base64", `{"address":"` + addr + `","icon":"` + base64.StdEncoding.EncodeToString([]byte("hello, not an image")) + `"}`, "UNSUPPORTED_MEDIA_TYPE"},
	} {
		resp, err := s.admin.UpsertTokenWithBodyWithResponse(ctx, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		status := map[string]int{"INVALID_REQUEST": 400, "UNSUPPORTED_MEDIA_TYPE": 415}[c.code]
		wantError(t, c.name, status, resp.Body, resp.StatusCode(), c.code)
	}
	if n := len(listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)}).JSON200.Tokens); n != 0 {
		t.Fatalf("refused requests added %d tokens", n)
	}
}

func TestAdminKeyIsRequired(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	addr := tokenBySymbol(t, "vWETH").Address.Hex()
	wrong := newClient(t, s.url, testAdminKey+"x")
	for name, c := range map[string]*registryapi.ClientWithResponses{"no key": s.public, "wrong key": wrong} {
		resp, err := c.UpsertTokenWithResponse(ctx, registryapi.TokenInput{Address: addr})
		if err != nil {
			t.Fatal(err)
		}
		wantError(t, name, 401, resp.Body, resp.StatusCode(), "UNAUTHORIZED")
		if resp.HTTPResponse.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate header", name)
		}
		if strings.Contains(string(resp.Body), testAdminKey) {
			t.Fatalf("%s: the key is echoed", name)
		}
		// Security is checked before the body: a bad payload without the key is still a 401.
		bad, err := c.UpsertTokenWithBodyWithResponse(ctx, "application/json", strings.NewReader(`{"name":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		wantError(t, name+", bad body", 401, bad.Body, bad.StatusCode(), "UNAUTHORIZED")
		icon, err := c.UploadTokenIconWithBodyWithResponse(ctx, addr, "image/png", bytes.NewReader(pngBytes(1)))
		if err != nil {
			t.Fatal(err)
		}
		wantError(t, name+", icon", 401, icon.Body, icon.StatusCode(), "UNAUTHORIZED")
	}
	if n := len(listTokens(t, s.public, nil).JSON200.Tokens); n != 0 {
		t.Fatal("an unauthorised request changed the registry")
	}
}

func TestNotATokenOrContract(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	for name, c := range map[string]struct {
		addr common.Address
		code string
	}{
		"empty account":          {common.HexToAddress("0x00000000000000000000000000000000deadbeef"), "NOT_A_CONTRACT"},
		"user account":           {testChain.Accounts.Users[0].Address, "NOT_A_CONTRACT"},
		"contract, not an ERC20": {testChain.Contracts.TokenFactory, "NOT_A_TOKEN"},
	} {
		resp := upsert(t, s, registryapi.TokenInput{Address: c.addr.Hex()})
		wantError(t, name, 422, resp.Body, resp.StatusCode(), c.code)
	}
}

func TestGetToken(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	tok := tokenBySymbol(t, "vWBTC")
	upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Enabled: ptr(false)})
	for _, form := range []string{tok.Address.Hex(), strings.ToLower(tok.Address.Hex()), "0x" + strings.ToUpper(tok.Address.Hex()[2:])} {
		resp, err := s.public.GetTokenWithResponse(ctx, form)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode() != 200 || resp.JSON200.Address != tok.Address.Hex() || resp.JSON200.Decimals != 8 || resp.JSON200.Enabled {
			t.Fatalf("GET %s: %d %s", form, resp.StatusCode(), resp.Body)
		}
	}
	unknown, _ := s.public.GetTokenWithResponse(ctx, "0x00000000000000000000000000000000deadbeef")
	wantError(t, "unknown", 404, unknown.Body, unknown.StatusCode(), "TOKEN_NOT_FOUND")
	for _, bad := range []string{"0x1234", "xyz", "0x00000000000000000000000000000000deadbeeg"} {
		resp, _ := s.public.GetTokenWithResponse(ctx, bad)
		wantError(t, bad, 400, resp.Body, resp.StatusCode(), "INVALID_REQUEST")
	}
}

func TestListOrderAndVisibility(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	// Same sortOrder for two tokens: symbol decides; a disabled token is left out.
	weth, usdc, wbtc, mkr := tokenBySymbol(t, "vWETH"), tokenBySymbol(t, "vUSDC"), tokenBySymbol(t, "vWBTC"), tokenBySymbol(t, "vMKR")
	upsert(t, s, registryapi.TokenInput{Address: weth.Address.Hex(), SortOrder: ptr(int32(2))})
	upsert(t, s, registryapi.TokenInput{Address: usdc.Address.Hex(), SortOrder: ptr(int32(1))})
	upsert(t, s, registryapi.TokenInput{Address: wbtc.Address.Hex(), SortOrder: ptr(int32(1))})
	upsert(t, s, registryapi.TokenInput{Address: mkr.Address.Hex(), SortOrder: ptr(int32(-5)), Enabled: ptr(false)})

	symbols := func(l *registryapi.TokenList) (out []string) {
		for _, t := range l.Tokens {
			out = append(out, t.Symbol)
		}
		return out
	}
	pub := listTokens(t, s.public, nil)
	if got := strings.Join(symbols(pub.JSON200), ","); got != "vUSDC,vWBTC,vWETH" {
		t.Fatalf("public list %s", got)
	}
	if cc := pub.HTTPResponse.Header.Get("Cache-Control"); cc != "public, max-age=15" {
		t.Errorf("Cache-Control %q", cc)
	}
	all := listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)})
	if got := strings.Join(symbols(all.JSON200), ","); got != "vMKR,vUSDC,vWBTC,vWETH" {
		t.Fatalf("full list %s", got)
	}
	if cc := all.HTTPResponse.Header.Get("Cache-Control"); cc != "private, no-store" {
		t.Errorf("includeDisabled Cache-Control %q", cc)
	}
	for name, c := range map[string]*registryapi.ClientWithResponses{"no key": s.public, "wrong key": newClient(t, s.url, "nope-nope-nope-nope")} {
		resp := listTokens(t, c, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)})
		wantError(t, "includeDisabled, "+name, 401, resp.Body, resp.StatusCode(), "UNAUTHORIZED")
	}
	if resp := listTokens(t, s.public, &registryapi.ListTokensParams{IncludeDisabled: ptr(false)}); resp.StatusCode() != 200 {
		t.Fatalf("includeDisabled=false without key: %d", resp.StatusCode())
	}
}

// GET /tokens without a query, a body or a declared header passes no OpenAPI validation (nothing
// in it could fail one); any of them sends it through validation again: a badly spelled query
// parameter is refused, with the usual error and nothing else answered, on GET and HEAD alike.
func TestListTokensBadParametersAreRefused(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		for _, query := range []string{"includeDisabled=maybe", "includeDisabled=1", "includeDisabled=TRUE", "includeDisabled="} {
			req, _ := http.NewRequest(method, s.url+"/tokens?"+query, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Etag") != "" {
				t.Fatalf("%s /tokens?%s: %d (ETag %q) %s, want 400 and no list", method, query, resp.StatusCode, resp.Header.Get("Etag"), body)
			}
			if method == http.MethodGet {
				wantError(t, "GET /tokens?"+query, 400, body, resp.StatusCode, "INVALID_REQUEST")
			}
		}
	}
	if resp := listTokens(t, s.public, nil); resp.StatusCode() != 200 {
		t.Fatalf("GET /tokens: %d", resp.StatusCode())
	}
}

func TestETag(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	tok := tokenBySymbol(t, "vWETH")
	upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex()})
	first := listTokens(t, s.public, nil)
	etag := first.HTTPResponse.Header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) || strings.HasPrefix(etag, "W/") {
		t.Fatalf("ETag %q is not a strong validator", etag)
	}
	for _, inm := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
		resp := listTokens(t, s.public, &registryapi.ListTokensParams{IfNoneMatch: ptr(inm)})
		if resp.StatusCode() != http.StatusNotModified || len(resp.Body) != 0 {
			t.Fatalf("If-None-Match %s: %d %q, want 304 and no body", inm, resp.StatusCode(), resp.Body)
		}
		if resp.HTTPResponse.Header.Get("ETag") != etag {
			t.Errorf("304 without the ETag")
		}
	}
	if resp := listTokens(t, s.public, &registryapi.ListTokensParams{IfNoneMatch: ptr(`"stale"`)}); resp.StatusCode() != 200 {
		t.Fatalf("stale tag: %d", resp.StatusCode())
	}
	upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Category: ptr("native")})
	after := listTokens(t, s.public, &registryapi.ListTokensParams{IfNoneMatch: ptr(etag)})
	if after.StatusCode() != 200 || after.HTTPResponse.Header.Get("ETag") == etag {
		t.Fatalf("after a change: %d with ETag %s", after.StatusCode(), after.HTTPResponse.Header.Get("ETag"))
	}
	all := listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true), IfNoneMatch: ptr(after.HTTPResponse.Header.Get("ETag"))})
	if all.StatusCode() != 304 {
		t.Fatalf("includeDisabled with every token enabled has the same body: want 304, got %d", all.StatusCode())
	}
}

// pngBytes is a 32×32 PNG; n varies its content.
func pngBytes(n int) []byte { return registry.IconForTest("png", 32, 32, byte(n)) }

func multipartBody(parts map[string][]byte) (string, *bytes.Buffer) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for name, data := range parts {
		p, _ := w.CreateFormFile(name, "../../etc/passwd")
		p.Write(data)
	}
	w.Close()
	return w.FormDataContentType(), &buf
}

func uploadIcon(t testing.TB, s *server, addr string, parts map[string][]byte) *registryapi.UploadTokenIconResponse {
	t.Helper()
	ct, body := multipartBody(parts)
	resp, err := s.admin.UploadTokenIconWithBodyWithResponse(ctx, addr, ct, body)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func iconFiles(t testing.TB, s *server) []string {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Join(s.dir, "icons"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestIconUpload(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	tok := tokenBySymbol(t, "vWETH")
	addr := tok.Address.Hex()
	upsert(t, s, registryapi.TokenInput{Address: addr})

	first := uploadIcon(t, s, addr, map[string][]byte{"file": pngBytes(1)})
	if first.StatusCode() != 200 || first.JSON200 == nil {
		t.Fatalf("upload: %d %s", first.StatusCode(), first.Body)
	}
	url := first.JSON200.IconUrl
	prefix := s.url + "/icons/" + strings.ToLower(addr) + "-"
	if !strings.HasPrefix(url, prefix) || !strings.HasSuffix(url, ".png") || len(url) != len(prefix)+8+4 {
		t.Fatalf("iconUrl %s, want %s<8 hex>.png", url, prefix)
	}
	if got, _ := s.public.GetTokenWithResponse(ctx, addr); got.JSON200.Icon != url {
		t.Fatalf("entry icon %q, want %q", got.JSON200.Icon, url)
	}
	served, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(served.Body)
	served.Body.Close()
	if served.StatusCode != 200 || !bytes.Equal(data, pngBytes(1)) || served.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("served icon: %d %s %q", served.StatusCode, served.Header.Get("Content-Type"), data)
	}

	// A new icon replaces the file; any field name is accepted; formats are told by their bytes.
	for i, img := range [][]byte{
		registry.IconForTest("jpg", 64, 64, 2),
		registry.IconForTest("webp-lossless", 512, 512, 4),
	} {
		resp := uploadIcon(t, s, addr, map[string][]byte{"image": img})
		if resp.StatusCode() != 200 {
			t.Fatalf("upload %d: %d %s", i, resp.StatusCode(), resp.Body)
		}
		if files := iconFiles(t, s); len(files) != 1 || !strings.HasSuffix(resp.JSON200.IconUrl, files[0]) {
			t.Fatalf("upload %d: icon files %v, want only the new one", i, files)
		}
	}

	for name, c := range map[string]struct {
		parts  map[string][]byte
		status int
		code   string
	}{
		"svg":        {map[string][]byte{"file": []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		"text":       {map[string][]byte{"file": []byte("just text")}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		"gif":        {map[string][]byte{"file": registry.IconForTest("gif", 64, 64, 3)}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		"truncated":  {map[string][]byte{"file": pngBytes(3)[:20]}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		"not square": {map[string][]byte{"file": registry.IconForTest("png", 64, 48, 3)}, 422, "ICON_DIMENSIONS"},
		"too small":  {map[string][]byte{"file": registry.IconForTest("jpg", 16, 16, 3)}, 422, "ICON_DIMENSIONS"},
		"too wide":   {map[string][]byte{"file": registry.IconForTest("webp-lossy", 1024, 1024, 3)}, 422, "ICON_DIMENSIONS"},
		"too large":  {map[string][]byte{"file": append(pngBytes(5), make([]byte, 100<<10)...)}, 413, "PAYLOAD_TOO_LARGE"},
		"two parts":  {map[string][]byte{"file": pngBytes(6), "other": pngBytes(7)}, 400, "INVALID_REQUEST"},
		"no parts":   {map[string][]byte{}, 400, "INVALID_REQUEST"},
		"empty":      {map[string][]byte{"file": {}}, 400, "INVALID_REQUEST"},
	} {
		before := iconFiles(t, s)
		resp := uploadIcon(t, s, addr, c.parts)
		wantError(t, name, c.status, resp.Body, resp.StatusCode(), c.code)
		if after := iconFiles(t, s); strings.Join(after, ",") != strings.Join(before, ",") {
			t.Fatalf("%s: icon files changed from %v to %v", name, before, after)
		}
	}
	huge := uploadIcon(t, s, addr, map[string][]byte{"file": append(pngBytes(8), make([]byte, 2<<20)...)})
	wantError(t, "body over the limit", 413, huge.Body, huge.StatusCode(), "PAYLOAD_TOO_LARGE")

	unknown := uploadIcon(t, s, "0x00000000000000000000000000000000deadbeef", map[string][]byte{"file": pngBytes(1)})
	wantError(t, "unknown token", 404, unknown.Body, unknown.StatusCode(), "TOKEN_NOT_FOUND")

	for _, bad := range []string{"/icons/../tokens.json", "/icons/tokens.json", "/icons/" + strings.ToLower(addr) + "-00000000.png"} {
		resp, err := http.Get(s.url + bad)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", bad, resp.StatusCode)
		}
	}
}

func TestIconFieldInUpsert(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	addr := tokenBySymbol(t, "vUSDC").Address.Hex()
	img := pngBytes(9)
	for name, field := range map[string]string{
		"data URI":     "data:image/png;base64," + base64.StdEncoding.EncodeToString(img),
		"bare base64":  base64.StdEncoding.EncodeToString(img),
		"url-safe b64": base64.RawURLEncoding.EncodeToString(img),
	} {
		resp := upsert(t, s, registryapi.TokenInput{Address: addr, Icon: ptr(field)})
		if resp.StatusCode() != 200 && resp.StatusCode() != 201 {
			t.Fatalf("%s: %d %s", name, resp.StatusCode(), resp.Body)
		}
		got, _ := s.public.GetTokenWithResponse(ctx, addr)
		if !strings.HasPrefix(got.JSON200.Icon, s.url+"/icons/"+strings.ToLower(addr)+"-") {
			t.Fatalf("%s: icon %q is not a stored file's URL", name, got.JSON200.Icon)
		}
		if files := iconFiles(t, s); len(files) != 1 {
			t.Fatalf("%s: icon files %v", name, files)
		}
	}
	resp := upsert(t, s, registryapi.TokenInput{Address: addr, Icon: ptr("https://cdn.example.com/usdc.png")})
	if resp.StatusCode() != 200 || resp.JSON200.Icon != "https://cdn.example.com/usdc.png" {
		t.Fatalf("URL icon: %d %s", resp.StatusCode(), resp.Body)
	}
	if files := iconFiles(t, s); len(files) != 0 {
		t.Fatalf("the replaced stored icon was not removed: %v", files)
	}
	big := base64.StdEncoding.EncodeToString(append(pngBytes(1), make([]byte, 100<<10)...))
	tooBig := upsert(t, s, registryapi.TokenInput{Address: addr, Icon: ptr(big)})
	wantError(t, "icon over ICON_MAX_BYTES", 413, tooBig.Body, tooBig.StatusCode(), "PAYLOAD_TOO_LARGE")
}

func TestPersistenceAcrossRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	tok := tokenBySymbol(t, "vWBTC")
	upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Category: ptr("wrapped"), SortOrder: ptr(int32(3)), Enabled: ptr(false)})
	uploadIcon(t, s, tok.Address.Hex(), map[string][]byte{"file": pngBytes(4)})
	before := listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)})
	s.close()

	restarted := startServer(t, dir, map[string]string{"PUBLIC_BASE_URL": s.url})
	after := listTokens(t, restarted.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)})
	if string(after.Body) != string(before.Body) {
		t.Fatalf("after restart:\n%s\nbefore:\n%s", after.Body, before.Body)
	}
	var f struct {
		ChainID uint64 `json:"chainId"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tokens.json"))
	if err := json.Unmarshal(data, &f); err != nil || f.ChainID != testChain.ChainID {
		t.Fatalf("data file chainId %d (%v), want %d", f.ChainID, err, testChain.ChainID)
	}
}

func TestHealthAndServiceEndpoints(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", nil)
	upsert(t, s, registryapi.TokenInput{Address: tokenBySymbol(t, "vWETH").Address.Hex()})
	h, err := s.public.GetHealthWithResponse(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h.StatusCode() != 200 || h.JSON200.Status != registryapi.Healthy || h.JSON200.TokenCount != 1 || h.JSON200.Uptime < 0 || h.JSON200.Version != buildversion.String() ||
		h.JSON200.Schema != nil { // a data file: no database, no schema
		t.Fatalf("health: %d %s", h.StatusCode(), h.Body)
	}
	for path, want := range map[string]string{
		"/metrics":      "vaultd_registry_tokens 1",
		"/openapi.yaml": "operationId: upsertToken",
		"/openapi.json": `"operationId":"upsertToken"`,
	} {
		resp, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d, body lacks %q", path, resp.StatusCode, want)
		}
	}
	resp, _ := http.Get(s.url + "/metrics")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`vaultd_http_requests_total{method="POST",route="/tokens",status="201"} 1`,
		`vaultd_registry_store_writes_total 1`,
		`vaultd_chain_call_duration_seconds_count{call="symbol"}`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// Two icons uploaded at once for one token, again and again, the token's icon flipping between
// them: whichever write comes last, its entry names an icon that is served. On the file store
// (one registry) and on Postgres (two replicas, one upload at each).
func TestIconsUploadedAtOnceAreServed(t *testing.T) {
	t.Parallel()
	for name, settings := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			over := settings(t)
			a := startServer(t, "", over)
			b := a
			if name == "postgres" {
				b = startServer(t, "", over)
			}
			addr := tokenBySymbol(t, "vWETH").Address.Hex()
			upsert(t, a, registryapi.TokenInput{Address: addr})
			first := uploadIcon(t, a, addr, map[string][]byte{"file": pngBytes(1)})
			if first.StatusCode() != 200 {
				t.Fatalf("upload: %d %s", first.StatusCode(), first.Body)
			}
			edgetest.WaitFor(t, "the other replica to know the token", func() bool {
				g, _ := b.public.GetTokenWithResponse(ctx, addr)
				return g.JSON200 != nil && g.JSON200.Icon == first.JSON200.IconUrl
			})
			for round := range 20 {
				var wg sync.WaitGroup
				for i, s := range []*server{a, b} {
					wg.Go(func() {
						if r := uploadIcon(t, s, addr, map[string][]byte{"file": pngBytes(1 + (i+round)%2)}); r.StatusCode() != 200 {
							t.Errorf("round %d: upload: %d %s", round, r.StatusCode(), r.Body)
						}
					})
				}
				wg.Wait()
				var icon string
				edgetest.WaitFor(t, "the replicas to agree on the token's icon", func() bool {
					ga, _ := a.public.GetTokenWithResponse(ctx, addr)
					gb, _ := b.public.GetTokenWithResponse(ctx, addr)
					if ga.JSON200 == nil || gb.JSON200 == nil {
						return false
					}
					icon = ga.JSON200.Icon
					return icon == gb.JSON200.Icon
				})
				served, err := http.Get(icon)
				if err != nil {
					t.Fatal(err)
				}
				served.Body.Close()
				if served.StatusCode != 200 {
					t.Fatalf("round %d: the token's icon %s answers %d", round, icon, served.StatusCode)
				}
			}
		})
	}
}
