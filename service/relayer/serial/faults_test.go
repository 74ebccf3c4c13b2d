package serial_test

import (
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// The RPC stops answering in the middle of a request and comes back; a send is refused; a send's
// answer is lost. Each time nothing is left half-done and nothing is sent twice: afterwards
// reveals succeed with contiguous nonces.
func TestRPCFaults(t *testing.T) {
	// Not in parallel, and a 1 s RPC_TIMEOUT rather than less: a shorter one lapsed when other
	// work took the cores (other packages' tests, CI's other lanes).
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	s := relayertest.Start(t, c, map[string]string{"RPC_URL": proxy.URL, "RPC_TIMEOUT": "1s", "RECEIPT_TIMEOUT": "3s", "REPLACE_AFTER": "2s"})
	start := relayertest.OperatorNonce(t, c)

	// 1. No answer to the send (nor to the lookup that follows): the transaction may have
	// reached a node, so it is followed by its hash and never signed again at another nonce:
	// 504 TX_PENDING with its hash. Once the node answers, the same transaction is broadcast
	// again and mined, and the same request gets its outcome.
	_, a := relayertest.Request(t, c, relayertest.User(c, 0), 21)
	proxy.SetRule(func(method string) devchain.Fault {
		if method == "eth_sendRawTransaction" || method == "eth_getTransactionByHash" {
			return devchain.Hang
		}
		return devchain.Pass
	})
	pending := relayertest.Reveal(t, s, a)
	relayertest.WantCode(t, "send hangs", pending, 504, "TX_PENDING")
	proxy.Heal()
	if r := relayertest.Reveal(t, s, a); r.StatusCode() != 200 || pending.JSON504.TxHash == nil || r.JSON200.TxHash != *pending.JSON504.TxHash {
		t.Fatalf("the same request once the node answers: %d %s, want 200 with %s", r.StatusCode(), r.Body, pending.Body)
	}

	// 2. The whole RPC is down: 502 at the first check; back up, the same request succeeds.
	_, f := relayertest.Request(t, c, relayertest.User(c, 4), 25)
	proxy.SetRule(devchain.OnMethod("*", devchain.Hang))
	relayertest.WantCode(t, "RPC down", relayertest.Reveal(t, s, f), 502, "CHAIN_UNAVAILABLE")
	proxy.Heal()
	if r := relayertest.Reveal(t, s, f); r.StatusCode() != 200 {
		t.Fatalf("after the RPC came back: %d %s", r.StatusCode(), r.Body)
	}

	// 3. The send's answer is lost although the node took it: the relayer finds the transaction
	// by its hash and reports its outcome instead of reusing the nonce.
	_, b := relayertest.Request(t, c, relayertest.User(c, 1), 22)
	proxy.SetRule(devchain.OnMethod("eth_sendRawTransaction", devchain.LoseAnswer))
	if r := relayertest.Reveal(t, s, b); r.StatusCode() != 200 {
		t.Fatalf("lost answer: %d %s", r.StatusCode(), r.Body)
	}
	proxy.Heal()

	// 4. The node refuses the send: 502, the nonce is not used.
	_, e := relayertest.Request(t, c, relayertest.User(c, 3), 24)
	proxy.SetReply("eth_sendRawTransaction", relayertest.InsufficientFunds, 0)
	relayertest.WantCode(t, "send refused", relayertest.Reveal(t, s, e), 502, "CHAIN_UNAVAILABLE")
	proxy.Heal()

	_, d := relayertest.Request(t, c, relayertest.User(c, 2), 23)
	if r := relayertest.Reveal(t, s, d); r.StatusCode() != 200 {
		t.Fatal(string(r.Body))
	}
	if n := relayertest.OperatorNonce(t, c); n != start+4 {
		t.Fatalf("operator nonce %d after 4 mined reveals from %d: a gap or a duplicate", n, start)
	}
}
