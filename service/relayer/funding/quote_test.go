package funding

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
)

// A quote's digest is EIP-712's, as go-ethereum's reference implementation (what clef and
// wallets use) hashes the same typed data: any EIP-712 library verifies the relayer's quotes.
func TestAQuoteIsSignedAsEIP712TypedData(t *testing.T) {
	t.Parallel()
	vault := common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	q := Terms{Token: common.HexToAddress("0x41706B4EFE0B6D3F137403109A6384eb2Aa51e85"), Amount: big.NewInt(25_000_000), Partial: true,
		Fee: big.NewInt(1234), FeeReceiver: common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), ExpiresAt: 1_790_000_000,
		Gas: 650_000, FeePerGas: big.NewInt(1_875_000_000), Price: "0.0003", MarginBps: 1000}
	typed := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "version", Type: "string"}, {Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
			"Quote": {{Name: "token", Type: "address"}, {Name: "amount", Type: "uint256"}, {Name: "partial", Type: "bool"}, {Name: "fee", Type: "uint256"},
				{Name: "feeReceiver", Type: "address"}, {Name: "expiresAt", Type: "uint256"}, {Name: "gas", Type: "uint256"},
				{Name: "feePerGas", Type: "uint256"}, {Name: "price", Type: "string"}, {Name: "marginBps", Type: "uint256"}},
		},
		PrimaryType: "Quote",
		Domain:      apitypes.TypedDataDomain{Name: typeddata.Name, Version: typeddata.Version, ChainId: math.NewHexOrDecimal256(1337), VerifyingContract: vault.Hex()},
		Message: apitypes.TypedDataMessage{"token": q.Token.Hex(), "amount": q.Amount.String(), "partial": q.Partial, "fee": q.Fee.String(),
			"feeReceiver": q.FeeReceiver.Hex(), "expiresAt": "1790000000", "gas": "650000", "feePerGas": q.FeePerGas.String(), "price": q.Price, "marginBps": "1000"},
	}
	want, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Digest(1337, vault, q); err != nil || common.BytesToHash(got) != common.BytesToHash(want) {
		t.Fatalf("digest %x (%v), EIP-712's %x", got, err, want)
	}
	q.Partial = false
	if got, err := Digest(1337, vault, q); err != nil || common.BytesToHash(got) == common.BytesToHash(want) {
		t.Fatalf("the digest does not cover partial (%v)", err)
	}
}

// A quote with a negative integer has no digest: its sign is not dropped (-1000 signed as 1000).
func TestAQuoteWithANegativeIntegerHasNoDigest(t *testing.T) {
	t.Parallel()
	base := Terms{Amount: big.NewInt(25_000_000), Fee: big.NewInt(1234), ExpiresAt: 1_790_000_000, Gas: GasWhole,
		FeePerGas: big.NewInt(1_875_000_000), Price: "0.0003", MarginBps: 1000}
	for name, neg := range map[string]func(*Terms){
		"amount":    func(q *Terms) { q.Amount = big.NewInt(-25_000_000) },
		"fee":       func(q *Terms) { q.Fee = big.NewInt(-1234) },
		"expiresAt": func(q *Terms) { q.ExpiresAt = -1_790_000_000 },
		"feePerGas": func(q *Terms) { q.FeePerGas = big.NewInt(-1_875_000_000) },
		"marginBps": func(q *Terms) { q.MarginBps = -1000 },
	} {
		q := base
		neg(&q)
		if d, err := Digest(1337, common.Address{}, q); !errors.Is(err, typeddata.ErrNotUint256) {
			t.Errorf("%s negative: digest %x, err %v; want ErrNotUint256", name, d, err)
		}
	}
}

// The fee is the cost with its margin at the token's price, rounded up: the operator is never
// short of a wei's worth.
func TestAFeeIsTheCostWithItsMarginRoundedUp(t *testing.T) {
	t.Parallel()
	third := Price{Text: "3", rat: big.NewRat(3, 1)}
	for _, c := range []struct {
		gas    uint64
		perGas int64
		p      Price
		margin int64
		want   int64
	}{
		{100, 3, third, 0, 100},    // 300 wei at 3 wei a unit
		{100, 3, third, 1000, 110}, // +10 %
		{100, 1, third, 0, 34},     // 33.3…: up
		{345_000, 1_000_000_000, Price{"0.5", big.NewRat(1, 2)}, 1000, 759_000_000_000_000}, // a price below one wei a unit
	} {
		if got := FeeFor(c.gas, big.NewInt(c.perGas), c.p, c.margin); got.Cmp(big.NewInt(c.want)) != 0 {
			t.Errorf("FeeFor(%d, %d, %s, %d) = %s, want %d", c.gas, c.perGas, c.p.Text, c.margin, got, c.want)
		}
	}
}
