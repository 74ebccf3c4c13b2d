package relayer

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A reveal may pay the relayer a fee out of the revealed tokens (the vault's revealWithFee),
// on a quote the relayer signed (POST /quote): the fee covers the gas such a reveal costs at
// the chain's fees of the moment, plus a margin, valued at the token's price (funding.Config). A
// quote is honoured until it expires as long as its fee still covers the cost of the moment
// without the margin: the margin absorbs the chain's fees rising while a person proves.

// quoteGas is the gas a fee pays for a reveal of its kind: a partial one's at the tree's next
// leaf index, read from the chain.
func (r *Relayer) quoteGas(ctx context.Context, partial bool) (uint64, error) {
	if !partial {
		return funding.GasWhole, nil
	}
	next, err := r.figures.nextIndex.get(ctx, r.readNextIndex)
	if err != nil {
		return 0, chainUnavailable(err)
	}
	return funding.PartialGas(next), nil
}

// readNextIndex reads the tree's next leaf index: where a change inserted now would go.
func (r *Relayer) readNextIndex(ctx context.Context) (uint64, error) {
	out, err := r.client.Call(ctx, "next_index", r.cfg.Contracts.CommitmentTree, vaultABI.PackNextIndex())
	if err != nil {
		return 0, err
	}
	next, err := vaultABI.UnpackNextIndex(out)
	return uint64(next), err
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

// QuoteRequest is what a quote is asked for: a reveal of amount of token, whole or partial.
type QuoteRequest struct {
	Token   common.Address
	Amount  *big.Int
	Partial bool
}

// Quote is a signed quote: its terms, the chain and vault it is good for, and its signer's
// EIP-712 signature over them (funding.Digest).
type Quote struct {
	Terms     funding.Terms
	ChainID   uint64
	Vault     common.Address
	Signer    common.Address
	Signature string
}

// Quote answers POST /quote: the fee a reveal of amount of token pays, signed. The request is
// read (read, the edge's reading of what arrived) once the relayer is known to take fees.
func (r *Relayer) Quote(ctx context.Context, read func() (QuoteRequest, error)) (Quote, error) {
	fees := r.cfg.Fees
	if !fees.Fees {
		return Quote{}, reject(FeesNotAccepted, "this relayer takes no fees (RELAYER_FUNDING)")
	}
	req, err := read()
	if err != nil {
		return Quote{}, err
	}
	token, amount := req.Token, req.Amount
	p, ok := fees.PriceOf(token)
	if !ok {
		return Quote{}, notPriced(token)
	}
	perGas, err := r.feePerGas(ctx)
	if err != nil {
		return Quote{}, err
	}
	gas, err := r.quoteGas(ctx, req.Partial)
	if err != nil {
		return Quote{}, err
	}
	q := funding.Terms{Token: token, Amount: amount, Partial: req.Partial, FeeReceiver: fees.Receiver,
		ExpiresAt: time.Now().Add(fees.QuoteTTL).Unix(), Gas: gas, FeePerGas: perGas, Price: p.Text, MarginBps: fees.Margin}
	q.Fee = funding.FeeFor(q.Gas, perGas, p, fees.Margin)
	if q.Fee.Sign() == 0 { // a chain charging nothing: the vault takes no fee of nothing
		q.Fee.SetInt64(1)
	}
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("vaultd.fee", q.Fee.String()), attribute.String("vaultd.token", token.Hex()))
	if q.Fee.Cmp(amount) >= 0 {
		return Quote{}, reject(AmountTooSmall, "the relayer's fee for this reveal is %s of the token's base units: the amount %s does not cover it", q.Fee, amount)
	}
	digest, err := funding.Digest(r.chainID, r.cfg.Contracts.Vault, q)
	if err != nil {
		return Quote{}, fmt.Errorf("sign the quote: %w", err)
	}
	sig, err := typeddata.Sign(fees.QuoteKey, digest)
	if err != nil {
		return Quote{}, fmt.Errorf("sign the quote: %w", err)
	}
	return Quote{Terms: q, ChainID: r.chainID, Vault: r.cfg.Contracts.Vault, Signer: crypto.PubkeyToAddress(fees.QuoteKey.PublicKey), Signature: sig}, nil
}

// countFee counts a mined reveal by who paid for it (vaultd_relayer_reveals_funded_total) and
// adds a fee-paying one's fee to vaultd_relayer_fees_earned_total, under its token's address
// (the tokens the relayer prices, by their tokenId).
func (r *Relayer) countFee(tx *types.Transaction, rc *types.Receipt, sponsored bool) {
	if rc.Status != types.ReceiptStatusSuccessful {
		return
	}
	if sponsored {
		r.metrics.funded.WithLabelValues(funding.Sponsor).Inc()
		return
	}
	fee, ok := revealFee(tx)
	if !ok {
		r.metrics.funded.WithLabelValues(funding.Treasury).Inc()
		return
	}
	r.metrics.funded.WithLabelValues(funding.Fee).Inc()
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

// paidFee is a reveal's fee as the edge reads it (parseFee): the fee (amount and receiver) the
// proof binds, and the quote it was proved on, checked by checkFee: its terms and signature, or
// why they do not read (kept, not returned, so that the chain checks come first).
type paidFee struct {
	zk.Fee
	terms    funding.Terms
	sig      []byte
	termsErr error
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

// checkFee is a fee's terms, after check 5 (which found the proof binds this fee and
// receiver): the receiver is the relayer's, the token has a price, the quote is the relayer's
// own for this reveal and unexpired, and the fee is at least the quote's and covers the quote's
// gas at the chain's fees of the moment (which checkFeeGas values the simulated gas at).
func (r *Relayer) checkFee(ctx context.Context, a *attempt) error {
	fee, fees := a.in.fee, r.cfg.Fees
	if fee.Receiver != fees.Receiver {
		return reject(FeeReceiverMismatch, "the fee is paid to %s, not to this relayer's receiver %s: ask this relayer for a quote and prove the reveal with it", fee.Receiver.Hex(), fees.Receiver.Hex())
	}
	p, ok := fees.PriceOf(a.in.token)
	if !ok {
		return notPriced(a.in.token)
	}
	q, sig, err := fee.terms, fee.sig, fee.termsErr
	var digest []byte
	if err == nil {
		digest, err = funding.Digest(r.chainID, r.cfg.Contracts.Vault, q)
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
	cost := funding.FeeFor(q.Gas, perGas, p, 0)
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
	p, ok := r.cfg.Fees.PriceOf(a.in.token)
	if !ok {
		return notPriced(a.in.token)
	}
	fee := a.in.fee.Amount
	cost := funding.FeeFor(a.simGas, a.perGas, p, 0)
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
func paymentRequired(fees funding.Config) string {
	var ways []string
	if fees.Fees {
		ways = append(ways, "ask POST /quote for a fee, prove the reveal with it and send it with fee")
	}
	if fees.Sponsors {
		ways = append(ways, "send it with a sponsor's "+sponsorKeyHeader)
	}
	return "this relayer does not pay for reveals: " + strings.Join(ways, ", or ")
}
