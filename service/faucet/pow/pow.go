// Package pow is the faucet's proof of work: a challenge bound to the address that claims, and a
// memory-hard puzzle (argon2id) whose solution the claim carries. The faucet issues challenges
// without storing them (each carries its own MAC under the faucet's secret) and stores each one
// spent, until it expires, so that it lets one claim through. Solve is the reference solver (the
// faucet's tests and benches; @vaultd/client has the browser's).
package pow

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"golang.org/x/crypto/argon2"
)

// Params are a puzzle's: Work is the expected number of hashes a solution takes (each hash
// meets the target with probability 1/Work), MemoryKiB and Passes argon2id's cost per hash.
type Params struct {
	Work      uint64
	MemoryKiB uint32
	Passes    uint32
}

// Challenge is one puzzle for one address, valid until Expires.
type Challenge struct {
	ID      [16]byte
	Address common.Address
	Expires time.Time // whole seconds
	Params
	mac [32]byte
}

// tokenLen is the length of a challenge's token before base64url: id, address, expiry
// (unix seconds), work, memory, passes, MAC.
const tokenLen = 16 + 20 + 8 + 8 + 4 + 4 + 32

// body is what the MAC covers: every field but the MAC.
func (c Challenge) body() []byte {
	b := make([]byte, 0, tokenLen)
	b = append(b, c.ID[:]...)
	b = append(b, c.Address[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(c.Expires.Unix()))
	b = binary.BigEndian.AppendUint64(b, c.Work)
	b = binary.BigEndian.AppendUint32(b, c.MemoryKiB)
	return binary.BigEndian.AppendUint32(b, c.Passes)
}

// Token is the challenge as the faucet hands it out and takes it back: base64url, unpadded.
func (c Challenge) Token() string {
	return base64.RawURLEncoding.EncodeToString(append(c.body(), c.mac[:]...))
}

// Errors of a claim's solution, each its own answer at the faucet's edge.
var (
	ErrMalformed = errors.New("the challenge is not one this faucet issued")
	ErrAddress   = errors.New("the challenge was issued for another address")
	ErrExpired   = errors.New("the challenge expired: ask for a new one")
	ErrWrong     = errors.New("the solution does not meet the challenge's target")
	ErrSpent     = errors.New("the challenge was used already: ask for a new one")
)

// Issuer issues challenges under a secret and checks them.
type Issuer struct {
	secret []byte
	ttl    time.Duration
	now    func() time.Time
}

// NewIssuer issues challenges valid for ttl under secret (the faucet's replicas share it).
func NewIssuer(secret []byte, ttl time.Duration) *Issuer {
	return &Issuer{secret: secret, ttl: ttl, now: time.Now}
}

func (i *Issuer) sign(c *Challenge) {
	m := hmac.New(sha256.New, i.secret)
	m.Write(c.body())
	copy(c.mac[:], m.Sum(nil))
}

// Issue is a new challenge for addr.
func (i *Issuer) Issue(addr common.Address, p Params) Challenge {
	c := Challenge{Address: addr, Expires: i.now().Add(i.ttl).Truncate(time.Second), Params: p}
	_, _ = rand.Read(c.ID[:])
	i.sign(&c)
	return c
}

// Check reads token, a challenge this issuer made for addr and not expired, without its puzzle:
// what costs nothing is checked before the hash, which costs the faucet as much as one try
// costs a claimant.
func (i *Issuer) Check(token string, addr common.Address) (Challenge, error) {
	c, err := Parse(token)
	if err != nil {
		return Challenge{}, err
	}
	want := c
	i.sign(&want)
	if !hmac.Equal(want.mac[:], c.mac[:]) {
		return Challenge{}, ErrMalformed
	}
	if c.Address != addr {
		return Challenge{}, ErrAddress
	}
	if !i.now().Before(c.Expires) {
		return Challenge{}, ErrExpired
	}
	return c, nil
}

// Hash is one try at c's puzzle: argon2id of the address and the nonce (8 bytes, big-endian),
// salted with the challenge's id, 32 bytes.
func Hash(c Challenge, nonce uint64) []byte {
	pw := binary.BigEndian.AppendUint64(append([]byte{}, c.Address[:]...), nonce)
	return argon2.IDKey(pw, c.ID[:], c.Passes, c.MemoryKiB, 1, 32)
}

// Meets reports whether a hash meets a puzzle of work: its first 8 bytes, big-endian, below
// 2^64 / work (a chance of 1/work per try).
func Meets(hash []byte, work uint64) bool {
	if work <= 1 {
		return true
	}
	return binary.BigEndian.Uint64(hash[:8]) < math.MaxUint64/work
}

// Verify checks a solution: one hash.
func Verify(c Challenge, nonce uint64) error {
	if !Meets(Hash(c, nonce), c.Work) {
		return ErrWrong
	}
	return nil
}

// Solve tries nonces from 0 until one meets c's target, or ctx ends.
func Solve(ctx context.Context, c Challenge) (uint64, error) {
	for n := uint64(0); ; n++ {
		if err := ctx.Err(); err != nil {
			return 0, fmt.Errorf("solving the faucet's challenge: %w", err)
		}
		if Meets(Hash(c, n), c.Work) {
			return n, nil
		}
	}
}

// Parse reads a token's fields without checking its MAC (what a claimant's solver needs).
func Parse(token string) (Challenge, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != tokenLen {
		return Challenge{}, ErrMalformed
	}
	var c Challenge
	copy(c.ID[:], raw[:16])
	copy(c.Address[:], raw[16:36])
	exp := binary.BigEndian.Uint64(raw[36:44])
	if exp > math.MaxInt64 {
		return Challenge{}, ErrMalformed
	}
	c.Expires = time.Unix(int64(exp), 0)
	c.Work = binary.BigEndian.Uint64(raw[44:52])
	c.MemoryKiB = binary.BigEndian.Uint32(raw[52:56])
	c.Passes = binary.BigEndian.Uint32(raw[56:60])
	copy(c.mac[:], raw[60:])
	return c, nil
}

// WorkFor is the work the faucet asks at a demand of fill (the window's claims over its total
// limit, 0 to 1): base at no demand, rising geometrically to 16 × base at the limit, so a
// solve takes a few seconds at the normal rate and a flood pays sixteen times as much per claim.
// It falls back as the window's claims age out.
func WorkFor(base uint64, fill float64) uint64 {
	fill = min(max(fill, 0), 1)
	return uint64(math.Round(float64(base) * math.Pow(16, fill)))
}
