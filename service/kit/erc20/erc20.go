// Package erc20 reads what an ERC-20 token says of itself (name, symbol, decimals), as tokens
// really answer: strings, or the legacy bytes32 of the oldest tokens; cleaned of what no
// display should show.
package erc20

import (
	"context"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"golang.org/x/sync/errgroup"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// Metadata is what an ERC-20 token says of itself.
type Metadata struct {
	Name     string
	Symbol   string
	Decimals uint8
}

var (
	selName     = crypto.Keccak256([]byte("name()"))[:4]
	selSymbol   = crypto.Keccak256([]byte("symbol()"))[:4]
	selDecimals = crypto.Keccak256([]byte("decimals()"))[:4]
)

// NotTokenError is an address that holds no token: no contract at all (Missing is ""), or a
// contract that does not answer Missing ("name()", "symbol()", "decimals()") as a token does.
type NotTokenError struct {
	Address common.Address
	Missing string
}

func (e *NotTokenError) Error() string {
	if e.Missing == "" {
		return "no contract at " + e.Address.Hex()
	}
	return "the contract at " + e.Address.Hex() + " does not answer " + e.Missing + " as an ERC20 token"
}

// Read reads code, name(), symbol() and decimals() at addr, concurrently. It fails with a
// *NotTokenError when there is no code, or when the contract does not answer one of the three as
// an ERC20 does (string or legacy bytes32 for the names, a value below 256 for decimals), and
// with the client's error (chain.ErrUnavailable) when the node cannot be reached.
func Read(ctx context.Context, c *chain.Client, addr common.Address) (Metadata, error) {
	var (
		md                  Metadata
		code                []byte
		name, symbol, decim []byte
	)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { code, err = c.CodeAt(ctx, addr); return })
	g.Go(func() (err error) { name, err = callOptional(ctx, c, "name", addr, selName); return })
	g.Go(func() (err error) { symbol, err = callOptional(ctx, c, "symbol", addr, selSymbol); return })
	g.Go(func() (err error) { decim, err = callOptional(ctx, c, "decimals", addr, selDecimals); return })
	if err := g.Wait(); err != nil {
		return md, err
	}
	if len(code) == 0 {
		return md, &NotTokenError{Address: addr}
	}
	var ok bool
	if md.Name, ok = decodeName(name); !ok {
		return md, &NotTokenError{Address: addr, Missing: "name()"}
	}
	if md.Symbol, ok = decodeName(symbol); !ok || md.Symbol == "" {
		return md, &NotTokenError{Address: addr, Missing: "symbol()"}
	}
	if md.Decimals, ok = decodeDecimals(decim); !ok {
		return md, &NotTokenError{Address: addr, Missing: "decimals()"}
	}
	return md, nil
}

// callOptional makes an eth_call; a revert (an answer of the node) gives nil output and no
// error, since it only means the contract lacks the function.
func callOptional(ctx context.Context, c *chain.Client, name string, to common.Address, data []byte) ([]byte, error) {
	out, err := c.Call(ctx, name, to, data)
	if chain.IsNodeAnswer(err) {
		return nil, nil
	}
	return out, err
}

// decodeName decodes an ABI string, or a legacy bytes32 (zero-padded on the right). The result
// is cleaned so every entry is well-formed: valid UTF-8, no control characters, no padding.
func decodeName(out []byte) (string, bool) {
	switch {
	case len(out) == 32:
		return clean(string(trimZeros(out))), true
	case len(out) >= 64:
		offset := new(big.Int).SetBytes(out[:32])
		if !offset.IsUint64() || offset.Uint64() > uint64(len(out)-32) {
			return "", false
		}
		o := offset.Uint64()
		length := new(big.Int).SetBytes(out[o : o+32])
		if !length.IsUint64() || length.Uint64() > uint64(len(out))-o-32 {
			return "", false
		}
		return clean(string(out[o+32 : o+32+length.Uint64()])), true
	default:
		return "", false
	}
}

func trimZeros(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// maxNameRunes caps names and symbols read from a contract.
const maxNameRunes = 128

func clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u200b' || r == '\ufeff' {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > maxNameRunes {
		s = string([]rune(s)[:maxNameRunes])
	}
	return s
}

func decodeDecimals(out []byte) (uint8, bool) {
	if len(out) != 32 {
		return 0, false
	}
	v := new(big.Int).SetBytes(out)
	if !v.IsUint64() || v.Uint64() > 255 {
		return 0, false
	}
	return uint8(v.Uint64()), true
}
