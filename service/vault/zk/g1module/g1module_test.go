package g1module_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/seed018cc74c/vaultd/service/vault/zk/g1module"
)

// module is the generated module, run by wazero (a WebAssembly runtime in Go), as the browser's
// worker runs it.
type module struct {
	mod api.Module
}

func newModule(t testing.TB) *module {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	mod, err := r.Instantiate(ctx, g1module.Module())
	if err != nil {
		t.Fatalf("the module does not instantiate: %v", err)
	}
	return &module{mod: mod}
}

// The module's field elements: nine 29-bit limbs (8 bytes each), in Montgomery form (R = 2²⁶¹).
var rInv = new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 261), fp.Modulus())

func fromModule(b []byte) *big.Int {
	v := new(big.Int)
	for j := 8; j >= 0; j-- {
		v.Lsh(v, 29).Or(v, new(big.Int).SetUint64(binary.LittleEndian.Uint64(b[8*j:])))
	}
	if v.Cmp(fp.Modulus()) >= 0 {
		return nil // not below p, as decodeAffine promises
	}
	return v.Mod(v.Mul(v, rInv), fp.Modulus())
}

// run decodes the compressed points in with decodeAffine; it answers them raw (as gnark-crypto's
// RawBytes; infinity all zeros), or decodeAffine's answer when it is not -1.
func (m *module) run(t testing.TB, in []byte) ([]byte, int32) {
	n := uint32(len(in) / 32)
	mem := m.mod.Memory()
	if need := g1module.BufferAt + 176*n; need > mem.Size() {
		mem.Grow((need - mem.Size() + 65535) / 65536)
	}
	mem.Write(g1module.BufferAt, in)
	dst := g1module.BufferAt + 32*n
	res, err := m.mod.ExportedFunction("decodeAffine").Call(context.Background(), g1module.BufferAt, uint64(dst), uint64(n))
	if err != nil {
		t.Fatalf("decodeAffine: %v", err)
	}
	if got := int32(res[0]); got != -1 {
		return nil, got
	}
	out, _ := mem.Read(dst, 144*n)
	var raw []byte
	for i := range n {
		pt := out[144*i : 144*(i+1)]
		if bytes.Equal(pt, make([]byte, 144)) {
			raw = append(raw, make([]byte, 64)...)
			continue
		}
		x, y := fromModule(pt[:72]), fromModule(pt[72:])
		if x == nil || y == nil {
			t.Fatalf("point %d: a coordinate not below p", i)
		}
		raw = append(raw, x.FillBytes(make([]byte, 32))...)
		raw = append(raw, y.FillBytes(make([]byte, 32))...)
	}
	return raw, -1
}

