package pointwasm

// The multi-scalar multiplication: Pippenger's bucket method with the buckets kept affine and
// their additions made in batches that share one inversion. An affine addition given 1/(x₂ − x₁)
// costs 2 products and a square, and a batch's inversion (Montgomery's trick) 3 products an
// addition and one exponentiation for all of them, against 7 products and 4 squares for a mixed
// addition into a Jacobian bucket (curve.go). Every window's buckets are held at once and the additions
// taken point by point, window by window, so that a batch of up to maxBatch additions rarely
// meets a bucket twice (4 096 buckets for 32 windows of 8 bits). An addition that cannot join the
// batch, as its bucket already waits in it or its point has the bucket's x (the same point or its
// opposite), goes to the bucket's Jacobian twin by a mixed addition, which handles both; the
// window's sum adds the two. The digits are signed (−2^(c−1) to 2^(c−1)), so a window has 2^(c−1)
// buckets, half as many to sum; a negative digit adds the point negated.

// maxBatch is the most additions that share an inversion.
const maxBatch = 256

// A bucket's state, a byte each.
const (
	holds    = 1 // the affine bucket holds a point (it is never infinity)
	pending  = 2 // an addition to it waits in the batch
	overflow = 4 // its Jacobian twin holds a point
)

// batchEntry is the size of an addition waiting in the batch: x₂ − x₁, the product of the
// differences up to it, the bucket's number, the point's address and whether it is negated (i32
// each, and 4 bytes to keep entries 8-byte aligned).
func batchEntry(f fns) int32 { return 2*f.size + 16 }

// msmScratchCode is msmScratch(c, windows) i32: the bytes of scratch msm needs for windows of c
// bits: per window 2^(c−1) buckets, each affine, Jacobian and a byte of state (rounded up to 8
// bytes in all), then the batch.
func msmScratchCode(f fns) *code {
	c := newCode([]byte{i32, i32}, []byte{i32})
	const cbits, windows = 0, 1
	pushBuckets(c, cbits, windows)
	c.i32(f.affineSize() + f.jacobianSize() + 1).op(opI32Mul)
	c.i32(8 + maxBatch*batchEntry(f)).op(opI32Add)
	return c
}

// pushBuckets pushes the buckets of windows of c bits, 2^(c−1) a window (locals cbits, windows):
// msmScratch sizes the scratch by them, msm lays it out by them.
func pushBuckets(c *code, cbits, windows uint32) {
	c.i32(1).get(cbits).i32(1).op(opI32Sub).op(opI32Shl).get(windows).op(opI32Mul)
}

