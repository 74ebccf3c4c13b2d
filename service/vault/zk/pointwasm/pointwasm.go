// Package pointwasm writes the small WebAssembly module with which the browser's prover decodes
// and multiplies the proving key's points (web/client/src/points.ts). The sectioned key's G1
// sections arrive compressed (docs/prover.md): each point's y is a square root of x³ + 3 in Fp,
// an exponentiation of ~300 field products; then a proof multiplies each section by its scalars
// (a multi-scalar multiplication, in G1 and, for section B2, in G2 over Fp2). In the Go wasm a
// field product costs ~0.25 µs, because Go's wasm has no 64-bit multiply-high and emulates it.
// Here a field element is nine 29-bit limbs, whose products WebAssembly's 64-bit multiply holds
// whole, summed without carrying until a row is done (as in Mitscha-Baude's 2022 ZPrize MSM in
// WebAssembly); this generator writes every product out in full (wasm.go: the few sections and
// instructions it needs). The module is built into @vaultd/client (web/client/scripts/assets.mjs).
//
// Its interface: the exported memory, and
//
//	decodeAffine(src, dst, n i32) i32
//	loadG1(src, dst, n i32) i32                              loadG2 alike
//	msm(points, digits, n, c, windows, scratch, out i32)     msmG2 alike
//	msmScratch(c, windows i32) i32                           msmScratchG2 alike
//	add(p, q i32)                                             addG2 alike
//	toAffine(p, dst i32)                                      toAffineG2 alike
//	quotient(in, n, logn, work i32)                           quotientScratch(n i32) i32
//
// decodeAffine reads n compressed G1 points (32 bytes each) at src and writes them at dst in the
// module's affine form (x then y, in Montgomery form, 144 bytes; infinity all zeros); loadG1
// and loadG2 do the same from raw G1 and G2 points (fp2.go's loadRawCode). Each answers -1 when
// all were read, else 4 × the index of the first point that is not one plus the reason
// (Reason). msm sums such points times their scalars into a Jacobian point (msmCode says how
// the scalars are given), in the scratch msmScratch sizes (msm.go: affine buckets, added in
// batches that share an inversion); add adds the Jacobian q to p; toAffine writes p raw
// (big-endian, as gnark-crypto's RawBytes; infinity all zeros); quotient computes a proof's h
// (quotient.go). Buffers go at BufferAt and above; the caller grows the memory as it needs.
package pointwasm

import (
	"math/big"
)

// BufferAt is the first byte of the module's memory that a caller may use: below it are the
// module's constants and working space.
const BufferAt = 8192

// Reason is why decode refused a point: the low two bits of its answer.
type Reason int

const (
	NotInEncoding Reason = iota // its flag bits name no point of the encoding (compressed G1; raw G1 and G2: any set)
	InfinityWithX               // the infinity flag with a nonzero coordinate (compressed G1)
	NotCanonical                // a coordinate ≥ p
	NotOnCurve                  // not on the curve: x³ + 3 has no square root (compressed G1), y² ≠ x³ + 3 (raw G1)
)

func (r Reason) String() string {
	return [...]string{"a point that is not in the key's encoding", "infinity with a coordinate", "a coordinate not below the field's modulus", "a point not on the curve"}[r]
}

// The field, BN254's base field: an element is nine limbs of 29 bits, least significant first,
// each an i64 in memory (72 bytes). Montgomery form is x·R mod p with R = 2²⁶¹. A product's
// limbs are below 2⁵⁸, so a sum of 18 of them (what one position of a product and its
// reduction collect) stays below 2⁶³.
const (
	limbs      = 9
	bits       = 29
	mask       = 1<<bits - 1
	elemSize   = 8 * limbs
	affineSize = 2 * elemSize // a point's x and y
)

var p, _ = new(big.Int).SetString("21888242871839275222246405745257275088696311157297823662689037894645226208583", 10)

