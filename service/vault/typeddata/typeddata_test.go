package typeddata_test

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

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

// A signature's malleable mirror (s replaced by n − s, v flipped), which recovers the same signer,
// is refused ErrHighS; the low-s signature Sign writes is read and recovers its signer; an r or
// s of zero is ErrBadSignature.
func TestSignatureRefusesHighS(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	digest := typeddata.Digest(1337, common.HexToAddress("0x01"), crypto.Keccak256([]byte("a message")))
	signed, err := typeddata.Sign(key, digest)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := typeddata.Signature(signed)
	if err != nil {
		t.Fatalf("Sign's own signature: %v", err)
	}
	if who, err := typeddata.Signer(digest, sig); err != nil || who != crypto.PubkeyToAddress(key.PublicKey) {
		t.Fatalf("Sign's signature recovers %s (%v), want the key's address", who.Hex(), err)
	}

	mirror := bytes.Clone(sig)
	s := new(big.Int).Sub(crypto.S256().Params().N, new(big.Int).SetBytes(sig[32:64]))
	s.FillBytes(mirror[32:64])
	mirror[64] ^= 1
	if who, err := typeddata.Signer(digest, mirror); err != nil || who != crypto.PubkeyToAddress(key.PublicKey) {
		t.Fatalf("the mirror recovers %s (%v): it is not the malleable twin", who.Hex(), err)
	}
	mirror[64] += 27
	if _, err := typeddata.Signature(hexutil.Encode(mirror)); !errors.Is(err, typeddata.ErrHighS) {
		t.Errorf("the high-s mirror of a signature: %v, want ErrHighS", err)
	}

	zero := bytes.Clone(sig)
	clear(zero[32:64])
	zero[64] += 27
	if _, err := typeddata.Signature(hexutil.Encode(zero)); !errors.Is(err, typeddata.ErrBadSignature) {
		t.Errorf("a signature with s = 0: %v, want ErrBadSignature", err)
	}
}
