// Package address parses Ethereum addresses the way every vaultd API and tool does: 0x and 40
// hex digits in any letter case, the EIP-55 checksum checked when the case is mixed. It depends
// on nothing heavier than go-ethereum/common, so the browser prover can use it.
package address

import (
	"errors"

	"github.com/ethereum/go-ethereum/common"
)

// ErrBad is returned for text that is not 0x followed by 40 hex digits.
var ErrBad = errors.New("not an address: want 0x followed by 40 hex digits")

// ErrZero is returned by ParseNonZero for the zero address: a value left unset, and what is sent
// to it is lost.
var ErrZero = errors.New("the zero address")

// ErrBadChecksum is returned for a mixed-case address whose letter case is not its EIP-55 checksum.
var ErrBadChecksum = errors.New("address checksum (EIP-55 letter case) does not match")

// Parse reads 0x + 40 hex digits in any letter case.
func Parse(s string) (common.Address, error) {
	if len(s) != 42 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return common.Address{}, ErrBad
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return common.Address{}, ErrBad
		}
	}
	return common.HexToAddress(s), nil
}

// ParseChecksummed is Parse that also checks the EIP-55 checksum when the hex
// digits are of mixed case (all-lowercase and all-uppercase carry no checksum).
func ParseChecksummed(s string) (common.Address, error) {
	a, err := Parse(s)
	if err != nil {
		return a, err
	}
	digits := s[2:]
	hasLower, hasUpper := false, false
	for i := 0; i < len(digits); i++ {
		switch c := digits[i]; {
		case c >= 'a' && c <= 'f':
			hasLower = true
		case c >= 'A' && c <= 'F':
			hasUpper = true
		}
	}
	if hasLower && hasUpper && a.Hex()[2:] != digits {
		return common.Address{}, ErrBadChecksum
	}
	return a, nil
}

// ParseNonZero is ParseChecksummed that also refuses the zero address (ErrZero): every address a
// service is told to pay, list or trust.
func ParseNonZero(s string) (common.Address, error) {
	a, err := ParseChecksummed(s)
	if err == nil && a == (common.Address{}) {
		return a, ErrZero
	}
	return a, err
}
