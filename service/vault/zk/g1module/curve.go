package g1module

// G1's points in the module: affine ones (x, y in Montgomery form; 144 bytes; all zeros for
// infinity) as decodeAffine writes them, and Jacobian ones (X, Y, Z; 216 bytes; Z ≡ 0 for
// infinity) for sums. The formulas are the Explicit-Formulas Database's for a = 0:
// dbl-2009-l, madd-2007-bl and add-2007-bl.

const jacobianSize = 3 * elemSize

// Working space for the point functions, below BufferAt.
const (
	atOneM    = 2176                   // 1 in Montgomery form (R mod p): an affine point's Z
	atTemp    = atOneM + elemSize      // field temporaries, 14 of them
	atSum     = atTemp + 14*elemSize   // msm's running sums S and T (Jacobian)
	atTotal   = atSum + jacobianSize   // (T)
	atInvNibs = atTotal + jacobianSize // the exponent p - 2 in 4-bit digits (inverses), to 3752
)

// ref pushes an element's address.
type ref func(c *code)

func temp(k int) ref     { return func(c *code) { c.i32(int32(atTemp + elemSize*k)) } }
func fixed(at int32) ref { return func(c *code) { c.i32(at) } }
func coord(ptr uint32, k int) ref { // coordinate k of the point whose address is in local ptr
	return func(c *code) {
		c.get(ptr)
		if k > 0 {
			c.i32(int32(k * elemSize)).op(opI32Add)
		}
	}
}

// fns are the field's functions, as emitted calls.
type fns struct{ mul, sqr, add, sub, canon, isZero, copy uint32 }

func (f fns) call3(c *code, fn uint32, o, a, b ref) { o(c); a(c); b(c); c.call(fn) }
func (f fns) Mul(c *code, o, a, b ref)              { f.call3(c, f.mul, o, a, b) }
func (f fns) Add(c *code, o, a, b ref)              { f.call3(c, f.add, o, a, b) }
func (f fns) Sub(c *code, o, a, b ref)              { f.call3(c, f.sub, o, a, b) }
func (f fns) Sqr(c *code, o, a ref)                 { o(c); a(c); c.call(f.sqr) }
func (f fns) Copy(c *code, o, a ref)                { o(c); a(c); c.call(f.copy) }
func (f fns) IsZero(c *code, a ref)                 { a(c); c.call(f.isZero) } // pushes an i32

// isZeroCode is isZero(a) i32: whether a (below 2p) is 0 mod p.
func isZeroCode() *code {
	c := newCode([]byte{i32}, []byte{i32})
	t := loadLimbs(c, 0)
	subIfAbove(c, t, pLimbs)
	for j := range limbs {
		c.get(t[j])
		if j > 0 {
			c.op(opI64Or)
		}
	}
	c.op(opI64Eqz)
	return c
}

// copyCode is copy(o, a).
func copyCode() *code {
	c := newCode([]byte{i32, i32}, nil)
	copyElement(c, func() { c.get(0) }, func() { c.get(1) })
	return c
}

// doubleCode is double(p): p = 2p, Jacobian, in place (infinity stays infinity: Z3 = 2·Y·Z).
func doubleCode(f fns) *code {
	c := newCode([]byte{i32}, nil)
	const pt = 0
	X, Y, Z := coord(pt, 0), coord(pt, 1), coord(pt, 2)
	A, B, C, D, E, F, t := temp(0), temp(1), temp(2), temp(3), temp(4), temp(5), temp(6)
	f.Sqr(c, A, X)
	f.Sqr(c, B, Y)
	f.Sqr(c, C, B)
	f.Add(c, t, X, B) // D = 2·((X + B)² − A − C)
	f.Sqr(c, t, t)
	f.Sub(c, t, t, A)
	f.Sub(c, t, t, C)
	f.Add(c, D, t, t)
	f.Add(c, E, A, A) // E = 3·A
	f.Add(c, E, E, A)
	f.Sqr(c, F, E)
	f.Mul(c, t, Y, Z) // Z3 = 2·Y·Z, before Y changes
	f.Add(c, Z, t, t)
	f.Sub(c, t, F, D) // X3 = F − 2·D
	f.Sub(c, X, t, D)
	f.Sub(c, t, D, X) // Y3 = E·(D − X3) − 8·C
	f.Mul(c, t, E, t)
	f.Add(c, C, C, C)
	f.Add(c, C, C, C)
	f.Add(c, C, C, C)
	f.Sub(c, Y, t, C)
	return c
}

