package relayer_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// A relayer stopped with a reveal's transaction in the pool and restarted behind a provider
// without txpool_* (most hosted ones) finds that transaction in its own record of what it
// signed: the repeated request gets its outcome (200, the same transaction), and nothing is sent
// twice. Without the record the repeat was checked afresh, sent at the next nonce, and reverted
// or was refused although the first had succeeded.
func TestARestartFindsItsTransactionsWithoutTxpool(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	db := filepath.Join(t.TempDir(), "relayer.db")
	over := map[string]string{"DATABASE_URL": "sqlite:" + db, "RECEIPT_TIMEOUT": "1s", "REPLACE_AFTER": "500ms"}
	s := relayertest.Start(t, c, over)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 31)
	start := relayertest.OperatorNonce(t, c)
	c.PauseSealing()
	pending := relayertest.Reveal(t, s, req)
	relayertest.WantCode(t, "a reveal left in the pool", pending, 504, "TX_PENDING")
	s.Stop()

	node := devchaintest.Faults(t, c.RPCURL)
	node.SetRule(func(method string) devchain.Fault {
		if len(method) > 7 && method[:7] == "txpool_" {
			return devchain.MethodMissing
		}
		return devchain.Pass
	})
	over["RPC_URL"], over["RECEIPT_TIMEOUT"] = node.URL, "20s"
	s = relayertest.Start(t, c, over)
	c.ResumeSealing()
	r := relayertest.Reveal(t, s, req)
	if r.StatusCode() != 200 {
		t.Fatalf("the same reveal after the restart: %d %s", r.StatusCode(), r.Body)
	}
	if n := relayertest.OperatorNonce(t, c); n != start+1 {
		t.Fatalf("operator sent %d transactions for one reveal", n-start)
	}
	if node.Counts()[devchain.MethodMissing] == 0 {
		t.Fatal("the relayer did not ask the node's txpool: the test proves nothing")
	}
}

