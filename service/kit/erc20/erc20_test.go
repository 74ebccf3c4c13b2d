package erc20

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

func abiString(s string) []byte {
	typ, _ := abi.NewType("string", "", nil)
	out, _ := abi.Arguments{{Type: typ}}.Pack(s)
	return out
}

func TestDecodeName(t *testing.T) {
	t.Parallel()
	b32 := make([]byte, 32)
	copy(b32, "MKR")
	for _, c := range []struct {
		name string
		out  []byte
		want string
		ok   bool
	}{
		{"abi string", abiString("Wrapped Ether"), "Wrapped Ether", true},
		{"bytes32", b32, "MKR", true},
		{"empty string", abiString(""), "", true},
		{"control characters", abiString("\x00US\nD\x1bC\t"), "USDC", true},
		{"invalid utf-8", abiString("ab\xffcd"), "ab\uFFFDcd", true},
		{"padded", abiString("  DAI  "), "DAI", true},
		{"too long", abiString(strings.Repeat("x", 500)), strings.Repeat("x", maxNameRunes), true},
		{"nothing", nil, "", false},
		{"short", []byte{1, 2, 3}, "", false},
		{"offset out of range", append(make([]byte, 31), append([]byte{0xff}, make([]byte, 32)...)...), "", false},
	} {
		got, ok := decodeName(c.out)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: decodeName = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestDecodeDecimals(t *testing.T) {
	t.Parallel()
	word := func(b ...byte) []byte { return append(make([]byte, 32-len(b)), b...) }
	for _, c := range []struct {
		out  []byte
		want uint8
		ok   bool
	}{
		{word(18), 18, true},
		{word(0), 0, true},
		{word(255), 255, true},
		{word(1, 0), 0, false},
		{nil, 0, false},
		{append(word(6), word(6)...), 0, false},
	} {
		got, ok := decodeDecimals(c.out)
		if got != c.want || ok != c.ok {
			t.Errorf("decodeDecimals(%x) = %d, %v; want %d, %v", c.out, got, ok, c.want, c.ok)
		}
	}
}