// zeroZ sets the Jacobian point at ptr's Z to 0: infinity.
func zeroZ(c *code, ptr func()) {
	for k := range uint32(limbs) {
		ptr()
		c.i64(0).mem(opI64St, 3, 2*elemSize+8*k)
	}
}

// addCode is add(p, q): p = p + q in place, p Jacobian and q affine (mixed, madd-2007-bl) or
// Jacobian (add-2007-bl). Equal points are doubled, opposite ones give infinity.
func pointAddCode(f fns, double uint32, mixed bool) *code {
	c := newCode([]byte{i32, i32}, nil)
	const pp, pq = 0, 1
	X1, Y1, Z1 := coord(pp, 0), coord(pp, 1), coord(pp, 2)
	X2, Y2, Z2 := coord(pq, 0), coord(pq, 1), coord(pq, 2)
	Z1Z1, Z2Z2, U1, U2, S1, S2, H, r, I, J, V, t, u := temp(0), temp(1), temp(2), temp(3), temp(4), temp(5), temp(6), temp(7), temp(8), temp(9), temp(10), temp(11), temp(12)
	if !mixed { // q infinity: p stays
		f.IsZero(c, Z2)
		c.op(opIf, blockVoid, opReturn, opEnd)
	}
	f.IsZero(c, Z1) // p infinity: p = q
	c.op(opIf, blockVoid)
	f.Copy(c, X1, X2)
	f.Copy(c, Y1, Y2)
	if mixed {
		f.Copy(c, Z1, fixed(atOneM))
	} else {
		f.Copy(c, Z1, Z2)
	}
	c.op(opReturn, opEnd)
	f.Sqr(c, Z1Z1, Z1)
	f.Mul(c, U2, X2, Z1Z1)
	f.Mul(c, t, Z1, Z1Z1)
	f.Mul(c, S2, Y2, t)
	if mixed {
		U1, S1 = X1, Y1
	} else {
		f.Sqr(c, Z2Z2, Z2)
		f.Mul(c, U1, X1, Z2Z2)
		f.Mul(c, t, Z2, Z2Z2)
		f.Mul(c, S1, Y1, t)
	}
	f.Sub(c, H, U2, U1)
	f.Sub(c, r, S2, S1)
	f.IsZero(c, H) // the same x: the same point (doubled) or its opposite (infinity)
	c.op(opIf, blockVoid)
	f.IsZero(c, r)
	c.op(opIf, blockVoid).get(pp).call(double).op(opElse)
	zeroZ(c, func() { c.get(pp) })
	c.op(opEnd, opReturn, opEnd)
	if mixed {
		f.Sqr(c, t, H) // I = 4·H²
		f.Add(c, I, t, t)
		f.Add(c, I, I, I)
	} else {
		f.Add(c, t, H, H) // I = (2·H)²
		f.Sqr(c, I, t)
	}
	f.Mul(c, J, H, I)
	f.Add(c, r, r, r)
	f.Mul(c, V, U1, I)
	f.Mul(c, u, S1, J) // 2·S1·J, before S1 (Y1 when mixed) changes
	f.Add(c, u, u, u)
	if mixed { // Z3 = (Z1 + H)² − Z1Z1 − H²
		f.Add(c, Z1, Z1, H)
		f.Sqr(c, Z1, Z1)
		f.Sub(c, Z1, Z1, Z1Z1)
		f.Sqr(c, t, H)
		f.Sub(c, Z1, Z1, t)
	} else { // Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H
		f.Add(c, Z1, Z1, Z2)
		f.Sqr(c, Z1, Z1)
		f.Sub(c, Z1, Z1, Z1Z1)
		f.Sub(c, Z1, Z1, Z2Z2)
		f.Mul(c, Z1, Z1, H)
	}
	f.Sqr(c, t, r) // X3 = r² − J − 2·V
	f.Sub(c, t, t, J)
	f.Sub(c, t, t, V)
	f.Sub(c, X1, t, V)
	f.Sub(c, t, V, X1) // Y3 = r·(V − X3) − 2·S1·J
	f.Mul(c, t, r, t)
	f.Sub(c, Y1, t, u)
	return c
}