// msmCode is msm(points, digits, n, c, windows, scratch, out): out = Σ sᵢ·Pᵢ (Jacobian), for n
// affine points at points and their scalars sᵢ cut in windows signed digits of c bits (u16
// each, |d| with the top bit set when d < 0: sᵢ = Σ dᵢ,w·2^(c·w), |dᵢ,w| ≤ 2^(c−1), so c is at
// most 15; window w's digit of point i at digits + 2·(w·n + i)), with msmScratch(c, windows) bytes at
// scratch: each point added to its digit's bucket in each window (the file's comment says how),
// then per window, the most significant first, out doubled c times and the window's buckets
// summed by running sums into it.
func msmCode(f fns, double, addMixed, add, flush uint32) *code {
	c := newCode([]byte{i32, i32, i32, i32, i32, i32, i32}, nil)
	const points, digits, n, cbits, windows, scratch, out = 0, 1, 2, 3, 4, 5, 6
	nb, total, over, states, batch, limit := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	k, i, w, d, b, st, pt, e, j := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	neg, src := c.local(i32), c.local(i32)
	aff, jac, entry := f.affineSize(), f.jacobianSize(), batchEntry(f)

	c.get(cbits).i32(15).op(opI32GtU).op(opIf, blockVoid, opTrap, opEnd) // a digit's top bit is its sign
	// The scratch's parts, and the batch's size: a sixteenth of the buckets, at most maxBatch.
	c.i32(1).get(cbits).i32(1).op(opI32Sub).op(opI32Shl).set(nb)
	pushBuckets(c, cbits, windows)
	c.set(total)
	c.get(scratch).get(total).i32(aff).op(opI32Mul, opI32Add).set(over)
	c.get(over).get(total).i32(jac).op(opI32Mul, opI32Add).set(states)
	c.get(states).get(total).op(opI32Add).i32(7).op(opI32Add).i32(-8).op(opI32And).set(batch)
	c.get(total).i32(4).op(opI32ShrU).set(limit)
	c.i32(maxBatch).get(limit).get(limit).i32(maxBatch).op(opI32GtU).op(opSelect).set(limit)
	c.get(limit).i32(1).get(limit).op(opSelect).set(limit) // 0 → 1
	// Every bucket empty.
	c.get(states).set(j)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(j).get(batch).op(opI32GeU).brIf(1)
	c.get(j).i64(0).mem(opI64St, 3, 0)
	c.get(j).i32(8).op(opI32Add).set(j).br(0)
	c.op(opEnd, opEnd)

	bucket := func() { c.get(scratch).get(b).i32(aff).op(opI32Mul, opI32Add) }
	setState := func(bit int32) { c.get(states).get(b).op(opI32Add).get(st).i32(bit).op(opI32Or).mem(opI32St8, 0, 0) }
	pointX, pointY := f.coord(src, 0), f.coord(src, 1)
	// signed sets src: the point, or for a negative digit the point negated, at atNegated (the
	// batch keeps the point and the sign, and negates y as it adds).
	signed := func() {
		c.get(pt).set(src)
		c.get(neg).op(opIf, blockVoid)
		f.Copy(c, fixed(atNegated), f.coord(pt, 0))
		f.Neg(c, fixed(atNegated+f.size), f.coord(pt, 1))
		c.i32(atNegated).set(src)
		c.op(opEnd)
	}
	bx := func(c *code) { bucket() }
	by := func(c *code) { bucket(); c.i32(f.size).op(opI32Add) }
	eDiff := func(c *code) { c.get(e) }
	ePrefix := func(c *code) { c.get(e).i32(f.size).op(opI32Add) }
	prevPrefix := func(c *code) { c.get(e).i32(f.size - entry).op(opI32Add) }

	// Each point, each window: to its digit's bucket (a point at infinity, all zeros, to none).
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(i).get(n).op(opI32Eq).brIf(1)
	c.get(points).get(i).i32(aff).op(opI32Mul, opI32Add).set(pt)
	for q := range uint32(aff / 8) {
		c.get(pt).mem(opI64Load, 3, 8*q)
		if q > 0 {
			c.op(opI64Or)
		}
	}
	c.op(opI64Eqz, opI32Eqz).op(opIf, blockVoid)
	c.i32(0).set(w)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(w).get(windows).op(opI32Eq).brIf(1)
	c.op(opBlock, blockVoid) // next
	c.get(digits).get(w).get(n).op(opI32Mul).get(i).op(opI32Add).i32(1).op(opI32Shl).op(opI32Add)
	c.mem(opI32L16U, 1, 0).tee(d)
	c.i32(15).op(opI32ShrU).set(neg)
	c.get(d).i32(0x7fff).op(opI32And).tee(d)
	c.op(opI32Eqz).brIf(0) // 0, or its sign alone
	c.get(w).get(nb).op(opI32Mul).get(d).op(opI32Add).i32(1).op(opI32Sub).set(b)
	c.get(states).get(b).op(opI32Add).mem(opI32L8U, 0, 0).set(st)
	// An empty bucket takes the point.
	c.get(st).i32(holds).op(opI32And, opI32Eqz).op(opIf, blockVoid)
	signed()
	f.Copy(c, bx, pointX)
	f.Copy(c, by, pointY)
	setState(holds)
	c.br(1)
	c.op(opEnd)
	c.op(opBlock, blockVoid) // to the twin
	c.get(st).i32(pending).op(opI32And).brIf(0)
	c.get(batch).get(k).i32(entry).op(opI32Mul, opI32Add).set(e)
	f.Sub(c, eDiff, f.coord(pt, 0), bx) // x is the negated point's too
	f.IsZero(c, eDiff)
	c.brIf(0)
	c.get(k).op(opIf, blockVoid)
	f.Mul(c, ePrefix, prevPrefix, eDiff)
	c.op(opElse)
	f.Copy(c, ePrefix, eDiff)
	c.op(opEnd)
	c.get(e).get(b).mem(opI32St, 2, uint32(2*f.size))
	c.get(e).get(pt).mem(opI32St, 2, uint32(2*f.size+4))
	c.get(e).get(neg).mem(opI32St, 2, uint32(2*f.size+8))
	setState(pending)
	c.get(k).i32(1).op(opI32Add).tee(k)
	c.get(limit).op(opI32Eq).op(opIf, blockVoid)
	c.get(scratch).get(states).get(batch).get(k).call(flush)
	c.i32(0).set(k)
	c.op(opEnd)
	c.br(1)
	c.op(opEnd) // to the twin
	twin := c.local(i32)
	signed()
	c.get(over).get(b).i32(jac).op(opI32Mul, opI32Add).set(twin)
	c.get(st).i32(overflow).op(opI32And, opI32Eqz).op(opIf, blockVoid)
	f.Copy(c, f.coord(twin, 0), pointX)
	f.Copy(c, f.coord(twin, 1), pointY)
	f.Copy(c, f.coord(twin, 2), fixed(f.one))
	setState(overflow)
	c.op(opElse)
	c.get(twin).get(src).call(addMixed)
	c.op(opEnd)
	c.op(opEnd) // next
	c.get(w).i32(1).op(opI32Add).set(w).br(0)
	c.op(opEnd, opEnd)
	c.op(opEnd) // not infinity
	c.get(i).i32(1).op(opI32Add).set(i).br(0)
	c.op(opEnd, opEnd)
	c.get(scratch).get(states).get(batch).get(k).call(flush)

	// The windows' sums: per window, Σ d·bucket[d] = Σ running sums from the top.
	f.zeroZ(c, func() { c.get(out) })
	c.get(windows).set(w)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(w).op(opI32Eqz).brIf(1)
	c.get(w).i32(1).op(opI32Sub).set(w)
	c.get(cbits).set(j) // out = 2^c · out
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(j).op(opI32Eqz).brIf(1)
	c.get(out).call(double)
	c.get(j).i32(1).op(opI32Sub).set(j).br(0)
	c.op(opEnd, opEnd)
	f.zeroZ(c, func() { c.i32(atSum) })
	f.zeroZ(c, func() { c.i32(atTotal) })
	c.get(nb).set(j)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(j).op(opI32Eqz).brIf(1)
	c.get(j).i32(1).op(opI32Sub).set(j)
	c.get(w).get(nb).op(opI32Mul).get(j).op(opI32Add).set(b)
	c.get(states).get(b).op(opI32Add).mem(opI32L8U, 0, 0).set(st)
	c.get(st).i32(holds).op(opI32And).op(opIf, blockVoid)
	c.i32(atSum)
	bucket()
	c.call(addMixed)
	c.op(opEnd)
	c.get(st).i32(overflow).op(opI32And).op(opIf, blockVoid)
	c.i32(atSum).get(over).get(b).i32(jac).op(opI32Mul, opI32Add).call(add)
	c.op(opEnd)
	c.i32(atTotal).i32(atSum).call(add)
	c.br(0)
	c.op(opEnd, opEnd)
	c.get(out).i32(atTotal).call(add)
	c.br(0)
	c.op(opEnd, opEnd)
	return c
}

