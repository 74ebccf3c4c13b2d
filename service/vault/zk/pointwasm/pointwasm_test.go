package pointwasm_test

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

	"github.com/seed018cc74c/vaultd/service/vault/zk/pointwasm"
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
	mod, err := r.Instantiate(ctx, pointwasm.Module())
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
	if need := pointwasm.BufferAt + 176*n; need > mem.Size() {
		mem.Grow((need - mem.Size() + 65535) / 65536)
	}
	mem.Write(pointwasm.BufferAt, in)
	dst := pointwasm.BufferAt + 32*n
	res, err := m.mod.ExportedFunction("decodeAffine").Call(context.Background(), pointwasm.BufferAt, uint64(dst), uint64(n))
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
func reference(b []byte) ([]byte, pointwasm.Reason, bool) {
	flag := b[0] & 0xc0
	x := bytes.Clone(b)
	x[0] &= 0x3f
	switch flag {
	case 0x40:
		if !bytes.Equal(x, make([]byte, 32)) {
			return nil, pointwasm.InfinityWithX, false
		}
		return make([]byte, 64), 0, true
	case 0x80, 0xc0:
	default:
		return nil, pointwasm.NotInEncoding, false
	}
	var p bn254.G1Affine
	if err := p.X.SetBytesCanonical(x); err != nil {
		return nil, pointwasm.NotCanonical, false
	}
	var y2, three fp.Element
	three.SetUint64(3)
	y2.Square(&p.X).Mul(&y2, &p.X).Add(&y2, &three)
	if p.Y.Sqrt(&y2) == nil {
		return nil, pointwasm.NotOnCurve, false
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
		want  pointwasm.Reason
	}{
		{"raw encoding's flag", make([]byte, 32), pointwasm.NotInEncoding},
		{"infinity with x", withFlag(append(make([]byte, 31), 1), 0x40), pointwasm.InfinityWithX},
		{"x = p", withFlag(pBytes, 0x80), pointwasm.NotCanonical},
		{"x above p", withFlag(bytes.Repeat([]byte{0x3f}, 32), 0xc0), pointwasm.NotCanonical},
		{"x of no point", noRoot, pointwasm.NotOnCurve},
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

// group is G1 or G2 in the module: how its points are given, kept and answered, and its functions.
type group struct {
	inSize, affineSize, jacobianSize, rawSize uint32
	load, msm, msmScratch, toAffine           string
}

var (
	g1    = group{32, 144, 216, 64, "decodeAffine", "msm", "msmScratch", "toAffine"}   // compressed points in
	g1Raw = group{64, 144, 216, 64, "loadG1", "msm", "msmScratch", "toAffine"}         // raw points in (a version-1 key's)
	g2    = group{128, 288, 432, 128, "loadG2", "msmG2", "msmScratchG2", "toAffineG2"} // raw points in
)

// msmJacobian multiplies the points in (in g's encoding) by scalars in the module, with windows
// of c bits: where the sum is (Jacobian).
func (m *module) msmJacobian(t testing.TB, g group, in []byte, scalars []fr.Element, c int) uint32 {
	n := len(scalars)
	windows := (fr.Bits + c) / c // one bit more: a signed top digit's carry
	at := uint32(pointwasm.BufferAt)
	points := at + g.inSize*uint32(n)
	digits := points + g.affineSize*uint32(n)
	scratch := digits + uint32(2*windows*n)
	ctx := context.Background()
	size, err := m.mod.ExportedFunction(g.msmScratch).Call(ctx, uint64(c), uint64(windows))
	if err != nil {
		t.Fatal(err)
	}
	out := scratch + uint32(size[0])
	mem := m.mod.Memory()
	if need := out + g.jacobianSize; need > mem.Size() {
		mem.Grow((need - mem.Size() + 65535) / 65536)
	}
	mem.Write(at, in)
	if res, err := m.mod.ExportedFunction(g.load).Call(ctx, uint64(at), uint64(points), uint64(n)); err != nil || int32(res[0]) != -1 {
		t.Fatalf("%s: %v, %v", g.load, res, err)
	}
	d := make([]byte, 2*windows*n)
	for i, s := range scalars {
		b := s.Bits() // little-endian 64-bit words, regular form
		carry := 0
		for w := range windows {
			digit := 0
			for k := range c {
				if bit := w*c + k; bit < 256 {
					digit |= int(b[bit/64]>>(bit%64)&1) << k
				}
			}
			digit += carry
			carry = 0
			if digit > 1<<(c-1) { // signed: the digit less 2^c, and 1 carried to the next
				digit -= 1 << c
				carry = 1
			}
			u := uint16(digit)
			if digit < 0 {
				u = 0x8000 | uint16(-digit)
			}
			binary.LittleEndian.PutUint16(d[2*(w*n+i):], u)
		}
		if carry != 0 {
			t.Fatalf("scalar %d: a carry out of the last window", i)
		}
	}
	mem.Write(digits, d)
	if _, err := m.mod.ExportedFunction(g.msm).Call(ctx, uint64(points), uint64(digits), uint64(n), uint64(c), uint64(windows), uint64(scratch), uint64(out)); err != nil {
		t.Fatalf("%s: %v", g.msm, err)
	}
	return out
}

// msm is msmJacobian's sum, raw.
func (m *module) msm(t testing.TB, g group, in []byte, scalars []fr.Element, c int) []byte {
	out := m.msmJacobian(t, g, in, scalars, c)
	raw := out + g.jacobianSize
	mem := m.mod.Memory()
	if need := raw + g.rawSize; need > mem.Size() {
		mem.Grow((need - mem.Size() + 65535) / 65536)
	}
	if _, err := m.mod.ExportedFunction(g.toAffine).Call(context.Background(), uint64(out), uint64(raw)); err != nil {
		t.Fatalf("%s: %v", g.toAffine, err)
	}
	b, _ := mem.Read(raw, g.rawSize)
	return bytes.Clone(b)
}

// encode is pts one after another, each as bytesOf gives it.
func encode[P any](pts []P, bytesOf func(*P) []byte) []byte {
	var in []byte
	for i := range pts {
		in = append(in, bytesOf(&pts[i])...)
	}
	return in
}

func compressed(pts []bn254.G1Affine) []byte {
	return encode(pts, func(p *bn254.G1Affine) []byte { b := p.Bytes(); return b[:] })
}

// rawG1 and rawG2 are gnark-crypto's raw encoding, infinity all zeros (as the key has it).
func rawG1(pts []bn254.G1Affine) []byte {
	return encode(pts, func(p *bn254.G1Affine) []byte {
		if p.IsInfinity() {
			return make([]byte, 64)
		}
		b := p.RawBytes()
		return b[:]
	})
}

func rawG2(pts []bn254.G2Affine) []byte {
	return encode(pts, func(p *bn254.G2Affine) []byte {
		if p.IsInfinity() {
			return make([]byte, 128)
		}
		b := p.RawBytes()
		return b[:]
	})
}

// scalarsFor are random scalars (from rng: a failure is reproduced), with the cases of the
// points the MSM tests add after n random ones.
func scalarsFor(rng *mrand.Rand, n int) []fr.Element {
	scalars := make([]fr.Element, n+4)
	for i := range scalars {
		var b [32]byte
		for k := range 4 {
			binary.LittleEndian.PutUint64(b[8*k:], rng.Uint64())
		}
		scalars[i].SetBytes(b[:]) // reduced mod r
	}
	scalars[5].SetZero()
	scalars[n] = scalars[0] // pts[0] thrice, with the same scalar
	scalars[n+1] = scalars[0]
	scalars[n+2] = scalars[1] // pts[1] and its opposite: they cancel
	scalars[7].SetOne()
	scalars[8].Neg(&scalars[7]) // r - 1
	return scalars
}

// Equal points (added to one bucket: doubled), opposite ones (cancelled), infinity, scalars 0, 1
// and r - 1; every window size from 2 bits to 11 (points.ts's windowBits uses 2 to 9).
var msmCases = []struct{ n, c int }{{1, 4}, {2, 3}, {16, 2}, {120, 5}, {50, 6}, {304, 7}, {304, 8}, {304, 9}, {304, 10}, {304, 11}}

// testMSM checks the module's MSM in group g against gnark's (want) over 300 random points
// (random's) and the cases scalarsFor sets: a point thrice, one and its opposite, infinity; and
// that a point and its opposite by one scalar sum to infinity.
func testMSM[P any, PP interface {
	*P
	Neg(*P) *P
}](t *testing.T, g group, random func(*mrand.Rand) P, encode func([]P) []byte, want func([]P, []fr.Element) []byte) {
	m := newModule(t)
	rng := mrand.New(mrand.NewPCG(7, 8))
	pts := make([]P, 300)
	for i := range pts {
		pts[i] = random(rng)
	}
	var neg, infinity P
	PP(&neg).Neg(&pts[1])
	pts = append(pts, pts[0], pts[0], neg, infinity)
	scalars := scalarsFor(rng, 300)
	for _, tc := range msmCases {
		w := want(pts[:tc.n], scalars[:tc.n])
		if got := m.msm(t, g, encode(pts[:tc.n]), scalars[:tc.n], tc.c); !bytes.Equal(got, w) {
			t.Fatalf("%d points, windows of %d bits: got %x, want %x", tc.n, tc.c, got, w)
		}
	}
	if got := m.msm(t, g, encode([]P{pts[1], neg}), []fr.Element{scalars[1], scalars[1]}, 5); !bytes.Equal(got, make([]byte, g.rawSize)) {
		t.Fatalf("P and -P: got %x, want infinity", got)
	}
}

// TestMSMIsGnarks checks G1's MSM from points loaded compressed (decodeAffine) and raw (loadG1).
func TestMSMIsGnarks(t *testing.T) {
	_, _, g, _ := bn254.Generators()
	for _, in := range []struct {
		g      group
		encode func([]bn254.G1Affine) []byte
	}{{g1, compressed}, {g1Raw, rawG1}} {
		t.Run(in.g.load, func(t *testing.T) {
			testMSM(t, in.g, func(rng *mrand.Rand) bn254.G1Affine {
				var p bn254.G1Affine
				return *p.ScalarMultiplication(&g, new(big.Int).SetUint64(rng.Uint64()))
			}, in.encode, func(pts []bn254.G1Affine, s []fr.Element) []byte {
				var sum bn254.G1Affine
				if _, err := sum.MultiExp(pts, s, ecc.MultiExpConfig{}); err != nil {
					t.Fatal(err)
				}
				return rawG1([]bn254.G1Affine{sum})
			})
		})
	}
}

func TestMSMInG2IsGnarks(t *testing.T) {
	_, _, _, g := bn254.Generators()
	testMSM(t, g2, func(rng *mrand.Rand) bn254.G2Affine {
		var p bn254.G2Affine
		return *p.ScalarMultiplication(&g, new(big.Int).SetUint64(rng.Uint64()))
	}, rawG2, func(pts []bn254.G2Affine, s []fr.Element) []byte {
		var sum bn254.G2Affine
		if _, err := sum.MultiExp(pts, s, ecc.MultiExpConfig{}); err != nil {
			t.Fatal(err)
		}
		return rawG2([]bn254.G2Affine{sum})
	})
}

// TestLoadRawRefusesWhatIsNotRaw: loadG1 and loadG2 refuse a point with a flag bit set, or with
// its last coordinate p, and loadG1 one off the curve, by its index and reason; infinity (all
// zeros) loads as zeros.
func TestLoadRawRefusesWhatIsNotRaw(t *testing.T) {
	m := newModule(t)
	for _, g := range []group{g1Raw, g2} {
		size := int(g.inSize)
		pts := make([]byte, 3*size) // three points at infinity
		flagged := bytes.Clone(pts)
		flagged[size] |= 0x80 // point 1's first byte
		above := bytes.Clone(pts)
		copy(above[3*size-32:], fp.Modulus().FillBytes(make([]byte, 32))) // point 2's last coordinate = p
		type loadCase struct {
			name string
			in   []byte
			want int32
		}
		cases := []loadCase{{"a flag bit set", flagged, 1*4 + int32(pointwasm.NotInEncoding)}, {"a coordinate = p", above, 2*4 + int32(pointwasm.NotCanonical)}, {"infinity", pts, -1}}
		if g == g1Raw {
			off := bytes.Clone(pts)
			off[size+31], off[size+63] = 1, 1 // point 1 is (1, 1)
			cases = append(cases, loadCase{"(1, 1), off the curve", off, 1*4 + int32(pointwasm.NotOnCurve)})
		}
		for _, tc := range cases {
			mem := m.mod.Memory()
			mem.Write(pointwasm.BufferAt, tc.in)
			res, err := m.mod.ExportedFunction(g.load).Call(context.Background(), pointwasm.BufferAt, pointwasm.BufferAt+1024, 3)
			if err != nil || int32(res[0]) != tc.want {
				t.Fatalf("%s, %s: answered %v, %v; want %d", g.load, tc.name, res, err, tc.want)
			}
			if out, _ := mem.Read(pointwasm.BufferAt+1024, 3*g.affineSize); tc.want == -1 && !bytes.Equal(out, make([]byte, len(out))) {
				t.Fatalf("%s: infinity loaded as %x, not zeros", g.load, out)
			}
		}
	}
}

// The sums of two Jacobian points (add) that are equal with different Z (doubled), or opposite
// (infinity), as the running sums meet them.
func TestJacobianSumsOfEqualAndOppositePoints(t *testing.T) {
	m := newModule(t)
	ctx := context.Background()
	mem := m.mod.Memory()
	p := randomPoints(mrand.New(mrand.NewPCG(11, 12)), 1)[0]
	var two, four, twoP, minusTwoP bn254.G1Affine
	two.Add(&p, &p)
	twoP, minusTwoP = two, two
	minusTwoP.Neg(&twoP)
	four.Add(&two, &two)
	var one, twoS fr.Element
	one.SetOne()
	twoS.SetUint64(2)
	// jacobian is s·q as msm leaves it (Z = 1 for a lone point by 1; not for 2·P, a doubling),
	// copied to a spot of its own.
	spot := uint32(1 << 21)
	mem.Grow(48) // to 3 MB: room for the spots
	jacobian := func(q bn254.G1Affine, s fr.Element) uint32 {
		out := m.msmJacobian(t, g1, compressed([]bn254.G1Affine{q}), []fr.Element{s}, 3)
		b, _ := mem.Read(out, 216)
		spot += 216
		mem.Write(spot, bytes.Clone(b))
		return spot
	}
	want4 := four.RawBytes()
	for _, tc := range []struct {
		name string
		a, b uint32
		want []byte
	}{
		{"2P (Z ≠ 1) + 2P (Z = 1)", jacobian(p, twoS), jacobian(twoP, one), want4[:]},
		{"2P + (−2P)", jacobian(p, twoS), jacobian(minusTwoP, one), make([]byte, 64)},
	} {
		if _, err := m.mod.ExportedFunction("add").Call(ctx, uint64(tc.a), uint64(tc.b)); err != nil {
			t.Fatal(err)
		}
		if _, err := m.mod.ExportedFunction("toAffine").Call(ctx, uint64(tc.a), uint64(tc.a+216)); err != nil {
			t.Fatal(err)
		}
		if got, _ := mem.Read(tc.a+216, 64); !bytes.Equal(got, tc.want) {
			t.Fatalf("%s: got %x, want %x", tc.name, got, tc.want)
		}
	}
}

// A window of 16 bits has digits whose top bit would be their sign: msm traps.
func TestMSMRefusesWindowsOfMoreThan15Bits(t *testing.T) {
	m := newModule(t)
	at := uint64(pointwasm.BufferAt)
	if _, err := m.mod.ExportedFunction("msm").Call(context.Background(), at, at, 0, 16, 0, at, at); err == nil {
		t.Fatal("msm with windows of 16 bits: no trap")
	}
	if _, err := m.mod.ExportedFunction("msm").Call(context.Background(), at, at, 0, 15, 0, at, at); err != nil {
		t.Fatalf("msm of no points and no windows, of 15 bits: %v", err)
	}
}
