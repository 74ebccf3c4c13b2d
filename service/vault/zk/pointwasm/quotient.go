package pointwasm

import "math/big"

// The quotient h of a Groth16 proof, (A·B − C)/Z over the scalar field: the number-theoretic
// transforms that take two thirds of a witness's time in the Go wasm, whose 64-bit field products
// are emulated (docs/prover.md). The steps are zk's quotient's, as gnark-crypto's fft.Domain
// does them, so h is the same to the bit: each of A, B and C (evaluations on the domain ⟨ω⟩, in
// order) taken to coefficients (decimation in frequency with ω⁻¹: bit-reversed), each
// coefficient k times n⁻¹·gᵏ (onto the coset g·⟨ω⟩), back to evaluations (decimation in time with
// ω: in order), then (A·B − C)/(gⁿ − 1) at each point, and that taken to coefficients on the coset
// (decimation in frequency, each coefficient k times n⁻¹·g⁻ᵏ), left bit-reversed as gnark leaves
// them.
//
//	quotient(in, n, logn, work)
//	quotientScratch(n) i32
//
// in holds, as gnark-crypto's fr.Element lies in memory (four little-endian 64-bit words, in
// its Montgomery form, R = 2²⁵⁶), 1, ω, ω⁻¹, g, g⁻¹, n⁻¹ and 1/(gⁿ − 1), then A, B and C (n
// each); quotient writes h from in on, in the same form. work is quotientScratch(n) bytes.

// frOrder is the scalar field's modulus (the order of BN254's groups).
var frOrder, _ = new(big.Int).SetString("21888242871839275222246405745257275088548364400416034343698204186575808495617", 10)

var frModulus = newModulus(frOrder)

const (
	gnarkSize     = 32 // an fr.Element in memory
	quotientConst = 7  // 1, ω, ω⁻¹, g, g⁻¹, n⁻¹, 1/(gⁿ − 1)
)

// quotientScratchCode is quotientScratch(n) i32: A, B and C, then ω's powers and ω⁻¹'s (n/2
// each), n⁻¹·gᵏ and n⁻¹·g⁻ᵏ (n each), in the module's form, and the constants.
func quotientScratchCode() *code {
	c := newCode([]byte{i32}, []byte{i32})
	c.get(0).i32(6 * elemSize).op(opI32Mul).i32(quotientConst * elemSize).op(opI32Add)
	return c
}

// fromGnarkCode is fromGnark(dst, src): the element at src in gnark's form (x·2²⁵⁶ mod r, four
// 64-bit words) into the module's (x·2²⁶¹ mod r, nine 29-bit limbs): its limbs, times
// 2⁵²²/2²⁵⁶ mod r in a Montgomery product.
func fromGnarkCode(mul uint32) *code {
	c := newCode([]byte{i32, i32}, nil)
	const dst, src = 0, 1
	for j := range limbs {
		at, shift := 29*j/64, 29*j%64
		c.get(dst)
		c.get(src).mem(opI64Load, 3, uint32(8*at))
		shiftDown(c, shift)
		if shift+bits > 64 && at < 3 {
			c.get(src).mem(opI64Load, 3, uint32(8*(at+1)))
			shiftDown(c, shift-64)
			c.op(opI64Or)
		}
		c.i64(mask).op(opI64And).mem(opI64St, 3, uint32(8*j))
	}
	c.get(dst).get(dst).i32(atFrIn).call(mul)
	return c
}

// toGnarkCode is toGnark(dst, src): the module's element at src (below 2r) in gnark's form at
// dst: times 2²⁵⁶ mod r in a Montgomery product, below r, its limbs packed in four words.
func toGnarkCode(mul, canon uint32) *code {
	c := newCode([]byte{i32, i32}, nil)
	const dst, src = 0, 1
	c.i32(atFrOutgoing).get(src).i32(atFrOut).call(mul)
	c.i32(atFrOutgoing).call(canon)
	for w := range 4 {
		c.get(dst)
		first := true
		for j := range limbs {
			lo, hi := 29*j, 29*j+bits // the limb's bits in the number
			if hi <= 64*w || lo >= 64*(w+1) {
				continue
			}
			c.i32(atFrOutgoing).mem(opI64Load, 3, uint32(8*j))
			shiftDown(c, 64*w-lo)
			if !first {
				c.op(opI64Or)
			}
			first = false
		}
		c.mem(opI64St, 3, uint32(8*w))
	}
	return c
}

