package pointwasm

// The curve's points in the module, in G1 over Fp and in G2 over Fp2 alike: affine ones (x, y
// in Montgomery form, as decodeAffine, loadG1 and loadG2 write them; all zeros for infinity) and
// Jacobian ones (X, Y, Z; Z ≡ 0 for infinity) for sums. The formulas are the Explicit-Formulas
// Database's for a = 0 (both curves): dbl-2009-l, madd-2007-bl and add-2007-bl.

// ref pushes an element's address.
type ref func(c *code)

func fixed(at int32) ref { return func(c *code) { c.i32(at) } }

// noFunction is a function index no module has: a call to it does not validate.
const noFunction = ^uint32(0)

// fns are a field's functions (Fp's or Fp2's), called on elements' addresses.
type fns struct {
	size                             int32 // an element's bytes
	mul, sqr, add, sub, isZero, copy uint32
	inv                              uint32 // inv(o, a): o = 1/a, a not 0
	neg                              uint32 // neg(o, a): o = −a
	canon                            uint32 // Fp only
	one                              int32  // where 1 in Montgomery form is
}

func (f fns) Mul(c *code, o, a, b ref) { o(c); a(c); b(c); c.call(f.mul) }
func (f fns) Add(c *code, o, a, b ref) { o(c); a(c); b(c); c.call(f.add) }
func (f fns) Sub(c *code, o, a, b ref) { o(c); a(c); b(c); c.call(f.sub) }
func (f fns) Sqr(c *code, o, a ref)    { o(c); a(c); c.call(f.sqr) }
func (f fns) Copy(c *code, o, a ref)   { o(c); a(c); c.call(f.copy) }
func (f fns) Neg(c *code, o, a ref)    { o(c); a(c); c.call(f.neg) }
func (f fns) IsZero(c *code, a ref)    { a(c); c.call(f.isZero) } // pushes an i32

// temp is the point functions' temporary k.
func (f fns) temp(k int) ref { return fixed(atTemp + f.size*int32(k)) }

// coord is coordinate k of the point whose address is in local ptr.
func (f fns) coord(ptr uint32, k int) ref {
	return func(c *code) {
		c.get(ptr)
		if k > 0 {
			c.i32(f.size * int32(k)).op(opI32Add)
		}
	}
}

func (f fns) affineSize() int32   { return 2 * f.size }
func (f fns) jacobianSize() int32 { return 3 * f.size }

// zeroZ sets the Jacobian point at ptr's Z to 0: infinity.
func (f fns) zeroZ(c *code, ptr func()) {
	for k := range uint32(f.size / 8) {
		ptr()
		c.i64(0).mem(opI64St, 3, uint32(2*f.size)+8*k)
	}
}

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

// copyCode is copy(o, a) of size bytes.
func copyCode(size int32) *code {
	c := newCode([]byte{i32, i32}, nil)
	for k := range uint32(size / 8) {
		c.get(0).get(1).mem(opI64Load, 3, 8*k).mem(opI64St, 3, 8*k)
	}
	return c
}

