package holds

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
)

// A nullifier's hold in Redis is given back by its own token whether or not a version is
// recorded on it (it used to be given back only before, so a cancelled or refused reveal's hold
// lived an hour), never by another token; and, without the token, by the hash recorded on it.
func TestAHoldIsGivenBackOnceAVersionIsRecorded(t *testing.T) {
	t.Parallel()
	url, _ := redistest.Server(t)
	client, err := ratelimit.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	if err := client.Set(ctx, Marker, "1", 0).Err(); err != nil { // not a Redis that lost its holds
		t.Fatal(err)
	}
	c := New(client, time.Minute, time.Hour, time.Second)
	held := func(n common.Hash) bool {
		t.Helper()
		_, held, _, err := c.State(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return held
	}
	hold := func(n common.Hash, h common.Hash) *Token {
		t.Helper()
		tok, err := c.Hold(ctx, n)
		if err != nil || tok == nil {
			t.Fatalf("hold: %v %v", tok, err)
		}
		if h != (common.Hash{}) {
			if err := c.Record(ctx, n, tok, h); err != nil {
				t.Fatal(err)
			}
		}
		return tok
	}
	h1, h2 := common.HexToHash("0x01"), common.HexToHash("0x02")

	for _, recorded := range []common.Hash{{}, h1} {
		n := common.BigToHash(common.Big1)
		tok := hold(n, recorded)
		c.Release(ctx, n, &Token{value: tok.value[:len(tok.value)-1], stop: func() {}}) // a token it starts with
		if !held(n) {
			t.Fatalf("recorded %s: another token gave the hold back", recorded)
		}
		c.Release(ctx, n, tok)
		if held(n) {
			t.Fatalf("recorded %s: the hold's own token did not give it back", recorded)
		}
	}

	n := common.BigToHash(common.Big2)
	hold(n, h1)
	if err := c.ReleaseSent(ctx, n, []common.Hash{h2}); err != nil || !held(n) {
		t.Fatalf("given back by a hash it does not hold: %v", err)
	}
	if err := c.ReleaseSent(ctx, n, []common.Hash{h2, h1}); err != nil || held(n) {
		t.Fatalf("not given back by the hash recorded on it: %v", err)
	}
	hold(n, common.Hash{}) // nothing recorded: not a transaction's, not given back by hash
	if err := c.ReleaseSent(ctx, n, []common.Hash{{}}); err != nil || !held(n) {
		t.Fatalf("an unrecorded hold given back by hash: %v", err)
	}
}
