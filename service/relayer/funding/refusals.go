package funding

import (
	"errors"
	"fmt"
)

// Error codes of who pays (docs/design.md, "Error codes"; openapi/relayer.yaml). 402: pay, on a
// new quote, or with more of a sponsor's balance; 401, 403: a sponsor's key; 409: used; 422: this
// relayer will not take it.
const (
	CodePaymentRequired     = "PAYMENT_REQUIRED"
	CodeFeeTooLow           = "FEE_TOO_LOW"
	CodeQuoteExpired        = "QUOTE_EXPIRED"
	CodeFeesNotAccepted     = "FEES_NOT_ACCEPTED"
	CodeFeeReceiverMismatch = "FEE_RECEIVER_MISMATCH"
	CodeTokenNotPriced      = "TOKEN_NOT_PRICED"
	CodeQuoteInvalid        = "QUOTE_INVALID"
	CodeAmountTooSmall      = "AMOUNT_TOO_SMALL"

	CodeSponsorKeyUnknown   = "SPONSOR_KEY_UNKNOWN"
	CodeSponsorRevoked      = "SPONSOR_REVOKED"
	CodeSponsorBalanceLow   = "SPONSOR_BALANCE_LOW"
	CodeSponsorsNotAccepted = "SPONSORS_NOT_ACCEPTED"
	CodeVoucherInvalid      = "VOUCHER_INVALID"
	CodeVoucherExpired      = "VOUCHER_EXPIRED"
	CodeVoucherUsed         = "VOUCHER_USED"
	CodeVoucherAllowanceLow = "VOUCHER_ALLOWANCE_LOW"
	// CodeIdempotencyKeyReused is the 409 of a credit whose Idempotency-Key was another's.
	CodeIdempotencyKeyReused = "IDEMPOTENCY_KEY_REUSED"
)

// Reason is why funding will not pay for a reveal, or took no operator's credit. Each knows its
// code (Code); the relayer's answers.go gives each its HTTP status. Nothing is sent for a reveal
// refused with one.
type Reason int

// The reasons.
const (
	PaymentRequired     Reason = iota + 1 // no fee, and the treasury pays for none (RELAYER_FUNDING)
	FeesNotAccepted                       // a fee or a quote asked of a relayer that takes none
	FeeReceiverMismatch                   // the fee is paid to another receiver than the relayer's
	TokenNotPriced                        // the token has no price: it cannot pay fees
	QuoteInvalid                          // the quote is not the relayer's signature over this reveal's terms
	QuoteExpired                          // the quote's life is over
	FeeTooLow                             // below the quote's fee, or the cost of the moment
	AmountTooSmall                        // a quote's fee would be the whole amount or more

	SponsorKeyUnknown   // the X-Sponsor-Key is no sponsor's
	SponsorRevoked      // the sponsor's key was revoked
	SponsorBalanceLow   // less available than the reveal's worst case
	SponsorsNotAccepted // a sponsor's key or voucher at a relayer that takes none
	VoucherInvalid      // not signed by the sponsor's voucher signer over these terms, or no sponsor's
	VoucherExpired      // past its expiresAt
	VoucherUsed         // its id paid for another reveal already
	VoucherAllowanceLow // its allowance is below the reveal's worst case

	// IdempotencyKeyReused: an operator's credit carries the Idempotency-Key of another credit
	// (another sponsor or amount); nothing was credited.
	IdempotencyKeyReused
)

var codes = map[Reason]string{
	PaymentRequired: CodePaymentRequired, FeesNotAccepted: CodeFeesNotAccepted, FeeReceiverMismatch: CodeFeeReceiverMismatch,
	TokenNotPriced: CodeTokenNotPriced, QuoteInvalid: CodeQuoteInvalid, QuoteExpired: CodeQuoteExpired,
	FeeTooLow: CodeFeeTooLow, AmountTooSmall: CodeAmountTooSmall,

	SponsorKeyUnknown: CodeSponsorKeyUnknown, SponsorRevoked: CodeSponsorRevoked, SponsorBalanceLow: CodeSponsorBalanceLow,
	SponsorsNotAccepted: CodeSponsorsNotAccepted, VoucherInvalid: CodeVoucherInvalid, VoucherExpired: CodeVoucherExpired,
	VoucherUsed: CodeVoucherUsed, VoucherAllowanceLow: CodeVoucherAllowanceLow,

	IdempotencyKeyReused: CodeIdempotencyKeyReused,
}

// Code is the reason's code ("" for a value that is no reason: the reasons run from
// PaymentRequired up to the first without one).
func (r Reason) Code() string { return codes[r] }

// Refusal is funding's refusal: its reason, and the message the caller is told.
type Refusal struct {
	Reason  Reason
	Message string
}

func (e *Refusal) Error() string { return e.Message }

func refuse(reason Reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// The two refusals funding leaves to the relayer to name, since they are not about who pays: a
// request offering more than one way to pay (a malformed request), and a reservation another
// attempt at the same reveal holds (the nullifier is being revealed).
var (
	ErrOnePayer   = errors.New("a reveal is paid by one of a fee, a sponsor's key or a voucher: send it with one")
	ErrInProgress = errors.New("another request for this reveal holds its sponsor's reservation and is sending it")
)

// ErrNoSponsor is an id or a key that names no sponsor.
var ErrNoSponsor = errors.New("no such sponsor")
