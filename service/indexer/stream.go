package indexer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/edge"
)

// Streaming: events are read streamPage at a time; a comment every heartbeat keeps proxies from
// closing a quiet stream.
const (
	streamPage = 500
	heartbeat  = 15 * time.Second
)

// stream writes the events named name, after the cursor c (or from block from when c is nil),
// to w as Server-Sent Events, then each new one as it is indexed, until ctx is done, the server
// drains, or w fails. When a reorg removes events it has sent, it says so (event: reorg) and
// goes on from the common ancestor. An error because the client left (ctx done) is answerError's
// to tell from a fault.
func (ix *Indexer) stream(ctx context.Context, w io.Writer, name string, from uint64, c *cursor) error {
	if _, err := io.WriteString(w, "retry: 2000\n\n"); err != nil {
		return err
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		indexed, changed := ix.watch()
		if c != nil {
			gone, err := ix.checkCursor(ctx, name, *c)
			if err != nil {
				return err
			}
			if gone { // what was sent up to c is (partly) gone
				to, err := ix.rolledBackBefore(ctx, c.block)
				if err != nil {
					return err
				}
				hash, _, err := ix.store.hashAt(ctx, to)
				if err != nil {
					return err
				}
				if err := send(w, "", "reorg", map[string]any{"rolledBackTo": block(Block{Number: to, Hash: hash})}); err != nil {
					return err
				}
				c, from = nil, to+1
			}
		}
		sel := query{name: name, from: from, to: indexed.Number, limit: streamPage}
		if c != nil {
			sel.from, sel.after, sel.afterBlock, sel.afterLog = c.block, true, c.block, c.logIndex
		}
		var events []Event
		if sel.from <= sel.to {
			var err error
			if events, err = ix.store.events(ctx, sel); err != nil {
				return err
			}
		}
		for _, e := range events {
			next := cursor{block: e.Block.Number, logIndex: e.LogIndex, hash: e.Block.Hash}
			if err := send(w, next.String(), e.Name, eventJSON(e)); err != nil {
				return err
			}
			c = &next
		}
		if len(events) == streamPage {
			continue // more to send at once
		}
		select {
		case <-ctx.Done():
			return nil
		case <-edge.Draining(ctx):
			return nil
		case <-changed:
		case <-beat.C:
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
				return err
			}
		}
	}
}

// send writes one Server-Sent Event.
func send(w io.Writer, id, event string, data any) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("event: %s\ndata: %s\n\n", event, body)
	if id != "" {
		msg = "id: " + id + "\n" + msg
	}
	_, err = io.WriteString(w, msg)
	return err
}

// eventJSON is an event as the API shows it.
func eventJSON(e Event) indexerapi.Event {
	return indexerapi.Event{
		Event: indexerapi.EventName(e.Name), BlockNumber: int64(e.Block.Number), BlockHash: e.Block.Hash.Hex(),
		TransactionHash: e.TxHash.Hex(), LogIndex: int(e.LogIndex), Address: e.Address.Hex(), Args: e.Args,
	}
}
