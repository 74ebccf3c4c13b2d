package pow_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/faucet/pow"
)

var (
	alice = common.HexToAddress("0x1111111111111111111111111111111111111111")
	bob   = common.HexToAddress("0x2222222222222222222222222222222222222222")
	cheap = pow.Params{Work: 8, MemoryKiB: 64, Passes: 1}
)

// A challenge solved by the reference solver is accepted for its address until it expires;
// one for another address, from another secret, altered, expired or with a wrong nonce is
// refused with its own error.
func TestAChallengeLetsItsOwnSolutionThrough(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	iss := pow.NewIssuer([]byte("the faucet's secret, 32 bytes ok"), time.Minute)
	iss.SetClock(func() time.Time { return now })
	c := iss.Issue(alice, cheap)
	token := c.Token()
	got, err := iss.Check(token, alice)
	if err != nil || got.Work != cheap.Work || got.MemoryKiB != cheap.MemoryKiB || !got.Expires.Equal(now.Add(time.Minute)) {
		t.Fatalf("check: %+v %v", got, err)
	}
	nonce, err := pow.Solve(t.Context(), got)
	if err != nil {
		t.Fatal(err)
	}
	if err := pow.Verify(got, nonce); err != nil {
		t.Fatalf("the solver's nonce: %v", err)
	}
	wrong := nonce + 1
	for pow.Meets(pow.Hash(got, wrong), got.Work) {
		wrong++
	}
	if err := pow.Verify(got, wrong); !errors.Is(err, pow.ErrWrong) {
		t.Errorf("a nonce that misses the target: %v", err)
	}
	if _, err := iss.Check(token, bob); !errors.Is(err, pow.ErrAddress) {
		t.Errorf("alice's challenge for bob: %v", err)
	}
	other := pow.NewIssuer([]byte("another faucet's secret, 32 byte"), time.Minute)
	if _, err := other.Check(token, alice); !errors.Is(err, pow.ErrMalformed) {
		t.Errorf("a challenge of another secret: %v", err)
	}
	easier := []byte(token)
	easier[len(easier)/2] ^= 1
	if _, err := iss.Check(string(easier), alice); !errors.Is(err, pow.ErrMalformed) {
		t.Errorf("an altered challenge: %v", err)
	}
	for _, bad := range []string{"", "not base64 !", token[:20]} {
		if _, err := iss.Check(bad, alice); !errors.Is(err, pow.ErrMalformed) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	now = now.Add(time.Minute)
	if _, err := iss.Check(token, alice); !errors.Is(err, pow.ErrExpired) {
		t.Errorf("at its expiry: %v", err)
	}
}

// The work rises with demand, sixteenfold at the total limit, and never below the base.
func TestWorkFollowsDemand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fill float64
		want uint64
	}{{-1, 32}, {0, 32}, {0.25, 64}, {0.5, 128}, {1, 512}, {3, 512}} {
		if got := pow.WorkFor(32, c.fill); got != c.want {
			t.Errorf("WorkFor(32, %v) = %d, want %d", c.fill, got, c.want)
		}
	}
}

// BenchmarkHash is one try at the faucet's default puzzle (what a claimant pays per try and the
// faucet per verified claim).
func BenchmarkHash(b *testing.B) {
	c := pow.NewIssuer([]byte("secret"), time.Minute).Issue(alice, pow.Params{Work: 1, MemoryKiB: 8 * 1024, Passes: 1})
	for i := 0; b.Loop(); i++ {
		pow.Hash(c, uint64(i))
	}
}
