package relayer_test

import (
	"maps"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
)

// replicaPair runs two relayers on c sharing a Redis and a record on Postgres, each with its own
// wallet (a the dev operator's); b waits 10 s for a transaction, so that a copy held behind a
// hold that is never given back fails fast. over applies to both, aOver to a alone; shared is
// the environment both share (Redis, the record).
func replicaPair(t *testing.T, c *devchain.Chain, over, aOver map[string]string) (a, b *relayertest.Server, shared map[string]string) {
	url, _ := redistest.Server(t)
	shared = map[string]string{"REDIS_URL": url, "DATABASE_URL": sqldbtest.Postgres(t)}
	other := maps.Clone(shared)
	maps.Copy(other, over)
	other["OPERATOR_PRIVATE_KEY"], other["RECEIPT_TIMEOUT"], other["REPLACE_AFTER"] = hexutil.Encode(crypto.FromECDSA(relayertest.FundedKey(t, c))), "10s", "5s"
	first := maps.Clone(shared)
	maps.Copy(first, over)
	maps.Copy(first, aOver)
	return relayertest.Start(t, c, first), relayertest.Start(t, c, other), shared
}

// A reveal whose send the node refused after its version was recorded (502) can be sent again
// at once: by the same relayer, and, with REDIS_URL, by another replica (its nullifier's hold,
// which held the refused version's hash, is given back: it used to be kept for an hour, and the
// copy waited for a transaction never sent, 504 TX_PENDING).
func TestARevealWhoseSendWasRefusedCanBeSentAgain(t *testing.T) {
	t.Parallel()
	refuse := func(t *testing.T, c *devchain.Chain, proxy *devchain.FaultProxy, a, b *relayertest.Server) {
		_, req := relayertest.Request(t, c, relayertest.User(c, 0), 37)
		proxy.SetReply("eth_sendRawTransaction", relayertest.InsufficientFunds, 0)
		relayertest.WantCode(t, "a send the node refused", relayertest.Reveal(t, a, req), 502, "CHAIN_UNAVAILABLE")
		proxy.Heal()
		if r := relayertest.Reveal(t, b, req); r.JSON200 == nil || !r.JSON200.Success {
			t.Fatalf("the reveal sent again: %d %s", r.StatusCode(), r.Body)
		}
	}
	t.Run("in process", func(t *testing.T) {
		c := devchaintest.Start(t)
		proxy := devchaintest.Faults(t, c.RPCURL)
		s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL})
		refuse(t, c, proxy, s, s)
	})
	t.Run("redis and postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		proxy := devchaintest.Faults(t, c.RPCURL)
		a, b, _ := replicaPair(t, c, nil, map[string]string{"RPC_URL": proxy.URL})
		refuse(t, c, proxy, a, b)
	})
}

// A reveal that reverts on chain with its nullifier unspent (its root, 31 inserts old when it
// was checked, pushed out of the tree's 32-root history by a deposit mined just before it) can
// be proved again and sent at once: by the same relayer, and, with REDIS_URL, by another replica
// (its nullifier's hold is given back: it used to answer the reverted transaction, 422
// TX_REVERTED, for an hour).
func TestARevertedRevealCanBeSentAgain(t *testing.T) {
	t.Parallel()
	t.Run("in process", func(t *testing.T) {
		c := devchaintest.Start(t)
		s := relayertest.Start(t, c, nil)
		revertThenSendAgain(t, c, s, s)
	})
	t.Run("redis and postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		a, b, _ := replicaPair(t, c, nil, nil)
		revertThenSendAgain(t, c, a, b)
	})
}

func revertThenSendAgain(t *testing.T, c *devchain.Chain, a, b *relayertest.Server) {
	vault, token := c.Contracts.Vault, c.Tokens[0].Address
	cd, _, err := card.Create(ctx, c.Client(), relayertest.User(c, 0), vault, token, big.NewInt(50))
	if err != nil {
		t.Fatal(err)
	}
	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	req := relayertest.PrepareFor(t, c, cd, recipient) // against the root its own deposit made
	for i := range 31 {                                // the root is 31 inserts old: still known
		if _, _, err := card.Create(ctx, c.Client(), relayertest.User(c, i+1), vault, token, big.NewInt(1)); err != nil {
			t.Fatal(err)
		}
	}
	depositor := relayertest.User(c, 0)
	vaultABI, tokenABI := contracts.NewCommitRevealVault(), contracts.NewWrappedToken()
	if _, err := card.Send(ctx, c.Client(), depositor, token, tokenABI.PackApprove(vault, big.NewInt(1))); err != nil {
		t.Fatal(err)
	}
	start := relayertest.OperatorNonce(t, c)
	c.PauseSealing()
	// One more deposit, ahead of the reveal in the block: the reveal's root leaves the history.
	if _, err := devchain.SendTx(ctx, c, depositor, &vault, nil, vaultABI.PackCommit(token, big.NewInt(1), common.BigToHash(big.NewInt(12345)))); err != nil {
		t.Fatal(err)
	}
	answer := revealAsync(t, a, req)
	edgetest.WaitFor(t, "the reveal in the pool", func() bool { return relayertest.PendingOperatorNonce(t, c) == start+1 })
	c.ResumeSealing()
	relayertest.WantCode(t, "a reveal whose root left the history", <-answer, 422, "TX_REVERTED")
	if st := relayertest.Status(t, b, req); st.State != "reverted" {
		t.Fatalf("the reverted reveal's status: %+v", st)
	}
	again := relayertest.PrepareFor(t, c, cd, recipient) // against the current root: the same nullifier
	if r := relayertest.Reveal(t, b, again); r.JSON200 == nil || !r.JSON200.Success {
		t.Fatalf("the reveal proved again and sent again: %d %s", r.StatusCode(), r.Body)
	}
}

