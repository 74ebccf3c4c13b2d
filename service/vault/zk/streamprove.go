package zk

import (
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
)

// StreamProver proves a reveal while its proving key arrives: a Groth16 prover over
// gnark-crypto's primitives whose multiplications are done by Shares (share.go), each holding
// part of a sectioned key's points (SectionedKey's format). NewStreamProver solves the witness
// and computes h, which need only the circuit, so the key's points can be decoded (by the
// Shares) while it does; Layout reads the key's header, Scalars gives the Shares what to
// multiply their points by, AddSum adds what they give back, and Finish adds it all up.
//
// The proof is the one gnark's groth16 prover makes (the same conventions: the wires whose A or
// B point is infinity skipped, K over the private wires, h's coefficients bit-reversed like the
// Z points, fresh randomizers r and s); zk.Verify accepts it. The key's bytes are not checked
// here beyond their encoding: the caller checks the whole file's sha256 (docs/prover.md).
//
// A StreamProver is not safe for concurrent use; it proves once.
type StreamProver struct {
	signals  Signals
	wires    fr.Vector // the solved wires: public (the constant one first), then private
	h        []fr.Element
	domain   uint64
	nbPublic int
	r, s     fr.Element

	hdr     *keyHeader               // the key's header, once Layout has read it
	scalars map[Section][]fr.Element // each section's scalars, from the header on
	done    map[Section]int          // each section's points whose sums were added
	sumG1   map[Section]*bn254.G1Jac // their sums
	sumB2   bn254.G2Jac
}

// NewStreamProver solves the reveal's witness (with the solver of solve.go, not gnark's) and
// computes h: what the proof needs before any of the key. A request the circuit refuses is
// ErrUnsatisfied.
func NewStreamProver(req RevealRequest) (*StreamProver, error) {
	circuit, err := solverCircuitOnce()
	if err != nil {
		return nil, err
	}
	w, signals, err := req.witness()
	if err != nil {
		return nil, err
	}
	sol, err := circuit.solve(w.v)
	if err != nil {
		return nil, fmt.Errorf("prove: %w", err)
	}
	domain := fft.NewDomain(uint64(circuit.nbConstraints)) // as gnark's setup sizes it
	p := &StreamProver{
		signals: signals, wires: sol.wires, domain: domain.Cardinality, nbPublic: circuit.nbPublic,
		h:       quotientOf(sol.a, sol.b, sol.c, domain),
		scalars: map[Section][]fr.Element{}, done: map[Section]int{}, sumG1: map[Section]*bn254.G1Jac{},
	}
	if _, err := p.r.SetRandom(); err != nil {
		return nil, err
	}
	if _, err := p.s.SetRandom(); err != nil {
		return nil, err
	}
	return p, nil
}

// Finish returns the proof once the sums of every section's points are added (AddSum), and its
// public signals.
func (p *StreamProver) Finish() (Proof, Signals, error) {
	if p.hdr == nil {
		return Proof{}, Signals{}, fmt.Errorf("%w: its header was never read", ErrBadSectionedKey)
	}
	for _, s := range p.hdr.order {
		if p.done[s] != p.hdr.count(s) {
			return Proof{}, Signals{}, fmt.Errorf("%w: %d of section %s's %d points multiplied", ErrBadSectionedKey, p.done[s], s, p.hdr.count(s))
		}
	}
	k := p.hdr
	var r, s, rs big.Int
	p.r.BigInt(&r)
	p.s.BigInt(&s)
	var rsE fr.Element
	rsE.Mul(&p.r, &p.s)
	rsE.BigInt(&rs)

	// [A]₁ = [α]₁ + Σ wᵢ[Aᵢ]₁ + r[δ]₁
	var a, t bn254.G1Jac
	a.Set(p.sum(SectionA))
	a.AddMixed(&k.alpha1)
	t.FromAffine(&k.delta1)
	t.ScalarMultiplication(&t, &r)
	a.AddAssign(&t)

	// [B]₁ and [B]₂ = [β] + Σ wᵢ[Bᵢ] + s[δ]
	var b1 bn254.G1Jac
	b1.Set(p.sum(SectionB1))
	b1.AddMixed(&k.beta1)
	t.FromAffine(&k.delta1)
	t.ScalarMultiplication(&t, &s)
	b1.AddAssign(&t)
	var b2, t2 bn254.G2Jac
	b2.Set(&p.sumB2)
	b2.AddMixed(&k.beta2)
	t2.FromAffine(&k.delta2)
	t2.ScalarMultiplication(&t2, &s)
	b2.AddAssign(&t2)

	// [C]₁ = Σ wᵢ[Kᵢ]₁ + Σ hᵢ[Zᵢ]₁ + s[A]₁ + r[B]₁ − rs[δ]₁
	var c bn254.G1Jac
	c.Set(p.sum(SectionK))
	c.AddAssign(p.sum(SectionZ))
	t.ScalarMultiplication(&a, &s)
	c.AddAssign(&t)
	t.ScalarMultiplication(&b1, &r)
	c.AddAssign(&t)
	t.FromAffine(&k.delta1)
	t.ScalarMultiplication(&t, &rs)
	c.SubAssign(&t)

	var proof Proof
	proof.A.FromJacobian(&a)
	proof.B.FromJacobian(&b2)
	proof.C.FromJacobian(&c)
	return proof, p.signals, nil
}

// sum is a G1 section's sum so far (infinity for a section without points).
func (p *StreamProver) sum(s Section) *bn254.G1Jac {
	if p.sumG1[s] == nil {
		var zero bn254.G1Jac
		zero.X.SetOne()
		zero.Y.SetOne() // (1, 1, 0): infinity in Jacobian coordinates
		p.sumG1[s] = &zero
	}
	return p.sumG1[s]
}

