package registry

import (
	"errors"
	"fmt"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
)

// Reason is why the registry refused a request, in its own terms. The domain code returns a
// *TokenError with one; each reason knows its code (Code), and answers.go alone gives each its
// HTTP status (statuses).
type Reason int

// The reasons.
const (
	TokenNotFound    Reason = iota + 1 // no entry for the address
	NotAContract                       // no code at the address
	NotAToken                          // a contract that does not answer as an ERC-20
	ChainUnavailable                   // the chain did not answer
	BadIcon                            // an icon field that is neither a URL nor image data
	UnsupportedImage                   // image data of a format not accepted, or unreadable
	IconTooLarge                       // image data over ICON_MAX_BYTES
	IconDimensions                     // an image that is not square, or under 32 or over 512 pixels a side
	TokenListEmpty                     // no enabled token: no token list to serve
	IconNotFound                       // no stored icon of that name
	RelayerNotFound                    // no relayer listed under the name
	RelayerExists                      // a relayer's name or URL listed already
	ChainMismatch                      // a relayer of another chain than the registry's
	InvalidRelayer                     // a relayer's name, URL or address that is not one

	reasonsEnd // not a reason: one past the last, for the tests
)

// reasonCodes are the reasons' codes: what a refusal's answer and its span name each with.
var reasonCodes = map[Reason]string{
	TokenNotFound: CodeTokenNotFound, NotAContract: CodeNotAContract, NotAToken: CodeNotAToken,
	ChainUnavailable: edge.CodeChainUnavailable, BadIcon: edge.CodeInvalidRequest, UnsupportedImage: edge.CodeUnsupportedMediaType,
	IconTooLarge: edge.CodePayloadTooLarge, IconDimensions: CodeIconDimensions, TokenListEmpty: CodeTokenListEmpty,
	IconNotFound: edge.CodeNotFound, RelayerNotFound: CodeRelayerNotFound, RelayerExists: CodeRelayerExists,
	ChainMismatch: CodeChainMismatch, InvalidRelayer: edge.CodeInvalidRequest,
}

// Code is the reason's code ("" for a value that is no reason).
func (r Reason) Code() string { return reasonCodes[r] }

// TokenError is a request the registry refused: its reason, a message for the caller, and the
// cause (logged, never sent).
type TokenError struct {
	Reason  Reason
	Message string
	Cause   error
}

func (e *TokenError) Error() string { return e.Message }
func (e *TokenError) Unwrap() error { return e.Cause }

func refuse(reason Reason, format string, args ...any) *TokenError {
	return &TokenError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// named is err as the registry's spans name it: a *TokenError by its reason's code, anything else
// a fault (INTERNAL). The answer's status is answers.go's (answer), which names every error as this
// does (TestRefusalsNameTheCodeTheyAreAnsweredWith).
func named(err error) tracing.Refusal {
	var te *TokenError
	if errors.As(err, &te) && te.Reason.Code() != "" {
		return tracing.Refusal{Code: te.Reason.Code(), Message: te.Message, Fault: te.Reason == ChainUnavailable}
	}
	return tracing.Refusal{Code: edge.CodeInternal, Message: "internal error", Fault: true}
}
