package funding

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
)

// The gas a fee pays for, by kind of reveal (GasWhole, PartialGas): a model rather than an estimate, since a quote
// comes before the proof. It follows eth_estimateGas, not the gas a reveal uses: check.fee_gas
// compares the fee with the reveal's estimate, which is ~1 % above its use (a call forwards only
// 63/64 of the gas left, EIP-150), so a model fitted to the use refused honest reveals paying
// their quote at RELAYER_FEE_MARGIN=0. cmd/gasbench's estimates (docs/gas.md), a fee paid to a
// receiver holding none of the token yet: a whole reveal 347,715 (quoted 351,000); a partial one
// 411,755 at an index of one 1-bit while the root history is not yet full (its new root written
// to an empty slot; 396,802 once it is), at most 21,300 more per further 1-bit, 793,960 at the
// dearest index (2^20 − 1). The constants are those rounded up with ~1 % of headroom (the
// proof's calldata varies by some hundred gas): 394,000 + 21,400 per 1-bit. A quote prices the
// tree's next index; the margin absorbs inserts landing before the reveal, and the relayer's
// check.fee_gas refuses a fee the reveal's estimate finds short.
const (
	GasWhole            = 351_000
	partialGasBase      = 394_000
	partialGasPerOneBit = 21_400
)

// PartialGas is the gas a fee pays for a partial reveal whose change is inserted at leaf index.
func PartialGas(index uint64) uint64 {
	return partialGasBase + partialGasPerOneBit*uint64(bits.OnesCount64(index))
}

// Terms are what a quote says and its signature covers (Digest).
type Terms struct {
	Token       common.Address
	Amount      *big.Int
	Partial     bool
	Fee         *big.Int
	FeeReceiver common.Address
	ExpiresAt   int64 // unix seconds
	Gas         uint64
	FeePerGas   *big.Int
	Price       string // wei per base unit of the token, as RELAYER_TOKEN_PRICES wrote it
	MarginBps   int64
}

// EIP-712, in the relayer's domain (package typeddata): a quote is good for this chain's vault alone.
var quoteType = crypto.Keccak256([]byte("Quote(address token,uint256 amount,bool partial,uint256 fee,address feeReceiver,uint256 expiresAt,uint256 gas,uint256 feePerGas,string price,uint256 marginBps)"))

// Digest is the EIP-712 hash a quote's signature signs. A quote with an integer that is no
// uint256 (a negative one) has none: typeddata.ErrNotUint256.
func Digest(chainID uint64, vault common.Address, q Terms) ([]byte, error) {
	var partial uint64
	if q.Partial {
		partial = 1
	}
	var err error
	word := func(name string, v *big.Int) []byte {
		w, werr := typeddata.Word(v)
		if werr != nil && err == nil {
			err = fmt.Errorf("%s: %w", name, werr)
		}
		return w
	}
	data := crypto.Keccak256(quoteType, common.LeftPadBytes(q.Token.Bytes(), 32), word("amount", q.Amount), typeddata.Uint64(partial), word("fee", q.Fee),
		common.LeftPadBytes(q.FeeReceiver.Bytes(), 32), word("expiresAt", big.NewInt(q.ExpiresAt)), typeddata.Uint64(q.Gas),
		word("feePerGas", q.FeePerGas), crypto.Keccak256([]byte(q.Price)), word("marginBps", big.NewInt(q.MarginBps)))
	if err != nil {
		return nil, err
	}
	return typeddata.Digest(chainID, vault, data), nil
}

// FeeFor is ceil(gas × feePerGas × (1 + marginBps/10000) / price): what a reveal costs the
// operator, in the token's base units.
func FeeFor(gas uint64, feePerGas *big.Int, p Price, marginBps int64) *big.Int {
	wei := new(big.Rat).SetInt(new(big.Int).Mul(new(big.Int).SetUint64(gas), feePerGas))
	wei.Mul(wei, big.NewRat(10_000+marginBps, 10_000))
	units := wei.Quo(wei, p.rat)
	num, den := units.Num(), units.Denom()
	fee := new(big.Int).Add(num, new(big.Int).Sub(den, big.NewInt(1)))
	return fee.Quo(fee, den)
}
