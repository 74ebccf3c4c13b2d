package relayer_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/devchain"
	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/redistest"
)

// A relayer stopped with a reveal's transaction in the pool and restarted behind a provider
// without txpool_* (most hosted ones) finds that transaction in its own record of what it
// signed: the repeated request gets its outcome (200, the same transaction), and nothing is sent
// twice. Without the record the repeat was checked afresh, sent at the next nonce, and reverted
// or was refused although the first had succeeded.
func TestARestartFindsItsTransactionsWithoutTxpool(t *testing.T) {
	c := devchaintest.Start(t)
	db := filepath.Join(t.TempDir(), "relayer.db")
	over := map[string]string{"DATABASE_URL": "sqlite:" + db, "RECEIPT_TIMEOUT": "1s", "REPLACE_AFTER": "500ms"}
	s := startRelayer(t, c, over)
	_, req := request(t, c, devUsers(c, 0), 31)
	start := operatorNonce(t, c)
	c.PauseSealing()
	pending := reveal(t, s, req)
	wantCode(t, "a reveal left in the pool", pending, 504, "TX_PENDING")
	s.stop()

	node := devchaintest.Faults(t, c.RPCURL)
	node.SetRule(func(method string) devchain.Fault {
		if len(method) > 7 && method[:7] == "txpool_" {
			return devchain.MethodMissing
		}
		return devchain.Pass
	})
	over["RPC_URL"], over["RECEIPT_TIMEOUT"] = node.URL, "20s"
	s = startRelayer(t, c, over)
	c.ResumeSealing()
	r := reveal(t, s, req)
	if r.StatusCode() != 200 {
		t.Fatalf("the same reveal after the restart: %d %s", r.StatusCode(), r.Body)
	}
	if n := operatorNonce(t, c); n != start+1 {
		t.Fatalf("operator sent %d transactions for one reveal", n-start)
	}
	if node.Counts()[devchain.MethodMissing] == 0 {
		t.Fatal("the relayer did not ask the node's txpool: the test proves nothing")
	}
}

// Two relayers share a Redis. The first claims a reveal's nullifier and then waits, behind a
// slow node, longer than the claim's TTL before it can send; meanwhile a copy of the reveal
// reaches the second. The claim is refreshed while the first waits, so the second never claims
// it: it answers with the first's transaction, and one transaction is sent. (The claim lapsed
// after a minute, and the copy was sent a second time.)
func TestAClaimIsKeptWhileItsRevealWaits(t *testing.T) {
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	slow := devchaintest.Faults(t, c.RPCURL)
	slow.SetLostAnswerDelay(2500 * time.Millisecond)
	slow.SetRule(func(method string) devchain.Fault {
		if method == "eth_maxPriorityFeePerGas" { // the fees a send reads, after the claim
			return devchain.Slow
		}
		return devchain.Pass
	})
	shared := map[string]string{"REDIS_URL": url, "NULLIFIER_CLAIM_TTL": "600ms", "RECEIPT_TIMEOUT": "20s", "REPLACE_AFTER": "10s"}
	a := startRelayer(t, c, with(shared, map[string]string{"RPC_URL": slow.URL}))
	b := startRelayer(t, c, with(shared, map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(fundedKey(t, c)))}))
	_, req := request(t, c, devUsers(c, 0), 32)
	start := operatorNonce(t, c)
	first := revealAsync(t, a, req)
	time.Sleep(1500 * time.Millisecond) // a holds the claim, waiting for the slow node, past the TTL
	second := reveal(t, b, req)
	r1 := <-first
	if r1.StatusCode() != 200 || second.StatusCode() != 200 || r1.JSON200.TxHash != second.JSON200.TxHash {
		t.Fatalf("a: %d %s; b: %d %s; want both 200 with one transaction", r1.StatusCode(), r1.Body, second.StatusCode(), second.Body)
	}
	if n := operatorNonce(t, c); n != start+1 {
		t.Fatalf("the operator of a sent %d transactions", n-start)
	}
}

// with is base with over on top.
func with(base, over map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{base, over} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
