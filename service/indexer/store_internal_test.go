package indexer

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/trace/noop"
)

// The API's reads do not wait for the writer's connection: with the writer busy (its one SQLite
// connection taken), a query and a cursor's lookup are answered from the readers' pool. They
// shared that connection, and a crowd of readers could hold the writer up (and a writer the
// readers).
func TestReadersDoNotWaitForTheWriter(t *testing.T) {
	t.Parallel()
	s, err := openStore("sqlite:"+filepath.Join(t.TempDir(), "indexer.db"), noop.NewTracerProvider())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	b := Block{Number: 1, Hash: common.HexToHash("0x01")}
	if err := s.apply(ctx, []indexedBlock{{Block: b, Events: []Event{{Name: "CommitmentInserted", Block: b, Args: json.RawMessage(`{}`)}}}}); err != nil {
		t.Fatal(err)
	}
	busy, err := s.db.Conn(ctx) // the writer's only connection, taken
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	events, err := s.events(rctx, query{name: "CommitmentInserted", from: 0, to: 10, limit: 10})
	if err != nil || len(events) != 1 {
		t.Fatalf("a query while the writer is busy: %d events, %v", len(events), err)
	}
	if _, _, ok, err := s.eventAt(rctx, []string{"CommitmentInserted"}, 1, 0); err != nil || !ok {
		t.Fatalf("a cursor's lookup while the writer is busy: %v %v", ok, err)
	}
}
