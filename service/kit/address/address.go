// Package address parses Ethereum addresses the way every vaultd API and tool does: 0x and 40
// hex digits in any letter case, the EIP-55 checksum checked when the case is mixed. Its Address
// is go-ethereum's Address, but in the browser's prover, which links neither that package
// nor its regexp (raw.go).
package address

import (
	"encoding/hex"
	"errors"
)

// ErrBad is returned for text that is not 0x followed by 40 hex digits.
var ErrBad = errors.New("not an address: want 0x followed by 40 hex digits")

// ErrZero is returned by ParseNonZero for the zero address: a value left unset, and what is sent
// to it is lost.
var ErrZero = errors.New("the zero address")

// ErrBadChecksum is returned for a mixed-case address whose letter case is not its EIP-55 checksum.
var ErrBadChecksum = errors.New("address checksum (EIP-55 letter case) does not match")

// Parse reads 0x + 40 hex digits in any letter case.
func Parse(s string) (Address, error) {
	if len(s) != 42 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return Address{}, ErrBad
	}
	var a Address
	if _, err := hex.Decode(a[:], []byte(s[2:])); err != nil {
		return Address{}, ErrBad
	}
	return a, nil
}

// ParseChecksummed is Parse that also checks the EIP-55 checksum when the hex
// digits are of mixed case (all-lowercase and all-uppercase carry no checksum).
func ParseChecksummed(s string) (Address, error) {
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
		return Address{}, ErrBadChecksum
	}
	return a, nil
}

// ParseNonZero is ParseChecksummed that also refuses the zero address (ErrZero): every address a
// service is told to pay, list or trust.
func ParseNonZero(s string) (Address, error) {
	a, err := ParseChecksummed(s)
	if err == nil && a == (Address{}) {
		return a, ErrZero
	}
	return a, err
}
