package zk

import (
	"fmt"
	"math/big"
	"strings"
)

// The public signals of a reveal, in the order the circuit declares them, the verifier checks
// them and the vault's reveal takes them (docs/design.md, "Reveals"). This file is the one place that owns it.
const (
	SignalMerkleRoot       = 0
	SignalNullifier        = 1
	SignalAmount           = 2
	SignalRecipient        = 3
	SignalChangeCommitment = 4
	SignalTokenID          = 5
	NumSignals             = 6
)

// Signals are the six public signals.
type Signals [NumSignals]*big.Int

// Hex renders the signals as 0x + 64 hex digits each, the relayer's request format.
func (s Signals) Hex() []string {
	out := make([]string, NumSignals)
	for i, v := range s {
		out[i] = fmt.Sprintf("0x%064x", v)
	}
	return out
}

// ParseSignals reads six signals given as 0x-hex (or decimal) strings, each below the scalar
// field modulus r.
func ParseSignals(in []string) (Signals, error) {
	s, err := ParseSignalValues(in)
	if err != nil {
		return s, err
	}
	return s, s.CheckRange()
}

// ParseSignalValues reads six signals as integers below 2^256, without the range check: what a
// caller needs to look the root and the nullifier up on chain before the proof's own checks.
func ParseSignalValues(in []string) (Signals, error) {
	var s Signals
	if len(in) != NumSignals {
		return s, fmt.Errorf("want %d public signals, got %d", NumSignals, len(in))
	}
	for i, str := range in {
		v, err := parseInt(str)
		if err != nil {
			return s, fmt.Errorf("publicSignals[%d]: %w", i, err)
		}
		if v.BitLen() > 256 {
			return s, fmt.Errorf("publicSignals[%d]: %s does not fit 256 bits", i, str)
		}
		s[i] = v
	}
	return s, nil
}

// CheckRange reports the first signal that is not below the scalar field modulus r.
func (s Signals) CheckRange() error {
	for i, v := range s {
		if v.Cmp(ScalarField) >= 0 {
			return fmt.Errorf("publicSignals[%d]: %#x is not below the scalar field modulus r", i, v)
		}
	}
	return nil
}

// parseInt reads a non-negative decimal or 0x-hex integer of at most 78 digits.
func parseInt(str string) (*big.Int, error) {
	s := strings.TrimSpace(str)
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s, base = s[2:], 16
	}
	if s == "" || len(s) > 78 {
		return nil, fmt.Errorf("%q is not a number", str)
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
			return nil, fmt.Errorf("%q is not a number", str)
		}
	}
	v, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, fmt.Errorf("%q is not a number", str)
	}
	return v, nil
}
