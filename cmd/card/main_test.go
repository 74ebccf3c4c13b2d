package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/devstack"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/platform/platformtest"
)

// The README's card flow, as a user types it: a manifest, card create, card redeem --print and
// --direct to a recipient who never held gas, and a second redeem that is refused.
func TestCardCommands(t *testing.T) {
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out, errOut bytes.Buffer
	token := c.Tokens[2].Address.Hex() // vWBTC, 8 decimals
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", token, "--amount", "150000000"}, &out, &errOut); err != nil {
		t.Fatalf("create: %v (%s)", err, errOut.String())
	}
	secret := strings.TrimSpace(out.String())
	if !strings.HasPrefix(secret, "vaultd-card:v1?") {
		t.Fatalf("create printed %q", secret)
	}
	key, _ := crypto.GenerateKey()
	recipient := crypto.PubkeyToAddress(key.PublicKey).Hex()

	out.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient, "--print"}, &out, &errOut); err != nil {
		t.Fatalf("redeem --print: %v", err)
	}
	var req map[string]any
	if err := json.Unmarshal(out.Bytes(), &req); err != nil || req["amount"] != "150000000" || req["tokenAddress"] != token {
		t.Fatalf("redeem --print wrote %s (%v)", out.String(), err)
	}

	out.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient, "--direct"}, &out, &errOut); err != nil {
		t.Fatalf("redeem --direct: %v", err)
	}
	w := contracts.NewWrappedToken()
	bal, _ := bind.Call(w.Instance(c.Client(), c.Tokens[2].Address), nil, w.PackBalanceOf(crypto.PubkeyToAddress(key.PublicKey)), w.UnpackBalanceOf)
	if bal.Cmp(big.NewInt(150000000)) != 0 {
		t.Fatalf("recipient holds %s", bal)
	}
	err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient, "--direct"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "already been redeemed") {
		t.Fatalf("second redeem: %v", err)
	}
	for _, args := range [][]string{
		{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient},
		{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", "0x00000000000000000000000000000000000000aA", "--print"},
		{"redeem", "--devnet", manifest, "--secret", "vaultd-card:v1?chain=x", "--recipient", recipient, "--print"},
		{"create", "--devnet", manifest, "--token", token, "--amount", "-5"},
		{"create", "--devnet", filepath.Join(t.TempDir(), "missing.json"), "--token", token, "--amount", "5"},
	} {
		if err := run(ctx, args, &out, &errOut); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

// redeem --indexer waits for an indexer that is behind the chain: one that stays a block behind
// the head (CONFIRMATIONS=1) lists a card's deposit only once another block is mined, here by
// a second card committed a moment later. Without the wait, the redeem fails at once.
func TestRedeemWaitsForTheIndexer(t *testing.T) {
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	env := devstack.IndexerEnv(c, filepath.Join(t.TempDir(), "indexer.db"))
	env["CONFIRMATIONS"] = "1"
	env["POLL_INTERVAL"] = "50ms"
	cfg, err := indexer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := indexer.New(ctx, cfg, indexer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := platformtest.Serve(t, svc.Handler(), svc.Start, svc.Close)

	create := func() string {
		var out, errOut bytes.Buffer
		if err := run(ctx, []string{"create", "--devnet", manifest, "--token", c.Tokens[0].Address.Hex(), "--amount", "1000"}, &out, &errOut); err != nil {
			t.Errorf("create: %v (%s)", err, errOut.String())
		}
		return strings.TrimSpace(out.String())
	}
	secret := create()
	later := make(chan struct{})
	go func() {
		defer close(later)
		time.Sleep(1500 * time.Millisecond)
		create()
	}()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", "0x4444444444444444444444444444444444444444",
		"--indexer", url, "--print"}, &out, &errOut); err != nil {
		t.Fatalf("redeem --indexer: %v", err)
	}
	<-later
	var req map[string]any
	if err := json.Unmarshal(out.Bytes(), &req); err != nil || req["amount"] != "1000" {
		t.Fatalf("redeem --indexer --print wrote %s (%v)", out.String(), err)
	}
}