// flushCode is flush(buckets, states, batch, k): the k additions waiting in the batch made, by
// one inversion of the differences' product (Montgomery's trick): walking back from the last,
// 1/(x₂ − x₁) of each is the running inverse times the product before it, and the running
// inverse times its difference is the inverse of that product. Then λ = (y₂ − y₁)/(x₂ − x₁),
// x₃ = λ² − x₁ − x₂, y₃ = λ·(x₁ − x₃) − y₁ into the bucket, no longer pending (y₂ the
// point's y, negated for a negative digit).
func flushCode(f fns) *code {
	c := newCode([]byte{i32, i32, i32, i32}, nil)
	const buckets, states, batch, k = 0, 1, 2, 3
	e, b, pt, bk := c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	entry := batchEntry(f)
	inv, d, l, x, y := f.temp(0), f.temp(1), f.temp(2), f.temp(3), f.temp(4)
	c.get(k).op(opI32Eqz).op(opIf, blockVoid, opReturn, opEnd)
	c.get(batch).get(k).i32(1).op(opI32Sub).i32(entry).op(opI32Mul, opI32Add).set(e)
	inv(c)
	c.get(e).i32(f.size).op(opI32Add)
	c.call(f.inv)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(e).get(batch).op(opI32Eq).op(opIf, blockVoid)
	f.Copy(c, d, inv)
	c.op(opElse)
	f.Mul(c, d, inv, func(c *code) { c.get(e).i32(f.size - entry).op(opI32Add) })
	f.Mul(c, inv, inv, arg(e))
	c.op(opEnd)
	c.get(e).mem(opI32Load, 2, uint32(2*f.size)).set(b)
	c.get(e).mem(opI32Load, 2, uint32(2*f.size+4)).set(pt)
	c.get(buckets).get(b).i32(f.affineSize()).op(opI32Mul, opI32Add).set(bk)
	x1, y1, x2 := f.coord(bk, 0), f.coord(bk, 1), f.coord(pt, 0)
	c.get(e).mem(opI32Load, 2, uint32(2*f.size+8)).op(opIf, blockVoid)
	f.Neg(c, l, f.coord(pt, 1))
	f.Sub(c, l, l, y1) // λ
	c.op(opElse)
	f.Sub(c, l, f.coord(pt, 1), y1)
	c.op(opEnd)
	f.Mul(c, l, l, d)
	f.Sqr(c, x, l) // x₃
	f.Sub(c, x, x, x1)
	f.Sub(c, x, x, x2)
	f.Sub(c, y, x1, x) // y₃
	f.Mul(c, y, y, l)
	f.Sub(c, y1, y, y1)
	f.Copy(c, x1, x)
	c.get(states).get(b).op(opI32Add)
	c.get(states).get(b).op(opI32Add).mem(opI32L8U, 0, 0).i32(^pending).op(opI32And)
	c.mem(opI32St8, 0, 0)
	c.get(e).get(batch).op(opI32Eq).brIf(1)
	c.get(e).i32(entry).op(opI32Sub).set(e).br(0)
	c.op(opEnd, opEnd)
	return c
}

// fp2InvCode is inv(o, a) in Fp2: 1/(a₀ + a₁·u) = (a₀ − a₁·u)/(a₀² + a₁²), one inversion in Fp.
// o may be a.
func fp2InvCode(fp fns) *code {
	c := newCode([]byte{i32, i32}, nil)
	const o, a = 0, 1
	n, m := fixed(atInv), fixed(atInv+elemSize)
	fp.Sqr(c, n, arg(a).half(0))
	fp.Sqr(c, m, arg(a).half(1))
	fp.Add(c, n, n, m)
	m(c)
	n(c)
	c.call(fp.inv)
	fp.Mul(c, arg(o).half(0), arg(a).half(0), m)
	fp.Sub(c, n, fixed(atZero), arg(a).half(1))
	fp.Mul(c, arg(o).half(1), n, m)
	return c
}

// negCode is neg(o, a) = −a (as 2p − a, below 2p) in Fp (halves 1) or Fp2 (2), half by half.
func negCode(fp fns, halves int32) *code {
	c := newCode([]byte{i32, i32}, nil)
	for k := range halves {
		fp.Sub(c, arg(0).half(k), fixed(atZero), arg(1).half(k))
	}
	return c
}
