package g1decode_test

import (
	"bytes"
	"context"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/seed018cc74c/vaultd/service/vault/zk/g1decode"
)

// module is the generated module, run by wazero (a WebAssembly runtime in Go), as the browser's
// worker runs it.
type module struct {
	mod    api.Module
	decode api.Function
}

func newModule(t testing.TB) *module {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	mod, err := r.Instantiate(ctx, g1decode.Module())
	if err != nil {
		t.Fatalf("the module does not instantiate: %v", err)
	}
	return &module{mod: mod, decode: mod.ExportedFunction("decode")}
}

// run decodes the compressed points in; it answers the raw points, or decode's answer when it
// is not -1.
func (m *module) run(t testing.TB, in []byte) ([]byte, int32) {
	n := uint32(len(in) / 32)
	mem := m.mod.Memory()
	if need := g1decode.BufferAt + 96*n; need > mem.Size() {
		mem.Grow((need - mem.Size() + 65535) / 65536)
	}
	mem.Write(g1decode.BufferAt, in)
	dst := g1decode.BufferAt + 32*n
	res, err := m.decode.Call(context.Background(), g1decode.BufferAt, uint64(dst), uint64(n))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if got := int32(res[0]); got != -1 {
		return nil, got
	}
	out, _ := mem.Read(dst, 64*n)
	return bytes.Clone(out), -1
}

// reference decodes a compressed point as the Go prover does (zk's decoder, on gnark-crypto's
// field): its raw bytes, or the reason it is not one.
func reference(b []byte) ([]byte, g1decode.Reason, bool) {
	flag := b[0] & 0xc0
	x := bytes.Clone(b)
	x[0] &= 0x3f
	switch flag {
	case 0x40:
		if !bytes.Equal(x, make([]byte, 32)) {
			return nil, g1decode.InfinityWithX, false
		}
		return make([]byte, 64), 0, true
	case 0x80, 0xc0:
	default:
		return nil, g1decode.NotCompressed, false
	}
	var p bn254.G1Affine
	if err := p.X.SetBytesCanonical(x); err != nil {
		return nil, g1decode.NotCanonical, false
	}
	var y2, three fp.Element
	three.SetUint64(3)
	y2.Square(&p.X).Mul(&y2, &p.X).Add(&y2, &three)
	if p.Y.Sqrt(&y2) == nil {
		return nil, g1decode.NotOnCurve, false
	}
	if p.Y.LexicographicallyLargest() != (flag == 0xc0) {
		p.Y.Neg(&p.Y)
	}
	raw := p.RawBytes()
	return raw[:], 0, true
}

func randomPoints(rng *mrand.Rand, n int) []bn254.G1Affine {
	_, _, g, _ := bn254.Generators()
	pts := make([]bn254.G1Affine, n)
	for i := range pts {
		pts[i].ScalarMultiplication(&g, new(big.Int).SetUint64(rng.Uint64()))
	}
	return pts
}

func TestDecodesGnarksCompressedPoints(t *testing.T) {
	m := newModule(t)
	rng := mrand.New(mrand.NewPCG(1, 2))
	pts := append(randomPoints(rng, 1000), bn254.G1Affine{}) // and infinity
	var in, want []byte
	smallest, largest := 0, 0
	for _, p := range pts {
		c := p.Bytes()
		in = append(in, c[:]...)
		switch c[0] & 0xc0 {
		case 0x80:
			smallest++
		case 0xc0:
			largest++
		}
		if p.IsInfinity() {
			want = append(want, make([]byte, 64)...)
			continue
		}
		r := p.RawBytes()
		want = append(want, r[:]...)
	}
	if smallest == 0 || largest == 0 {
		t.Fatalf("the points do not try both y's: %d smallest, %d largest", smallest, largest)
	}
	got, answer := m.run(t, in)
	if answer != -1 {
		t.Fatalf("decode refused point %d (reason %d)", answer/4, answer%4)
	}
	for i := range pts {
		if !bytes.Equal(got[64*i:64*(i+1)], want[64*i:64*(i+1)]) {
			t.Fatalf("point %d: got %x, want %x", i, got[64*i:64*(i+1)], want[64*i:64*(i+1)])
		}
	}
}

func TestRefusesWhatIsNotAPoint(t *testing.T) {
	m := newModule(t)
	pBytes := fp.Modulus().FillBytes(make([]byte, 32))
	noRoot := func() []byte { // the first x whose x³ + 3 is not a square
		for i := uint64(1); ; i++ {
			var x, y2, three fp.Element
			x.SetUint64(i)
			three.SetUint64(3)
			y2.Square(&x).Mul(&y2, &x).Add(&y2, &three)
			if y2.Legendre() == -1 {
				b := x.Bytes()
				b[0] |= 0x80
				return b[:]
			}
		}
	}()
	withFlag := func(b []byte, flag byte) []byte { b = bytes.Clone(b); b[0] |= flag; return b }
	good := randomPoints(mrand.New(mrand.NewPCG(3, 4)), 3)
	for _, tc := range []struct {
		name  string
		point []byte
		want  g1decode.Reason
	}{
		{"raw encoding's flag", make([]byte, 32), g1decode.NotCompressed},
		{"infinity with x", withFlag(append(make([]byte, 31), 1), 0x40), g1decode.InfinityWithX},
		{"x = p", withFlag(pBytes, 0x80), g1decode.NotCanonical},
		{"x above p", withFlag(bytes.Repeat([]byte{0x3f}, 32), 0xc0), g1decode.NotCanonical},
		{"x of no point", noRoot, g1decode.NotOnCurve},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, reason, ok := reference(tc.point); ok || reason != tc.want {
				t.Fatalf("the reference decoder says %v, %v: the case is not what it says", ok, reason)
			}
			var in []byte
			for i, p := range good {
				if i == 2 {
					in = append(in, tc.point...)
				}
				c := p.Bytes()
				in = append(in, c[:]...)
			}
			if _, answer := m.run(t, in); answer != 2*4+int32(tc.want) {
				t.Fatalf("decode answered %d, want point 2 refused as %v (%d)", answer, tc.want, 2*4+int32(tc.want))
			}
		})
	}
}

// FuzzDecodeIsTheReference: any 32 bytes decode as the Go prover decodes them, or are refused
// for the same reason.
func FuzzDecodeIsTheReference(f *testing.F) {
	for _, p := range randomPoints(mrand.New(mrand.NewPCG(5, 6)), 4) {
		c := p.Bytes()
		f.Add(c[:])
	}
	f.Add(make([]byte, 32))
	m := newModule(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 32 {
			return
		}
		want, reason, ok := reference(b)
		got, answer := m.run(t, b)
		switch {
		case ok && (answer != -1 || !bytes.Equal(got, want)):
			t.Fatalf("%x: decode gave %x (answer %d), want %x", b, got, answer, want)
		case !ok && answer != int32(reason):
			t.Fatalf("%x: decode answered %d, want refused as %v", b, answer, reason)
		}
	})
}
