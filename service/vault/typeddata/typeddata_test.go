package typeddata_test

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
)

// Word encodes the uint256s, 0 to 2^256-1, and refuses every other integer rather than encode
// another number: a negative one (its magnitude alone would sign -5 as 5), 2^256 and above, none.
func TestWordRefusesWhatNoUint256Holds(t *testing.T) {
	t.Parallel()
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, c := range []struct {
		v    *big.Int
		want []byte
	}{
		{big.NewInt(0), make([]byte, 32)},
		{big.NewInt(5), append(make([]byte, 31), 5)},
		{max, bytes.Repeat([]byte{0xff}, 32)},
	} {
		if got, err := typeddata.Word(c.v); err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("Word(%s) = %x, %v; want %x", c.v, got, err, c.want)
		}
	}
	for _, v := range []*big.Int{big.NewInt(-5), big.NewInt(-1), new(big.Int).Add(max, big.NewInt(1)), nil} {
		if got, err := typeddata.Word(v); !errors.Is(err, typeddata.ErrNotUint256) || got != nil {
			t.Errorf("Word(%v) = %x, %v; want ErrNotUint256", v, got, err)
		}
	}
	if got := typeddata.Uint64(1<<64 - 1); !bytes.Equal(got, append(make([]byte, 24), bytes.Repeat([]byte{0xff}, 8)...)) {
		t.Errorf("Uint64(2^64-1) = %x", got)
	}
}
