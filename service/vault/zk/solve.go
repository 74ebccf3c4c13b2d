package zk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"

	"github.com/seed018cc74c/vaultd/gen/zk/solvecircuit"
)

// The witness solver of the stream prover: the reveal circuit's constraints in vaultd's own
// encoding (gen/zk/solvecircuit, written from gnark's compiled R1CS by `go generate`), solved
// the way gnark's R1CS solver solves them. It lets the browser's prover (cmd/proverwasm) link no
// package of gnark's, only gnark-crypto's: gnark's constraint system, its solver and their
// serialization were a third of the wasm (docs/prover.md, "A witness solver of our own").
//
// The encoding (big-endian, unsigned varints as encoding/binary's):
//
//	8 magic "vaultdCS", 4 version 1
//	4 × 6 public wires (the constant one included), secret wires, wires, constraints, coefficients, instructions
//	32 × coefficients, each an element of Fr, canonical
//	instructions, in the order they are solved, each a kind byte then:
//	  0 (a constraint L·R = O, the next one):  L, R, O, each a linear expression
//	  1, 2 (a hint: 1 1/x or 0 for 0, 2 x's bits): its input (a linear expression), then the first
//	       and one past the last wire it sets (varints)
//	a linear expression: its number of terms, then their wires in increasing order, each as its
//	  difference from the one before (the first from 0), then their coefficients (varints): a
//	  third of the size as brotli of each term's wire and coefficient side by side

// solverMagic and solverVersion open the solver's circuit.
const (
	solverMagic   = "vaultdCS"
	solverVersion = 1
)

// The kinds of instructions.
const (
	instConstraint = 0
	instInvZero    = 1 // gnark's solver.InvZeroHint: 1/x, or 0 for x = 0
	instBits       = 2 // gnark's std/math/bits nBits: x's bits, least significant first
)

// term is coeffs[coeff] · wire.
type term struct{ wire, coeff uint32 }

// instruction is a constraint (l·r = o) or a hint (l its input, wires [from, to) its outputs).
type instruction struct {
	kind     byte
	l, r, o  []term
	from, to uint32
}

// solverCircuit is a constraint system as the solver reads it.
type solverCircuit struct {
	nbPublic, nbSecret, nbWires, nbConstraints int
	coeffs                                     []fr.Element
	coeffInvs                                  []fr.Element // each coefficient's inverse (0 for 0)
	insts                                      []instruction
}

// errBadSolverCircuit is an encoded circuit that cannot be read (gen/zk/solvecircuit is written
// by the build: only a broken build gives one).
var errBadSolverCircuit = errors.New("bad solver circuit")