// loop runs body with i from from while i < the i32 limit pushes, adding step (pushed) each turn.
func loop(c *code, i uint32, from int32, limit, step, body func()) {
	c.i32(from).set(i)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(i)
	limit()
	c.op(opI32GeU).brIf(1)
	body()
	c.get(i)
	step()
	c.op(opI32Add).set(i)
	c.br(0)
	c.op(opEnd, opEnd)
}

// elementAt pushes base + k·size: an element's address, base a local and k what push pushes.
func elementAt(c *code, base uint32, push func(), size int32) {
	c.get(base)
	push()
	c.i32(size).op(opI32Mul, opI32Add)
}

// quotientCode is quotient(in, n, logn, work), with the scalar field's functions f and the
// conversions from and to gnark-crypto's form.
func quotientCode(f fns, fromGnark, toGnark uint32) *code {
	c := newCode([]byte{i32, i32, i32, i32}, nil)
	const in, n, logn, work = 0, 1, 2, 3
	va, vb, vc, tw, twi, cos, cosi, k := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	i, j, s, m, stride := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	x, y, w := c.local(i32), c.local(i32), c.local(i32)        // a butterfly's elements and twiddle (addresses)
	rest, rev, bit := c.local(i32), c.local(i32), c.local(i32) // an index's bits left, reversed (scale)
	one := func() { c.i32(1) }
	// The scratch: A, B, C, ω's powers, ω⁻¹'s (n/2 each), n⁻¹·gᵏ, n⁻¹·g⁻ᵏ, the constants.
	c.get(work).set(va)
	next := func(from, to uint32, elems func()) {
		c.get(from)
		elems()
		c.i32(elemSize).op(opI32Mul, opI32Add).set(to)
	}
	count := func() { c.get(n) }
	half := func() { c.get(n).i32(1).op(opI32ShrU) }
	next(va, vb, count)
	next(vb, vc, count)
	next(vc, tw, count)
	next(tw, twi, half)
	next(twi, cos, half)
	next(cos, cosi, count)
	next(cosi, k, count)
	konst := func(q int32) func() { return func() { c.get(k).i32(q * elemSize).op(opI32Add) } }
	kOne, kOmega, kOmegaInv, kG, kGInv, kNInv, kZInv := konst(0), konst(1), konst(2), konst(3), konst(4), konst(5), konst(6)
	loop(c, i, 0, func() { c.i32(quotientConst) }, one, func() {
		elementAt(c, k, func() { c.get(i) }, elemSize)
		elementAt(c, in, func() { c.get(i) }, gnarkSize)
		c.call(fromGnark)
	})
	loop(c, i, 0, func() { c.get(n).i32(3).op(opI32Mul) }, one, func() { // A, B and C, one after another
		elementAt(c, va, func() { c.get(i) }, elemSize)
		elementAt(c, in, func() { c.get(i).i32(quotientConst).op(opI32Add) }, gnarkSize)
		c.call(fromGnark)
	})
	// powers fills table with first·factorᵗ for t below count.
	powers := func(table uint32, count func(), first, factor func()) {
		c.get(table)
		first()
		c.call(f.copy)
		loop(c, i, 1, count, one, func() {
			elementAt(c, table, func() { c.get(i) }, elemSize)
			elementAt(c, table, func() { c.get(i).i32(1).op(opI32Sub) }, elemSize)
			factor()
			c.call(f.mul)
		})
	}
	powers(tw, half, kOne, kOmega)
	powers(twi, half, kOne, kOmegaInv)
	powers(cos, count, kNInv, kG)
	powers(cosi, count, kNInv, kGInv)
	// butterflies runs every butterfly of a transform of v: m the half-width of the stage (from
	// m0, times or divided by 2 each stage until 1 or n/2 is done), the twiddle of position j in
	// a block table[j·stride].
	butterflies := func(v, table uint32, dif bool) {
		if dif {
			c.get(n).i32(1).op(opI32ShrU).set(m).i32(1).set(stride)
		} else {
			c.i32(1).set(m).get(n).i32(1).op(opI32ShrU).set(stride)
		}
		c.op(opBlock, blockVoid, opLoop, blockVoid)
		if dif {
			c.get(m).op(opI32Eqz).brIf(1)
		} else {
			c.get(m).get(n).op(opI32GeU).brIf(1)
		}
		loop(c, s, 0, count, func() { c.get(m).i32(1).op(opI32Shl) }, func() {
			loop(c, j, 0, func() { c.get(m) }, one, func() {
				elementAt(c, v, func() { c.get(s).get(j).op(opI32Add) }, elemSize)
				c.set(x)
				c.get(x).get(m).i32(elemSize).op(opI32Mul, opI32Add).set(y)
				elementAt(c, table, func() { c.get(j).get(stride).op(opI32Mul) }, elemSize)
				c.set(w)
				// The first butterfly of a block has the twiddle 1 (n − 1 of a transform's
				// n/2·log n): x, y = x + y, x − y, with no product.
				c.get(j).op(opI32Eqz)
				c.op(opIf, blockVoid)
				c.i32(atButterfly).get(x).get(y).call(f.sub)
				c.get(x).get(x).get(y).call(f.add)
				c.get(y).i32(atButterfly).call(f.copy)
				c.op(opElse)
				if dif { // x, y = x + y, (x − y)·w
					c.i32(atButterfly).get(x).get(y).call(f.sub)
					c.get(x).get(x).get(y).call(f.add)
					c.get(y).i32(atButterfly).get(w).call(f.mul)
				} else { // x, y = x + y·w, x − y·w
					c.i32(atButterfly).get(y).get(w).call(f.mul)
					c.get(y).get(x).i32(atButterfly).call(f.sub)
					c.get(x).get(x).i32(atButterfly).call(f.add)
				}
				c.op(opEnd)
			})
		})
		if dif {
			c.get(m).i32(1).op(opI32ShrU).set(m).get(stride).i32(1).op(opI32Shl).set(stride)
		} else {
			c.get(m).i32(1).op(opI32Shl).set(m).get(stride).i32(1).op(opI32ShrU).set(stride)
		}
		c.br(0)
		c.op(opEnd, opEnd)
	}
	// scale multiplies v's element i by table's element bitrev(i) (logn bits).
	scale := func(v, table uint32) {
		loop(c, i, 0, count, one, func() {
			c.get(i).set(rest).i32(0).set(rev)
			loop(c, bit, 0, func() { c.get(logn) }, one, func() {
				c.get(rev).i32(1).op(opI32Shl).get(rest).i32(1).op(opI32And).op(opI32Or).set(rev)
				c.get(rest).i32(1).op(opI32ShrU).set(rest)
			})
			elementAt(c, v, func() { c.get(i) }, elemSize)
			elementAt(c, v, func() { c.get(i) }, elemSize)
			elementAt(c, table, func() { c.get(rev) }, elemSize)
			c.call(f.mul)
		})
	}
	for _, v := range []uint32{va, vb, vc} { // coefficients (bit-reversed), onto the coset, in order
		butterflies(v, twi, true)
		scale(v, cos)
		butterflies(v, tw, false)
	}
	loop(c, i, 0, count, one, func() { // (A·B − C)/(gⁿ − 1)
		elementAt(c, va, func() { c.get(i) }, elemSize)
		c.tee(x)
		c.get(x)
		elementAt(c, vb, func() { c.get(i) }, elemSize)
		c.call(f.mul)
		c.get(x).get(x)
		elementAt(c, vc, func() { c.get(i) }, elemSize)
		c.call(f.sub)
		c.get(x).get(x)
		kZInv()
		c.call(f.mul)
	})
	butterflies(va, twi, true)
	scale(va, cosi)
	loop(c, i, 0, count, one, func() { // h over the input, read whole by now
		elementAt(c, in, func() { c.get(i) }, gnarkSize)
		elementAt(c, va, func() { c.get(i) }, elemSize)
		c.call(toGnark)
	})
	return c
}
