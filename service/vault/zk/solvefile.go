//go:build !(js && wasm)

package zk

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bn254"
	"github.com/consensys/gnark/constraint/solver"
)

// The hints the reveal circuit calls, by gnark's names (its solver identifies a hint by its
// function's name).
var solverHints = map[string]byte{
	"github.com/consensys/gnark/constraint/solver.InvZeroHint": instInvZero,
	"github.com/consensys/gnark/std/math/bits.nBits":           instBits,
}

// WriteSolverCircuit writes gnark's compiled R1CS in the solver's encoding (solve.go), its
// instructions in gnark's order. A circuit with an instruction or a hint the solver does not
// know is refused.
func WriteSolverCircuit(ccs *cs.R1CS, w io.Writer) error {
	hints := map[solver.HintID]byte{}
	for id, name := range ccs.MHintsDependencies {
		k, ok := solverHints[name]
		if !ok {
			return fmt.Errorf("the circuit calls hint %s, which the solver does not know", name)
		}
		hints[id] = k
	}
	b := []byte(solverMagic)
	b = binary.BigEndian.AppendUint32(b, solverVersion)
	for _, n := range []int{ccs.GetNbPublicVariables(), ccs.GetNbSecretVariables(), ccs.GetNbPublicVariables() + ccs.GetNbSecretVariables() + ccs.GetNbInternalVariables(), ccs.GetNbConstraints(), len(ccs.Coefficients), len(ccs.Instructions)} {
		b = binary.BigEndian.AppendUint32(b, uint32(n))
	}
	for i := range ccs.Coefficients {
		c := ccs.Coefficients[i].Bytes()
		b = append(b, c[:]...)
	}
	expr := func(e constraint.LinearExpression) error {
		// The terms by wire (their sum's order does not matter): the wires as differences.
		e = slices.Clone(e)
		slices.SortStableFunc(e, func(a, b constraint.Term) int { return cmp.Compare(a.VID, b.VID) })
		b = binary.AppendUvarint(b, uint64(len(e)))
		prev := uint32(0)
		for _, t := range e {
			if t.IsConstant() {
				return fmt.Errorf("a constant term, which R1CS has not")
			}
			b = binary.AppendUvarint(b, uint64(t.VID-prev))
			prev = t.VID
		}
		for _, t := range e {
			b = binary.AppendUvarint(b, uint64(t.CID))
		}
		return nil
	}
	constraints := 0
	for i, pi := range ccs.Instructions {
		inst := pi.Unpack(&ccs.System)
		switch bp := ccs.Blueprints[pi.BlueprintID].(type) {
		case constraint.BlueprintR1C:
			if int(pi.ConstraintOffset) != constraints {
				return fmt.Errorf("instruction %d is constraint %d, not the next (%d)", i, pi.ConstraintOffset, constraints)
			}
			constraints++
			var r constraint.R1C
			bp.DecompressR1C(&r, inst)
			b = append(b, instConstraint)
			for _, e := range []constraint.LinearExpression{r.L, r.R, r.O} {
				if err := expr(e); err != nil {
					return fmt.Errorf("constraint %d: %w", pi.ConstraintOffset, err)
				}
			}
		case *constraint.BlueprintGenericHint:
			var h constraint.HintMapping
			bp.DecompressHint(&h, inst)
			k, ok := hints[h.HintID]
			if !ok || len(h.Inputs) != 1 {
				return fmt.Errorf("instruction %d: hint %d with %d inputs", i, h.HintID, len(h.Inputs))
			}
			b = append(b, k)
			if err := expr(h.Inputs[0]); err != nil {
				return fmt.Errorf("instruction %d: %w", i, err)
			}
			b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(h.OutputRange.Start)), uint64(h.OutputRange.End))
		default:
			return fmt.Errorf("instruction %d: a %T, which the solver does not know", i, bp)
		}
	}
	_, err := w.Write(b)
	return err
}
