package indexer

import "time"

// Reason is why the indexer refused a query or a stream, in its own terms. The domain code returns
// a *QueryError with one; api.go alone maps each to an HTTP status and code (reasons).
type Reason int

// The reasons.
const (
	UnknownEvent     Reason = iota + 1 // not an event of the contracts this indexer follows
	BadRange                           // toBlock before fromBlock
	BadCursor                          // a cursor this indexer did not write
	CursorReorged                      // the event the cursor continues after was removed by a reorg
	StreamsPerClient                   // the client's streams are as many as STREAMS_PER_IP
	StreamsFull                        // the indexer's streams are as many as MAX_STREAMS

	reasonsEnd // not a reason: one past the last, for the tests
)

// QueryError is a query the indexer refused: its reason, a message for the caller, and when to
// try again (when set, the answer's Retry-After).
type QueryError struct {
	Reason  Reason
	Message string
	Retry   time.Duration
}

func (e *QueryError) Error() string { return e.Message }