// doubleCode is double(p): p = 2p, Jacobian, in place (infinity stays infinity: Z3 = 2·Y·Z).
func doubleCode(f fns) *code {
	c := newCode([]byte{i32}, nil)
	const pt = 0
	X, Y, Z := f.coord(pt, 0), f.coord(pt, 1), f.coord(pt, 2)
	A, B, C, D, E, F, t := f.temp(0), f.temp(1), f.temp(2), f.temp(3), f.temp(4), f.temp(5), f.temp(6)
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

// pointAddCode is add(p, q): p = p + q in place, p Jacobian and q affine (mixed, madd-2007-bl)
// or Jacobian (add-2007-bl). Equal points are doubled, opposite ones give infinity.
func pointAddCode(f fns, double uint32, mixed bool) *code {
	c := newCode([]byte{i32, i32}, nil)
	const pp, pq = 0, 1
	X1, Y1, Z1 := f.coord(pp, 0), f.coord(pp, 1), f.coord(pp, 2)
	X2, Y2, Z2 := f.coord(pq, 0), f.coord(pq, 1), f.coord(pq, 2)
	T := f.temp
	Z1Z1, Z2Z2, U1, U2, S1, S2, H, r, I, J, V, t, u := T(0), T(1), T(2), T(3), T(4), T(5), T(6), T(7), T(8), T(9), T(10), T(11), T(12)
	if !mixed { // q infinity: p stays
		f.IsZero(c, Z2)
		c.op(opIf, blockVoid, opReturn, opEnd)
	}
	f.IsZero(c, Z1) // p infinity: p = q
	c.op(opIf, blockVoid)
	f.Copy(c, X1, X2)
	f.Copy(c, Y1, Y2)
	if mixed {
		f.Copy(c, Z1, fixed(f.one))
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
	f.zeroZ(c, func() { c.get(pp) })
	c.op(opEnd, opReturn, opEnd)
	HH := Z2Z2 // H², kept for Z3 (a mixed addition has no Z2)
	if mixed {
		f.Sqr(c, HH, H) // I = 4·H²
		f.Add(c, I, HH, HH)
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
		f.Sub(c, Z1, Z1, HH)
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

// regularBigEndian writes the Fp element at e (Montgomery form, below 2p) as 32 big-endian
// bytes of its regular form at the address in local dst, plus offset; t is a temporary.
func regularBigEndian(c *code, fp fns, e, t ref, dst uint32, offset uint32) {
	fp.Mul(c, t, e, fixed(atOne)) // out of Montgomery form
	t(c)
	c.call(fp.canon)
	ptr := c.local(i32)
	t(c)
	c.set(ptr)
	bigEndian(c, dst, offset, loadLimbs(c, ptr))
}

// toAffineCode is toAffine(p, dst) in G1 (fp2 nil) or toAffineG2 (fp2 given: f is Fp2's): the
// Jacobian point p as a raw point at dst (big-endian coordinates, x then y, in G2 each A1 then
// A0, as gnark-crypto's RawBytes; infinity all zeros), by one inversion in Fp (Z^(p−2); in Fp2,
// 1/(a + b·u) = (a − b·u)/(a² + b²)).
func toAffineCode(f, fp fns, inv uint32) *code {
	c := newCode([]byte{i32, i32}, nil)
	const pp, dst = 0, 1
	X, Y, Z := f.coord(pp, 0), f.coord(pp, 1), f.coord(pp, 2)
	zi, zi2, x, y := f.temp(0), f.temp(1), f.temp(2), f.temp(3)
	f.IsZero(c, Z)
	c.op(opIf, blockVoid)
	rawSize := uint32(64) // G1's; G2's 128
	if f.size != elemSize {
		rawSize = 128
	}
	for k := range rawSize / 8 {
		c.get(dst).i64(0).mem(opI64St, 3, 8*k)
	}
	c.op(opReturn, opEnd)
	if f.size == elemSize {
		zi(c)
		Z(c)
		c.call(inv)
	} else {
		a, b := Z.half(0), Z.half(1)
		n, m := f.temp(4), f.temp(4).half(1)
		fp.Sqr(c, n, a)
		fp.Sqr(c, m, b)
		fp.Add(c, n, n, m)
		m(c)
		n(c)
		c.call(inv)
		fp.Mul(c, zi.half(0), a, m)
		fp.Sub(c, n, fixed(atZero), b)
		fp.Mul(c, zi.half(1), n, m)
	}
	f.Sqr(c, zi2, zi)
	f.Mul(c, x, X, zi2)
	f.Mul(c, zi2, zi2, zi)
	f.Mul(c, y, Y, zi2)
	t := fixed(atFp2Temp + 4*elemSize)
	if f.size == elemSize {
		regularBigEndian(c, fp, x, t, dst, 0)
		regularBigEndian(c, fp, y, t, dst, 32)
		return c
	}
	for k, e := range []ref{x, y} {
		for j, part := range []int32{1, 0} { // A1, then A0
			regularBigEndian(c, fp, e.half(part), t, dst, uint32(64*k+32*j))
		}
	}
	return c
}
