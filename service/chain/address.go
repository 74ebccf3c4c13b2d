package chain

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/address"
)

// The address errors (package address).
var (
	ErrBadAddress  = address.ErrBad
	ErrBadChecksum = address.ErrBadChecksum
)

// ParseAddress is address.Parse: 0x + 40 hex digits in any letter case.
func ParseAddress(s string) (common.Address, error) { return address.Parse(s) }

// ParseChecksummedAddress is address.ParseChecksummed: ParseAddress that also checks the EIP-55
// checksum when the hex digits are of mixed case.
func ParseChecksummedAddress(s string) (common.Address, error) { return address.ParseChecksummed(s) }
