package indexer

import (
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// Reason is why the indexer refused a query or a stream, or is not ready, in its own terms. The
// domain code returns a *QueryError with one; each reason knows its code (Code), and answers.go
// alone gives each its HTTP status (statuses).
type Reason int

// The reasons.
const (
	UnknownEvent     Reason = iota + 1 // not an event of the contracts this indexer follows
	BadRange                           // toBlock before fromBlock
	BadCursor                          // a cursor this indexer did not write
	CursorReorged                      // the event the cursor continues after was removed by a reorg
	StreamsPerClient                   // the client's streams are as many as STREAMS_PER_IP
	StreamsFull                        // the indexer's streams are as many as MAX_STREAMS
	ChainUnreachable                   // not ready: the chain did not answer the last poll
	Lagging                            // not ready: more than CONFIRMATIONS and healthyLag blocks behind the head

	reasonsEnd // not a reason: one past the last, for the tests
)

// reasonCodes are the reasons' codes: what a refusal's answer names each with.
var reasonCodes = map[Reason]string{
	UnknownEvent: edge.CodeInvalidRequest, BadRange: edge.CodeInvalidRequest, BadCursor: edge.CodeInvalidRequest,
	CursorReorged: CodeCursorReorged, StreamsPerClient: edge.CodeRateLimited, StreamsFull: edge.CodeUnavailable,
	ChainUnreachable: edge.CodeChainUnavailable, Lagging: edge.CodeUnavailable,
}

// Code is the reason's code ("" for a value that is no reason).
func (r Reason) Code() string { return reasonCodes[r] }

// QueryError is a query the indexer refused: its reason, a message for the caller, and when to
// try again (when set, the answer's Retry-After).
type QueryError struct {
	Reason  Reason
	Message string
	Retry   time.Duration
}

func (e *QueryError) Error() string { return e.Message }
