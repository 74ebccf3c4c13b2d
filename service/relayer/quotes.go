package relayer

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A reveal may pay the relayer a fee out of the revealed tokens (the vault's revealWithFee),
// on a quote the relayer signed (POST /quote): the fee covers the gas such a reveal costs at
// the chain's fees of the moment, plus a margin, valued at the token's price (FeeConfig). A
// quote is honoured until it expires as long as its fee still covers the cost of the moment
// without the margin: the margin absorbs the chain's fees rising while a person proves.

// The gas a fee pays for, by kind of reveal: a model rather than an estimate, since a quote
// comes before the proof. It follows eth_estimateGas, not the gas a reveal uses: check.fee_gas
// compares the fee with the reveal's estimate, which is ~1 % above its use (a call forwards only
// 63/64 of the gas left, EIP-150), so a model fitted to the use refused honest reveals paying
// their quote at RELAYER_FEE_MARGIN=0. cmd/gasbench's estimates (docs/gas.md), a fee paid to a
// receiver holding none of the token yet: a whole reveal 347,715 (quoted 351,000); a partial one
// 411,755 at an index of one 1-bit while the root history is not yet full (its new root written
// to an empty slot; 396,802 once it is), at most 21,300 more per further 1-bit, 793,960 at the
// dearest index (2^20 − 1). The constants are those rounded up with ~1 % of headroom (the
// proof's calldata varies by some hundred gas): 394,000 + 21,400 per 1-bit. A quote prices the
// tree's next index; the margin absorbs inserts landing before the reveal, and checkFeeGas
// refuses a fee the reveal's estimate finds short.
const (
	quoteGasWhole       = 351_000
	partialGasBase      = 394_000
	partialGasPerOneBit = 21_400
)

// partialGas is the gas a fee pays for a partial reveal whose change is inserted at leaf index.
func partialGas(index uint64) uint64 {
	return partialGasBase + partialGasPerOneBit*uint64(bits.OnesCount64(index))
}

// quoteGas is the gas a fee pays for a reveal of its kind: a partial one's at the tree's next
// leaf index, read from the chain.
func (r *Relayer) quoteGas(ctx context.Context, partial bool) (uint64, error) {
	if !partial {
		return quoteGasWhole, nil
	}
	next, err := r.figures.nextIndex.get(ctx, r.readNextIndex)
	if err != nil {
		return 0, chainUnavailable(err)
	}
	return partialGas(next), nil
}

// readNextIndex reads the tree's next leaf index: where a change inserted now would go.
func (r *Relayer) readNextIndex(ctx context.Context) (uint64, error) {
	out, err := r.client.Call(ctx, "next_index", r.cfg.Contracts.CommitmentTree, treeABI.PackNextIndex())
	if err != nil {
		return 0, err
	}
	next, err := treeABI.UnpackNextIndex(out)
	return uint64(next), err
}

// quoteTerms are what a quote says and its signature covers (quoteDigest).
type quoteTerms struct {
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

// quoteDigest is the EIP-712 hash a quote's signature signs. A quote with an integer that is no
// uint256 (a negative one) has none: typeddata.ErrNotUint256.
func quoteDigest(chainID uint64, vault common.Address, q quoteTerms) ([]byte, error) {
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

// feeFor is ceil(gas × feePerGas × (1 + marginBps/10000) / price): what a reveal costs the
// operator, in the token's base units.
func feeFor(gas uint64, feePerGas *big.Int, p price, marginBps int64) *big.Int {
	wei := new(big.Rat).SetInt(new(big.Int).Mul(new(big.Int).SetUint64(gas), feePerGas))
	wei.Mul(wei, big.NewRat(10_000+marginBps, 10_000))
	units := wei.Quo(wei, p.rat)
	num, den := units.Num(), units.Denom()
	fee := new(big.Int).Add(num, new(big.Int).Sub(den, big.NewInt(1)))
	return fee.Quo(fee, den)
}

// feePerGas is what the chain charges a transaction now: its base fee and the tip the node
// suggests (what the operator's transactions pay when mined at once), read at most once per
// figuresTTL for every quote and fee check.
func (r *Relayer) feePerGas(ctx context.Context) (*big.Int, error) {
	perGas, err := r.figures.feePerGas.get(ctx, func(ctx context.Context) (*big.Int, error) {
		tip, base, _, err := r.client.Fees(ctx)
		if err != nil {
			return nil, err
		}
		return new(big.Int).Add(base, tip), nil
	})
	if err != nil {
		return nil, chainUnavailable(err)
	}
	return perGas, nil
}

// Quote answers POST /quote: the fee a reveal of amount of token pays, signed.
func (r *Relayer) Quote(ctx context.Context, req relayerapi.QuoteRequest) (relayerapi.Quote, error) {
	fees := r.cfg.Fees
	if !fees.Fees {
		return relayerapi.Quote{}, reject(FeesNotAccepted, "this relayer takes no fees (RELAYER_FUNDING)")
	}
	token, err := address.Parse(req.TokenAddress)
	if err != nil {
		return relayerapi.Quote{}, reject(InvalidInput, "tokenAddress: %v", err)
	}
	amount, ok := new(big.Int).SetString(req.Amount, 10)
	if !ok || amount.Sign() <= 0 || amount.Cmp(maxUint256) > 0 {
		return relayerapi.Quote{}, reject(InvalidInput, "amount must be a decimal integer from 1 to 2^256-1")
	}
	p, ok := fees.priceOf(token)
	if !ok {
		return relayerapi.Quote{}, notPriced(token)
	}
	perGas, err := r.feePerGas(ctx)
	if err != nil {
		return relayerapi.Quote{}, err
	}
	partial := req.Partial != nil && *req.Partial
	gas, err := r.quoteGas(ctx, partial)
	if err != nil {
		return relayerapi.Quote{}, err
	}
	q := quoteTerms{Token: token, Amount: amount, Partial: partial, FeeReceiver: fees.Receiver,
		ExpiresAt: time.Now().Add(fees.QuoteTTL).Unix(), Gas: gas, FeePerGas: perGas, Price: p.text, MarginBps: fees.Margin}
	q.Fee = feeFor(q.Gas, perGas, p, fees.Margin)
	if q.Fee.Sign() == 0 { // a chain charging nothing: the vault takes no fee of nothing
		q.Fee.SetInt64(1)
	}
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("vaultd.fee", q.Fee.String()), attribute.String("vaultd.token", token.Hex()))
	if q.Fee.Cmp(amount) >= 0 {
		return relayerapi.Quote{}, reject(AmountTooSmall, "the relayer's fee for this reveal is %s of the token's base units: the amount %s does not cover it", q.Fee, amount)
	}
	digest, err := quoteDigest(r.chainID, r.cfg.Contracts.Vault, q)
	if err != nil {
		return relayerapi.Quote{}, fmt.Errorf("sign the quote: %w", err)
	}
	sig, err := typeddata.Sign(fees.QuoteKey, digest)
	if err != nil {
		return relayerapi.Quote{}, fmt.Errorf("sign the quote: %w", err)
	}
	return relayerapi.Quote{ChainId: int64(r.chainID), Vault: r.cfg.Contracts.Vault.Hex(), TokenAddress: token.Hex(), Amount: amount.String(),
		Partial: partial, Fee: q.Fee.String(), FeeReceiver: q.FeeReceiver.Hex(), ExpiresAt: q.ExpiresAt, Gas: int64(q.Gas),
		FeePerGas: perGas.String(), Price: q.Price, MarginBps: q.MarginBps,
		Signer: crypto.PubkeyToAddress(fees.QuoteKey.PublicKey).Hex(), Signature: sig}, nil
}

// countFee counts a mined reveal by who paid for it (vaultd_relayer_reveals_funded_total) and
// adds a fee-paying one's fee to vaultd_relayer_fees_earned_total, under its token's address
// (the tokens the relayer prices, by their tokenId).
func (r *Relayer) countFee(tx *types.Transaction, rc *types.Receipt, sponsored bool) {
	if rc.Status != types.ReceiptStatusSuccessful {
		return
	}
	if sponsored {
		r.metrics.funded.WithLabelValues(FundingSponsor).Inc()
		return
	}
	fee, ok := revealFee(tx)
	if !ok {
		r.metrics.funded.WithLabelValues(FundingTreasury).Inc()
		return
	}
	r.metrics.funded.WithLabelValues(FundingFee).Inc()
	signals, _ := revealSignals(tx)
	token := "unpriced" // the price was removed since the reveal was sent
	for addr := range r.cfg.Fees.Prices {
		if id, err := tokenid.Compute(addr, r.chainID); err == nil && id.Cmp(signals[zk.SignalTokenID]) == 0 {
			token = addr.Hex()
		}
	}
	f, _ := new(big.Float).SetInt(fee).Float64()
	r.metrics.feesEarned.WithLabelValues(token).Add(f)
}

func notPriced(token common.Address) *RevealError {
	return reject(TokenNotPriced, "token %s has no price on this relayer: it cannot pay fees", token.Hex())
}

// paidFee is a reveal's fee as parse reads it: the fee (amount and receiver) the proof binds,
// and the quote it was proved on, checked by checkFee.
type paidFee struct {
	zk.Fee
	quote relayerapi.Quote
}

func parseFee(f relayerapi.RevealFee) (*paidFee, error) {
	amount, ok := new(big.Int).SetString(f.Amount, 10)
	if !ok || amount.Sign() <= 0 || amount.Cmp(maxUint256) > 0 {
		return nil, reject(InvalidInput, "fee.amount must be a decimal integer from 1 to 2^256-1")
	}
	receiver, err := address.ParseChecksummed(f.Receiver)
	if err != nil {
		return nil, reject(InvalidInput, "fee.receiver: %v", err)
	}
	if name := negativeIn(f.Quote); name != "" {
		return nil, reject(InvalidInput, "fee.quote.%s must not be negative: send the quote back as POST /quote answered it", name)
	}
	return &paidFee{Fee: zk.Fee{Amount: amount, Receiver: receiver}, quote: f.Quote}, nil
}

// negativeIn names the first of a quote's integers that is negative ("" for none). The document
// lets none through; the relayer refuses them itself, since a negative number has no uint256 to
// be signed as (typeddata.Word).
func negativeIn(q relayerapi.Quote) string {
	for _, n := range []struct {
		name     string
		negative bool
	}{
		{"chainId", q.ChainId < 0},
		{"amount", strings.HasPrefix(q.Amount, "-")},
		{"fee", strings.HasPrefix(q.Fee, "-")},
		{"expiresAt", q.ExpiresAt < 0},
		{"gas", q.Gas < 0},
		{"feePerGas", strings.HasPrefix(q.FeePerGas, "-")},
		{"marginBps", q.MarginBps < 0},
	} {
		if n.negative {
			return n.name
		}
	}
	return ""
}

// termsOf reads a quote as a reveal sends it back (parseFee refused its negative integers).
func termsOf(q relayerapi.Quote) (quoteTerms, []byte, error) {
	t := quoteTerms{Partial: q.Partial, ExpiresAt: q.ExpiresAt, Gas: uint64(q.Gas), Price: q.Price, MarginBps: q.MarginBps}
	var err error
	if t.Token, err = address.Parse(q.TokenAddress); err != nil {
		return t, nil, err
	}
	if t.FeeReceiver, err = address.Parse(q.FeeReceiver); err != nil {
		return t, nil, err
	}
	var ok1, ok2, ok3 bool
	t.Amount, ok1 = new(big.Int).SetString(q.Amount, 10)
	t.Fee, ok2 = new(big.Int).SetString(q.Fee, 10)
	t.FeePerGas, ok3 = new(big.Int).SetString(q.FeePerGas, 10)
	if !ok1 || !ok2 || !ok3 || t.Amount.Cmp(maxUint256) > 0 || t.Fee.Cmp(maxUint256) > 0 || t.FeePerGas.Cmp(maxUint256) > 0 {
		return t, nil, fmt.Errorf("a number does not read")
	}
	sig, err := typeddata.Signature(q.Signature)
	return t, sig, err
}

// checkFunding refuses, before the chain is read, a reveal the relayer's funding does not pay
// for: a sponsor's key it does not take or that is no sponsor's (checkSponsorKey), no fee and
// no sponsor where the treasury pays for none, or a fee where the relayer takes none.
func (r *Relayer) checkFunding(ctx context.Context, a *attempt) error {
	switch fees := r.cfg.Fees; {
	case a.in.sponsorKey != "":
		return r.checkSponsorKey(ctx, a)
	case a.in.voucher != nil:
		return r.checkVoucher(ctx, a)
	case a.in.fee == nil && !fees.Treasury:
		return reject(PaymentRequired, "%s", paymentRequired(fees))
	case a.in.fee != nil && !fees.Fees:
		return reject(FeesNotAccepted, "this relayer takes no fees (RELAYER_FUNDING): send the reveal without one")
	}
	return nil
}

// checkFee is a fee's terms, after the seed's check 5 (which found the proof binds this fee and
// receiver): the receiver is the relayer's, the token has a price, the quote is the relayer's
// own for this reveal and unexpired, and the fee is at least the quote's and covers the quote's
// gas at the chain's fees of the moment (which checkFeeGas values the simulated gas at).
func (r *Relayer) checkFee(ctx context.Context, a *attempt) error {
	fee, fees := a.in.fee, r.cfg.Fees
	if fee.Receiver != fees.Receiver {
		return reject(FeeReceiverMismatch, "the fee is paid to %s, not to this relayer's receiver %s: ask this relayer for a quote and prove the reveal with it", fee.Receiver.Hex(), fees.Receiver.Hex())
	}
	p, ok := fees.priceOf(a.in.token)
	if !ok {
		return notPriced(a.in.token)
	}
	q, sig, err := termsOf(fee.quote)
	var digest []byte
	if err == nil {
		digest, err = quoteDigest(r.chainID, r.cfg.Contracts.Vault, q)
	}
	if err == nil {
		var signer common.Address
		signer, err = typeddata.Signer(digest, sig)
		if err == nil && signer != crypto.PubkeyToAddress(fees.QuoteKey.PublicKey) {
			err = fmt.Errorf("it is not signed by this relayer")
		}
	}
	if err != nil {
		return reject(QuoteInvalid, "the quote is not this relayer's: %v", err)
	}
	switch {
	case q.Token != a.in.token, q.Amount.Cmp(a.in.amount) != 0, q.FeeReceiver != fee.Receiver, q.Partial != a.change:
		return reject(QuoteInvalid, "the quote is for another reveal (its token, amount, receiver or kind, whole or partial, differ)")
	case time.Now().Unix() > q.ExpiresAt:
		return reject(QuoteExpired, "the quote expired at %s: ask POST /quote again and prove the reveal with its fee", time.Unix(q.ExpiresAt, 0).UTC().Format(time.RFC3339))
	case fee.Amount.Cmp(q.Fee) < 0:
		return reject(FeeTooLow, "the fee %s is below the quote's %s", fee.Amount, q.Fee)
	}
	perGas, err := r.feePerGas(ctx)
	if err != nil {
		return err
	}
	a.perGas = perGas
	cost := feeFor(q.Gas, perGas, p, 0)
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("vaultd.fee", fee.Amount.String()), attribute.String("vaultd.cost", cost.String()))
	if fee.Amount.Cmp(cost) < 0 {
		return reject(FeeTooLow, "the fee %s no longer covers the reveal's cost at the chain's fees now (%s): ask POST /quote again and prove the reveal with its fee", fee.Amount, cost)
	}
	return nil
}

// checkFeeGas is a fee's last check, after the simulation (check 7): the fee covers the gas the
// reveal was estimated to use, at the fee per gas checkFee valued it at, without the margin. A
// quote prices a partial reveal at the index its change would take then; inserts landing before
// the reveal may move it to a dearer one (up to ~390,000 gas more), which only the estimate sees.
func (r *Relayer) checkFeeGas(ctx context.Context, a *attempt) error {
	p, ok := r.cfg.Fees.priceOf(a.in.token)
	if !ok {
		return notPriced(a.in.token)
	}
	fee := a.in.fee.Amount
	cost := feeFor(a.simGas, a.perGas, p, 0)
	trace.SpanFromContext(ctx).SetAttributes(attribute.Int64("vaultd.gas_estimate", int64(a.simGas)), attribute.String("vaultd.cost", cost.String()))
	if fee.Cmp(cost) < 0 {
		why := "the reveal needs more gas than a whole reveal is quoted for"
		if a.change {
			why = "the tree's next leaf is dearer than when it was quoted"
		}
		return reject(FeeTooLow, "the fee %s does not cover the reveal's gas: simulated now it uses %d gas, %s of the token's base units at the chain's fees now (%s): ask POST /quote again and prove the reveal with its fee", fee, a.simGas, cost, why)
	}
	return nil
}

// paymentRequired says how a reveal gets paid for where the treasury pays for none.
func paymentRequired(fees FeeConfig) string {
	var ways []string
	if fees.Fees {
		ways = append(ways, "ask POST /quote for a fee, prove the reveal with it and send it with fee")
	}
	if fees.Sponsors {
		ways = append(ways, "send it with a sponsor's "+sponsorKeyHeader)
	}
	return "this relayer does not pay for reveals: " + strings.Join(ways, ", or ")
}