// readSolverCircuit decodes a circuit in the solver's encoding.
func readSolverCircuit(b []byte) (*solverCircuit, error) {
	bad := func(what string) error { return fmt.Errorf("%w: %s", errBadSolverCircuit, what) }
	if len(b) < 12+24 || string(b[:8]) != solverMagic {
		return nil, bad("not one")
	}
	if v := binary.BigEndian.Uint32(b[8:]); v != solverVersion {
		return nil, bad(fmt.Sprintf("version %d", v))
	}
	var n [6]int
	for i := range n {
		n[i] = int(binary.BigEndian.Uint32(b[12+4*i:]))
	}
	c := &solverCircuit{nbPublic: n[0], nbSecret: n[1], nbWires: n[2], nbConstraints: n[3]}
	nbCoeffs, nbInsts := n[4], n[5]
	b = b[36:]
	if c.nbPublic < 1 || c.nbPublic+c.nbSecret > c.nbWires || c.nbWires > maxWires || nbCoeffs > len(b)/fr.Bytes || nbInsts > len(b) {
		return nil, bad("counts")
	}
	c.coeffs = make([]fr.Element, nbCoeffs)
	for i := range c.coeffs {
		if err := c.coeffs[i].SetBytesCanonical(b[:fr.Bytes]); err != nil {
			return nil, bad(err.Error())
		}
		b = b[fr.Bytes:]
	}
	uvarint := func() (uint32, error) {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > 1<<32-1 {
			return 0, bad("a varint")
		}
		b = b[k:]
		return uint32(v), nil
	}
	// The expressions' terms are cut from slabs rather than allocated one expression at a time:
	// ~20 000 small allocations were most of a read in the browser's wasm, where it is on a
	// visit's first proof (docs/prover.md, "The first proof of a page").
	var slab []term
	expr := func() ([]term, error) {
		n, err := uvarint()
		if err != nil || int(n) > len(b)/2 {
			return nil, bad("a linear expression")
		}
		if int(n) > len(slab) {
			slab = make([]term, max(int(n), 8192))
		}
		e := slab[:n:n]
		slab = slab[n:]
		wire := uint64(0)
		for i := range e {
			d, err := uvarint()
			if err != nil {
				return nil, err
			}
			if wire += uint64(d); wire >= uint64(c.nbWires) {
				return nil, bad("a wire out of range")
			}
			e[i].wire = uint32(wire)
		}
		for i := range e {
			if e[i].coeff, err = uvarint(); err != nil {
				return nil, err
			}
			if int(e[i].coeff) >= nbCoeffs {
				return nil, bad("a coefficient out of range")
			}
		}
		return e, nil
	}
	c.insts = make([]instruction, nbInsts)
	constraints := 0
	for i := range c.insts {
		if len(b) == 0 {
			return nil, bad("cut short")
		}
		in := &c.insts[i]
		in.kind, b = b[0], b[1:]
		var err error
		switch in.kind {
		case instConstraint:
			constraints++
			for _, e := range []*[]term{&in.l, &in.r, &in.o} {
				if *e, err = expr(); err != nil {
					return nil, err
				}
			}
		case instInvZero, instBits:
			if in.l, err = expr(); err != nil {
				return nil, err
			}
			if in.from, err = uvarint(); err != nil {
				return nil, err
			}
			if in.to, err = uvarint(); err != nil {
				return nil, err
			}
			if in.from > in.to || int(in.to) > c.nbWires || (in.kind == instInvZero && in.to-in.from != 1) {
				return nil, bad("a hint's outputs")
			}
		default:
			return nil, bad(fmt.Sprintf("instruction kind %d", in.kind))
		}
	}
	if len(b) != 0 || constraints != c.nbConstraints {
		return nil, bad("its length")
	}
	// A wire solved is divided by its coefficient: inverted once here (one inversion for all of
	// them), rather than once a constraint, which was most of the solver's time.
	c.coeffInvs = fr.BatchInvert(c.coeffs)
	return c, nil
}

// solution is a solved witness: every wire, and each constraint's L, R and O evaluated.
type solution struct {
	wires, a, b, c fr.Vector
}

