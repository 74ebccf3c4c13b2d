package funding

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A reveal may pay the relayer a fee out of the revealed tokens (the vault's revealWithFee),
// on a quote the relayer signed (POST /quote): the fee covers the gas such a reveal costs at
// the chain's fees of the moment, plus a margin, valued at the token's price (Config). A
// quote is honoured until it expires as long as its fee still covers the cost of the moment
// without the margin: the margin absorbs the chain's fees rising while a person proves.

// QuoteRequest is what a quote is asked for: a reveal of amount of token, whole or partial.
type QuoteRequest struct {
	Token   common.Address
	Amount  *big.Int
	Partial bool
}

// Quote is a signed quote: its terms, the chain and vault it is good for, and its signer's
// EIP-712 signature over them (Digest).
type Quote struct {
	Terms     Terms
	ChainID   uint64
	Vault     common.Address
	Signer    common.Address
	Signature string
}

// Quote answers POST /quote: the fee a reveal of amount of token pays, signed. The request is
// read (read, the edge's reading of what arrived) once the relayer is known to take fees.
func (f *Funding) Quote(ctx context.Context, read func() (QuoteRequest, error)) (Quote, error) {
	cfg := f.cfg
	if !cfg.Fees {
		return Quote{}, refuse(FeesNotAccepted, "this relayer takes no fees (RELAYER_FUNDING)")
	}
	req, err := read()
	if err != nil {
		return Quote{}, err
	}
	token, amount := req.Token, req.Amount
	p, ok := cfg.PriceOf(token)
	if !ok {
		return Quote{}, notPriced(token)
	}
	perGas, err := f.feePerGas(ctx)
	if err != nil {
		return Quote{}, err
	}
	gas, err := f.quoteGas(ctx, req.Partial)
	if err != nil {
		return Quote{}, err
	}
	q := Terms{Token: token, Amount: amount, Partial: req.Partial, FeeReceiver: cfg.Receiver,
		ExpiresAt: time.Now().Add(cfg.QuoteTTL).Unix(), Gas: gas, FeePerGas: perGas, Price: p.Text, MarginBps: cfg.Margin}
	q.Fee = quotedFee(q.Gas, perGas, p, cfg.Margin) // a chain charging nothing: still 1, the vault takes no fee of nothing
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("vaultd.fee", q.Fee.String()), attribute.String("vaultd.token", token.Hex()))
	if q.Fee.Cmp(amount) >= 0 {
		return Quote{}, refuse(AmountTooSmall, "the relayer's fee for this reveal is %s of the token's base units: the amount %s does not cover it", q.Fee, amount)
	}
	digest, err := Digest(f.chainID, f.vault, q)
	if err != nil {
		return Quote{}, fmt.Errorf("sign the quote: %w", err)
	}
	sig, err := typeddata.Sign(cfg.QuoteKey, digest)
	if err != nil {
		return Quote{}, fmt.Errorf("sign the quote: %w", err)
	}
	return Quote{Terms: q, ChainID: f.chainID, Vault: f.vault, Signer: crypto.PubkeyToAddress(cfg.QuoteKey.PublicKey), Signature: sig}, nil
}

// quoteGas is the gas a fee pays for a reveal of its kind: a partial one's at the tree's next
// leaf index, read from the chain.
func (f *Funding) quoteGas(ctx context.Context, partial bool) (uint64, error) {
	if !partial {
		return GasWhole, nil
	}
	next, err := f.figures.nextIndex.get(ctx, f.chain.NextIndex)
	if err != nil {
		return 0, err
	}
	return PartialGas(next), nil
}

// feePerGas is what the chain charges a transaction now (Chain.FeePerGas), read at most once per
// figuresTTL for every quote and fee check.
func (f *Funding) feePerGas(ctx context.Context) (*big.Int, error) {
	return f.figures.feePerGas.get(ctx, f.chain.FeePerGas)
}

func notPriced(token common.Address) *Refusal {
	return refuse(TokenNotPriced, "token %s has no price on this relayer: it cannot pay fees", token.Hex())
}

// PaidFee is a reveal's fee as the edge reads it: the fee (amount and receiver) the proof binds, and
// the quote it was proved on: its terms and signature, or why they do not read (kept, not
// returned, so that the chain checks come first).
type PaidFee struct {
	zk.Fee
	Terms    Terms
	Sig      []byte
	TermsErr error
}

// feePayment is a reveal paying a fee, on a quote.
type feePayment struct {
	free
	f      *Funding
	rv     Reveal
	fee    *PaidFee
	perGas *big.Int // the chain's fee per gas Terms valued the fee at
}

func (*feePayment) By() string { return Fee }

