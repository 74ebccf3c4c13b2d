package ceremony

import (
	"math/big"
	"runtime"
	"slices"
	"sync"

	curve "github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	update "github.com/consensys/gnark-crypto/ecc/bn254/mpcsetup"
	"github.com/consensys/gnark-crypto/utils"
	"github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bn254"
)

// initialize is gnark's mpcsetup.Phase2.Initialize computed on every core, for a circuit
// without commitments (the reveal circuit has none; another is left to gnark's). gnark's adds
// each term of each constraint into its wire in turn, in affine coordinates, on one core: for
// the reveal circuit 44.8 s against 24.7 s here, on two cores. The values are the same group elements, and a group element has one affine
// form, so the starting point and the evaluations are the same bytes (TestInitializeIsGnarks).
func initialize(p *mpcsetup.Phase2, r1cs *cs.R1CS, commons *mpcsetup.SrsCommons) mpcsetup.Phase2Evaluations {
	commitments := r1cs.CommitmentInfo.(constraint.Groth16Commitments)
	n := len(commons.G1.AlphaTau)
	if len(commitments) > 0 || n < r1cs.GetNbConstraints() {
		return p.Initialize(r1cs, commons)
	}

	// The Lagrange basis at τ, in G1 and G2, and at ατ and βτ in G1.
	tau1 := lagrangeG1(commons.G1.Tau[:n])
	tau2 := lagrangeG2(commons.G2.Tau[:n])
	alphaTau1 := lagrangeG1(commons.G1.AlphaTau[:n])
	betaTau1 := lagrangeG1(commons.G1.BetaTau[:n])

	var constraints []constraint.R1C // the iterator reuses its constraint: each is copied
	it := r1cs.GetR1CIterator()
	for c := it.Next(); c != nil; c = it.Next() {
		constraints = append(constraints, constraint.R1C{L: clone(c.L), R: clone(c.R), O: clone(c.O)})
	}

	// Each wire's sums: A and B (in G1 and G2) are evaluations, βA + αB + C the wire's part of
	// the keys. Each worker owns the wires w with w mod workers = its number.
	nbInternal, nbSecret, nbPublic := r1cs.GetNbVariables()
	nWires := nbInternal + nbSecret + nbPublic
	a, b1, bA, aB, c := make([]curve.G1Jac, nWires), make([]curve.G1Jac, nWires), make([]curve.G1Jac, nWires), make([]curve.G1Jac, nWires), make([]curve.G1Jac, nWires)
	b2 := make([]curve.G2Jac, nWires)
	g1 := func(sum *curve.G1Jac, t constraint.Term, v *curve.G1Affine) {
		var p curve.G1Jac
		addTerm(sum, p.FromAffine(v), t, r1cs)
	}
	g2 := func(sum *curve.G2Jac, t constraint.Term, v *curve.G2Affine) {
		var p curve.G2Jac
		addTerm(sum, p.FromAffine(v), t, r1cs)
	}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for worker := range workers {
		wg.Go(func() {
			mine := func(t constraint.Term) bool { return int(t.WireID())%workers == worker }
			for i, con := range constraints {
				for _, t := range con.L {
					if mine(t) {
						g1(&a[t.WireID()], t, &tau1[i])
						g1(&bA[t.WireID()], t, &betaTau1[i])
					}
				}
				for _, t := range con.R {
					if mine(t) {
						g1(&b1[t.WireID()], t, &tau1[i])
						g2(&b2[t.WireID()], t, &tau2[i])
						g1(&aB[t.WireID()], t, &alphaTau1[i])
					}
				}
				for _, t := range con.O {
					if mine(t) {
						g1(&c[t.WireID()], t, &tau1[i])
					}
				}
			}
		})
	}
	wg.Wait()

	var evals mpcsetup.Phase2Evaluations
	evals.PublicAndCommitmentCommitted = commitments.GetPublicAndCommitmentCommitted(commitments.CommitmentIndexes(), nbPublic)
	evals.G1.A = curve.BatchJacobianToAffineG1(a)
	evals.G1.B = curve.BatchJacobianToAffineG1(b1)
	evals.G2.B = toAffineG2(b2)
	parallel(nWires, func(j int) { bA[j].AddAssign(&aB[j]).AddAssign(&c[j]) }) // since as yet δ = γ = 1
	keys := curve.BatchJacobianToAffineG1(bA)
	evals.G1.VKK = slices.Clone(keys[:nbPublic])
	evals.G1.CKK = make([][]curve.G1Affine, 0)

	_, _, gen1, gen2 := curve.Generators()
	p.Parameters.G1.Delta = gen1
	p.Parameters.G2.Delta = gen2
	// Z is τⁱ(τⁿ - 1) = τ⁽ⁱ⁺ⁿ⁾ - τⁱ for i ≤ n-2, in bit-reversed order.
	z := make([]curve.G1Affine, n)
	parallel(n-1, func(i int) { z[i].Sub(&commons.G1.Tau[i+n], &commons.G1.Tau[i]) })
	utils.BitReverse(z)
	p.Parameters.G1.Z = z[:n-1]
	p.Parameters.G1.PKK = slices.Clone(keys[nbPublic:])
	p.Parameters.G1.SigmaCKK = make([][]curve.G1Affine, 0)
	p.Parameters.G2.Sigma = make([]curve.G2Affine, 0)
	p.Sigmas = make([]update.UpdateProof, 0)
	p.Challenge = nil
	return evals
}

