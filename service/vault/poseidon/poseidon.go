// Package poseidon is circomlib's Poseidon hash over BN254's scalar field, for the 1 to 3
// inputs the vault hashes (a nullifier, a commitment, a tree node, a token id, a leaf). It is
// go-iden3-crypto's algorithm (circomlib's optimized form, with the C, S, M and P constants) with
// the constants of these three widths only, as field elements (gen/zk/poseidonconstants): the
// browser's prover carries 37 KB of them instead of go-iden3-crypto's 1.4 MB of hex for 1 to 16
// inputs, parsed when it starts. A test checks it against go-iden3-crypto.
package poseidon

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"

	c "github.com/seed018cc74c/vaultd/gen/zk/poseidonconstants"
)

//go:generate go run ./internal/genconstants ../../../gen/zk/poseidonconstants/constants.go

// MaxInputs is the most inputs Hash takes.
const MaxInputs = 3

const fullRounds = 8

// partialRounds is the number of partial rounds for 1, 2 and 3 inputs (t = 2, 3, 4).
var partialRounds = [MaxInputs]int{56, 57, 56}

// ErrNotInField is an input that is negative or not below the scalar field's modulus.
var ErrNotInField = errors.New("poseidon: an input is not in the scalar field")

// Hash is Poseidon of 1 to 3 field elements (each in [0, r)).
func Hash(inputs ...*big.Int) (*big.Int, error) {
	n := len(inputs)
	if n < 1 || n > MaxInputs {
		return nil, fmt.Errorf("poseidon: %d inputs, want 1 to %d", n, MaxInputs)
	}
	state := make([]fr.Element, n+1)
	for i, in := range inputs {
		if in.Sign() < 0 || in.Cmp(fr.Modulus()) >= 0 {
			return nil, ErrNotInField
		}
		state[i+1].SetBigInt(in)
	}
	permute(state)
	return state[0].BigInt(new(big.Int)), nil
}

// permute is the permutation of go-iden3-crypto's HashWithStateEx (circomlib's poseidon_opt).
func permute(state []fr.Element) {
	t := len(state)
	C, S, M, P := c.C[t-2], c.S[t-2], c.M[t-2], c.P[t-2]
	nP := partialRounds[t-2]

	ark(state, C[0:])
	for i := 0; i < fullRounds/2-1; i++ {
		sbox(state)
		ark(state, C[(i+1)*t:])
		mix(state, M)
	}
	sbox(state)
	ark(state, C[fullRounds/2*t:])
	mix(state, P)

	for i := 0; i < nP; i++ {
		pow5(&state[0])
		state[0].Add(&state[0], &C[(fullRounds/2+1)*t+i])
		s := S[(2*t-1)*i:]
		var first, m fr.Element
		for j := range state {
			m.Mul(&s[j], &state[j])
			first.Add(&first, &m)
		}
		for k := 1; k < t; k++ {
			m.Mul(&state[0], &s[t+k-1])
			state[k].Add(&state[k], &m)
		}
		state[0] = first
	}

	for i := 0; i < fullRounds/2-1; i++ {
		sbox(state)
		ark(state, C[(fullRounds/2+1)*t+nP+i*t:])
		mix(state, M)
	}
	sbox(state)
	mix(state, M)
}

func pow5(x *fr.Element) {
	var x2 fr.Element
	x2.Square(x)
	x2.Square(&x2)
	x.Mul(x, &x2)
}

func sbox(state []fr.Element) {
	for i := range state {
		pow5(&state[i])
	}
}

func ark(state, c []fr.Element) {
	for i := range state {
		state[i].Add(&state[i], &c[i])
	}
}

// mix sets state to state × m (m's rows indexed by the state's element, as go-iden3-crypto's).
func mix(state []fr.Element, m [][]fr.Element) {
	var out [MaxInputs + 1]fr.Element
	var p fr.Element
	for i := range state {
		for j := range state {
			p.Mul(&m[j][i], &state[j])
			out[i].Add(&out[i], &p)
		}
	}
	copy(state, out[:len(state)])
}