// reference decodes a compressed point as the Go prover does (zk's decoder, on gnark-crypto's
// field): its raw bytes, or the reason it is not one.
func reference(b []byte) ([]byte, g1module.Reason, bool) {
	flag := b[0] & 0xc0
	x := bytes.Clone(b)
	x[0] &= 0x3f
	switch flag {
	case 0x40:
		if !bytes.Equal(x, make([]byte, 32)) {
			return nil, g1module.InfinityWithX, false
		}
		return make([]byte, 64), 0, true
	case 0x80, 0xc0:
	default:
		return nil, g1module.NotCompressed, false
	}
	var p bn254.G1Affine
	if err := p.X.SetBytesCanonical(x); err != nil {
		return nil, g1module.NotCanonical, false
	}
	var y2, three fp.Element
	three.SetUint64(3)
	y2.Square(&p.X).Mul(&y2, &p.X).Add(&y2, &three)
	if p.Y.Sqrt(&y2) == nil {
		return nil, g1module.NotOnCurve, false
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
		want  g1module.Reason
	}{
		{"raw encoding's flag", make([]byte, 32), g1module.NotCompressed},
		{"infinity with x", withFlag(append(make([]byte, 31), 1), 0x40), g1module.InfinityWithX},
		{"x = p", withFlag(pBytes, 0x80), g1module.NotCanonical},
		{"x above p", withFlag(bytes.Repeat([]byte{0x3f}, 32), 0xc0), g1module.NotCanonical},
		{"x of no point", noRoot, g1module.NotOnCurve},
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

// msm multiplies pts by scalars in the module, with windows of c bits: the sum as a raw point.
func (m *module) msm(t testing.TB, pts []bn254.G1Affine, scalars []fr.Element, c int) []byte {
	n := len(pts)
	var in []byte
	for _, p := range pts {
		b := p.Bytes()
		in = append(in, b[:]...)
	}
	windows := (fr.Bits + c - 1) / c
	at := uint32(g1module.BufferAt)
	points := at + uint32(32*n)
	digits := points + uint32(144*n)
	buckets := digits + uint32(2*windows*n)
	out := buckets + uint32(216<<c)
	raw := out + 216
	mem := m.mod.Memory()
	if need := raw + 64; need > mem.Size() {
		mem.Grow((need - mem.Size() + 65535) / 65536)
	}
	mem.Write(at, in)
	ctx := context.Background()
	if res, err := m.mod.ExportedFunction("decodeAffine").Call(ctx, uint64(at), uint64(points), uint64(n)); err != nil || int32(res[0]) != -1 {
		t.Fatalf("decodeAffine: %v, %v", res, err)
	}
	d := make([]byte, 2*windows*n)
	for i, s := range scalars {
		b := s.Bits() // little-endian 64-bit words, regular form
		for w := range windows {
			var digit uint64
			for k := range c {
				if bit := w*c + k; bit < 256 {
					digit |= (b[bit/64] >> (bit % 64) & 1) << k
				}
			}
			binary.LittleEndian.PutUint16(d[2*(w*n+i):], uint16(digit))
		}
	}
	mem.Write(digits, d)
	if _, err := m.mod.ExportedFunction("msm").Call(ctx, uint64(points), uint64(digits), uint64(n), uint64(c), uint64(windows), uint64(buckets), uint64(out)); err != nil {
		t.Fatalf("msm: %v", err)
	}
	if _, err := m.mod.ExportedFunction("toAffine").Call(ctx, uint64(out), uint64(raw)); err != nil {
		t.Fatalf("toAffine: %v", err)
	}
	b, _ := mem.Read(raw, 64)
	return bytes.Clone(b)
}

func TestMSMIsGnarks(t *testing.T) {
	m := newModule(t)
	rng := mrand.New(mrand.NewPCG(7, 8))
	pts := randomPoints(rng, 300)
	var neg bn254.G1Affine
	neg.Neg(&pts[1])
	// Equal points (added to one bucket: doubled), opposite ones (cancelled), infinity.
	pts = append(pts, pts[0], pts[0], neg, bn254.G1Affine{})
	scalars := make([]fr.Element, len(pts))
	for i := range scalars {
		scalars[i].SetRandom()
	}
	scalars[5].SetZero()
	scalars[len(pts)-4] = scalars[0] // pts[0] thrice, with the same scalar
	scalars[len(pts)-3] = scalars[0]
	scalars[len(pts)-2] = scalars[1] // pts[1] and its opposite: they cancel
	scalars[7].SetOne()
	scalars[8].Neg(&scalars[7]) // r - 1
	for _, tc := range []struct {
		n, c int
	}{{1, 4}, {2, 3}, {len(pts), 8}, {len(pts), 11}, {50, 6}} {
		var want bn254.G1Affine
		if _, err := want.MultiExp(pts[:tc.n], scalars[:tc.n], ecc.MultiExpConfig{}); err != nil {
			t.Fatal(err)
		}
		w := want.RawBytes()
		if want.IsInfinity() {
			w = [64]byte{}
		}
		if got := m.msm(t, pts[:tc.n], scalars[:tc.n], tc.c); !bytes.Equal(got, w[:]) {
			t.Fatalf("%d points, windows of %d bits: got %x, want %x", tc.n, tc.c, got, w)
		}
	}
	// A sum that cancels out is infinity.
	if got := m.msm(t, []bn254.G1Affine{pts[1], neg}, []fr.Element{scalars[1], scalars[1]}, 5); !bytes.Equal(got, make([]byte, 64)) {
		t.Fatalf("P and -P: got %x, want infinity", got)
	}
}
