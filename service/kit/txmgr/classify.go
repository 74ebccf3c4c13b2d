package txmgr

import (
	"slices"
	"strings"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// sendClass is how a node's answer to eth_sendRawTransaction is handled.
type sendClass int

const (
	sendAccepted   sendClass = iota // in the pool now
	sendKnown                       // already in the pool: accepted earlier
	sendNonceUsed                   // the nonce is mined, or taken in the pool by another transaction: resync and sign once more
	sendUncertain                   // no answer: the transaction may or may not be in the pool
	sendNonceAhead                  // "nonce too high": the node's view is behind the counter (it went back, or lags): resync from it
	sendRejected                    // refused (underpriced, no funds, …): the nonce is not used
)

// classifySend is the one place that reads the node's send errors, matched case-insensitively:
// geth's wording ("nonce too low", "already known"), which Erigon, Reth, Besu and Hardhat share
// or come close to, Nethermind's result names ("AlreadyKnown", "OldNonce", "NonceGap",
// "ReplacementNotAllowed") and OpenEthereum's sentences. A known answer read as a refusal would
// free a nonce a pool still holds: the next send would sign another transaction at it.
func classifySend(err error) sendClass {
	if err == nil {
		return sendAccepted
	}
	if !chain.IsNodeAnswer(err) {
		return sendUncertain
	}
	msg := strings.ToLower(err.Error())
	has := func(words ...string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(msg, w) })
	}
	switch {
	case has("already known", "known transaction", "alreadyknown", "already imported"):
		return sendKnown
	case has("nonce too low", "oldnonce", "nonce is too low"):
		return sendNonceUsed
	case has("nonce too high", "noncegap"):
		return sendNonceAhead
	case has("replacement transaction underpriced", "replacementnotallowed", "another transaction with same nonce"):
		// Our own transactions all have nonces below the counter (resync keeps it above them),
		// so the one in the pool at this nonce came from outside.
		return sendNonceUsed
	default:
		return sendRejected
	}
}
