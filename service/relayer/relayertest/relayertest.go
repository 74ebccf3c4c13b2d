// Package relayertest starts relayers on a dev chain for black-box tests, and makes the cards
// and reveal requests they are sent, as the relayer's generated client sends them. The tests of
// service/relayer and service/relayer/serial both use it.
package relayertest

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

var ctx = context.Background()

// InsufficientFunds is a node's refusal of a send, as devchain.FaultProxy's SetReply answers it.
const InsufficientFunds = `"error":{"code":-32000,"message":"insufficient funds for gas * price + value"}`

// Env is a relayer's environment on chain c, with small timings for tests, over set last.
func Env(t testing.TB, c *devchain.Chain, over map[string]string) func(string) string {
	t.Helper()
	dir := t.TempDir()
	vkey := filepath.Join(dir, "verification_key.json")
	if err := os.WriteFile(vkey, devkeys.VerificationKeyJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	m := devstack.RelayerEnv(c, vkey, filepath.Join(dir, "relayer.db"))
	maps.Copy(m, map[string]string{
		"RECEIPT_POLL_INTERVAL":    "20ms",
		"BALANCE_POLL_INTERVAL":    "200ms",
		"RATE_LIMIT_PER_IP":        "1000/1m",
		"RATE_LIMIT_STATUS_PER_IP": "100000/1m", // the tests poll a reveal's status in tight loops
		"RATE_LIMIT_PER_RECIPIENT": "1000/1h",
		"RATE_LIMIT_TOTAL":         "1000/1m",
		// A new Redis is taken for one that lost its data: holds and leases wait one lease
		// TTL (service/kit/lease); short here, but not so short that a renewal (every third of
		// it) a loaded machine runs late ends the lease.
		"OPERATOR_LEASE_TTL": "3s",
	})
	maps.Copy(m, over)
	return func(k string) string { return m[k] }
}

// Server is a relayer serving on loopback.
type Server struct {
	Svc    *relayer.Service
	URL    string
	Client *Client
	Stop   func() // stops serving and closes the relayer (also at the end of the test)
}

// Client is the relayer's generated client with the paying wallet's (the operator routes the
// relayer serves from service/edge/wallet, described once in openapi/wallet.yaml).
type Client struct {
	*relayerapi.ClientWithResponses
	*WalletClient
}

// WalletClient is the paying wallet's generated client.
type WalletClient = walletapi.ClientWithResponses

// NewClient is a Client of the relayer at url.
func NewClient(url string) (*Client, error) {
	c, err := relayerapi.NewClientWithResponses(url)
	if err != nil {
		return nil, err
	}
	w, err := walletapi.NewClientWithResponses(url)
	return &Client{c, w}, err
}

// Start starts a relayer on c, configured by Env(t, c, over), once it holds an operator key.
func Start(t testing.TB, c *devchain.Chain, over map[string]string) *Server {
	t.Helper()
	return StartWith(t, c, over, relayer.Options{})
}

// StartWith is Start with options (a tracer provider, say).
func StartWith(t testing.TB, c *devchain.Chain, over map[string]string, opts relayer.Options) *Server {
	t.Helper()
	cfg, err := relayer.LoadConfig(Env(t, c, over))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	svc, err := relayer.New(ctx, cfg, opts)
	if err != nil {
		t.Fatalf("relayer.New: %v", err)
	}
	url, stop := edgetest.Serve(t, svc.Handler(), func() {
		svc.Start()
		wctx, cancel := context.WithTimeout(ctx, time.Minute) // a leased key: after Redis's quiet spell
		defer cancel()
		if err := svc.WaitOperator(wctx); err != nil {
			t.Fatalf("the relayer leased no operator key: %v", err)
		}
	}, svc.Close)
	client, err := NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	return &Server{Svc: svc, URL: url, Client: client, Stop: stop}
}

// Keys are the dev chain's proving and verifying keys.
func Keys(t testing.TB) *zk.Keys {
	k, err := zk.DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// FreshKey is a new private key: a wallet no one has used.
func FreshKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// User is the key of one of the dev chain's funded users (i modulo their number).
func User(c *devchain.Chain, i int) *ecdsa.PrivateKey {
	return c.Accounts.Users[i%len(c.Accounts.Users)].Key
}

// FundedKey is a fresh operator key whose wallet holds as much as the dev operator's.
func FundedKey(t testing.TB, c *devchain.Chain) *ecdsa.PrivateKey {
	t.Helper()
	k, err := devchain.FundedKey(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// LeasedKey is the overrides of a replica whose only operator key is k, leased on the Redis at
// redisURL (the dev operator's key left out), with more overrides.
func LeasedKey(k *ecdsa.PrivateKey, redisURL string, more map[string]string) map[string]string {
	over := map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_PRIVATE_KEYS": hexutil.Encode(crypto.FromECDSA(k)), "REDIS_URL": redisURL}
	maps.Copy(over, more)
	return over
}

// Request makes a card worth amount of the chain's first token, paid by from, and a reveal
// request for it to a fresh address.
func Request(t testing.TB, c *devchain.Chain, from *ecdsa.PrivateKey, amount int64) (card.Card, relayerapi.RevealRequest) {
	t.Helper()
	cd, _, err := card.Create(ctx, c.Client(), from, c.Contracts.Vault, c.Tokens[0].Address, big.NewInt(amount))
	if err != nil {
		t.Fatal(err)
	}
	return cd, PrepareFor(t, c, cd, crypto.PubkeyToAddress(FreshKey(t).PublicKey))
}

// PrepareFor proves the reveal of cd to recipient.
func PrepareFor(t testing.TB, c *devchain.Chain, cd card.Card, recipient common.Address) relayerapi.RevealRequest {
	t.Helper()
	req, err := card.Prepare(ctx, c.Client(), Keys(t), cd, recipient)
	if err != nil {
		t.Fatal(err)
	}
	return card.ToAPI(req)
}

// Clone deep-copies a request.
func Clone(r relayerapi.RevealRequest) relayerapi.RevealRequest {
	data, _ := json.Marshal(r)
	var out relayerapi.RevealRequest
	json.Unmarshal(data, &out)
	return out
}

// Reveal is POST /reveal of req at s.
func Reveal(t testing.TB, s *Server, req relayerapi.RevealRequest) *relayerapi.RevealResponse {
	t.Helper()
	resp, err := s.Client.RevealWithResponse(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// NullifierHex is req's nullifier as 0x and 64 hex digits.
func NullifierHex(t testing.TB, req relayerapi.RevealRequest) string {
	t.Helper()
	n, ok := new(big.Int).SetString(req.PublicSignals[zk.SignalNullifier], 0)
	if !ok {
		t.Fatalf("nullifier %q", req.PublicSignals[zk.SignalNullifier])
	}
	return common.BigToHash(n).Hex()
}

// Status is GET /reveal/{nullifier} of req's nullifier: where the relayer says the reveal stands.
func Status(t testing.TB, s *Server, req relayerapi.RevealRequest) relayerapi.RevealStatus {
	t.Helper()
	resp, err := s.Client.GetRevealWithResponse(ctx, NullifierHex(t, req))
	if err != nil || resp.JSON200 == nil {
		t.Fatalf("GET /reveal/{nullifier}: %v %s", err, resp.Body)
	}
	return *resp.JSON200
}

// WantCode checks an error answer's status and code.
func WantCode(t testing.TB, what string, resp *relayerapi.RevealResponse, status int, code string) {
	t.Helper()
	var body struct{ Error, Code, TxHash string }
	json.Unmarshal(resp.Body, &body)
	if resp.StatusCode() != status || body.Code != code {
		t.Fatalf("%s: %d %s, want %d %s", what, resp.StatusCode(), resp.Body, status, code)
	}
}

// OperatorNonce is the dev operator's nonce in the latest block: its transactions mined.
func OperatorNonce(t testing.TB, c *devchain.Chain) uint64 {
	t.Helper()
	n, err := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// PendingOperatorNonce is the dev operator's pending nonce: its transactions sent.
func PendingOperatorNonce(t testing.TB, c *devchain.Chain) uint64 {
	t.Helper()
	n, err := c.Client().PendingNonceAt(ctx, c.Accounts.Operator.Address)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
