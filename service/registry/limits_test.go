package registry_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
)

// Every route counts against RATE_LIMIT_PER_IP, and a request over it is 429 RATE_LIMITED with
// Retry-After: admin-key guesses are limited like everything else (they were unlimited). Every
// answer carries the limit and what is left of it in RateLimit-Policy and RateLimit headers.
func TestAdminKeyGuessesAreRateLimited(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", map[string]string{"RATE_LIMIT_PER_IP": "5/1m"})
	body, _ := json.Marshal(map[string]string{"address": testChain.Tokens[0].Address.Hex()})
	var statuses, limits []string
	for i := range 7 {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/tokens", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer guess-number-"+strings.Repeat("x", i+10))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		statuses = append(statuses, strconv.Itoa(resp.StatusCode))
		if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
		if p := resp.Header.Get("RateLimit-Policy"); p != `"ip";q=5;w=60` {
			t.Fatalf("RateLimit-Policy %q", p)
		}
		left, _, _ := strings.Cut(resp.Header.Get("RateLimit"), ";t=")
		limits = append(limits, left)
	}
	if got := strings.Join(statuses, " "); got != "401 401 401 401 401 429 429" {
		t.Fatalf("statuses %s: want 401 until the limit, then 429", got)
	}
	// Each answer tells what is left (the IETF RateLimit header), the refusals too.
	if got := strings.Join(limits, " "); got != `"ip";r=4 "ip";r=3 "ip";r=2 "ip";r=1 "ip";r=0 "ip";r=0 "ip";r=0` {
		t.Fatalf("RateLimit headers %s", got)
	}
	if r, err := http.Get(s.url + "/tokens"); err != nil || r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a read after the limit: %v %v, want 429 (every route counts)", r.StatusCode, err)
	}
	if m := edgetest.Scrape(t, s.url); !strings.Contains(m, "vaultd_registry_rate_limited_total 3\n") {
		t.Fatalf("metrics:\n%s", m)
	}
}