// Two relayers share a Redis. The first holds a reveal's nullifier and then waits, behind a
// slow node, longer than the hold's TTL before it can send; meanwhile a copy of the reveal
// reaches the second. The hold is refreshed while the first waits, so the second never holds
// it: it answers with the first's transaction, and one transaction is sent. (The hold lapsed
// after a minute, and the copy was sent a second time.)
func TestAHoldIsKeptWhileItsRevealWaits(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	slow := devchaintest.Faults(t, c.RPCURL)
	// A TTL of seconds: a hold is refreshed every third of it, and a loaded machine has run a
	// refresh 400 ms late (at 600 ms the hold lapsed, and a answered 503 while b sent).
	shared := map[string]string{"REDIS_URL": url, "NULLIFIER_HOLD_TTL": "3s", "RECEIPT_TIMEOUT": "20s", "REPLACE_AFTER": "10s"}
	a := relayertest.Start(t, c, with(shared, map[string]string{"RPC_URL": slow.URL, "RPC_TIMEOUT": "30s"}))
	b := relayertest.Start(t, c, with(shared, map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(relayertest.FundedKey(t, c)))}))
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 32)
	start := relayertest.OperatorNonce(t, c)
	slow.SetRule(devchain.OnMethod("eth_maxPriorityFeePerGas", devchain.Hold)) // the fees a send reads, after the hold
	first := revealAsync(t, a, req)
	edgetest.WaitFor(t, "a to hold the hold, waiting for the slow node", func() bool { return slow.Counts()[devchain.Hold] > 0 })
	time.Sleep(4 * time.Second) // past the hold's TTL
	second := revealAsync(t, b, req)
	waitSimulated(t, b.URL)
	time.Sleep(200 * time.Millisecond) // b's hold, its next step, still meets a's wait (later, a's send)
	slow.Heal()
	r1, r2 := <-first, <-second
	if r1.StatusCode() != 200 || r2.StatusCode() != 200 || r1.JSON200.TxHash != r2.JSON200.TxHash {
		t.Fatalf("a: %d %s; b: %d %s; want both 200 with one transaction", r1.StatusCode(), r1.Body, r2.StatusCode(), r2.Body)
	}
	if n := relayertest.OperatorNonce(t, c); n != start+1 {
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

// Two relayers on one real redis-server, which restarts empty (no persistence): the leases, the
// nullifier holds and the windows are gone while the replica holding the key may still send.
// For one lease TTL nothing is held (a reveal is 503, nothing sent) and the standby takes
// no key; after it, reveals are paid again, and the two never hold the key at once. Before, the
// first reveal after the restart held its nullifier on the empty Redis and was sent at once.
func TestARedisRestartedEmptyUnderTwoRelayers(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, restart := redistest.Restartable(t)
	k := relayertest.FundedKey(t, c)
	// The quiet spell is one lease TTL from when a replica finds Redis empty, which its renewal
	// may do before the reveal below arrives: 6 s, so that on a loaded machine (a request
	// there took over 2 s to reach its hold) the reveal still lands within it.
	over := relayertest.LeasedKey(k, url, map[string]string{"OPERATOR_LEASE_TTL": "6s", "RECEIPT_TIMEOUT": "20s", "REPLACE_AFTER": "10s"})
	a := relayertest.Start(t, c, over) // waits out the new Redis's quiet spell, then leases k
	standby := make(chan *relayer.Service, 1)
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, over))
	if err != nil {
		t.Fatal(err)
	}
	waiting, stopWaiting := context.WithCancel(ctx)
	t.Cleanup(stopWaiting) // a standby still waiting when the test ends stops
	go func() {
		b, err := relayer.New(waiting, cfg, relayer.Options{})
		if err != nil {
			if waiting.Err() == nil {
				t.Error(err)
			}
			standby <- nil
			return
		}
		b.Start()                           // leases in the background
		if b.WaitOperator(waiting) != nil { // still a standby when the test ends
			b.Close()
			standby <- nil
			return
		}
		standby <- b
	}()
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 71)
	// A renewal that runs late on a loaded machine lets a's deadline pass for a moment: 503
	// OPERATOR_KEY_UNAVAILABLE, nothing sent, and a client tries again after Retry-After.
	r := relayertest.Reveal(t, a, first)
	for tries := 1; r.JSON503 != nil && r.JSON503.Code == relayer.CodeOperatorKeyUnavailable && tries < 10; tries++ {
		time.Sleep(time.Second)
		r = relayertest.Reveal(t, a, first)
	}
	if r.StatusCode() != 200 {
		t.Fatalf("before the restart: %d %s", r.StatusCode(), r.Body)
	}
	start := relayertest.OperatorNonce(t, c)
	// Made before the restart: the reveal after it must reach a within the quiet spell, which a
	// proof made under load could outlast.
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 72)

	restart()
	r = relayertest.Reveal(t, a, second)
	if r.StatusCode() != 503 {
		t.Fatalf("a reveal right after Redis restarted empty: %d %s, want 503 (nothing held for one lease TTL)", r.StatusCode(), r.Body)
	}
	if n := relayertest.OperatorNonce(t, c); n != start {
		t.Fatalf("sent %d transactions during the quiet spell", n-start)
	}
	var paid bool
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		select {
		case b := <-standby:
			if b != nil {
				defer b.Close()
				if rd, err := a.Client.GetReadyWithResponse(ctx); err == nil && rd.StatusCode() == 200 {
					t.Fatal("the standby took the key while the replica that held it is ready to send")
				}
			}
		default:
		}
		if rr := relayertest.Reveal(t, a, second); rr.StatusCode() == 200 {
			paid = true
			break
		}
	}
	if !paid {
		// a may have lost the key to the standby; either way one of them pays once the spell ends
		t.Log("the first replica did not pay again within 15 s (its key may have gone to the standby)")
	}
	if n := relayertest.OperatorNonce(t, c); n > start+1 {
		t.Fatalf("%d transactions for one reveal", n-start)
	}
}
