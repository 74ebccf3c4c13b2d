package faucet_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"maps"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/faucet"
)

var ctx = context.Background()

// amount is what one claim sends in these tests: the default, 100 native tokens.
var amount = new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether))

// env is a faucet's environment on chain c with its store in dir, with small timings for tests.
func env(c *devchain.Chain, dir string, over map[string]string) func(string) string {
	m := devstack.FaucetEnv(c, filepath.Join(dir, "faucet.db"))
	maps.Copy(m, map[string]string{
		"RECEIPT_POLL_INTERVAL": "20ms",
		"BALANCE_POLL_INTERVAL": "200ms",
		"RATE_LIMIT_PER_IP":     "1000/1h",
		"RATE_LIMIT_TOTAL":      "1000/1h",
		"REDIS_WIPE_QUIET":      "300ms", // a new Redis looks emptied: its quiet spell, short here
	})
	maps.Copy(m, over)
	return func(k string) string { return m[k] }
}

type server struct {
	svc    *faucet.Service
	url    string
	client *client
	stop   func()
}

// client is the faucet's generated client with the paying wallet's (the operator routes the
// faucet serves from service/edge/wallet, described once in openapi/wallet.yaml).
type client struct {
	*faucetapi.ClientWithResponses
	*walletClient
}

type walletClient = walletapi.ClientWithResponses

func newClient(url string) (*client, error) {
	c, err := faucetapi.NewClientWithResponses(url)
	if err != nil {
		return nil, err
	}
	w, err := walletapi.NewClientWithResponses(url)
	return &client{c, w}, err
}

// startFaucet serves a faucet on a loopback port until the test ends (or stop is called).
func startFaucet(t testing.TB, c *devchain.Chain, dir string, over map[string]string) *server {
	t.Helper()
	return startFaucetWith(t, c, dir, over, faucet.Options{})
}

func startFaucetWith(t testing.TB, c *devchain.Chain, dir string, over map[string]string, opts faucet.Options) *server {
	t.Helper()
	cfg, err := faucet.LoadConfig(env(c, dir, over))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	svc, err := faucet.New(ctx, cfg, opts)
	if err != nil {
		t.Fatalf("faucet.New: %v", err)
	}
	url, stop := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)
	client, err := newClient(url)
	if err != nil {
		t.Fatal(err)
	}
	return &server{svc: svc, url: url, client: client, stop: stop}
}

func freshAddress(t testing.TB) common.Address {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(k.PublicKey)
}

func claim(t testing.TB, s *server, addr string) *faucetapi.ClaimResponse {
	t.Helper()
	resp, err := s.client.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func status(t testing.TB, s *server, addr string) *faucetapi.GetClaimStatusResponse {
	t.Helper()
	resp, err := s.client.GetClaimStatusWithResponse(ctx, &faucetapi.GetClaimStatusParams{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// waitStatus polls the status of addr until it is want.
func waitStatus(t testing.TB, s *server, addr common.Address, want faucetapi.ClaimStatus) faucetapi.Claim {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := status(t, s, addr.Hex())
		if r.JSON200 != nil && r.JSON200.Status == want {
			return *r.JSON200
		}
		if time.Now().After(deadline) {
			t.Fatalf("status of %s: %d %s, want %s", addr.Hex(), r.StatusCode(), r.Body, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wantError checks an error answer's status and code.
func wantError(t testing.TB, what string, status int, body []byte, wantStatus int, code string) {
	t.Helper()
	var e struct{ Error, Code string }
	json.Unmarshal(body, &e)
	if status != wantStatus || e.Code != code || e.Error == "" {
		t.Fatalf("%s: %d %s, want %d %s", what, status, body, wantStatus, code)
	}
}

func balance(t testing.TB, c *devchain.Chain, a common.Address) *big.Int {
	b, err := c.Client().BalanceAt(ctx, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func nonce(t testing.TB, c *devchain.Chain, a common.Address) uint64 {
	n, err := c.Client().NonceAt(ctx, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// fund sends ether native tokens from the deployer to `to` and waits for it.
func fund(t testing.TB, c *devchain.Chain, from *ecdsa.PrivateKey, to common.Address, wei *big.Int) {
	t.Helper()
	tx, err := devchain.SendTx(ctx, c, from, &to, wei, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitReceipt(ctx, c.Client(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
}

func scrape(t testing.TB, s *server) string { return edgetest.Scrape(t, s.url) }

func health(t testing.TB, s *server) faucetapi.Health {
	t.Helper()
	r, err := s.client.GetHealthWithResponse(ctx)
	if err != nil || r.JSON200 == nil {
		t.Fatalf("health: %v %v", err, r)
	}
	return *r.JSON200
}