// Terms is a fee's terms, after check 5 (which found the proof binds this fee and receiver): the
// receiver is the relayer's, the token has a price, the quote is the relayer's own for this
// reveal and unexpired, and the fee is at least the quote's and covers the quote's gas at the
// chain's fees of the moment (which CoversGas values the simulated gas at).
func (p *feePayment) Terms(ctx context.Context) error {
	fee, cfg := p.fee, p.f.cfg
	if fee.Receiver != cfg.Receiver {
		return refuse(FeeReceiverMismatch, "the fee is paid to %s, not to this relayer's receiver %s: ask this relayer for a quote and prove the reveal with it", fee.Receiver.Hex(), cfg.Receiver.Hex())
	}
	price, ok := cfg.PriceOf(p.rv.Token)
	if !ok {
		return notPriced(p.rv.Token)
	}
	q, sig, err := fee.Terms, fee.Sig, fee.TermsErr
	var digest []byte
	if err == nil {
		digest, err = Digest(p.f.chainID, p.f.vault, q)
	}
	if err == nil {
		var signer common.Address
		signer, err = typeddata.Signer(digest, sig)
		if err == nil && signer != crypto.PubkeyToAddress(cfg.QuoteKey.PublicKey) {
			err = fmt.Errorf("it is not signed by this relayer")
		}
	}
	if err != nil {
		return refuse(QuoteInvalid, "the quote is not this relayer's: %v", err)
	}
	switch {
	case q.Token != p.rv.Token, q.Amount.Cmp(p.rv.Amount) != 0, q.FeeReceiver != fee.Receiver, q.Partial != p.rv.Partial:
		return refuse(QuoteInvalid, "the quote is for another reveal (its token, amount, receiver or kind, whole or partial, differ)")
	case time.Now().Unix() > q.ExpiresAt:
		return refuse(QuoteExpired, "the quote expired at %s: ask POST /quote again and prove the reveal with its fee", time.Unix(q.ExpiresAt, 0).UTC().Format(time.RFC3339))
	case fee.Amount.Cmp(q.Fee) < 0:
		return refuse(FeeTooLow, "the fee %s is below the quote's %s", fee.Amount, q.Fee)
	}
	perGas, err := p.f.feePerGas(ctx)
	if err != nil {
		return err
	}
	p.perGas = perGas
	cost := FeeFor(q.Gas, perGas, price, 0)
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("vaultd.fee", fee.Amount.String()), attribute.String("vaultd.cost", cost.String()))
	if fee.Amount.Cmp(cost) < 0 {
		return refuse(FeeTooLow, "the fee %s no longer covers the reveal's cost at the chain's fees now (%s): ask POST /quote again and prove the reveal with its fee", fee.Amount, cost)
	}
	return nil
}

// CoversGas is a fee's last check, after the simulation (check 7): the fee covers gas, the gas
// the reveal was estimated to use, at the fee per gas Terms valued it at, without the margin. A
// quote prices a partial reveal at the index its change would take then; inserts landing before
// the reveal may move it to a dearer one (up to ~390,000 gas more), which only the estimate sees.
func (p *feePayment) CoversGas(ctx context.Context, gas uint64) error {
	price, ok := p.f.cfg.PriceOf(p.rv.Token)
	if !ok {
		return notPriced(p.rv.Token)
	}
	fee := p.fee.Amount
	cost := FeeFor(gas, p.perGas, price, 0)
	trace.SpanFromContext(ctx).SetAttributes(attribute.Int64("vaultd.gas_estimate", int64(gas)), attribute.String("vaultd.cost", cost.String()))
	if fee.Cmp(cost) < 0 {
		why := "the reveal needs more gas than a whole reveal is quoted for"
		if p.rv.Partial {
			why = "the tree's next leaf is dearer than when it was quoted"
		}
		return refuse(FeeTooLow, "the fee %s does not cover the reveal's gas: simulated now it uses %d gas, %s of the token's base units at the chain's fees now (%s): ask POST /quote again and prove the reveal with its fee", fee, gas, cost, why)
	}
	return nil
}

// TokenFee is what a fee costs now in one token, in its base units, as a quote would answer it
// (unsigned): a whole reveal's and a partial one's at the tree's next leaf index.
type TokenFee struct {
	Token          common.Address
	Price          string
	Whole, Partial *big.Int
}

// Fees is what a fee costs in each priced token at feePerGas, a partial reveal's change going to
// leaf nextIndex, sorted by token address; none where the relayer takes no fees.
func (f *Funding) Fees(feePerGas *big.Int, nextIndex uint64) []TokenFee {
	if !f.cfg.Fees {
		return nil
	}
	out := make([]TokenFee, 0, len(f.cfg.Prices))
	for token, p := range f.cfg.Prices {
		out = append(out, TokenFee{Token: token, Price: p.Text,
			Whole: quotedFee(GasWhole, feePerGas, p, f.cfg.Margin), Partial: quotedFee(PartialGas(nextIndex), feePerGas, p, f.cfg.Margin)})
	}
	slices.SortFunc(out, func(a, b TokenFee) int { return a.Token.Cmp(b.Token) })
	return out
}

// quotedFee is the fee a quote of gas answers: FeeFor, and never nothing (the vault takes no fee
// of nothing).
func quotedFee(gas uint64, feePerGas *big.Int, p Price, marginBps int64) *big.Int {
	fee := FeeFor(gas, feePerGas, p, marginBps)
	if fee.Sign() == 0 {
		fee.SetInt64(1)
	}
	return fee
}
