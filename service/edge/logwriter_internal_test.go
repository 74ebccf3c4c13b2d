package edge

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// output is a log output that counts its writes; with block set, every write waits until it
// is closed (an output that cannot keep up).
type output struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
	block  chan struct{}
}

func (o *output) Write(p []byte) (int, error) {
	if o.block != nil {
		<-o.block
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.writes++
	return o.buf.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Lines from many goroutines reach the output in batches, each goroutine's in its order, none
// lost once the writer is closed; lines after Close are written at once.
func TestLogWriterBatchesAndLosesNothingAtClose(t *testing.T) {
	out := &output{}
	w := NewLogWriter(out, time.Hour) // no tick during the test: only the kicks and Close write
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				fmt.Fprintf(w, "g%d line %04d\n", g, i)
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "after close\n")
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4001 || lines[4000] != "after close" {
		t.Fatalf("%d lines, the last %q; want 4000 and then the line written after Close", len(lines), lines[len(lines)-1])
	}
	next := map[string]int{}
	for _, l := range lines[:4000] {
		var g string
		var i int
		if _, err := fmt.Sscanf(l, "%s line %d", &g, &i); err != nil || i != next[g] {
			t.Fatalf("line %q out of order (want %s's line %d)", l, g, next[g])
		}
		next[g]++
	}
	if out.writes > 4000/10 {
		t.Fatalf("%d writes for 4000 lines: not batched", out.writes)
	}
}

// A line waits for the next batch, at most the interval: the writer writes it without being
// asked.
func TestLogWriterWritesWithinItsInterval(t *testing.T) {
	out := &output{}
	w := NewLogWriter(out, 10*time.Millisecond)
	defer w.Close()
	fmt.Fprintf(w, "one line\n")
	for deadline := time.Now().Add(10 * time.Second); out.String() == ""; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the line was never written")
		}
	}
	if got := out.String(); got != "one line\n" {
		t.Fatalf("written %q", got)
	}
}

// An output that does not keep up never holds a writer: past the buffer's bound the lines are
// dropped and counted.
func TestLogWriterDropsRatherThanBlocks(t *testing.T) {
	out := &output{block: make(chan struct{})}
	w := NewLogWriter(out, time.Hour)
	before := testutil.ToFloat64(logLinesDropped)
	line := []byte(strings.Repeat("x", 1023) + "\n")
	const n = 2 * logMax / 1024 // twice what the buffer holds, while the output is stuck
	for range n {
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	// At most the buffer and the one batch stuck in the output are kept.
	dropped := testutil.ToFloat64(logLinesDropped) - before
	if dropped < 1 || dropped >= n/2 {
		t.Fatalf("%v of %d lines dropped", dropped, n)
	}
	close(out.block)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if kept := strings.Count(out.String(), "\n"); kept+int(dropped) != n {
		t.Fatalf("%d lines written and %v dropped of %d", kept, dropped, n)
	}
}

// A warning is written at once, with the lines before it: what a failing process says last is
// not left in the buffer.
func TestWarningsAreWrittenAtOnce(t *testing.T) {
	out := &output{}
	w := NewLogWriter(out, time.Hour)
	defer w.Close()
	log := NewLogger(w, slog.LevelInfo, "test")
	log.InfoContext(context.Background(), "request")
	if out.String() != "" {
		t.Fatalf("an info line was written at once: %q", out.String())
	}
	log.Warn("something is off")
	got := out.String()
	if !strings.Contains(got, `"msg":"request"`) || !strings.Contains(got, `"msg":"something is off"`) {
		t.Fatalf("written: %q", got)
	}
}
