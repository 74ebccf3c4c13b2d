package indexer_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
)

// sse is one Server-Sent Event.
type sse struct{ id, event, data string }

// subscribe opens a stream and delivers its events on a channel until the test ends.
func subscribe(t *testing.T, url string, header map[string]string) <-chan sse {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan sse, 100)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		lines := bufio.NewScanner(resp.Body)
		var cur sse
		for lines.Scan() {
			line := lines.Text()
			switch {
			case line == "":
				if cur.event != "" {
					out <- cur
				}
				cur = sse{}
			case strings.HasPrefix(line, "id: "):
				cur.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				cur.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				cur.data = line[6:]
			}
		}
	}()
	return out
}

func next(t *testing.T, ch <-chan sse) sse {
	t.Helper()
	select {
	case e, ok := <-ch:
		if !ok {
			t.Fatal("the stream ended")
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return sse{}
}

func leafOf(t *testing.T, e sse) string {
	var ev indexerapi.Event
	if err := json.Unmarshal([]byte(e.data), &ev); err != nil {
		t.Fatalf("event data %q: %v", e.data, err)
	}
	var args map[string]string
	json.Unmarshal(ev.Args, &args)
	return args["leafIndex"]
}

// A stream sends what is indexed, then each new event as it is indexed; a reconnecting client
// with Last-Event-ID gets only what came after.
func TestStream(t *testing.T) { eachStore(t, testStream) }

func testStream(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	commit(t, c, 0, 2)
	caughtUp(t, s, c)
	events := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	first, second := next(t, events), next(t, events)
	if first.event != "CommitmentInserted" || leafOf(t, first) != "0" || leafOf(t, second) != "1" || first.id == "" {
		t.Fatalf("history: %+v %+v", first, second)
	}
	commit(t, c, 0, 1)
	if live := next(t, events); leafOf(t, live) != "2" {
		t.Fatalf("live event: %+v", live)
	}
	resumed := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", map[string]string{"Last-Event-ID": first.id})
	if e := next(t, resumed); leafOf(t, e) != "1" {
		t.Fatalf("resumed after leaf 0, got leaf %s", leafOf(t, e))
	}
	resp, _ := http.Get(s.url + "/api/indexer/stream?event=Transfer")
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("a stream of an unknown event: %d", resp.StatusCode)
	}
}

// When a reorg removes events a stream has sent, the stream says so, with the block to roll
// back to, and sends the new branch's events.
func TestStreamAcrossAReorg(t *testing.T) { eachStore(t, testStreamAcrossAReorg) }

func testStreamAcrossAReorg(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	ancestor, _ := c.Client().HeaderByNumber(ctx, nil)
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	events := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	next(t, events)
	orphaned := next(t, events)

	reorg(t, c, ancestor.Hash())
	notice := next(t, events)
	var body struct{ RolledBackTo indexerapi.Block }
	json.Unmarshal([]byte(notice.data), &body)
	if notice.event != "reorg" || body.RolledBackTo.BlockNumber > ancestor.Number.Int64() {
		t.Fatalf("after the reorg: %+v, want a reorg notice rolling back to block %d or before", notice, ancestor.Number)
	}
	for {
		e := next(t, events)
		if leafOf(t, e) == "1" {
			var ev indexerapi.Event
			json.Unmarshal([]byte(e.data), &ev)
			var was indexerapi.Event
			json.Unmarshal([]byte(orphaned.data), &was)
			if ev.BlockHash == was.BlockHash {
				t.Fatal("the re-mined leaf came with its orphaned block hash")
			}
			return
		}
	}
}

// Stopping the server ends open streams at once instead of waiting out SHUTDOWN_GRACE.
func TestShutdownEndsStreams(t *testing.T) { eachStore(t, testShutdownEndsStreams) }

func testShutdownEndsStreams(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	events := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	s.stop() // the harness serves with a 5 s grace
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("stopping with a stream open took %s", d)
	}
	select {
	case _, ok := <-events:
		if ok {
			t.Fatal("an event after the stop")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end")
	}
}

// A client resuming after a reorg deeper than 64 blocks, at an indexer that did not see it (one
// restarted since, as a reader replica did not see it either), is told to roll back to the
// reorg's common ancestor, which the store keeps: a guess 64 blocks below its cursor would keep
// orphaned events and miss the new branch's.
func TestStreamResumesAcrossADeepReorgAfterARestart(t *testing.T) {
	eachStore(t, testStreamResumesAcrossADeepReorgAfterARestart)
}

func testStreamResumesAcrossADeepReorgAfterARestart(t *testing.T) {
	c := devchaintest.Start(t)
	dir := t.TempDir()
	s := startIndexer(t, c, dir, nil)
	commit(t, c, 0, 1)
	ancestor, _ := c.Client().HeaderByNumber(ctx, nil)
	c.SetBlockTime(2 * time.Millisecond) // 80 blocks above the ancestor, then an event
	for {
		head, err := c.Client().BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if head >= ancestor.Number.Uint64()+80 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.SetBlockTime(0)
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	events := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	next(t, events)
	orphaned := next(t, events)

	reorg(t, c, ancestor.Hash())
	caughtUp(t, s, c)
	s.stop()
	s = startIndexer(t, c, dir, nil)
	resumed := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", map[string]string{"Last-Event-ID": orphaned.id})
	notice := next(t, resumed)
	var body struct{ RolledBackTo indexerapi.Block }
	json.Unmarshal([]byte(notice.data), &body)
	if notice.event != "reorg" || body.RolledBackTo.BlockNumber > ancestor.Number.Int64() {
		t.Fatalf("resumed after a reorg of 80 blocks and more: %+v, want a reorg notice rolling back to block %d or before", notice, ancestor.Number)
	}
}
