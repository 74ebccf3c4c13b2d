package txmgr

import (
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

// classifySend is the one place that reads the node's send errors. geth's wording is matched
// case-insensitively ("nonce too low", "already known"), as every client that wraps it does.
func classifySend(err error) sendClass {
	if err == nil {
		return sendAccepted
	}
	if !chain.IsNodeAnswer(err) {
		return sendUncertain
	}
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "already known"), strings.Contains(msg, "known transaction"):
		return sendKnown
	case strings.Contains(msg, "nonce too low"):
		return sendNonceUsed
	case strings.Contains(msg, "nonce too high"):
		return sendNonceAhead
	case strings.Contains(msg, "replacement transaction underpriced"):
		// Our own transactions all have nonces below the counter (resync keeps it above them),
		// so the one in the pool at this nonce came from outside.
		return sendNonceUsed
	default:
		return sendRejected
	}
}
