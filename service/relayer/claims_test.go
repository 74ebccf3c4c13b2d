package relayer_test

import (
	"maps"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
)

// replicaPair runs two relayers on c sharing a Redis and a record on Postgres, each with its own
// wallet (a the dev operator's); b waits 10 s for a transaction, so that a copy held behind a
// claim that is never given back fails fast. over applies to both, aOver to a alone.
func replicaPair(t *testing.T, c *devchain.Chain, over, aOver map[string]string) (a, b *server) {
	url, _ := redistest.Server(t)
	shared := maps.Clone(over)
	shared["REDIS_URL"], shared["DATABASE_URL"] = url, sqldbtest.Postgres(t)
	other := maps.Clone(shared)
	other["OPERATOR_PRIVATE_KEY"], other["RECEIPT_TIMEOUT"], other["REPLACE_AFTER"] = hexutil.Encode(crypto.FromECDSA(fundedKey(t, c))), "10s", "5s"
	maps.Copy(shared, aOver)
	return startRelayer(t, c, shared), startRelayer(t, c, other)
}

// A reveal whose send the node refused after its version was recorded (502) can be sent again
// at once: by the same relayer, and, with REDIS_URL, by another replica (its nullifier's claim,
// which held the refused version's hash, is given back: it used to be kept for an hour, and the
// copy waited for a transaction never sent, 504 TX_PENDING).
func TestARevealWhoseSendWasRefusedCanBeSentAgain(t *testing.T) {
	refuse := func(t *testing.T, c *devchain.Chain, proxy *faultProxy, a, b *server) {
		_, req := request(t, c, devUsers(c, 0), 37)
		proxy.refuseWith("eth_sendRawTransaction", "insufficient funds for gas * price + value")
		wantCode(t, "a send the node refused", reveal(t, a, req), 502, "CHAIN_UNAVAILABLE")
		proxy.heal()
		if r := reveal(t, b, req); r.JSON200 == nil || !r.JSON200.Success {
			t.Fatalf("the reveal sent again: %d %s", r.StatusCode(), r.Body)
		}
	}
	t.Run("in process", func(t *testing.T) {
		c := devchaintest.Start(t)
		proxy := newFaultProxy(t, c.RPCURL)
		s := startRelayer(t, c, map[string]string{"RPC_URL": proxy.url})
		refuse(t, c, proxy, s, s)
	})
	t.Run("redis and postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		proxy := newFaultProxy(t, c.RPCURL)
		a, b := replicaPair(t, c, map[string]string{}, map[string]string{"RPC_URL": proxy.url})
		refuse(t, c, proxy, a, b)
	})
}

// A reveal that reverts on chain with its nullifier unspent (its root, 31 inserts old when it
// was checked, pushed out of the tree's 32-root history by a deposit mined just before it) can
// be proved again and sent at once: by the same relayer, and, with REDIS_URL, by another replica
// (its nullifier's claim is given back: it used to answer the reverted transaction, 422
// TX_REVERTED, for an hour).
func TestARevertedRevealCanBeSentAgain(t *testing.T) {
	t.Run("in process", func(t *testing.T) {
		c := devchaintest.Start(t)
		s := startRelayer(t, c, nil)
		revertThenSendAgain(t, c, s, s)
	})
	t.Run("redis and postgres", func(t *testing.T) {
		c := devchaintest.Start(t)
		a, b := replicaPair(t, c, map[string]string{}, nil)
		revertThenSendAgain(t, c, a, b)
	})
}

func revertThenSendAgain(t *testing.T, c *devchain.Chain, a, b *server) {
	vault, token := c.Contracts.Vault, c.Tokens[0].Address
	cd, _, err := card.Create(ctx, c.Client(), devUsers(c, 0), vault, token, big.NewInt(50))
	if err != nil {
		t.Fatal(err)
	}
	recipient := crypto.PubkeyToAddress(freshKey(t).PublicKey)
	req := prepareFor(t, c, cd, recipient) // against the root its own deposit made
	for i := range 31 {                    // the root is 31 inserts old: still known
		if _, _, err := card.Create(ctx, c.Client(), devUsers(c, i+1), vault, token, big.NewInt(1)); err != nil {
			t.Fatal(err)
		}
	}
	depositor := devUsers(c, 0)
	vaultABI, tokenABI := contracts.NewCommitRevealVault(), contracts.NewWrappedToken()
	if _, err := card.Send(ctx, c.Client(), depositor, token, tokenABI.PackApprove(vault, big.NewInt(1))); err != nil {
		t.Fatal(err)
	}
	start := operatorNonce(t, c)
	c.PauseSealing()
	// One more deposit, ahead of the reveal in the block: the reveal's root leaves the history.
	if _, err := devchain.SendTx(ctx, c, depositor, &vault, nil, vaultABI.PackCommit(token, big.NewInt(1), common.BigToHash(big.NewInt(12345)))); err != nil {
		t.Fatal(err)
	}
	answer := revealAsync(t, a, req)
	waitFor(t, "the reveal in the pool", func() bool { return pendingOperatorNonce(t, c) == start+1 })
	c.ResumeSealing()
	wantCode(t, "a reveal whose root left the history", <-answer, 422, "TX_REVERTED")
	if st := status(t, b, req); st.State != "reverted" {
		t.Fatalf("the reverted reveal's status: %+v", st)
	}
	again := prepareFor(t, c, cd, recipient) // against the current root: the same nullifier
	if r := reveal(t, b, again); r.JSON200 == nil || !r.JSON200.Success {
		t.Fatalf("the reveal proved again and sent again: %d %s", r.StatusCode(), r.Body)
	}
}
