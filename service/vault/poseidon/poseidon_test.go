package poseidon

import (
	"crypto/rand"
	"errors"
	"math/big"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	iden3 "github.com/iden3/go-iden3-crypto/poseidon"
)

// Hash is go-iden3-crypto's Poseidon (circomlib's) for 1, 2 and 3 inputs: random ones, and the
// field's edges.
func TestHashIsIden3s(t *testing.T) {
	r := fr.Modulus()
	edges := []*big.Int{big.NewInt(0), big.NewInt(1), new(big.Int).Sub(r, big.NewInt(1))}
	for n := 1; n <= MaxInputs; n++ {
		for i := range 200 {
			in := make([]*big.Int, n)
			for j := range in {
				if i < len(edges) {
					in[j] = edges[(i+j)%len(edges)]
					continue
				}
				v, err := rand.Int(rand.Reader, r)
				if err != nil {
					t.Fatal(err)
				}
				in[j] = v
			}
			want, err := iden3.Hash(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Hash(in...)
			if err != nil || got.Cmp(want) != 0 {
				t.Fatalf("Poseidon%v = %v, %v; go-iden3-crypto: %v", in, got, err, want)
			}
		}
	}
	// circomlibjs 0.1.7: poseidon([1, 2]).
	if got, _ := Hash(big.NewInt(1), big.NewInt(2)); got.String() != "7853200120776062878684798364095072458815029376092732009249414926327459813530" {
		t.Fatalf("Poseidon(1, 2) = %s", got)
	}
}

// No input, more than three, or one outside [0, r): an error, as go-iden3-crypto's.
func TestHashRefusesWhatIsNotAnInput(t *testing.T) {
	r := fr.Modulus()
	for name, in := range map[string][]*big.Int{
		"none":     {},
		"four":     {big.NewInt(1), big.NewInt(2), big.NewInt(3), big.NewInt(4)},
		"r":        {big.NewInt(1), r},
		"negative": {big.NewInt(-1)},
	} {
		if h, err := Hash(in...); err == nil {
			t.Errorf("%s: %v, want an error", name, h)
		}
	}
	if _, err := Hash(new(big.Int).Add(r, big.NewInt(5))); !errors.Is(err, ErrNotInField) {
		t.Errorf("r+5: %v, want ErrNotInField", err)
	}
}