// A reveal a replica sent before it stopped, followed again by the replica started after it on
// the same key (from the pool, or from the record), and cancelled there by the operator, can be
// sent again at once by another replica: the hold, whose token died with the first process, is
// given back because the version recorded on it is one of the record's for that nonce.
func TestARevealCancelledAfterARestartCanBeSentAgain(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	a, b, shared := replicaPair(t, c, map[string]string{"ADMIN_API_KEY": adminKey}, map[string]string{"RECEIPT_TIMEOUT": "2s", "REPLACE_AFTER": "1s"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 39)
	nonce := relayertest.PendingOperatorNonce(t, c)
	c.PauseSealing()
	defer c.ResumeSealing()
	relayertest.WantCode(t, "a reveal stuck in the pool", relayertest.Reveal(t, a, req), 504, "TX_PENDING")
	a.Stop()
	again := maps.Clone(shared)
	maps.Copy(again, map[string]string{"ADMIN_API_KEY": adminKey, "REPLACE_AFTER": "50s", "RECEIPT_TIMEOUT": "1m"})
	restarted := relayertest.Start(t, c, again)
	if r, err := restarted.Client.CancelTransactionWithResponse(ctx, int64(nonce), &walletapi.CancelTransactionParams{Wallet: c.Accounts.Operator.Address.Hex()}, bearer(adminKey)); err != nil || r.JSON202 == nil {
		t.Fatalf("cancel after the restart: %v %s", err, r.Body)
	}
	edgetest.WaitFor(t, "the cancel sent", func() bool {
		return strings.Contains(scrape(t, restarted), "vaultd_relayer_transaction_replacements_total 1")
	})
	c.ResumeSealing()
	edgetest.WaitFor(t, "the cancel mined", func() bool { return relayertest.OperatorNonce(t, c) == nonce+1 })
	for range 2 { // two more blocks: the cancel settles the reveal DISPLACED_AFTER_BLOCKS (3) deep
		oneBlock(t, c)
	}
	edgetest.WaitFor(t, "the cancelled reveal's status", func() bool { return relayertest.Status(t, b, req).State == "unknown" })
	if r := relayertest.Reveal(t, b, req); r.JSON200 == nil || !r.JSON200.Success {
		t.Fatalf("the reveal sent again to another replica: %d %s", r.StatusCode(), r.Body)
	}
}

// NULLIFIER_HOLD_TTL sets how long a hold lasts unrefreshed; NULLIFIER_CLAIM_TTL, its former
// name, is still read where it is unset, so that an upgraded replica keeps an operator's setting.
func TestHoldTTLSettings(t *testing.T) {
	t.Parallel()
	key := relayertest.FreshKey(t)
	load := func(over map[string]string) relayer.Config {
		t.Helper()
		m := map[string]string{
			"RPC_URL": "http://127.0.0.1:1", "OPERATOR_PRIVATE_KEY": common.Bytes2Hex(crypto.FromECDSA(key)), "DATABASE_URL": "sqlite:" + t.TempDir() + "/r.db",
			"COMMIT_REVEAL_VAULT_ADDRESS": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "NULLIFIER_REGISTRY_ADDRESS": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
			"COMMITMENT_TREE_ADDRESS": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
		}
		maps.Copy(m, over)
		cfg, err := relayer.LoadConfig(func(k string) string { return m[k] })
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	for _, c := range []struct {
		env  map[string]string
		want time.Duration
	}{
		{nil, time.Minute},
		{map[string]string{"NULLIFIER_HOLD_TTL": "30s"}, 30 * time.Second},
		{map[string]string{"NULLIFIER_CLAIM_TTL": "20s"}, 20 * time.Second},
		{map[string]string{"NULLIFIER_HOLD_TTL": "30s", "NULLIFIER_CLAIM_TTL": "20s"}, 30 * time.Second},
	} {
		if got := load(c.env).Limits.HoldTTL; got != c.want {
			t.Errorf("%v: hold TTL %s, want %s", c.env, got, c.want)
		}
	}
}
