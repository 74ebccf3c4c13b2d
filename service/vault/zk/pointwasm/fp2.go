package pointwasm

// Fp2 = Fp[u]/(u² + 1), G2's field: an element is a0 + a1·u, a0 then a1 in memory (144 bytes).
// Its functions call Fp's on the halves, with their temporaries at atFp2Temp.

// arg is the address in local (or parameter) i.
func arg(i uint32) ref { return func(c *code) { c.get(i) } }

// half is part k (0: a0, 1: a1) of the Fp2 element at r.
func (r ref) half(k int32) ref {
	if k == 0 {
		return r
	}
	return func(c *code) { r(c); c.i32(k * elemSize).op(opI32Add) }
}

func fp2Temp(k int32) ref { return fixed(atFp2Temp + k*elemSize) }

// fp2MulCode is mul(o, a, b) in Fp2 (Karatsuba: 3 products), or with square sqr(o, a)
// ((a0 + a1)(a0 − a1) + 2·a0·a1·u: 2 products). o may be a or b.
func fp2MulCode(fp fns, square bool) *code {
	params := []byte{i32, i32, i32}
	if square {
		params = params[:2]
	}
	c := newCode(params, nil)
	o, a, b := uint32(0), uint32(1), uint32(2)
	t0, t1, t2, t3 := fp2Temp(0), fp2Temp(1), fp2Temp(2), fp2Temp(3)
	if square {
		fp.Add(c, t0, arg(a).half(0), arg(a).half(1))
		fp.Sub(c, t1, arg(a).half(0), arg(a).half(1))
		fp.Mul(c, t2, arg(a).half(0), arg(a).half(1))
		fp.Mul(c, arg(o).half(0), t0, t1)
		fp.Add(c, arg(o).half(1), t2, t2)
		return c
	}
	fp.Mul(c, t0, arg(a).half(0), arg(b).half(0))
	fp.Mul(c, t1, arg(a).half(1), arg(b).half(1))
	fp.Add(c, t2, arg(a).half(0), arg(a).half(1))
	fp.Add(c, t3, arg(b).half(0), arg(b).half(1))
	fp.Mul(c, t2, t2, t3)
	fp.Sub(c, t2, t2, t0)
	fp.Sub(c, arg(o).half(1), t2, t1)
	fp.Sub(c, arg(o).half(0), t0, t1)
	return c
}

// fp2AddSubCode is add(o, a, b) or sub(o, a, b) in Fp2, half by half.
func fp2AddSubCode(fp fns, sub bool) *code {
	c := newCode([]byte{i32, i32, i32}, nil)
	for k := range int32(2) {
		if sub {
			fp.Sub(c, arg(0).half(k), arg(1).half(k), arg(2).half(k))
		} else {
			fp.Add(c, arg(0).half(k), arg(1).half(k), arg(2).half(k))
		}
	}
	return c
}

// fp2IsZeroCode is isZero(a) i32 in Fp2.
func fp2IsZeroCode(fp fns) *code {
	c := newCode([]byte{i32}, []byte{i32})
	fp.IsZero(c, arg(0).half(0))
	fp.IsZero(c, arg(0).half(1))
	c.op(opI32And)
	return c
}

// loadRawCode is loadG1(src, dst, n) i32 or loadG2: n raw points (gnark-crypto's raw encoding,
// big-endian coordinates of 32 bytes: G1's X, Y as a version-1 key's G1 sections hold them,
// G2's X.A1, X.A0, Y.A1, Y.A0 as section B2 does) at src, written at dst in the module's affine
// form (x then y, each a0 then a1 in G2, in Montgomery form; infinity, all zeros, stays so).
// places are where each coordinate read goes, in elements from the point's start. It answers
// -1, or 4 × the index of the first point that is not one plus the reason: NotInEncoding for
// flag bits set, NotCanonical for a coordinate not below p, and in G1 NotOnCurve for y² ≠ x³ + 3.
// That last check makes a raw G1 point as certain as a compressed one whose x and flag a hash
// vouches for (the y it names is the only one): a key's raw tail is checked so (key.ts). G2's
// points are not checked on the curve: the key's pinned hash is the check (docs/prover.md).
func loadRawCode(fp fns, places []int32) *code {
	c := newCode([]byte{i32, i32, i32}, []byte{i32})
	const src, dst, n = 0, 1, 2
	i, in, out, ptr := c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	fail := func(r Reason) { c.get(i).i32(2).op(opI32Shl).i32(int32(r)).op(opI32Or).op(opReturn) }
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	c.get(i).get(n).op(opI32Eq).brIf(1)
	c.get(src).get(i).i32(int32(32*len(places))).op(opI32Mul, opI32Add).set(in)
	c.get(dst).get(i).i32(int32(len(places))*elemSize).op(opI32Mul, opI32Add).set(out)
	c.get(in).mem(opI32L8U, 0, 0).i32(0xc0).op(opI32And).op(opIf, blockVoid)
	fail(NotInEncoding)
	c.op(opEnd)
	for k, at := range places {
		readCanonical(c, in, uint32(32*k), false, ptr, fail)
		coord := arg(out).half(at)
		fp.Mul(c, coord, fixed(atX), fixed(atR2))
		coord(c)
		c.call(fp.canon)
	}
	if len(places) == 2 {
		onCurveG1(c, fp, arg(out), arg(out).half(1), fail)
	}
	c.get(i).i32(1).op(opI32Add).set(i).br(0)
	c.op(opEnd, opEnd)
	c.i32(-1)
	return c
}

// onCurveG1 fails with NotOnCurve unless the affine G1 point (x, y) (canonical Montgomery form)
// is infinity (both zero) or y² = x³ + 3.
func onCurveG1(c *code, fp fns, x, y ref, fail func(Reason)) {
	fp.IsZero(c, x)
	fp.IsZero(c, y)
	c.op(opI32And, opI32Eqz).op(opIf, blockVoid)
	curveRHS(c, fp, x)
	onCurveIfSquare(c, fp, y, fail)
	c.op(opEnd)
}

// curveRHS writes x³ + 3 at atRHS, canonical (x in Montgomery form).
func curveRHS(c *code, fp fns, x ref) {
	fp.Mul(c, fixed(atRHS), x, x)
	fp.Mul(c, fixed(atRHS), fixed(atRHS), x)
	fp.Add(c, fixed(atRHS), fixed(atRHS), fixed(atThree))
	c.i32(atRHS).call(fp.canon)
}

// onCurveIfSquare fails with NotOnCurve unless y² (written at atY2) is curveRHS's x³ + 3.
func onCurveIfSquare(c *code, fp fns, y ref, fail func(Reason)) {
	fp.Mul(c, fixed(atY2), y, y)
	c.i32(atY2).call(fp.canon)
	for k := range uint32(limbs) {
		c.i32(atY2).mem(opI64Load, 3, 8*k).i32(atRHS).mem(opI64Load, 3, 8*k).op(opI64Xor)
		if k > 0 {
			c.op(opI64Or)
		}
	}
	c.op(opI64Eqz, opI32Eqz).op(opIf, blockVoid)
	fail(NotOnCurve)
	c.op(opEnd)
}