// limbsOf is v's limbs, least significant first.
func limbsOf(v *big.Int) [limbs]int64 {
	var out [limbs]int64
	m := big.NewInt(mask)
	for j := range out {
		out[j] = new(big.Int).And(new(big.Int).Rsh(v, uint(bits*j)), m).Int64()
	}
	return out
}

func elementBytes(v *big.Int) []byte {
	var out []byte
	for _, l := range limbsOf(v) {
		for k := range 8 {
			out = append(out, byte(l>>(8*k)))
		}
	}
	return out
}

// The memory below BufferAt: constants, then working space.
const (
	atR2         = 64                 // R² mod p: a number into Montgomery form
	atThree      = atR2 + elemSize    // 3 in Montgomery form: the curve's b
	atOne        = atThree + elemSize // the number 1: out of Montgomery form
	atX          = atOne + elemSize   // x
	atRHS        = atX + elemSize     // x³ + 3
	atY          = atRHS + elemSize   // its square root
	atY2         = atY + elemSize     // the root squared, to check it
	atYR         = atY2 + elemSize    // the root out of Montgomery form
	atOneM       = atYR + elemSize    // 1 in Montgomery form (R mod p): an affine point's Z in G1
	atOneM2      = atOneM + elemSize  // and in Fp2, G2's
	atZero       = atOneM2 + 2*elemSize
	atTable      = 1088                    // a, a³, …, a³¹ while exponentiating
	atFp2Temp    = atTable + 16*elemSize   // Fp2's temporaries, 5 elements of Fp
	atTemp       = atFp2Temp + 5*elemSize  // the point functions' temporaries, 13 elements of Fp2
	atSum        = atTemp + 13*2*elemSize  // msm's running sums S and T (Jacobian, in G2's size)
	atTotal      = atSum + 6*elemSize      // (T)
	atInv        = atTotal + 6*elemSize    // an inverse in Fp2: a0² + a1² and its inverse
	atNegated    = atInv + 2*elemSize      // msm's point negated (affine, in G2's size)
	atFrIn       = atNegated + 4*elemSize  // 2²⁶⁶ mod r: gnark-crypto's Montgomery form into the module's (quotient.go)
	atFrOut      = atFrIn + elemSize       // 2²⁵⁶ mod r: and back
	atFrOutgoing = atFrOut + elemSize      // an element on its way out
	atButterfly  = atFrOutgoing + elemSize // a butterfly's temporary
	atEnd        = atButterfly + elemSize  // 6056
)

// The working space ends below BufferAt (a negative constant does not convert to uint: the
// build fails).
const _ uint = BufferAt - atEnd

const ()

