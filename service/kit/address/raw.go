package address

import (
	"encoding/hex"

	"github.com/ethereum/go-ethereum/crypto/keccak"
)

// Raw is an address with only what the browser's prover needs of one: its bytes and its EIP-55
// form. It is Address in the wasm (address_wasm.go): go-ethereum's common.Address comes with its
// package, whose regexp (compiled at start) was 0.6 MB of the prover's 6.2 MB of wasm and 110 KB
// of its brotli (docs/client.md). It has no text, JSON or fmt form of its own: the wasm hands
// addresses on only as Hex's string. Everywhere else Address is common.Address, whose Hex Raw's
// equals (TestRawIsGethsAddress).
type Raw [20]byte

// Bytes is the address's 20 bytes.
func (a Raw) Bytes() []byte { return a[:] }

// Hex is 0x and the 40 hex digits in EIP-55's letter case: a digit is upper case where the same
// digit of the lower-case digits' keccak-256 is 8 or more.
func (a Raw) Hex() string {
	digits := []byte(hex.EncodeToString(a[:]))
	h := keccak.NewLegacyKeccak256()
	h.Write(digits)
	sum := h.Sum(nil)
	for i, d := range digits {
		nibble := sum[i/2] >> 4
		if i%2 == 1 {
			nibble = sum[i/2] & 0xf
		}
		if d > '9' && nibble >= 8 {
			digits[i] = d - 'a' + 'A'
		}
	}
	return "0x" + string(digits)
}

// String is Hex.
func (a Raw) String() string { return a.Hex() }
