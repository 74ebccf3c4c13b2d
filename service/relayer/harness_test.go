package relayer_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/kit/platform/platformtest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

var ctx = context.Background()

const devVerificationKey = "../../gen/zk/devkeys/verification_key.json"

// env is a relayer's environment on chain c, with small timings for tests.
func env(t testing.TB, c *devchain.Chain, over map[string]string) func(string) string {
	m := devstack.RelayerEnv(c, devVerificationKey, filepath.Join(t.TempDir(), "relayer.db"))
	maps.Copy(m, map[string]string{
		"RECEIPT_POLL_INTERVAL":    "20ms",
		"BALANCE_POLL_INTERVAL":    "200ms",
		"RATE_LIMIT_PER_IP":        "1000/1m",
		"RATE_LIMIT_STATUS_PER_IP": "100000/1m", // the tests poll a reveal's status in tight loops
		"RATE_LIMIT_PER_RECIPIENT": "1000/1h",
		"RATE_LIMIT_TOTAL":         "1000/1m",
		// A new Redis is taken for one that lost its data: claims and leases wait one lease
		// TTL (service/kit/lease); short here, but not so short that a renewal (every third of
		// it) a loaded machine runs late ends the lease.
		"OPERATOR_LEASE_TTL": "3s",
	})
	maps.Copy(m, over)
	return func(k string) string { return m[k] }
}

type server struct {
	svc    *relayer.Service
	url    string
	client *relayerapi.ClientWithResponses
	stop   func() // stops serving and closes the relayer (also at the end of the test)
}

func startRelayer(t testing.TB, c *devchain.Chain, over map[string]string) *server {
	t.Helper()
	return startRelayerWith(t, c, over, relayer.Options{})
}

// startRelayerWith is startRelayer with options (a tracer provider, say).
func startRelayerWith(t testing.TB, c *devchain.Chain, over map[string]string, opts relayer.Options) *server {
	t.Helper()
	cfg, err := relayer.LoadConfig(env(t, c, over))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	svc, err := relayer.New(ctx, cfg, opts)
	if err != nil {
		t.Fatalf("relayer.New: %v", err)
	}
	url, stop := platformtest.Serve(t, svc.Handler(), func() {
		svc.Start()
		wctx, cancel := context.WithTimeout(ctx, time.Minute) // a leased key: after Redis's quiet spell
		defer cancel()
		if err := svc.WaitOperator(wctx); err != nil {
			t.Fatalf("the relayer leased no operator key: %v", err)
		}
	}, svc.Close)
	client, err := relayerapi.NewClientWithResponses(url)
	if err != nil {
		t.Fatal(err)
	}
	return &server{svc: svc, url: url, client: client, stop: stop}
}

func keys(t testing.TB) *zk.Keys {
	k, err := zk.DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func freshKey(t testing.TB) *ecdsa.PrivateKey {
	k, _ := crypto.GenerateKey()
	return k
}

// request makes a card worth amount of the chain's first token and a reveal request for it, as
// the relayer's generated client sends it.
func request(t testing.TB, c *devchain.Chain, from *ecdsa.PrivateKey, amount int64) (card.Card, relayerapi.RevealRequest) {
	t.Helper()
	cd, _, err := card.Create(ctx, c.Client(), from, c.Contracts.Vault, c.Tokens[0].Address, big.NewInt(amount))
	if err != nil {
		t.Fatal(err)
	}
	req, err := card.Prepare(ctx, c.Client(), keys(t), cd, crypto.PubkeyToAddress(freshKey(t).PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	return cd, toAPI(t, req)
}

func toAPI(t testing.TB, req card.Request) relayerapi.RevealRequest { return card.ToAPI(req) }

func reveal(t testing.TB, s *server, req relayerapi.RevealRequest) *relayerapi.RevealResponse {
	t.Helper()
	resp, err := s.client.RevealWithResponse(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// nullifierHex is req's nullifier as 0x and 64 hex digits.
func nullifierHex(t testing.TB, req relayerapi.RevealRequest) string {
	t.Helper()
	n, ok := new(big.Int).SetString(req.PublicSignals[zk.SignalNullifier], 0)
	if !ok {
		t.Fatalf("nullifier %q", req.PublicSignals[zk.SignalNullifier])
	}
	return common.BigToHash(n).Hex()
}

// status is GET /reveal/{nullifier} of req's nullifier: where the relayer says the reveal stands.
func status(t testing.TB, s *server, req relayerapi.RevealRequest) relayerapi.RevealStatus {
	t.Helper()
	resp, err := s.client.GetRevealWithResponse(ctx, nullifierHex(t, req))
	if err != nil || resp.JSON200 == nil {
		t.Fatalf("GET /reveal/{nullifier}: %v %s", err, resp.Body)
	}
	return *resp.JSON200
}

// wantCode checks an error answer's status and code.
func wantCode(t testing.TB, what string, resp *relayerapi.RevealResponse, status int, code string) {
	t.Helper()
	var body struct{ Error, Code, TxHash string }
	json.Unmarshal(resp.Body, &body)
	if resp.StatusCode() != status || body.Code != code {
		t.Fatalf("%s: %d %s, want %d %s", what, resp.StatusCode(), resp.Body, status, code)
	}
}

func devUsers(c *devchain.Chain, i int) *ecdsa.PrivateKey {
	return c.Accounts.Users[i%len(c.Accounts.Users)].Key
}

type relayerRequest = relayerapi.RevealRequest

// clone deep-copies a request.
func clone(r relayerRequest) relayerRequest {
	data, _ := json.Marshal(r)
	var out relayerRequest
	json.Unmarshal(data, &out)
	return out
}

// mixCase returns the address with the case of one letter flipped: a wrong EIP-55 checksum.
func mixCase(addr string) string {
	a := common.HexToAddress(addr).Hex()
	b := []byte(a)
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] >= 'a' && b[i] <= 'f':
			b[i] -= 'a' - 'A'
			return string(b)
		case b[i] >= 'A' && b[i] <= 'F':
			b[i] += 'a' - 'A'
			return string(b)
		}
	}
	panic(fmt.Sprintf("no letter in %s", a))
}

// prepareFor proves the reveal of cd to recipient.
func prepareFor(t testing.TB, c *devchain.Chain, cd card.Card, recipient common.Address) relayerRequest {
	t.Helper()
	req, err := card.Prepare(ctx, c.Client(), keys(t), cd, recipient)
	if err != nil {
		t.Fatal(err)
	}
	return toAPI(t, req)
}

// fundedKey is a fresh operator key whose wallet holds as much as the dev operator's.
func fundedKey(t testing.TB, c *devchain.Chain) *ecdsa.PrivateKey {
	t.Helper()
	k, err := devchain.FundedKey(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
