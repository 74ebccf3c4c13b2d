package devstack_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace/noop"

	"github.com/seed018cc74c/vaultd/service/devstack"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
func (b *syncBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// The stack starts on free ports, registers the dev tokens through the registry's API, prints
// where everything is, and stops cleanly.
func TestDevstackServesRegisteredTokens(t *testing.T) {
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- devstack.Run(ctx, devstack.Config{Getenv: func(string) string { return "" }, Out: &out}, noop.NewTracerProvider())
	}()
	registry := regexp.MustCompile(`registry\s+(http://\S+)`)
	key := regexp.MustCompile(`admin key\s+([0-9a-f]{48})`)
	deadline := time.Now().Add(30 * time.Second)
	for !registry.MatchString(out.String()) {
		select {
		case err := <-done:
			t.Fatalf("devstack stopped: %v\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			var stacks bytes.Buffer
			pprof.Lookup("goroutine").WriteTo(&stacks, 1)
			t.Fatalf("devstack not ready:\n%s\ngoroutines:\n%s", out.String(), stacks.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !key.MatchString(out.String()) {
		t.Fatalf("no random admin key printed:\n%s", out.String())
	}
	url := registry.FindStringSubmatch(out.String())[1]
	resp, err := http.Get(url + "/tokens")
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Tokens []struct{ Symbol string } }
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Tokens) != 4 {
		t.Fatalf("devstack lists %d tokens, want the 4 dev tokens", len(list.Tokens))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("devstack stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("devstack did not stop")
	}
}
