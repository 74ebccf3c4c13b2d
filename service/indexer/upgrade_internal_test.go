package indexer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// An indexer's database from before numbered migrations (testdata/upgrade, written by
// TestWriteUpgradeFixtures at 6520340), on SQLite and on Postgres, is migrated by openStore and
// goes on: what it indexes still matches (and another chain's index is refused), its cursor (the
// newest block) and every kept block hash read back, every stored event reads back through the
// API's queries and the cursor's lookup, and the next block is stored on top. Through the store,
// not a running indexer: the fixture's block hashes are its chain's, not a fresh dev chain's.
func TestAnUpgradedStoreGoesOn(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		data, err := os.ReadFile("testdata/upgrade/indexer.db")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "indexer.db")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		upgradedStoreGoesOn(t, "sqlite:"+path)
	})
	t.Run("postgres", func(t *testing.T) {
		data, err := os.ReadFile("testdata/upgrade/indexer.pg.sql")
		if err != nil {
			t.Fatal(err)
		}
		url := sqldbtest.Postgres(t)
		sqldbtest.Restore(t, url, data)
		upgradedStoreGoesOn(t, url)
	})
}

// stored is a fixture's rows as written, read with plain SQL before the store opens it.
type stored struct {
	meta   map[string]string
	blocks []Block // by number
	events []Event // by name, then chain order
}

func readStored(t *testing.T, databaseURL string) stored {
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := stored{meta: map[string]string{}}
	rows, err := db.Query(`SELECT key, value FROM meta`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		st.meta[k] = v
	}
	rows.Close()
	rows, err = db.Query(`SELECT number, hash FROM blocks ORDER BY number`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var b Block
		var hash string
		if err := rows.Scan(&b.Number, &hash); err != nil {
			t.Fatal(err)
		}
		b.Hash = common.HexToHash(hash)
		st.blocks = append(st.blocks, b)
	}
	rows.Close()
	rows, err = db.Query(`SELECT event, block_number, log_index, block_hash, tx_hash, address, args FROM events ORDER BY event, block_number, log_index`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Event
		var blockHash, txHash, address, args string
		if err := rows.Scan(&e.Name, &e.Block.Number, &e.LogIndex, &blockHash, &txHash, &address, &args); err != nil {
			t.Fatal(err)
		}
		e.Block.Hash, e.TxHash, e.Address, e.Args = common.HexToHash(blockHash), common.HexToHash(txHash), common.HexToAddress(address), json.RawMessage(args)
		st.events = append(st.events, e)
	}
	if len(st.meta) == 0 || len(st.blocks) == 0 || len(st.events) == 0 {
		t.Fatalf("the fixture holds %d meta, %d blocks, %d events: want some of each", len(st.meta), len(st.blocks), len(st.events))
	}
	return st
}

func upgradedStoreGoesOn(t *testing.T, databaseURL string) {
	ctx := context.Background()
	want := readStored(t, databaseURL)
	s, err := openStore(databaseURL, noop.NewTracerProvider())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.db.Versions(ctx, Schema); err != nil || v["indexer"] != 2 { // every migration, 00002_reorgs the newest
		t.Fatalf("the schema's version: %v %v", v, err)
	}
	if err := s.checkMeta(ctx, want.meta); err != nil {
		t.Fatalf("what the fixture indexes: %v", err)
	}
	other := map[string]string{"chainId": want.meta["chainId"] + "1"}
	if err := s.checkMeta(ctx, other); err == nil {
		t.Fatalf("an index of chain %s opened as one of %s", want.meta["chainId"], other["chainId"])
	}

	newest := want.blocks[len(want.blocks)-1]
	if last, ok, err := s.last(ctx); err != nil || !ok || last != newest {
		t.Fatalf("the cursor: %v %v %v, want %v", last, ok, err, newest)
	}
	for _, b := range want.blocks {
		if h, ok, err := s.hashAt(ctx, b.Number); err != nil || !ok || h != b.Hash {
			t.Fatalf("block %d's hash: %v %v %v, want %v", b.Number, h, ok, err, b.Hash)
		}
	}
	names := map[string][]Event{}
	for _, e := range want.events {
		names[e.Name] = append(names[e.Name], e)
		name, h, ok, err := s.eventAt(ctx, []string{e.Name}, e.Block.Number, e.LogIndex)
		if err != nil || !ok || name != e.Name || h != e.Block.Hash {
			t.Fatalf("the cursor's lookup of %s at %d/%d: %s %v %v %v", e.Name, e.Block.Number, e.LogIndex, name, h, ok, err)
		}
	}
	for name, events := range names {
		got, err := s.events(ctx, query{name: name, from: 0, to: newest.Number, limit: 100})
		if err != nil || !reflect.DeepEqual(got, events) {
			t.Fatalf("%s: %v\n got %+v\nwant %+v", name, err, got, events)
		}
	}

	if s.shared() {
		if ok, err := s.takeWriter(ctx); err != nil || !ok {
			t.Fatalf("the writer's lock: %v %v", ok, err)
		}
	}
	next := Block{Number: newest.Number + 1, Hash: common.HexToHash("0x0e1d")}
	e := want.events[0]
	e.Block, e.LogIndex = next, 0
	if err := s.apply(ctx, []indexedBlock{{Block: next, Parent: newest.Hash, Events: []Event{e}}}); err != nil {
		t.Fatalf("the next block: %v", err)
	}
	if last, ok, err := s.last(ctx); err != nil || !ok || last != next {
		t.Fatalf("the cursor after the next block: %v %v %v", last, ok, err)
	}
	got, err := s.events(ctx, query{name: e.Name, from: next.Number, to: next.Number, limit: 100})
	if err != nil || !reflect.DeepEqual(got, []Event{e}) {
		t.Fatalf("the next block's event: %v %+v", err, got)
	}
}