// Module is the WebAssembly module's bytes.
func Module() []byte {
	R := new(big.Int).Lsh(big.NewInt(1), bits*limbs)
	r2 := new(big.Int).Mod(new(big.Int).Mul(R, R), p)
	three := new(big.Int).Mod(new(big.Int).Mul(big.NewInt(3), R), p)
	oneM := elementBytes(new(big.Int).Mod(R, p))
	m := &module{exports: map[string]uint32{}, pages: 1, data: []segment{
		{atR2, elementBytes(r2)}, {atThree, elementBytes(three)}, {atOne, elementBytes(big.NewInt(1))},
		{atOneM, oneM}, {atOneM2, oneM},
		{atFrIn, elementBytes(new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(1), 266), frOrder))},
		{atFrOut, elementBytes(new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(1), 256), frOrder))},
	}}
	fp := fns{size: elemSize, one: atOneM, mul: m.add(montgomeryProduct(fpModulus)), sqr: m.add(montgomerySquare()),
		add: m.add(addSubCode(fpModulus, false)), sub: m.add(addSubCode(fpModulus, true)), canon: m.add(canonCode(fpModulus)),
		isZero: m.add(isZeroCode()), copy: m.add(copyCode(elemSize))}
	sqrt := m.add(powCode(fp, new(big.Int).Rsh(new(big.Int).Add(p, big.NewInt(1)), 2))) // (p+1)/4
	inv := m.add(powCode(fp, new(big.Int).Sub(p, big.NewInt(2))))                       // p - 2
	fp.inv = inv
	fp.neg = m.add(negCode(fp, 1))
	m.exports["decodeAffine"] = m.add(decodeCode(fp, sqrt))
	m.exports["loadG1"] = m.add(loadRawCode(fp, []int32{0, 1}))
	m.exports["loadG2"] = m.add(loadRawCode(fp, []int32{1, 0, 3, 2}))
	fp2 := fns{size: 2 * elemSize, one: atOneM2, mul: m.add(fp2MulCode(fp, false)), sqr: m.add(fp2MulCode(fp, true)),
		add: m.add(fp2AddSubCode(fp, false)), sub: m.add(fp2AddSubCode(fp, true)), isZero: m.add(fp2IsZeroCode(fp)),
		copy: m.add(copyCode(2 * elemSize)), canon: noFunction}
	fp2.inv = m.add(fp2InvCode(fp))
	fp2.neg = m.add(negCode(fp, 2))
	for _, g := range []struct {
		f      fns
		suffix string
	}{{fp, ""}, {fp2, "G2"}} {
		double := m.add(doubleCode(g.f))
		addMixed := m.add(pointAddCode(g.f, double, true))
		add := m.add(pointAddCode(g.f, double, false))
		m.exports["msm"+g.suffix] = m.add(msmCode(g.f, double, addMixed, add, m.add(flushCode(g.f))))
		m.exports["msmScratch"+g.suffix] = m.add(msmScratchCode(g.f))
		m.exports["add"+g.suffix] = add
		m.exports["toAffine"+g.suffix] = m.add(toAffineCode(g.f, fp, inv))
	}
	fr := fns{size: elemSize, mul: m.add(montgomeryProduct(frModulus)), add: m.add(addSubCode(frModulus, false)),
		sub: m.add(addSubCode(frModulus, true)), canon: m.add(canonCode(frModulus)), copy: fp.copy}
	m.exports["quotient"] = m.add(quotientCode(fr, m.add(fromGnarkCode(fr.mul)), m.add(toGnarkCode(fr.mul, fr.canon))))
	m.exports["quotientScratch"] = m.add(quotientScratchCode())
	return m.bytes()
}

// modulus is a field's modulus as its functions use it: its limbs, twice its limbs, and
// -m⁻¹ mod 2²⁹ (Montgomery reduction's factor).
type modulus struct {
	limbs, twice [limbs]int64
	inv          int64
}

func newModulus(m *big.Int) modulus {
	l := limbsOf(m)
	inv := new(big.Int).Sub(big.NewInt(1<<bits), new(big.Int).ModInverse(big.NewInt(l[0]), big.NewInt(1<<bits))).Int64()
	return modulus{limbs: l, twice: limbsOf(new(big.Int).Lsh(m, 1)), inv: inv}
}

// Fp's, the points' coordinates' (quotient.go has the scalar field's).
var (
	fpModulus = newModulus(p)
	pLimbs    = fpModulus.limbs
)

// loadLimbs reads the element at ptr (an i32 local) into 9 new i64 locals.
func loadLimbs(c *code, ptr uint32) []uint32 {
	l := make([]uint32, limbs)
	for j := range l {
		l[j] = c.local(i64)
		c.get(ptr).mem(opI64Load, 3, uint32(8*j)).set(l[j])
	}
	return l
}

func storeLimbs(c *code, ptr uint32, l []uint32) {
	for j := range limbs {
		c.get(ptr).get(l[j]).mem(opI64St, 3, uint32(8*j))
	}
}