// header checks that the key is the circuit's and picks each section's scalars.
func (p *StreamProver) header(h *keyHeader) error {
	switch {
	case h.nbWires != len(p.wires) || h.nbPublic != p.nbPublic:
		return fmt.Errorf("%w: a key for %d wires (%d public), the circuit has %d (%d public)", ErrBadSectionedKey, h.nbWires, h.nbPublic, len(p.wires), p.nbPublic)
	case h.domainSize != p.domain:
		return fmt.Errorf("%w: a domain of %d, the circuit's is %d", ErrBadSectionedKey, h.domainSize, p.domain)
	}
	p.scalars[SectionA] = skipInfinity(p.wires, h.infinityA, h.nA)
	p.scalars[SectionB1] = skipInfinity(p.wires, h.infinityB, h.nB)
	p.scalars[SectionB2] = p.scalars[SectionB1]
	p.scalars[SectionK] = p.wires[h.nbPublic:]
	p.scalars[SectionZ] = p.h[:h.nZ] // deg h = n − 2
	p.hdr = h
	return nil
}

// skipInfinity is the wires whose point is not infinity (n of them).
func skipInfinity(wires fr.Vector, infinity []bool, n int) []fr.Element {
	out := make([]fr.Element, 0, n)
	for i, inf := range infinity {
		if !inf {
			out = append(out, wires[i])
		}
	}
	return out
}

// quotient is h = (A·B − C)/(Xⁿ − 1), the quotient polynomial's coefficients in bit-reversed
// order (the order of the key's Z points), from the constraints' evaluations a, b, c: each is
// interpolated, evaluated on a coset where Xⁿ − 1 is a constant, combined there, and
// interpolated back. a, b and c are overwritten.
func quotient(a, b, c fr.Vector, domain *fft.Domain) []fr.Element {
	a, b, c = padded(a, domain), padded(b, domain), padded(c, domain)
	for _, v := range []fr.Vector{a, b, c} {
		domain.FFTInverse(v, fft.DIF)         // coefficients, bit-reversed
		domain.FFT(v, fft.DIT, fft.OnCoset()) // on the coset, in order
	}
	zInv := cosetZInv(domain)
	for i := range a {
		a[i].Mul(&a[i], &b[i]).Sub(&a[i], &c[i]).Mul(&a[i], &zInv)
	}
	domain.FFTInverse(a, fft.DIF, fft.OnCoset())
	return a
}

// cosetZInv is 1/(gⁿ − 1): on the coset g·⟨ω⟩, Xⁿ − 1 is gⁿ − 1 everywhere.
func cosetZInv(domain *fft.Domain) fr.Element {
	var zInv, one fr.Element
	one.SetOne()
	zInv.Exp(domain.FrMultiplicativeGen, new(big.Int).SetUint64(domain.Cardinality))
	return *zInv.Sub(&zInv, &one).Inverse(&zInv)
}

// padded is v with zeros up to the domain's size.
func padded(v fr.Vector, domain *fft.Domain) fr.Vector {
	return append(v, make(fr.Vector, int(domain.Cardinality)-len(v))...)
}

// QuotientBy, when set, computes h in place of quotient: the browser's prover sets it to its
// point module's (service/vault/zk/pointwasm/quotient.go), where the Go wasm's emulated 64-bit
// products made the transforms two thirds of a witness's time. It is given quotientInput's
// bytes and the domain's size, and answers h as quotient does, in gnark-crypto's memory layout
// (n elements of four little-endian words); on an error or an answer of another size, quotient
// computes h (TestQuotientByFallsBackToQuotient). An answer of the right size but wrong makes a
// proof the vault's verifier refuses, as any wrong proof: nothing is paid for it.
var QuotientBy func(in []byte, n int) ([]byte, error)

// quotientInput is what the point module's quotient computes h from: 1, ω, ω⁻¹, g, g⁻¹, n⁻¹ and
// 1/(gⁿ − 1), then a, b and c padded to the domain, each element as gnark-crypto keeps it in
// memory (its Montgomery form, four little-endian 64-bit words).
func quotientInput(a, b, c fr.Vector, domain *fft.Domain) []byte {
	var one fr.Element
	one.SetOne()
	consts := []fr.Element{one, domain.Generator, domain.GeneratorInv, domain.FrMultiplicativeGen, domain.FrMultiplicativeGenInv, domain.CardinalityInv, cosetZInv(domain)}
	out := make([]byte, 0, 32*(len(consts)+3*int(domain.Cardinality)))
	for _, v := range []fr.Vector{consts, padded(a, domain), padded(b, domain), padded(c, domain)} {
		for i := range v {
			for _, w := range v[i] {
				out = binary.LittleEndian.AppendUint64(out, w)
			}
		}
	}
	return out
}

// quotientOf is h by QuotientBy where it is set and answers, by quotient otherwise.
func quotientOf(a, b, c fr.Vector, domain *fft.Domain) []fr.Element {
	n := int(domain.Cardinality)
	if QuotientBy != nil {
		if out, err := QuotientBy(quotientInput(a, b, c, domain), n); err == nil && len(out) == 32*n {
			h := make([]fr.Element, n)
			for i := range h {
				for k := range h[i] {
					h[i][k] = binary.LittleEndian.Uint64(out[32*i+8*k:])
				}
			}
			return h
		}
	}
	return quotient(a, b, c, domain)
}
