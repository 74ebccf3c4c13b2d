package address

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestParse(t *testing.T) {
	t.Parallel()
	const sum = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	for _, c := range []struct {
		in       string
		ok, okCk bool
	}{
		{sum, true, true},
		{strings.ToLower(sum), true, true},
		{"0x" + strings.ToUpper(sum[2:]), true, true},
		{"0X" + strings.ToLower(sum[2:]), true, true},
		{"0x70997970c51812dc3A010C7d01b50e0d17dc79C8", true, false}, // mixed case, wrong checksum
		{sum[:41], false, false},
		{sum + "0", false, false},
		{"70997970C51812dc3A010C7d01b50e0d17dc79C8ab", false, false},
		{"0x70997970C51812dc3A010C7d01b50e0d17dc79Cg", false, false},
		{"", false, false},
	} {
		a, err := Parse(c.in)
		if (err == nil) != c.ok {
			t.Errorf("Parse(%q) err = %v, want ok=%v", c.in, err, c.ok)
		}
		if err == nil && !strings.EqualFold(a.Hex(), c.in) {
			t.Errorf("Parse(%q) = %s", c.in, a.Hex())
		}
		_, err = ParseChecksummed(c.in)
		if (err == nil) != c.okCk {
			t.Errorf("ParseChecksummed(%q) err = %v, want ok=%v", c.in, err, c.okCk)
		}
		if c.ok && !c.okCk && !errors.Is(err, ErrBadChecksum) {
			t.Errorf("ParseChecksummed(%q) err = %v, want ErrBadChecksum", c.in, err)
		}
	}
}

// FuzzParse: whatever the input, an accepted address round-trips through its EIP-55 form,
// and a checksummed parse never accepts what the plain parse refuses.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "0x0000000000000000000000000000000000000000", "0xZZ", "", "0X" + strings.Repeat("f", 40), strings.Repeat("0", 42)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := Parse(s)
		ck, ckErr := ParseChecksummed(s)
		if err != nil {
			if ckErr == nil {
				t.Fatalf("checksummed parse accepted %q that the plain parse refused", s)
			}
			return
		}
		if !strings.EqualFold(a.Hex(), s) {
			t.Fatalf("%q parsed to %s", s, a.Hex())
		}
		back, err := ParseChecksummed(a.Hex())
		if err != nil || back != a {
			t.Fatalf("EIP-55 form %s of %q does not parse back: %v", a.Hex(), s, err)
		}
		if ckErr == nil && ck != a {
			t.Fatalf("parses disagree on %q", s)
		}
	})
}

// ParseNonZero refuses what ParseChecksummed refuses, as it does, and the zero address in any
// letter case (ErrZero); it reads every other address as ParseChecksummed does.
func TestParseNonZero(t *testing.T) {
	t.Parallel()
	const sum = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	for _, c := range []struct {
		in   string
		want error
	}{
		{sum, nil},
		{strings.ToLower(sum), nil},
		{"0x0000000000000000000000000000000000000001", nil},
		{"0x0000000000000000000000000000000000000000", ErrZero},
		{"0X0000000000000000000000000000000000000000", ErrZero},
		{"0x70997970c51812dc3A010C7d01b50e0d17dc79C8", ErrBadChecksum},
		{"0x00", ErrBad},
		{"", ErrBad},
	} {
		a, err := ParseNonZero(c.in)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("ParseNonZero(%q) err = %v, want %v", c.in, err, c.want)
		}
		if err == nil && !strings.EqualFold(a.Hex(), c.in) {
			t.Errorf("ParseNonZero(%q) = %s", c.in, a.Hex())
		}
	}
}

// Raw, the browser prover's Address, writes every address as go-ethereum's does.
func TestRawIsGethsAddress(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var r Raw
		for i := range r {
			r[i] = byte(rng.Uint32())
		}
		if got, want := r.Hex(), common.Address(r).Hex(); got != want {
			t.Fatalf("Raw %x: Hex %s, go-ethereum's %s", r[:], got, want)
		}
		if got := r.String(); got != common.Address(r).Hex() {
			t.Fatalf("Raw %x: String %s", r[:], got)
		}
		if got, err := Parse(r.Hex()); err != nil || Raw(got) != r {
			t.Fatalf("Parse(%s) = %x, %v", r.Hex(), got[:], err)
		}
	}
}
