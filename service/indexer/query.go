package indexer

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// CodeCursorReorged is the 409 of a cursor whose event a reorg removed.
const CodeCursorReorged = "CURSOR_REORGED"

// Query asks for the events named Name in blocks [From, To] (To nil: as far as indexed), after
// Cursor when set, at most Limit.
type Query struct {
	Name   string
	From   uint64
	To     *uint64
	Limit  int
	Cursor string
}

// Page is an answer: the events, how far the indexer has indexed, and the cursor of the next
// page when more events match.
type Page struct {
	Events     []Event
	IndexedTo  Block
	NextCursor string
}

// Events answers q from the store.
func (ix *Indexer) Events(ctx context.Context, q Query) (Page, error) {
	start := time.Now()
	defer func() { ix.metrics.query.Observe(time.Since(start).Seconds()) }()
	if err := ix.knownEvent(q.Name); err != nil {
		return Page{}, err
	}
	if q.To != nil && *q.To < q.From {
		return Page{}, &QueryError{Reason: BadRange, Message: fmt.Sprintf("toBlock %d is before fromBlock %d", *q.To, q.From)}
	}
	page := Page{IndexedTo: ix.current(), Events: []Event{}}
	sel := query{name: q.Name, from: q.From, to: page.IndexedTo.Number, limit: q.Limit + 1}
	if q.To != nil {
		sel.to = min(*q.To, sel.to)
	}
	if q.Cursor != "" {
		c, err := readCursor(q.Cursor)
		if err != nil {
			return Page{}, err
		}
		gone, err := ix.checkCursor(ctx, q.Name, c)
		if err != nil {
			return Page{}, err
		}
		if gone {
			return Page{}, &QueryError{Reason: CursorReorged, Message: fmt.Sprintf(
				"the event at block %d, log %d that the cursor continues after was removed by a reorg; start again from an earlier block", c.block, c.logIndex)}
		}
		// A page after a cursor starts at the cursor's block: paging through the whole
		// history reads each event once, not every event before the page again.
		sel.from = max(sel.from, c.block)
		sel.after, sel.afterBlock, sel.afterLog = true, c.block, c.logIndex
	}
	if sel.from > sel.to {
		return page, nil
	}
	events, err := ix.store.events(ctx, sel)
	if err != nil {
		return Page{}, err
	}
	if len(events) > q.Limit {
		events = events[:q.Limit]
		last := events[len(events)-1]
		page.NextCursor = cursor{block: last.Block.Number, logIndex: last.LogIndex, hash: last.Block.Hash}.String()
	}
	page.Events = events
	return page, nil
}

// knownEvent refuses a name that is no event of the contracts this indexer follows (UnknownEvent),
// for a page and a stream alike.
func (ix *Indexer) knownEvent(name string) error {
	if !ix.dec.knows(name) {
		return &QueryError{Reason: UnknownEvent, Message: fmt.Sprintf("unknown event %q; this indexer knows %s", name, strings.Join(ix.dec.names, ", "))}
	}
	return nil
}

// readCursor is parseCursor for a page or a stream: a cursor this indexer did not write is
// BadCursor.
func readCursor(s string) (cursor, error) {
	c, err := parseCursor(s)
	if err != nil {
		return c, &QueryError{Reason: BadCursor, Message: fmt.Sprintf("cursor: %v", err)}
	}
	return c, nil
}

// checkCursor looks up the event a cursor continues after: gone when a reorg removed it (no
// event there, or one of another block), a BadCursor error when it is an event of another name
// (a cursor of another query or stream).
func (ix *Indexer) checkCursor(ctx context.Context, name string, c cursor) (gone bool, err error) {
	stored, h, ok, err := ix.store.eventAt(ctx, ix.dec.names, c.block, c.logIndex)
	switch {
	case err != nil:
		return false, err
	case !ok || h != c.hash:
		return true, nil
	case stored != name:
		return false, &QueryError{Reason: BadCursor, Message: fmt.Sprintf("cursor: it continues after a %s event, not a %s one", stored, name)}
	}
	return false, nil
}

// cursor is the position of the last event of a page: block number, log index, block hash.
type cursor struct {
	block    uint64
	logIndex uint
	hash     common.Hash
}

func (c cursor) String() string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d:%d:%s", c.block, c.logIndex, c.hash.Hex()))
}

func parseCursor(s string) (cursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, fmt.Errorf("not a cursor this indexer made")
	}
	parts := strings.Split(string(raw), ":")
	if len(parts) != 3 || len(parts[2]) != 66 || !strings.HasPrefix(parts[2], "0x") {
		return cursor{}, fmt.Errorf("not a cursor this indexer made")
	}
	block, err1 := strconv.ParseUint(parts[0], 10, 63) // blocks are stored as BIGINT
	logIndex, err2 := strconv.ParseUint(parts[1], 10, 32)
	if err1 != nil || err2 != nil {
		return cursor{}, fmt.Errorf("not a cursor this indexer made")
	}
	return cursor{block: block, logIndex: uint(logIndex), hash: common.HexToHash(parts[2])}, nil
}