// minus writes x - y limb by limb into new locals (x or y a constant's limbs where given as k),
// and answers them with the borrow out (1: x < y). Limbs are below 2²⁹, so a difference's sign
// bit is its borrow.
func minus(c *code, x func(j int), y func(j int)) (d []uint32, borrow uint32) {
	borrow = c.local(i64)
	c.i64(0).set(borrow) // a local keeps its value from one turn of a loop to the next
	for j := range limbs {
		d = append(d, c.local(i64))
		x(j)
		y(j)
		c.op(opI64Sub).get(borrow).op(opI64Sub).tee(d[j])
		c.i64(63).op(opI64ShrU).set(borrow)
		c.get(d[j]).i64(mask).op(opI64And).set(d[j])
	}
	return d, borrow
}

func locals(l []uint32, c *code) func(j int) { return func(j int) { c.get(l[j]) } }
func consts(k [limbs]int64, c *code) func(j int) {
	return func(j int) { c.i64(k[j]) }
}

// subIfAbove leaves t - k in t if t ≥ k (t normalized, below 2k).
func subIfAbove(c *code, t []uint32, k [limbs]int64) {
	d, borrow := minus(c, locals(t, c), consts(k, c))
	ge := c.local(i32)
	c.get(borrow).op(opI64Eqz).set(ge)
	for j := range limbs {
		c.get(d[j]).get(t[j]).get(ge).op(opSelect).set(t[j])
	}
}

// montgomerySquare is sqr(o, a) = a²·R⁻¹ mod p: the square's 17 positions summed (each cross
// product once, doubled), then reduced a limb at a time (separated operand scanning). Input below
// 2p, normalized (every limb below 2²⁹); o the same, as R > 4p: (a² + m·p)/R < 4p²/R + p < 2p.
// o may be a.
func montgomerySquare() *code {
	c := newCode([]byte{i32, i32}, nil)
	const o, pa = 0, 1
	a := loadLimbs(c, pa)
	t := make([]uint32, 2*limbs)
	for k := range t {
		t[k] = c.local(i64)
	}
	for k := range 2*limbs - 1 {
		first := true
		for i := range limbs {
			j := k - i
			if j < i || j >= limbs {
				continue
			}
			c.get(a[i]).get(a[j]).op(opI64Mul)
			if i != j {
				c.i64(1).op(opI64Shl)
			}
			if !first {
				c.op(opI64Add)
			}
			first = false
		}
		c.set(t[k])
	}
	m := c.local(i64)
	for i := range limbs {
		// m·p clears the low limb of t[i]; its carry moves up.
		c.get(t[i]).i64(mask).op(opI64And).i64(fpModulus.inv).op(opI64Mul).i64(mask).op(opI64And).set(m)
		for j := range limbs {
			c.get(t[i+j]).get(m).i64(pLimbs[j]).op(opI64Mul, opI64Add).set(t[i+j])
		}
		c.get(t[i+1]).get(t[i]).i64(bits).op(opI64ShrU, opI64Add).set(t[i+1])
	}
	r := t[limbs:]
	for j := range limbs - 1 {
		c.get(r[j+1]).get(r[j]).i64(bits).op(opI64ShrU, opI64Add).set(r[j+1])
		c.get(r[j]).i64(mask).op(opI64And).set(r[j])
	}
	storeLimbs(c, o, r)
	return c
}