// addTerm adds the term's coefficient times p to sum (p is changed).
func addTerm[T any, P jacobian[T]](sum, p *T, t constraint.Term, r1cs *cs.R1CS) {
	switch t.CoeffID() {
	case constraint.CoeffIdZero:
		return
	case constraint.CoeffIdOne:
	case constraint.CoeffIdMinusOne:
		P(p).Neg(p)
	case constraint.CoeffIdTwo:
		P(p).DoubleAssign()
	default:
		var c big.Int
		r1cs.Coefficients[t.CoeffID()].BigInt(&c)
		P(p).ScalarMultiplication(p, &c)
	}
	P(sum).AddAssign(p)
}

func clone(e constraint.LinearExpression) constraint.LinearExpression {
	return append(constraint.LinearExpression(nil), e...)
}

// jacobian is what the sums below need of a point in Jacobian coordinates (G1Jac, G2Jac).
type jacobian[T any] interface {
	*T
	AddAssign(*T) *T
	SubAssign(*T) *T
	Neg(*T) *T
	DoubleAssign() *T
	ScalarMultiplication(*T, *big.Int) *T
}

// lagrangeG1 is, for i < n = len(powers), (1/n)·Σⱼ ω⁻ⁱʲ·powers[j] (ω the domain's generator):
// from τ's powers, the Lagrange basis at τ.
func lagrangeG1(powers []curve.G1Affine) []curve.G1Affine {
	v := make([]curve.G1Jac, len(powers))
	for i := range v {
		v[i].FromAffine(&powers[i])
	}
	inverseDFT(v)
	return curve.BatchJacobianToAffineG1(v)
}

// lagrangeG2 is lagrangeG1 in G2.
func lagrangeG2(powers []curve.G2Affine) []curve.G2Affine {
	v := make([]curve.G2Jac, len(powers))
	for i := range v {
		v[i].FromAffine(&powers[i])
	}
	inverseDFT(v)
	return toAffineG2(v)
}

// inverseDFT replaces v by its inverse DFT, (1/n)·Σⱼ ω⁻ⁱʲ·v[j]: an FFT, each stage's
// butterflies on every core.
func inverseDFT[T any, P jacobian[T]](v []T) {
	n := len(v)
	utils.BitReverse(v)
	w, inv := twiddles(n)
	for m := 2; m <= n; m <<= 1 {
		half, step := m/2, n/m
		parallel(n/2, func(k int) {
			i := k/half*m + k%half
			t := v[i+half]
			if k%half != 0 {
				P(&t).ScalarMultiplication(&t, &w[k%half*step])
			}
			v[i+half] = v[i]
			P(&v[i]).AddAssign(&t)
			P(&v[i+half]).SubAssign(&t)
		})
	}
	parallel(n, func(i int) { P(&v[i]).ScalarMultiplication(&v[i], inv) })
}

// twiddles returns ω⁻ᵏ for k < n/2, and 1/n.
func twiddles(n int) ([]big.Int, *big.Int) {
	d := fft.NewDomain(uint64(n))
	w := make([]big.Int, max(n/2, 1))
	var x fr.Element
	x.SetOne()
	for k := range w {
		x.BigInt(&w[k])
		x.Mul(&x, &d.GeneratorInv)
	}
	var inv big.Int
	d.CardinalityInv.BigInt(&inv)
	return w, &inv
}

func toAffineG2(v []curve.G2Jac) []curve.G2Affine {
	out := make([]curve.G2Affine, len(v))
	parallel(len(v), func(i int) { out[i].FromJacobian(&v[i]) })
	return out
}

// parallel calls f(i) for every i < n, on every core.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w * n / workers; i < (w+1)*n/workers; i++ {
				f(i)
			}
		})
	}
	wg.Wait()
}
