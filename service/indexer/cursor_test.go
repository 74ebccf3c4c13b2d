package indexer_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
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