// montgomeryProduct is mul(o, a, b) = a·b·R⁻¹ mod m (f's modulus), a row at a time (coarsely
// integrated operand scanning): each limb a_i of a adds a_i·b and its reduction's multiple of m
// to nine running sums, whose lowest, then a multiple of 2²⁹, leaves with its carry as they shift
// down one. Only those nine sums stay in locals (b's limbs are read from memory at each use),
// which Chromium's compiler keeps in registers better than the square's 17 positions and two
// operands: the multi-scalar multiplications, mostly products, take 4–10 % less time there
// (docs/prover.md). A sum collects at most two products a row for nine rows: below 18·2⁵⁸ < 2⁶³.
// Bounds as montgomerySquare's; o may be a or b (it is written last).
func montgomeryProduct(f modulus) *code {
	c := newCode([]byte{i32, i32, i32}, nil)
	const o, pa, pb = 0, 1, 2
	t := make([]uint32, limbs)
	for k := range t {
		t[k] = c.local(i64)
	}
	held := make([]bool, limbs) // whether t[k] holds a sum yet (a local starts at 0: skip adding it)
	ai, m, carry := c.local(i64), c.local(i64), c.local(i64)
	b := func(j int) { c.get(pb).mem(opI64Load, 3, uint32(8*j)) }
	for i := range limbs {
		c.get(pa).mem(opI64Load, 3, uint32(8*i)).set(ai)
		// The lowest sum with a_i·b_0; m from its low limb; the carry of it plus m·p_0.
		c.get(ai)
		b(0)
		c.op(opI64Mul)
		if held[0] {
			c.get(t[0]).op(opI64Add)
		}
		c.tee(carry).i64(f.inv).op(opI64Mul).i64(mask).op(opI64And).tee(m)
		c.i64(f.limbs[0]).op(opI64Mul).get(carry).op(opI64Add).i64(bits).op(opI64ShrU).set(carry)
		for j := 1; j < limbs; j++ {
			c.get(ai)
			b(j)
			c.op(opI64Mul)
			c.get(m).i64(f.limbs[j]).op(opI64Mul, opI64Add)
			if held[j] {
				c.get(t[j]).op(opI64Add)
			}
			if j == 1 {
				c.get(carry).op(opI64Add)
			}
			c.set(t[j-1])
			held[j-1] = true
		}
		held[limbs-1] = false
	}
	for j := range limbs - 1 {
		c.get(t[j]).i64(bits).op(opI64ShrU)
		if held[j+1] {
			c.get(t[j+1]).op(opI64Add)
		}
		c.set(t[j+1])
		c.get(t[j]).i64(mask).op(opI64And).set(t[j])
	}
	storeLimbs(c, o, t)
	return c
}

// canonCode is canon(o): o below m (from below 2m).
func canonCode(f modulus) *code {
	c := newCode([]byte{i32}, nil)
	t := loadLimbs(c, 0)
	subIfAbove(c, t, f.limbs)
	storeLimbs(c, 0, t)
	return c
}

// addSubCode is add(o, a, b) = a + b, or sub(o, a, b) = a - b + 2m, mod m: inputs below 2m, o
// below 2m (a sum below 4m, less 2m if it is not below). A limb's carry is signed in a
// difference: shifted arithmetically.
func addSubCode(f modulus, sub bool) *code {
	c := newCode([]byte{i32, i32, i32}, nil)
	const o, pa, pb = 0, 1, 2
	a := loadLimbs(c, pa)
	b := loadLimbs(c, pb)
	t := make([]uint32, limbs)
	for j := range limbs {
		t[j] = c.local(i64)
		c.get(a[j]).get(b[j])
		if sub {
			c.op(opI64Sub).i64(f.twice[j]).op(opI64Add)
		} else {
			c.op(opI64Add)
		}
		if j > 0 {
			c.get(t[j-1]).i64(bits).op(opI64ShrS, opI64Add)
		}
		c.set(t[j])
		if j > 0 {
			c.get(t[j-1]).i64(mask).op(opI64And).set(t[j-1])
		}
	}
	subIfAbove(c, t, f.twice)
	storeLimbs(c, o, t)
	return c
}

