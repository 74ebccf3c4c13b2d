package pow_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/faucet/pow"
)

var update = flag.Bool("update", false, "write testdata/vectors.json from this solver")

// vector is one challenge of testdata/vectors.json: its token and the fields a solver reads
// from it, a few tries' hashes, and the first nonce that meets its work.
type vector struct {
	Name       string  `json:"name"`
	Challenge  string  `json:"challenge"`
	Address    string  `json:"address"`
	Salt       string  `json:"salt"`
	Work       uint64  `json:"work"`
	MemoryKiB  uint32  `json:"memoryKiB"`
	Passes     uint32  `json:"passes"`
	Hashes     []tryAt `json:"hashes"`
	FirstNonce uint64  `json:"firstNonce"`
}

type tryAt struct {
	Nonce uint64 `json:"nonce"`
	Hash  string `json:"hash"`
	Meets bool   `json:"meets"`
}

// vectors computes the shared vectors with the reference solver: the default memory, a cheap
// one with several passes, and a larger work at little memory; nonces 0, 1, 256 (a carry into
// the second byte), 2^53-1 (the largest a JSON number keeps exactly) and the first that meets.
func vectors(t *testing.T) []vector {
	var out []vector
	for i, p := range []struct {
		name string
		pow.Params
	}{
		{"the default memory", pow.Params{Work: 3, MemoryKiB: 8192, Passes: 1}},
		{"three passes", pow.Params{Work: 10, MemoryKiB: 256, Passes: 3}},
		{"more work, little memory", pow.Params{Work: 200, MemoryKiB: 64, Passes: 1}},
	} {
		c := pow.Challenge{Address: common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"), Expires: time.Unix(1_800_000_000, 0), Params: p.Params}
		for j := range c.ID {
			c.ID[j] = byte(16*i + j)
		}
		v := vector{Name: p.name, Challenge: c.Token(), Address: c.Address.Hex(), Salt: "0x" + hex.EncodeToString(c.ID[:]), Work: c.Work, MemoryKiB: c.MemoryKiB, Passes: c.Passes}
		for _, n := range []uint64{0, 1, 256, 1<<53 - 1} {
			h := pow.Hash(c, n)
			v.Hashes = append(v.Hashes, tryAt{Nonce: n, Hash: "0x" + hex.EncodeToString(h), Meets: pow.Meets(h, c.Work)})
		}
		n, err := pow.Solve(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		v.FirstNonce = n
		h := pow.Hash(c, n)
		v.Hashes = append(v.Hashes, tryAt{Nonce: n, Hash: "0x" + hex.EncodeToString(h), Meets: true})
		out = append(out, v)
	}
	return out
}

// The vectors @vaultd/client's solver is tested on (web/client/test/pow.test.mjs) are this
// solver's: a change to either side's hash shows as a difference here or there.
// `go test -run TestSharedVectors ./service/faucet/pow -update` writes them afresh.
func TestSharedVectors(t *testing.T) {
	got, err := json.MarshalIndent(map[string]any{
		"about":   "argon2id proof-of-work vectors written by service/faucet/pow (go test -run TestSharedVectors -update), read by web/client/test/pow.test.mjs",
		"vectors": vectors(t),
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile("testdata/vectors.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("testdata/vectors.json differs from this solver's vectors: run with -update if the change is meant\n%s", got)
	}
	for _, v := range vectors(t) {
		c, err := pow.Parse(v.Challenge)
		if err != nil || c.Work != v.Work || c.MemoryKiB != v.MemoryKiB {
			t.Fatalf("%s: the token reads back as %+v, %v", v.Name, c, err)
		}
	}
}