// solve solves the circuit for its public and secret inputs (the constant one not included), as
// gnark's R1CS solver does: each constraint sets its one wire not yet known, each hint its
// outputs. A witness that does not satisfy a constraint is an error.
func (cs *solverCircuit) solve(inputs fr.Vector) (solution, error) {
	if len(inputs) != cs.nbPublic-1+cs.nbSecret {
		return solution{}, fmt.Errorf("the witness has %d values, the circuit takes %d", len(inputs), cs.nbPublic-1+cs.nbSecret)
	}
	values := make(fr.Vector, cs.nbWires)
	known := make([]bool, cs.nbWires)
	values[0].SetOne()
	copy(values[1:], inputs)
	for i := 0; i < cs.nbPublic+cs.nbSecret; i++ {
		known[i] = true
	}
	s := solution{wires: values, a: make(fr.Vector, cs.nbConstraints), b: make(fr.Vector, cs.nbConstraints), c: make(fr.Vector, cs.nbConstraints)}
	// eval sums e's known terms into v, and returns its unknown term if it has one.
	eval := func(e []term, v *fr.Element) (unknown *term, err error) {
		for i := range e {
			t := &e[i]
			if !known[t.wire] {
				if unknown != nil {
					return nil, errors.New("more than one unknown wire")
				}
				unknown = t
				continue
			}
			switch c := &cs.coeffs[t.coeff]; { // most coefficients are ±1: no multiplication
			case c.IsOne():
				v.Add(v, &values[t.wire])
			case c.Equal(&minusOne):
				v.Sub(v, &values[t.wire])
			default:
				var x fr.Element
				x.Mul(c, &values[t.wire])
				v.Add(v, &x)
			}
		}
		return unknown, nil
	}
	constraint := 0
	for i := range cs.insts {
		in := &cs.insts[i]
		if in.kind != instConstraint {
			var x fr.Element
			if u, err := eval(in.l, &x); err != nil || u != nil {
				return solution{}, fmt.Errorf("instruction %d: a hint whose input is not known", i)
			}
			switch in.kind {
			case instInvZero:
				values[in.from].Inverse(&x) // 0 for 0
			case instBits:
				bits := x.Bytes()
				for w := in.from; w < in.to; w++ {
					k := int(w - in.from)
					if k < 8*fr.Bytes && bits[fr.Bytes-1-k/8]>>(k%8)&1 == 1 {
						values[w].SetOne()
					} else {
						values[w].SetZero()
					}
				}
			}
			for w := in.from; w < in.to; w++ {
				known[w] = true
			}
			continue
		}
		a, b, c := &s.a[constraint], &s.b[constraint], &s.c[constraint]
		var unknown *term
		var loc int
		for k, e := range []struct {
			terms []term
			v     *fr.Element
		}{{in.l, a}, {in.r, b}, {in.o, c}} {
			u, err := eval(e.terms, e.v)
			if err == nil && u != nil && unknown != nil {
				err = errors.New("more than one unknown wire")
			}
			if err != nil {
				return solution{}, fmt.Errorf("constraint %d: %w", constraint, err)
			}
			if u != nil {
				unknown, loc = u, k
			}
		}
		if unknown != nil {
			// coeff·x is the value that satisfies the constraint: L·R = O solved for one term.
			var x fr.Element
			switch {
			case loc == 0 && !b.IsZero():
				x.Div(c, b).Sub(&x, a)
				a.Add(a, &x)
			case loc == 1 && !a.IsZero():
				x.Div(c, a).Sub(&x, b)
				b.Add(b, &x)
			case loc == 2:
				x.Mul(a, b).Sub(&x, c)
				c.Add(c, &x)
			}
			coeff := &cs.coeffs[unknown.coeff]
			switch {
			case coeff.IsZero():
				return solution{}, fmt.Errorf("constraint %d: a wire to solve with a coefficient of 0", constraint)
			case coeff.IsOne():
				values[unknown.wire] = x
			default:
				values[unknown.wire].Mul(&x, &cs.coeffInvs[unknown.coeff])
			}
			known[unknown.wire] = true
		}
		var ab fr.Element
		if !ab.Mul(a, b).Equal(c) {
			return solution{}, fmt.Errorf("%w: constraint %d is not satisfied", ErrUnsatisfied, constraint)
		}
		constraint++
	}
	for w := range known {
		if !known[w] {
			return solution{}, fmt.Errorf("the solver set no value for wire %d", w)
		}
	}
	return s, nil
}

var minusOne = func() (m fr.Element) { m.SetOne(); m.Neg(&m); return }()

// ErrUnsatisfied is a witness the circuit refuses: the request does not prove what it claims.
var ErrUnsatisfied = errors.New("the reveal's witness does not satisfy the circuit")

// SolverCircuitFile is the solver's circuit's file in gen/zk/solvecircuit (what `go generate`
// writes).
const SolverCircuitFile = "reveal.solve"

var (
	solverOnce sync.Once
	solverCS   *solverCircuit
	solverErr  error
)

// solverCircuitOnce is the reveal circuit of gen/zk/solvecircuit, read once: solving does not
// change it.
func solverCircuitOnce() (*solverCircuit, error) {
	solverOnce.Do(func() { solverCS, solverErr = readSolverCircuit(solvecircuit.Circuit) })
	return solverCS, solverErr
}