// powCode is pow(o, a): o = a^e (Montgomery form in and out), e a constant, as straight-line
// code: sliding windows of up to 5 bits, each odd (a table of a, a³, …, a³¹: 16 products), so
// (p+1)/4, the square root's, takes 251 squarings and 53 products against the fixed 4-bit
// windows' 249 and 69 (a square root ~5 % sooner). o may be a.
func powCode(fp fns, e *big.Int) *code {
	const window = 5
	c := newCode([]byte{i32, i32}, nil)
	const o, pa = 0, 1
	mul, sqr := fp.mul, fp.sqr
	odd := func(v int) int32 { return int32(atTable + elemSize*(v/2)) } // a^v's slot, v odd
	fp.Copy(c, fixed(odd(1)), arg(pa))
	c.get(o).i32(odd(1)).call(sqr) // o = a², a kept in the table (o may be a)
	for v := 3; v < 1<<window; v += 2 {
		c.i32(odd(v)).i32(odd(v - 2)).get(o).call(mul)
	}
	first := true
	for i := e.BitLen() - 1; i >= 0; {
		if e.Bit(i) == 0 {
			c.get(o).get(o).call(sqr)
			i--
			continue
		}
		j := max(i-window+1, 0) // the window: bits i down to j, j the lowest 1 within reach
		for e.Bit(j) == 0 {
			j++
		}
		v := 0
		for k := i; k >= j; k-- {
			v = v<<1 | int(e.Bit(k))
		}
		if first {
			fp.Copy(c, arg(o), fixed(odd(v)))
			first = false
		} else {
			for range i - j + 1 {
				c.get(o).get(o).call(sqr)
			}
			c.get(o).get(o).i32(odd(v)).call(mul)
		}
		i = j - 1
	}
	return c
}

// shiftDown shifts the i64 on the stack d bits toward its low end (up for a negative d): a
// piece of a number moved to where another numbering of its bits has it.
func shiftDown(c *code, d int) {
	if d > 0 {
		c.i64(int64(d)).op(opI64ShrU)
	} else if d < 0 {
		c.i64(int64(-d)).op(opI64Shl)
	}
}

// fromBigEndian reads 32 big-endian bytes at the address in local in, plus offset, into 9 new
// limb locals (the first byte's two flag bits cleared with clearFlags).
func fromBigEndian(c *code, in, offset uint32, clearFlags bool) []uint32 {
	x := make([]uint32, limbs)
	for j := range limbs {
		x[j] = c.local(i64)
		first := true
		for bit := bits * j; bit < bits*(j+1) && bit < 256; bit = bit/8*8 + 8 { // the bytes holding limb j
			at := uint32(31 - bit/8)
			c.get(in).mem(opI64L8U, 0, offset+at)
			if at == 0 && clearFlags {
				c.i64(0x3f).op(opI64And)
			}
			shiftDown(c, bits*j-bit/8*8)
			if !first {
				c.op(opI64Or)
			}
			first = false
		}
		c.i64(mask).op(opI64And).set(x[j])
	}
	return x
}

// readCanonical reads a big-endian coordinate at the address in local in, plus offset
// (fromBigEndian), into atX, or fails with NotCanonical when it is not below p; ptr is a local.
func readCanonical(c *code, in, offset uint32, clearFlags bool, ptr uint32, fail func(Reason)) {
	x := fromBigEndian(c, in, offset, clearFlags)
	_, below := minus(c, locals(x, c), consts(pLimbs, c))
	c.get(below).op(opI64Eqz).op(opIf, blockVoid)
	fail(NotCanonical)
	c.op(opEnd)
	c.i32(atX).set(ptr)
	storeLimbs(c, ptr, x)
}

// bigEndian writes the element in limbs l (regular form, below p) as 32 big-endian bytes at
// the address in local at, plus offset.
func bigEndian(c *code, at uint32, offset uint32, l []uint32) {
	for byteAt := range 32 { // byte byteAt from the least significant: bits 8·byteAt on
		bit := 8 * byteAt
		j, sh := bit/bits, bit%bits
		c.get(at).get(l[j])
		if sh > 0 {
			c.i64(int64(sh)).op(opI64ShrU)
		}
		if sh > bits-8 && j+1 < limbs {
			c.get(l[j+1]).i64(int64(bits-sh)).op(opI64Shl, opI64Or)
		}
		c.op(opWrap).mem(opI32St8, 0, offset+uint32(31-byteAt))
	}
}

