package registry

import "fmt"

// Reason is why the registry refused a request, in its own terms. The domain code returns a
// *TokenError with one; api.go alone maps each to an HTTP status and code (reasons).
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
)

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
