package devstack_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/big"
	"net/http"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/dev/devnet"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// syncBuffer collects log lines a service writes while the test reads them.
type syncBuffer = edgetest.Logs

// The stack starts on free ports, registers the dev tokens through the registry's API, prints
// where everything is, redeems a card through its relayer, and stops cleanly.
func TestDevstackServesRegisteredTokens(t *testing.T) {
	var out, logs syncBuffer
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	// Each service's spans under its own name (service.name), as a collector receives them.
	rx := otlptest.Start(t)
	traces := map[string]edge.TracerProvider{}
	for _, s := range []string{"registry", "relayer", "faucet", "indexer"} {
		traces[s] = rx.Provider(t, s, nil)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- devstack.Run(ctx, devstack.Config{
			Getenv: func(string) string { return "" }, Out: &out, ManifestPath: manifest,
			Logger: func(service string) *slog.Logger { return edge.NewLogger(&logs, slog.LevelInfo, service) },
			Traces: func(service string) trace.TracerProvider { return traces[service] },
		})
	}()
	registry := regexp.MustCompile(`registry\s+(http://\S+)`)
	key := regexp.MustCompile(`admin key\s+([0-9a-f]{48})`)
	deadline := time.Now().Add(30 * time.Second)
	for !registry.MatchString(out.String()) {
		select {
		case err := <-done:
			t.Fatalf("devstack stopped: %v\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			var stacks bytes.Buffer
			pprof.Lookup("goroutine").WriteTo(&stacks, 1)
			t.Fatalf("devstack not ready:\n%s\ngoroutines:\n%s", out.String(), stacks.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !key.MatchString(out.String()) {
		t.Fatalf("no random admin key printed:\n%s", out.String())
	}
	if !regexp.MustCompile(`"msg":"relayer ready".*"service":"relayer"`).MatchString(logs.String()) {
		t.Errorf("the relayer's lines do not name it:\n%s", logs.String())
	}
	url := registry.FindStringSubmatch(out.String())[1]
	get, _ := http.NewRequest("GET", url+"/tokens", nil)
	get.Header.Set("Origin", "http://localhost:5173") // a web application's dev server
	resp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("devstack registry: Access-Control-Allow-Origin %q, want *", got)
	}
	var list struct{ Tokens []struct{ Symbol string } }
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Tokens) != 3 {
		t.Fatalf("devstack lists %d tokens, want the 3 dev tokens the vault holds (not the legacy vMKR)", len(list.Tokens))
	}

	// A card redeemed through the stack's relayer reaches a recipient who never held gas.
	relayerURL := regexp.MustCompile(`relayer\s+(http://\S+)`).FindStringSubmatch(out.String())[1]
	m, err := devnet.Read(manifest)
	if err != nil {
		t.Fatal(err)
	}

	// The registry's relayer directory, which clients choose their relayer from: the stack's one
	// relayer, listed as an admin would (version 1.1.0: one added), as the generated client reads it.
	rc, err := registryapi.NewClientWithResponses(url)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := rc.GetRelayerDirectoryWithResponse(ctx, nil)
	if err != nil || dir.JSON200 == nil {
		t.Fatalf("devstack GET /relayers.json: %v %v", err, dir)
	}
	operator := common.HexToAddress(m.Accounts.Operator.Address)
	if d := dir.JSON200; d.Version != (registryapi.RelayerDirectoryVersion{Major: 1, Minor: 1}) || len(d.Relayers) != 1 ||
		d.Relayers[0].Url != relayerURL || d.Relayers[0].Operator != operator.Hex() ||
		d.ChainId != int64(m.ChainID) || dir.HTTPResponse.Header.Get("ETag") == "" {
		t.Fatalf("devstack's relayer directory: %s (ETag %q), want relayer-1 at %s paying from %s, version 1.1.0, of chain %d",
			dir.Body, dir.HTTPResponse.Header.Get("ETag"), relayerURL, operator.Hex(), m.ChainID)
	}
	client, err := ethclient.Dial(m.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	sender, _ := m.Account("user0")
	vault, _ := m.Address("vault")
	token := common.HexToAddress(m.Tokens[0].Address)
	cd, _, err := card.Create(ctx, client, sender, vault, token, big.NewInt(4242))
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := zk.DevKeys()
	recipientKey, _ := crypto.GenerateKey()
	recipient := crypto.PubkeyToAddress(recipientKey.PublicKey)
	req, err := card.Prepare(ctx, client, keys, cd, recipient)
	if err != nil {
		t.Fatal(err)
	}
	status, body, err := card.PostToRelayer(ctx, relayerURL, req)
	if err != nil || status != 200 {
		t.Fatalf("relayer: %d %s %v", status, body, err)
	}
	w := contracts.NewWrappedToken()
	bal, _ := bind.Call(w.Instance(client, token), nil, w.PackBalanceOf(recipient), w.UnpackBalanceOf)
	if bal.Cmp(big.NewInt(4242)) != 0 {
		t.Fatalf("recipient holds %s", bal)
	}

	// The same new user claims test native tokens from the stack's faucet.
	faucetURL := regexp.MustCompile(`faucet\s+(http://\S+)`).FindStringSubmatch(out.String())[1]
	fc, _ := faucetapi.NewClientWithResponses(faucetURL)
	claim, err := fc.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: recipient.Hex()})
	if err != nil || claim.StatusCode() != 202 {
		t.Fatalf("faucet claim: %v %v", err, claim)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := fc.GetClaimStatusWithResponse(ctx, &faucetapi.GetClaimStatusParams{Address: recipient.Hex()})
		if err == nil && st.JSON200 != nil && st.JSON200.Status == faucetapi.ClaimStatusConfirmed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the claim is not confirmed: %v", st)
		}
	}
	if got, _ := client.BalanceAt(ctx, recipient, nil); got.Cmp(new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))) != 0 {
		t.Fatalf("after the claim the recipient holds %s wei, want 100 native tokens", got)
	}

	// The stack's indexer lists the card's CommitmentInserted, and card redeem could build the
	// tree from it.
	indexerURL := regexp.MustCompile(`indexer\s+(http://\S+)`).FindStringSubmatch(out.String())[1]
	leaves, err := card.IndexerLeaves(indexerURL)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		tree, err := leaves(ctx, common.HexToAddress(m.Contracts["commitmentTree"]))
		if err == nil && tree.Len() == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the indexer's tree: %v, %v", tree, err)
		}
	}

	named := map[string]bool{}
	for _, tp := range traces {
		for _, sp := range rx.Spans(t, tp) {
			named[sp.Service] = true
		}
	}
	if len(named) != 4 || !named["registry"] || !named["relayer"] || !named["faucet"] || !named["indexer"] {
		t.Errorf("the stack's spans come from %v, want each of the four services by its name", named)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("devstack stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("devstack did not stop")
	}
}