// decodeCode is decodeAffine(src, dst, n) (the package's doc).
func decodeCode(f fns, pow uint32) *code {
	mul, canon := f.mul, f.canon
	const outSize = affineSize
	c := newCode([]byte{i32, i32, i32}, []byte{i32})
	const src, dst, n = 0, 1, 2
	i, in, out, flag, ptr := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	fail := func(r Reason) { c.get(i).i32(2).op(opI32Shl).i32(int32(r)).op(opI32Or).op(opReturn) }
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(i).get(n).op(opI32Eq).brIf(1)
	c.get(src).get(i).i32(32).op(opI32Mul, opI32Add).set(in)
	c.get(dst).get(i).i32(outSize).op(opI32Mul, opI32Add).set(out)
	c.get(in).mem(opI32L8U, 0, 0).i32(0xc0).op(opI32And).set(flag)

	// Infinity: no coordinate, written as 64 zero bytes.
	c.get(flag).i32(0x40).op(opI32Eq).op(opIf, blockVoid)
	for k := range uint32(4) {
		c.get(in).mem(opI64Load, 3, 8*k)
		if k == 0 {
			c.i64(^int64(0xc0)).op(opI64And) // the flag bits, in the first byte (the lowest of a little-endian load)
		} else {
			c.op(opI64Or)
		}
	}
	c.op(opI64Eqz, opI32Eqz).op(opIf, blockVoid)
	fail(InfinityWithX)
	c.op(opEnd)
	for k := range uint32(outSize / 8) { // infinity: all zeros
		c.get(out).i64(0).mem(opI64St, 3, 8*k)
	}
	c.get(i).i32(1).op(opI32Add).set(i).br(1) // the next point
	c.op(opEnd)
	c.get(flag).i32(0x80).op(opI32Ne).get(flag).i32(0xc0).op(opI32Ne).op(opI32And).op(opIf, blockVoid)
	fail(NotInEncoding)
	c.op(opEnd)

	// x, big-endian and its flag bits cleared; below p.
	readCanonical(c, in, 0, true, ptr, fail)

	// y = (x³ + 3)^((p+1)/4), a square root when there is one (p ≡ 3 mod 4): checked.
	c.i32(atX).i32(atX).i32(atR2).call(mul)
	curveRHS(c, f, fixed(atX))
	c.i32(atY).i32(atRHS).call(pow)
	onCurveIfSquare(c, f, fixed(atY), fail)
	c.i32(atY).call(canon)                    // Montgomery form, below p
	c.i32(atYR).i32(atY).i32(atOne).call(mul) // out of it
	c.i32(atYR).call(canon)

	// The y the flag names: the larger of y and p - y (above (p-1)/2) for 0b11, the smaller for 0b10.
	c.i32(atYR).set(ptr)
	y := loadLimbs(c, ptr)
	_, larger := minus(c, consts(limbsOf(new(big.Int).Rsh(p, 1)), c), locals(y, c)) // (p-1)/2 - y borrows
	nonzero := c.local(i64)
	for j := range limbs {
		c.get(y[j])
		if j > 0 {
			c.op(opI64Or)
		}
	}
	c.set(nonzero)
	c.get(larger).op(opWrap).get(flag).i32(0xc0).op(opI32Eq).op(opI32Xor)
	c.get(nonzero).op(opI64Eqz, opI32Eqz).op(opI32And).op(opIf, blockVoid)
	c.i32(atY).set(ptr) // -y in Montgomery form is p less y's
	ym := loadLimbs(c, ptr)
	neg, _ := minus(c, consts(pLimbs, c), locals(ym, c))
	storeLimbs(c, ptr, neg)
	c.op(opEnd)

	c.i32(atX).call(canon)
	f.Copy(c, arg(out), fixed(atX))
	f.Copy(c, f.coord(out, 1), fixed(atY))
	c.get(i).i32(1).op(opI32Add).set(i).br(0)
	c.op(opEnd, opEnd)
	c.i32(-1)
	return c
}