// msmCode is msm(points, digits, n, c, windows, buckets, out): out = Σ sᵢ·Pᵢ (Jacobian), for
// n affine points at points and their scalars sᵢ cut in windows digits of c bits (u16 each;
// window w's digit of point i at digits + 2·(w·n + i)), by buckets (Pippenger's method): per
// window, each point added to its digit's bucket (2^c − 1 of them, Jacobian, at buckets), the
// buckets summed by running sums, the windows' sums by doubling c times between them.
func msmCode(f fns, double, addMixed, add uint32) *code {
	c := newCode([]byte{i32, i32, i32, i32, i32, i32, i32}, nil)
	const points, digits, n, cbits, windows, buckets, out = 0, 1, 2, 3, 4, 5, 6
	w, k, i, d, nb, pt := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	c.i32(1).get(cbits).op(opI32Shl).i32(1).op(opI32Sub).set(nb)
	zeroZ(c, func() { c.get(out) })
	c.get(windows).set(w)
	c.op(opBlock, blockVoid, opLoop, blockVoid) // each window, the most significant first
	c.get(w).op(opI32Eqz).brIf(1)
	c.get(w).i32(1).op(opI32Sub).set(w)
	// out = 2^c · out
	c.get(cbits).set(k)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(k).op(opI32Eqz).brIf(1)
	c.get(out).call(double)
	c.get(k).i32(1).op(opI32Sub).set(k).br(0)
	c.op(opEnd, opEnd)
	// the buckets emptied
	c.i32(0).set(k)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(k).get(nb).op(opI32Eq).brIf(1)
	zeroZ(c, func() { c.get(buckets).get(k).i32(jacobianSize).op(opI32Mul, opI32Add) })
	c.get(k).i32(1).op(opI32Add).set(k).br(0)
	c.op(opEnd, opEnd)
	// each point to its digit's bucket (infinity, all zeros, to none)
	c.i32(0).set(i)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(i).get(n).op(opI32Eq).brIf(1)
	c.get(digits).get(w).get(n).op(opI32Mul).get(i).op(opI32Add).i32(1).op(opI32Shl).op(opI32Add)
	c.mem(0x2f, 1, 0).tee(d) // i32.load16_u
	c.op(opIf, blockVoid)
	c.get(points).get(i).i32(affineSize).op(opI32Mul, opI32Add).set(pt)
	for j := range uint32(2 * limbs) {
		c.get(pt).mem(opI64Load, 3, 8*j)
		if j > 0 {
			c.op(opI64Or)
		}
	}
	c.op(opI64Eqz, opI32Eqz).op(opIf, blockVoid)
	c.get(buckets).get(d).i32(1).op(opI32Sub).i32(jacobianSize).op(opI32Mul, opI32Add).get(pt).call(addMixed)
	c.op(opEnd)
	c.op(opEnd)
	c.get(i).i32(1).op(opI32Add).set(i).br(0)
	c.op(opEnd, opEnd)
	// the window's sum, Σ d·bucket[d] = Σ running sums from the top
	zeroZ(c, func() { c.i32(atSum) })
	zeroZ(c, func() { c.i32(atTotal) })
	c.get(nb).set(k)
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(k).op(opI32Eqz).brIf(1)
	c.get(k).i32(1).op(opI32Sub).set(k)
	c.i32(atSum).get(buckets).get(k).i32(jacobianSize).op(opI32Mul, opI32Add).call(add)
	c.i32(atTotal).i32(atSum).call(add)
	c.br(0)
	c.op(opEnd, opEnd)
	c.get(out).i32(atTotal).call(add)
	c.br(0)
	c.op(opEnd, opEnd)
	return c
}

// toAffineCode is toAffine(p, dst): the Jacobian point p as a raw point at dst (x then y,
// big-endian, 64 bytes; infinity all zeros), by one inversion (Z^(p−2)).
func toAffineCode(f fns, inv uint32) *code {
	c := newCode([]byte{i32, i32}, nil)
	const pp, dst = 0, 1
	X, Y, Z := coord(pp, 0), coord(pp, 1), coord(pp, 2)
	zi, zi2, x, y := temp(0), temp(1), temp(2), temp(3)
	f.IsZero(c, Z)
	c.op(opIf, blockVoid)
	for k := range uint32(8) {
		c.get(dst).i64(0).mem(opI64St, 3, 8*k)
	}
	c.op(opReturn, opEnd)
	zi(c)
	Z(c)
	c.call(inv)
	f.Sqr(c, zi2, zi)
	f.Mul(c, x, X, zi2)
	f.Mul(c, zi2, zi2, zi)
	f.Mul(c, y, Y, zi2)
	ptr := c.local(i32)
	for k, e := range []ref{x, y} {
		f.Mul(c, e, e, fixed(atOne)) // out of Montgomery form
		e(c)
		c.call(f.canon)
		e(c)
		c.set(ptr)
		bigEndian(c, dst, uint32(32*k), loadLimbs(c, ptr))
	}
	return c
}
