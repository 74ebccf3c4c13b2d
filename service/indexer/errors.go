package indexer

// Reason is why the indexer refused a query, in its own terms. Events returns a *QueryError with
// one; api.go alone maps each to an HTTP status and code (reasons).
type Reason int

// The reasons.
const (
	UnknownEvent  Reason = iota + 1 // not an event of the contracts this indexer follows
	BadRange                        // toBlock before fromBlock
	BadCursor                       // a cursor this indexer did not write
	CursorReorged                   // the event the cursor continues after was removed by a reorg
)

// QueryError is a query the indexer refused: its reason and a message for the caller.
type QueryError struct {
	Reason  Reason
	Message string
}

func (e *QueryError) Error() string { return e.Message }
