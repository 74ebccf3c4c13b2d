package relayer

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	"github.com/seed018cc74c/vaultd/service/vault/voucher"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// The wire's requests read into the relayer's own terms (RevealRequest, funding.QuoteRequest), and its
// answers written in the document's (relayerapi): the edge's half of POST /reveal and POST /quote.

// revealWire runs a reveal as it arrived: read (parseReveal) in the relayer's span for it, and its
// outcome as the document writes it.
func (r *Relayer) revealWire(ctx context.Context, req relayerapi.RevealRequest) (relayerapi.RevealResult, error) {
	res, err := r.Reveal(ctx, func() (RevealRequest, error) { return parseReveal(req, sponsorKeyOf(ctx)) })
	return toRevealResult(res), err
}

// quoteWire answers a quote as asked on the wire.
func (r *Relayer) quoteWire(ctx context.Context, req relayerapi.QuoteRequest) (relayerapi.Quote, error) {
	q, err := r.funding.Quote(ctx, func() (funding.QuoteRequest, error) { return parseQuote(req) })
	if err != nil {
		return relayerapi.Quote{}, err
	}
	return toQuote(q), nil
}

// parseQuote reads what a quote is asked for.
func parseQuote(req relayerapi.QuoteRequest) (funding.QuoteRequest, error) {
	token, err := address.Parse(req.TokenAddress)
	if err != nil {
		return funding.QuoteRequest{}, reject(InvalidInput, "tokenAddress: %v", err)
	}
	amount, ok := new(big.Int).SetString(req.Amount, 10)
	if !ok || amount.Sign() <= 0 || amount.Cmp(maxUint256) > 0 {
		return funding.QuoteRequest{}, reject(InvalidInput, "amount must be a decimal integer from 1 to 2^256-1")
	}
	return funding.QuoteRequest{Token: token, Amount: amount, Partial: req.Partial != nil && *req.Partial}, nil
}

// toQuote is a signed quote as the document writes it.
func toQuote(q funding.Quote) relayerapi.Quote {
	t := q.Terms
	return relayerapi.Quote{ChainId: int64(q.ChainID), Vault: q.Vault.Hex(), TokenAddress: t.Token.Hex(), Amount: t.Amount.String(),
		Partial: t.Partial, Fee: t.Fee.String(), FeeReceiver: t.FeeReceiver.Hex(), ExpiresAt: t.ExpiresAt, Gas: int64(t.Gas),
		FeePerGas: t.FeePerGas.String(), Price: t.Price, MarginBps: t.MarginBps, Signer: q.Signer.Hex(), Signature: q.Signature}
}

// toRevealResult is a reveal's outcome as the document writes it: the gas used a decimal string.
func toRevealResult(res RevealResult) relayerapi.RevealResult {
	return relayerapi.RevealResult{Success: res.Success, TxHash: res.TxHash, BlockNumber: res.BlockNumber, GasUsed: fmt.Sprint(res.GasUsed)}
}

// parseReveal reads what the OpenAPI validation let through, with the request's X-Sponsor-Key
// (sponsorKey). The signals' range (below r) is part of check 3, kept like the proof's, so that
// the chain checks of the root and the nullifier, which any 256-bit value can be looked up by,
// come first.
func parseReveal(req relayerapi.RevealRequest, sponsorKey string) (RevealRequest, error) {
	in := RevealRequest{offer: funding.Offer{SponsorKey: sponsorKey}}
	var err error
	if in.signals, err = zk.ParseSignalValues(req.PublicSignals); err != nil {
		return in, reject(InvalidProof, "%v", err)
	}
	in.nullifier = common.BigToHash(in.signals[zk.SignalNullifier])
	pb := make([][]string, len(req.Proof.PiB))
	for i, p := range req.Proof.PiB {
		pb[i] = p
	}
	if err := in.signals.CheckRange(); err != nil {
		in.proofErr = reject(InvalidProof, "%v", err)
	} else if in.proof, err = zk.ParseProof(zk.ProofJSON{PiA: req.Proof.PiA, PiB: pb, PiC: req.Proof.PiC}); err != nil {
		in.proofErr = reject(InvalidProof, "%v", err)
	}
	switch in.recipient, err = address.ParseNonZero(req.Recipient); {
	case errors.Is(err, address.ErrZero):
		in.recipientErr = reject(InvalidRecipient, "recipient is the zero address")
	case err != nil:
		in.recipientErr = reject(InvalidRecipient, "recipient: %v", err)
	}
	if in.token, err = address.Parse(req.TokenAddress); err != nil {
		return in, reject(InvalidInput, "tokenAddress: %v", err)
	}
	amount, ok := new(big.Int).SetString(req.Amount, 10)
	if !ok || amount.Sign() <= 0 || amount.Cmp(maxUint256) > 0 {
		return in, reject(InvalidInput, "amount must be a decimal integer from 1 to 2^256-1")
	}
	in.amount = amount
	if req.Fee != nil {
		if in.offer.Fee, err = parseFee(*req.Fee); err != nil {
			return in, err
		}
	}
	if req.Voucher != nil {
		if in.offer.Voucher, err = parseVoucher(*req.Voucher); err != nil {
			return in, err
		}
	}
	return in, nil
}

// parseFee reads a reveal's fee and the quote it was proved on.
func parseFee(f relayerapi.RevealFee) (*funding.PaidFee, error) {
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
	fee := &funding.PaidFee{Fee: zk.Fee{Amount: amount, Receiver: receiver}}
	fee.Terms, fee.Sig, fee.TermsErr = termsOf(f.Quote)
	return fee, nil
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

// termsOf reads a quote as a reveal sends it back (parseFee refused its negative integers):
// what does not read is the fee's QUOTE_INVALID (its payment's Terms).
func termsOf(q relayerapi.Quote) (funding.Terms, []byte, error) {
	t := funding.Terms{Partial: q.Partial, ExpiresAt: q.ExpiresAt, Gas: uint64(q.Gas), Price: q.Price, MarginBps: q.MarginBps}
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

// parseVoucher reads a reveal's voucher.
func parseVoucher(v relayerapi.Voucher) (*funding.Voucher, error) {
	allowance, ok := new(big.Int).SetString(v.Allowance, 10)
	if !ok || allowance.Sign() < 0 || allowance.Cmp(maxUint256) > 0 {
		return nil, reject(InvalidInput, "voucher.allowance must be a decimal integer of wei from 0 to 2^256-1")
	}
	if v.ExpiresAt < 0 {
		return nil, reject(InvalidInput, "voucher.expiresAt must be unix seconds, not negative")
	}
	sig, err := typeddata.Signature(v.Signature)
	if err != nil {
		return nil, &funding.Refusal{Reason: funding.VoucherInvalid, Message: "the voucher: " + err.Error()}
	}
	return &funding.Voucher{Terms: voucher.Terms{Sponsor: v.Sponsor, Allowance: allowance, ExpiresAt: v.ExpiresAt, ID: common.HexToHash(v.Id), Bearer: v.Bearer != nil && *v.Bearer},
		Sig: sig}, nil
}
