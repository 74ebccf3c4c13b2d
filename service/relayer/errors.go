package relayer

import (
	"errors"
	"fmt"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// Reason is why the relayer refused a reveal, or why one did not complete, in the relayer's own
// terms. The domain code returns a *RevealError with one; each reason knows its code (Code), and
// answers.go alone gives each its HTTP status (statuses).
type Reason int

// The reasons, in the order of the checks before anything is sent (docs/relayer.md, "Before
// anything is sent"), then after the send.
const (
	NullifierUsed    Reason = iota + 1 // check 1: the nullifier is spent
	UnknownRoot                        // check 2: the root is not one of the tree's recent roots
	InvalidProof                       // checks 3 and 6: malformed, out of range, or not verifying
	InvalidRecipient                   // check 4
	SignalMismatch                     // check 5: amount, recipient or token are not the proof's
	RevealRejected                     // check 7: the vault would revert
	RootExpiring                       // the relayer's own inserts ahead would evict the root
	ChainUnavailable                   // the chain did not answer
	TxPending                          // sent, not mined within RECEIPT_TIMEOUT (TxHash set)
	TxReverted                         // mined, reverted (TxHash set)
	// OperatorKeyUnavailable: this replica's lease of its operator key (OPERATOR_PRIVATE_KEYS)
	// lapsed, so it may not send; nothing was sent, another replica may take the reveal.
	OperatorKeyUnavailable
	// TxCancelled: an operator cancelled the reveal's transaction (POST
	// /admin/transactions/{nonce}/cancel) and the cancel was mined: nothing was revealed.
	TxCancelled
	// RecipientNotAllowed: check 4, the recipient is the vault or one of its tokens, which would
	// keep what the reveal sends.
	RecipientNotAllowed
	InvalidInput     // a field the document's pattern let through but that does not read (tokenAddress, amount)
	HoldsUnavailable // the replicas' shared holds (Redis) cannot be read: refused rather than risk a second transaction
	// Who pays refuses with reasons of its own (funding.Reason).

	reasonsEnd // not a reason: one past the last, for the tests
)

// RevealError is a reveal's failure: its reason, a message for the caller, and the transaction
// when one was sent.
type RevealError struct {
	Reason  Reason
	Message string
	TxHash  string
	Cause   error         // logged, never sent
	Retry   time.Duration // when set, the answer's Retry-After
}

func (e *RevealError) Error() string { return e.Message }
func (e *RevealError) Unwrap() error { return e.Cause }

func reject(reason Reason, format string, args ...any) *RevealError {
	return &RevealError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// orUnavailable is err as the chain's unavailability, nil for nil.
func orUnavailable(err error) error {
	if err == nil {
		return nil
	}
	return chainUnavailable(err)
}

func chainUnavailable(err error) *RevealError {
	return &RevealError{Reason: ChainUnavailable, Message: "the chain is unavailable, try again later", Cause: err}
}

// revertRefusal is a revert as a refusal says it: a custom error by its name alone, since its
// arguments may be the recipient's address or the nullifier (refusals go into spans and logs);
// a require's message or a panic as decoded.
func revertRefusal(rev chain.Revert) string {
	if rev.Name == "" || rev.Name == "Error" || rev.Name == "Panic" {
		return rev.String()
	}
	return rev.Name
}

// reasonCodes are the reasons' codes: what a reveal's answer, its spans and its outcome metric
// name each with.
var reasonCodes = map[Reason]string{
	NullifierUsed: CodeNullifierUsed, UnknownRoot: CodeUnknownRoot, InvalidProof: CodeInvalidProof,
	InvalidRecipient: CodeInvalidRecipient, SignalMismatch: CodeSignalMismatch, RevealRejected: CodeRevealRejected,
	RootExpiring: CodeRootExpiring, ChainUnavailable: edge.CodeChainUnavailable, TxPending: CodeTxPending,
	TxReverted: CodeTxReverted, OperatorKeyUnavailable: CodeOperatorKeyUnavailable, TxCancelled: CodeTxCancelled,
	RecipientNotAllowed: CodeRecipientNotAllowed, InvalidInput: edge.CodeInvalidRequest, HoldsUnavailable: edge.CodeUnavailable,
}

// Code is the reason's code ("" for a value that is no reason).
func (r Reason) Code() string { return reasonCodes[r] }

// relayerFaults are the reasons that are the relayer's doing or its chain's, not the caller's: a
// step that ends with one is an error in its span.
var relayerFaults = map[Reason]bool{
	ChainUnavailable: true, TxPending: true, OperatorKeyUnavailable: true, TxCancelled: true, HoldsUnavailable: true,
}

// outOfFunds is what a reveal refused by the closed balance gate is told: not the gate's own words,
// which name the operator's minimum.
const outOfFunds = "the relayer is out of funds for now, try again later"

// named is err as a reveal's spans and its outcome metric name it: a *RevealError, or funding's
// *funding.Refusal, by its reason's code; the refusals the relayer shares with the faucet (the
// balance gate, an operator's pause, the rate limits) as paid names them; anything else is a
// fault, INTERNAL. The answer's status, Retry-After and transaction hash are answers.go's
// (answer), which names every error as this does (TestRefusalsNameTheCodeTheyAreAnsweredWith).
func named(err error) tracing.Refusal {
	if r, ok := paid.Named(err); ok {
		return r
	}
	var (
		re     *RevealError
		unpaid *funding.Refusal
	)
	switch {
	case errors.As(err, &re) && re.Reason.Code() != "":
		return tracing.Refusal{Code: re.Reason.Code(), Message: re.Message, Fault: relayerFaults[re.Reason]}
	case errors.As(err, &unpaid) && unpaid.Reason.Code() != "":
		return tracing.Refusal{Code: unpaid.Reason.Code(), Message: unpaid.Message}
	}
	return tracing.Refusal{Code: edge.CodeInternal, Message: "internal error", Fault: true}
}
