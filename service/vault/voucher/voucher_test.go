package voucher_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	"github.com/seed018cc74c/vaultd/service/vault/voucher"
)

// A voucher with a negative allowance or expiry has no digest (typeddata.ErrNotUint256): its sign
// is never dropped, so a signature over 5 never passes for -5.
func TestAVoucherWithANegativeNumberHasNoDigest(t *testing.T) {
	t.Parallel()
	vault := common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	terms := voucher.Terms{Sponsor: "sp_" + "0123456789abcdef0123456789abcdef", Allowance: big.NewInt(5), ExpiresAt: 1_790_000_000}
	if _, err := voucher.Digest(1337, vault, terms); err != nil {
		t.Fatal(err)
	}
	negative := terms
	negative.Allowance = big.NewInt(-5)
	if d, err := voucher.Digest(1337, vault, negative); !errors.Is(err, typeddata.ErrNotUint256) {
		t.Errorf("allowance -5: digest %x, err %v; want ErrNotUint256", d, err)
	}
	negative = terms
	negative.ExpiresAt = -terms.ExpiresAt
	if d, err := voucher.Digest(1337, vault, negative); !errors.Is(err, typeddata.ErrNotUint256) {
		t.Errorf("expiresAt negative: digest %x, err %v; want ErrNotUint256", d, err)
	}
}
