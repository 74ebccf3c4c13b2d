package ceremony

import (
	"math/big"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc"
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
// each term of each constraint into its wire in turn, in affine coordinates, on one core; here
// each of a wire's four sums (A and B in G1, B in G2, its part of the keys) is one multi-scalar
// multiplication, the wires shared out between the cores: a wire of the reveal circuit has about
// 57 terms with a coefficient other than ±1 or 2, the constant wire 6,015 (docs/vault.md has
// the timings). The values are the same group elements, and a group element has one affine
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

	// Each wire's terms, by the constraint they are in and their coefficient.
	nbInternal, nbSecret, nbPublic := r1cs.GetNbVariables()
	nWires := nbInternal + nbSecret + nbPublic
	l, r, o := make([][]term, nWires), make([][]term, nWires), make([][]term, nWires)
	it := r1cs.GetR1CIterator()
	for i, con := 0, it.Next(); con != nil; i, con = i+1, it.Next() {
		for _, side := range []struct {
			terms [][]term
			expr  constraint.LinearExpression
		}{{l, con.L}, {r, con.R}, {o, con.O}} {
			for _, t := range side.expr {
				if t.CoeffID() != constraint.CoeffIdZero {
					side.terms[t.WireID()] = append(side.terms[t.WireID()], term{i, r1cs.Coefficients[t.CoeffID()]})
				}
			}
		}
	}

	// Each wire's sums, each a multi-scalar multiplication: A and B (in G1 and G2) are
	// evaluations, βA + αB + C the wire's part of the keys (since as yet δ = γ = 1).
	a, b1, keysJac := make([]curve.G1Jac, nWires), make([]curve.G1Jac, nWires), make([]curve.G1Jac, nWires)
	b2 := make([]curve.G2Jac, nWires)
	parallel(nWires, func(w int) {
		msm(&a[w], sumG1{tau1, l[w]})
		msm(&b1[w], sumG1{tau1, r[w]})
		msm(&b2[w], sumG2{tau2, r[w]})
		msm(&keysJac[w], sumG1{betaTau1, l[w]}, sumG1{alphaTau1, r[w]}, sumG1{tau1, o[w]})
	})

	var evals mpcsetup.Phase2Evaluations
	evals.PublicAndCommitmentCommitted = commitments.GetPublicAndCommitmentCommitted(commitments.CommitmentIndexes(), nbPublic)
	evals.G1.A = curve.BatchJacobianToAffineG1(a)
	evals.G1.B = curve.BatchJacobianToAffineG1(b1)
	evals.G2.B = toAffineG2(b2)
	keys := curve.BatchJacobianToAffineG1(keysJac)
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

// term is a wire's coefficient in one constraint (its index).
type term struct {
	constraint int
	coeff      fr.Element
}

// sumOf is Σ t.coeff·bases[t.constraint] over terms, in G1 or G2 (A: the group's affine points).
type sumOf[A any] struct {
	bases []A
	terms []term
}

type (
	sumG1 = sumOf[curve.G1Affine]
	sumG2 = sumOf[curve.G2Affine]
)

// multiExp is a point in Jacobian coordinates (G1Jac, G2Jac) and its multi-scalar multiplication.
type multiExp[T, A any] interface {
	*T
	MultiExp([]A, []fr.Element, ecc.MultiExpConfig) (*T, error)
}

// msm sets sum to the sum of sums (the identity when there are no terms), on one core: the wires
// are shared out between the cores.
func msm[T, A any, P multiExp[T, A]](sum *T, sums ...sumOf[A]) {
	var points []A
	var scalars []fr.Element
	for _, s := range sums {
		for _, t := range s.terms {
			points, scalars = append(points, s.bases[t.constraint]), append(scalars, t.coeff)
		}
	}
	if len(points) == 0 {
		*sum = *new(T)
		return
	}
	if _, err := P(sum).MultiExp(points, scalars, ecc.MultiExpConfig{NbTasks: 1}); err != nil {
		panic(err) // only for slices of different lengths
	}
}

// jacobian is what the inverse DFT needs of a point in Jacobian coordinates (G1Jac, G2Jac).
type jacobian[T any] interface {
	*T
	AddAssign(*T) *T
	SubAssign(*T) *T
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

// parallel calls f(i) for every i < n, on every core, each taking the next i until none is
// left (the wires' sums differ in size: one has thousands of terms, most a few dozen).
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
