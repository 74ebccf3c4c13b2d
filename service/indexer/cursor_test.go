package indexer_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
)

// getError asks path and decodes its error answer.
func getError(t *testing.T, rawURL string, header map[string]string) (status int, code, message string) {
	t.Helper()
	req, _ := http.NewRequest("GET", rawURL, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct{ Error, Code string }
	json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e.Code, e.Error
}

// A cursor whose block does not fit the store (beyond int64) is a bad cursor, 400, in a query and
// in a stream; it was a 500.
func TestCursorBeyondInt64(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	huge := base64.RawURLEncoding.EncodeToString([]byte("18446744073709551615:0:0x" + strings.Repeat("ab", 32)))
	for _, u := range []string{s.url + "/api/indexer?event=CommitmentInserted&cursor=" + huge,
		s.url + "/api/indexer/stream?event=CommitmentInserted&cursor=" + huge} {
		if status, code, msg := getError(t, u, nil); status != 400 || code != "INVALID_REQUEST" || !strings.Contains(msg, "cursor") {
			t.Errorf("%s: %d %s %s, want 400 INVALID_REQUEST about the cursor", u, status, code, msg)
		}
	}
}

// A cursor made for another event is a bad cursor (400), not a reorg: neither 409
// CURSOR_REORGED in a query nor a spurious "reorg" in a stream.
func TestCursorOfAnotherEvent(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	commit(t, c, 0, 3)
	caughtUp(t, s, c)
	limit := 1
	r, err := s.client.ListEventsWithResponse(ctx, &indexerapi.ListEventsParams{Event: "CommitmentInserted", Limit: &limit})
	if err != nil || r.JSON200 == nil || r.JSON200.NextCursor == nil {
		t.Fatalf("a page of one: %v %s", err, r.Body)
	}
	other := url.QueryEscape(*r.JSON200.NextCursor)
	for _, probe := range []struct {
		url    string
		header map[string]string
	}{
		{s.url + "/api/indexer?event=Committed&cursor=" + other, nil},
		{s.url + "/api/indexer/stream?event=Committed&cursor=" + other, nil},
		{s.url + "/api/indexer/stream?event=Committed", map[string]string{"Last-Event-ID": *r.JSON200.NextCursor}},
	} {
		if status, code, msg := getError(t, probe.url, probe.header); status != 400 || code != "INVALID_REQUEST" || !strings.Contains(msg, "CommitmentInserted") {
			t.Errorf("%s %v: %d %s %s, want 400 INVALID_REQUEST naming the cursor's event", probe.url, probe.header, status, code, msg)
		}
	}
}

// When a stream is opened with both a cursor and a Last-Event-ID (an EventSource reconnecting to
// the URL it was opened with), Last-Event-ID wins: it is the newer position. A stream is sent
// uncached and unbuffered.
func TestLastEventIDWinsOverTheCursor(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	commit(t, c, 0, 3)
	caughtUp(t, s, c)
	all := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	first, second := next(t, all), next(t, all)
	resumed := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted&cursor="+url.QueryEscape(first.id), map[string]string{"Last-Event-ID": second.id})
	if e := next(t, resumed); leafOf(t, e) != "2" {
		t.Fatalf("resumed with cursor after leaf 0 and Last-Event-ID after leaf 1: got leaf %s", leafOf(t, e))
	}
	resp, err := http.Get(s.url + "/api/indexer/stream?event=CommitmentInserted")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if cc, xab := resp.Header.Get("Cache-Control"), resp.Header.Get("X-Accel-Buffering"); cc != "no-cache" || xab != "no" {
		t.Fatalf("Cache-Control %q, X-Accel-Buffering %q; want no-cache, no", cc, xab)
	}
}

// Every route counts against RATE_LIMIT_PER_IP (429 RATE_LIMITED with Retry-After), and streams
// are capped per client IP (429) and in all (503 UNAVAILABLE); a closed stream frees its slot.
func TestPerIPLimitsAndStreamCaps(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), map[string]string{"RATE_LIMIT_PER_IP": "1000000/1m", "STREAMS_PER_IP": "2", "MAX_STREAMS": "2"})
	url := s.url + "/api/indexer/stream?event=CommitmentInserted"
	first := subscribeCancel(t, url)
	subscribeCancel(t, url)
	if status, code, _ := getError(t, url, nil); status != 429 || code != "RATE_LIMITED" {
		t.Fatalf("a third stream from one address: %d %s, want 429 RATE_LIMITED", status, code)
	}
	first()
	waitFor(t, "the closed stream's slot freed", func() bool {
		resp, err := http.Get(s.url + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var b strings.Builder
		io.Copy(&b, resp.Body)
		return strings.Contains(b.String(), "vaultd_indexer_streams 1\n")
	})
	subscribeCancel(t, url)

	total := startIndexer(t, c, t.TempDir(), map[string]string{"RATE_LIMIT_PER_IP": "1000000/1m", "STREAMS_PER_IP": "5", "MAX_STREAMS": "1"})
	subscribeCancel(t, total.url+"/api/indexer/stream?event=CommitmentInserted")
	if status, code, _ := getError(t, total.url+"/api/indexer/stream?event=CommitmentInserted", nil); status != 503 || code != "UNAVAILABLE" {
		t.Fatalf("a stream over MAX_STREAMS: %d %s, want 503 UNAVAILABLE", status, code)
	}

	limited := startIndexer(t, c, t.TempDir(), map[string]string{"RATE_LIMIT_PER_IP": "3/1m"})
	for range 3 {
		if r, err := http.Get(limited.url + "/health"); err != nil || r.StatusCode != 200 {
			t.Fatalf("under the limit: %v %v", r, err)
		}
	}
	if status, code, _ := getError(t, limited.url+"/api/indexer?event=CommitmentInserted", nil); status != 429 || code != "RATE_LIMITED" {
		t.Fatalf("over RATE_LIMIT_PER_IP: %d %s, want 429 RATE_LIMITED", status, code)
	}
}

// subscribeCancel opens a stream and returns what closes it (also at the test's end).
func subscribeCancel(t *testing.T, url string) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("stream: %d", resp.StatusCode)
	}
	return func() { cancel(); resp.Body.Close() }
}
