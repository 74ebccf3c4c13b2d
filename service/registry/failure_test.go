package registry_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/registry"
)

// With the chain gone, writes fail with 502 and change nothing, health says degraded, and
// reads keep working.
func TestChainDown(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startServer(t, "", map[string]string{"RPC_URL": c.RPCURL, "RPC_TIMEOUT": "500ms"})
	tok := c.Tokens[0]
	upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), SortOrder: ptr(int32(1))})
	before := listTokens(t, s.public, nil)
	c.Close()

	resp := upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), SortOrder: ptr(int32(2))})
	wantError(t, "upsert with the chain down", 502, resp.Body, resp.StatusCode(), "CHAIN_UNAVAILABLE")
	if after := listTokens(t, s.public, nil); string(after.Body) != string(before.Body) {
		t.Fatalf("a failed write changed the list: %s", after.Body)
	}
	if got, _ := s.public.GetTokenWithResponse(ctx, tok.Address.Hex()); got.StatusCode() != 200 || got.JSON200.SortOrder != 1 {
		t.Fatalf("read with the chain down: %d %s", got.StatusCode(), got.Body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		h, err := s.public.GetHealthWithResponse(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if h.JSON200.Status == registryapi.Degraded {
			if h.JSON200.TokenCount != 1 {
				t.Fatalf("degraded health: tokenCount %d", h.JSON200.TokenCount)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health still %s with the chain down", h.JSON200.Status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A registry whose chain is down at start serves its file when the chain id is known.
func TestStartWhileChainDown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	s.close()
	down := map[string]string{"RPC_URL": "http://127.0.0.1:1", "RPC_TIMEOUT": "200ms"}
	restarted := startServer(t, dir, down)
	if n := len(listTokens(t, restarted.public, nil).JSON200.Tokens); n != 1 {
		t.Fatalf("serving %d tokens from the file, want 1", n)
	}
	cfg, _ := registry.LoadConfig(env(t.TempDir(), down))
	if _, err := registry.New(ctx, cfg, registry.Options{}); err == nil || !strings.Contains(err.Error(), "CHAIN_ID") {
		t.Fatalf("empty registry, chain down, no CHAIN_ID: err = %v, want a hint to set CHAIN_ID", err)
	}
}

// A write the disk refuses is a 500, and neither memory nor the file changes. chattr +i makes
// the folder immutable, which stops even root from creating the temporary file.
func TestFailedWriteChangesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	tok := testChain.Tokens[1]
	upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Category: ptr("before")})
	fileBefore, _ := os.ReadFile(filepath.Join(dir, "tokens.json"))
	listBefore := listTokens(t, s.public, nil)
	tokenListBefore := tokenList(t, s, "")

	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("chattr +i not available here (%v: %s)", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })

	resp := upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Category: ptr("after")})
	wantError(t, "write refused by the disk", 500, resp.Body, resp.StatusCode(), "INTERNAL")
	if strings.Contains(string(resp.Body), dir) {
		t.Fatalf("the error leaks a path: %s", resp.Body)
	}
	newTok := upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[2].Address.Hex()})
	wantError(t, "create refused by the disk", 500, newTok.Body, newTok.StatusCode(), "INTERNAL")

	if after := listTokens(t, s.public, nil); string(after.Body) != string(listBefore.Body) {
		t.Fatalf("memory changed after a failed write: %s", after.Body)
	}
	if after := tokenList(t, s, ""); string(after.Body) != string(tokenListBefore.Body) {
		t.Fatalf("the token list changed after a failed write: %s", after.Body)
	}
	if fileAfter, _ := os.ReadFile(filepath.Join(dir, "tokens.json")); !bytes.Equal(fileAfter, fileBefore) {
		t.Fatal("the data file changed after a failed write")
	}
	exec.Command("chattr", "-i", dir).Run()
	if ok := upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), Category: ptr("after")}); ok.StatusCode() != 200 {
		t.Fatalf("after the disk recovers: %d %s", ok.StatusCode(), ok.Body)
	}
	if v, _ := listVersion(t, s); v != "1.0.1" {
		t.Fatalf("after the failed writes and one that held: version %s, want 1.0.1 (one bump)", v)
	}
}

func TestInvalidDataFileRefusesToStart(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"not JSON":      `{"version":1,`,
		"wrong version": `{"version":99,"chainId":1337,"tokens":[]}`,
		"bad address":   `{"version":1,"chainId":1337,"tokens":[{"address":"0x12","symbol":"X"}]}`,
		"bad tokenId":   `{"version":1,"chainId":1337,"tokens":[{"address":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","symbol":"X","tokenId":"0x01"}]}`,
		"bad icon file": `{"version":1,"chainId":1337,"tokens":[{"address":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","symbol":"X","tokenId":"0x11f0c4d3","iconFile":"../../etc/passwd"}]}`,
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "tokens.json")
		os.WriteFile(path, []byte(content), 0o644)
		cfg, _ := registry.LoadConfig(env(dir, nil))
		_, err := registry.New(ctx, cfg, registry.Options{})
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err = %v, want one naming %s", name, err, path)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("%s: the file was overwritten", name)
		}
	}
}

func TestChainIDMismatchRefusesToStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	s.close()

	other, err := devchaintest.StartWith(t, 5446)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := registry.LoadConfig(env(dir, map[string]string{"RPC_URL": other.RPCURL}))
	if _, err := registry.New(ctx, cfg, registry.Options{}); err == nil || !strings.Contains(err.Error(), "chain 1337") {
		t.Fatalf("file of chain 1337 on chain 5446: err = %v", err)
	}
	cfg, _ = registry.LoadConfig(env(t.TempDir(), map[string]string{"CHAIN_ID": "5445"}))
	if _, err := registry.New(ctx, cfg, registry.Options{}); err == nil || !strings.Contains(err.Error(), "CHAIN_ID is 5445") {
		t.Fatalf("CHAIN_ID 5445 on chain 1337: err = %v", err)
	}
}

func TestConfigReportsEveryProblem(t *testing.T) {
	t.Parallel()
	_, err := registry.LoadConfig(func(k string) string {
		return map[string]string{"PORT": "http", "RPC_TIMEOUT": "soon", "ICON_MAX_BYTES": "-1", "TRUSTED_PROXIES": "10.0.0.0/8,not an address", "SERVE_ICONS": "perhaps"}[k]
	})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"ADMIN_API_KEY (or ADMIN_API_KEY_FILE) is required", "RPC_URL is required", "PORT", "RPC_TIMEOUT", "ICON_MAX_BYTES", "TRUSTED_PROXIES", "SERVE_ICONS"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	_, err = registry.LoadConfig(func(k string) string {
		return map[string]string{"ADMIN_API_KEY": "short-secret", "RPC_URL": "http://127.0.0.1:8545"}[k]
	})
	if err == nil || strings.Contains(err.Error(), "short-secret") {
		t.Fatalf("short key: err = %v (must refuse, and never echo the key)", err)
	}
}

// The admin key never reaches a log line, whatever the requests.
func TestAdminKeyIsNeverLogged(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(prev)

	s := startServer(t, "", nil)
	wrong := newClient(t, s.url, testAdminKey+"-wrong")
	wrong.UpsertTokenWithResponse(context.Background(), registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	upsert(t, s, registryapi.TokenInput{Address: "0x00000000000000000000000000000000deadbeef"})
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	if logs.Len() == 0 {
		t.Fatal("nothing was logged at debug level: the test would not see a leak")
	}
	if strings.Contains(logs.String(), testAdminKey) {
		t.Fatalf("the admin key is in the logs:\n%s", logs.String())
	}
}
