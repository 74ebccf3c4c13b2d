package relayer_test

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// The relayer's tests start relayers with service/relayer/relayertest.

var ctx = context.Background()

// mixCase returns the address with the case of one letter flipped: a wrong EIP-55 checksum.
func mixCase(addr string) string {
	a := common.HexToAddress(addr).Hex()
	b := []byte(a)
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] >= 'a' && b[i] <= 'f':
			b[i] -= 'a' - 'A'
			return string(b)
		case b[i] >= 'A' && b[i] <= 'F':
			b[i] += 'a' - 'A'
			return string(b)
		}
	}
	panic(fmt.Sprintf("no letter in %s", a))
}
