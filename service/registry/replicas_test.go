package registry_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// Three registries on one Postgres. A write at any replica is answered at every replica (they
// follow each other through LISTEN/NOTIFY) with the same body and the same ETag, so an ETag
// from one replica is a 304 at another; icons uploaded at one are served by all; concurrent
// writes of different fields of one token at different replicas all hold (each write reads the
// entry inside its transaction); a replica started later loads everything.
func TestReplicasShareWritesAndETags(t *testing.T) {
	t.Parallel()
	db := sqldbtest.Postgres(t)
	// Behind one load balancer, every replica has the same public URL (in icon URLs).
	const public = "https://registry.example"
	over := func() map[string]string { return map[string]string{"DATABASE_URL": db, "PUBLIC_BASE_URL": public} }
	replicas := []*server{startServer(t, "", over()), startServer(t, "", over()), startServer(t, "", over())}
	tokens := testChain.Tokens[:3]

	icon := pngBytes(7)
	r := upsert(t, replicas[0], registryapi.TokenInput{Address: tokens[0].Address.Hex(), Category: ptr("stable"),
		Icon: ptr("data:image/png;base64," + base64.StdEncoding.EncodeToString(icon))})
	if r.StatusCode() != 201 {
		t.Fatalf("upsert at replica 0: %d %s", r.StatusCode(), r.Body)
	}
	iconURL := r.JSON201.Icon
	converged(t, replicas, 1)

	// The icon, uploaded at replica 0, from every replica.
	for i, s := range replicas {
		resp, err := http.Get(s.url + strings.TrimPrefix(iconURL, public))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(body, icon) {
			t.Fatalf("the icon at replica %d: %d, %d bytes", i, resp.StatusCode, len(body))
		}
	}

	// Writes at once at every replica: other tokens, and each another field of token 0.
	fields := []registryapi.TokenInput{
		{Address: tokens[0].Address.Hex(), Category: ptr("c0")},
		{Address: tokens[0].Address.Hex(), UnderlyingChain: ptr("u1")},
		{Address: tokens[0].Address.Hex(), Enabled: ptr(false)},
	}
	var wg sync.WaitGroup
	for i, s := range replicas {
		wg.Go(func() {
			if i == 0 {
				return // token 0 is written below
			}
			if r := upsert(t, s, registryapi.TokenInput{Address: tokens[i].Address.Hex(), SortOrder: ptr(int32(10 + i))}); r.StatusCode() != 201 {
				t.Errorf("upsert at replica %d: %d %s", i, r.StatusCode(), r.Body)
			}
		})
		wg.Go(func() {
			if r := upsert(t, s, fields[i]); r.StatusCode() != 200 {
				t.Errorf("upsert at replica %d: %d %s", i, r.StatusCode(), r.Body)
			}
		})
	}
	wg.Wait()
	converged(t, replicas, 2) // token 0 is disabled now: the public list has the two others
	all, err := replicas[2].admin.ListTokensWithResponse(ctx, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)})
	if err != nil || all.JSON200 == nil {
		t.Fatal(err)
	}
	list := all.JSON200.Tokens
	for i, tok := range tokens[1:] {
		if got := find(list, tok.Address.Hex()); got == nil || got.SortOrder != int32(11+i) {
			t.Fatalf("token %d after concurrent writes: %+v, want sortOrder %d", i+1, got, 11+i)
		}
	}
	if first := find(list, tokens[0].Address.Hex()); first == nil || first.Category != "c0" || first.UnderlyingChain != "u1" || first.Enabled || first.Icon != iconURL {
		t.Fatalf("token 0 lost a field to a concurrent write at another replica: %+v", first)
	}

	// A replica started later loads everything.
	late := startServer(t, "", over())
	converged(t, append(replicas, late), 2)
}

// converged waits until every replica lists n tokens with one body and one ETag (and one list
// of every entry, disabled ones included), checks that each replica's ETag is a 304 at every
// other, and returns the list.
func converged(t *testing.T, replicas []*server, n int) []registryapi.Token {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var bodies, all [][]byte
		var etags []string
		for _, s := range replicas {
			r := listTokens(t, s.public, nil)
			bodies = append(bodies, r.Body)
			etags = append(etags, r.HTTPResponse.Header.Get("ETag"))
			all = append(all, listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)}).Body) // disabled entries too
		}
		same := true
		for i := range replicas {
			same = same && bytes.Equal(bodies[i], bodies[0]) && etags[i] == etags[0] && bytes.Equal(all[i], all[0])
		}
		r := listTokens(t, replicas[0].public, nil)
		if same && len(r.JSON200.Tokens) == n {
			for i, s := range replicas {
				if resp := listTokens(t, s.public, &registryapi.ListTokensParams{IfNoneMatch: ptr(etags[(i+1)%len(etags)])}); resp.StatusCode() != 304 {
					t.Fatalf("replica %d answers another replica's ETag with %d", i, resp.StatusCode())
				}
			}
			return r.JSON200.Tokens
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replicas do not converge on %d tokens: ETags %v", n, etags)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func find(list []registryapi.Token, address string) *registryapi.Token {
	for i := range list {
		if list[i].Address == address {
			return &list[i]
		}
	}
	return nil
}

// A replica follows the other replicas' writes, not its own: after three writes at replica 0,
// replica 1 has loaded the entries three more times, and replica 0 not once more (its writes
// published the entries it read under the lock).
func TestAReplicaDoesNotReloadItsOwnWrites(t *testing.T) {
	t.Parallel()
	db := sqldbtest.Postgres(t)
	replicas := []*server{startServer(t, "", map[string]string{"DATABASE_URL": db}), startServer(t, "", map[string]string{"DATABASE_URL": db})}
	reloads := func(s *server) string {
		return regexp.MustCompile(`(?m)^vaultd_registry_store_reloads_total (\d+)$`).FindStringSubmatch(edgetest.Scrape(t, s.url))[1]
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		edgetest.WaitFor(t, what, cond)
	}
	waitFor("both replicas listening", func() bool { return reloads(replicas[0]) == "1" && reloads(replicas[1]) == "1" })
	for i, tok := range testChain.Tokens[:3] {
		if r := upsert(t, replicas[0], registryapi.TokenInput{Address: tok.Address.Hex()}); r.StatusCode() != 201 {
			t.Fatalf("upsert %d: %d %s", i, r.StatusCode(), r.Body)
		}
	}
	converged(t, replicas, 3)
	waitFor("replica 1 to follow the three writes", func() bool { return reloads(replicas[1]) == "4" })
	time.Sleep(200 * time.Millisecond) // time enough for replica 0 to hear its own notifications
	if got := reloads(replicas[0]); got != "1" {
		t.Fatalf("replica 0 reloaded after its own writes: %s loads, want 1", got)
	}
}
