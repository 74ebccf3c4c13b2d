// Package funding is who pays for a relayer's reveals (RELAYER_FUNDING): the settings of the
// treasury, fees and sponsors, the tokens' prices, and a fee's quote: its terms, its EIP-712
// digest and the fee a reveal's gas comes to.
package funding

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// Who pays for a reveal (RELAYER_FUNDING): the operator's treasury (every reveal so far), or a
// fee the reveal pays out of the revealed tokens (on a quote), or a sponsor's balance.
const (
	Treasury = "treasury"
	Fee      = "fee"
	Sponsor  = "sponsor"
)

// Config is how the relayer is paid: which funding it accepts, and what a fee-paying reveal
// owes it (a quote).
type Config struct {
	Treasury bool // the operator pays for reveals that carry no fee
	Fees     bool // reveals may pay a fee, on a quote (POST /quote)
	Sponsors bool // reveals may be paid by a sponsor (X-Sponsor-Key, or its voucher)
	// SponsorLow is the balance (wei) a sponsor's crossing under is told (sponsor.balance_low,
	// RELAYER_SPONSOR_LOW_BALANCE, in native tokens).
	SponsorLow *big.Int
	// Prices are each token's price in the native token: wei per base unit of the token
	// (RELAYER_TOKEN_PRICES). A token without one cannot pay fees.
	Prices   map[common.Address]Price
	Receiver common.Address    // who fees are paid to (RELAYER_FEE_RECEIVER; default the operator)
	Margin   int64             // basis points added to the cost of a reveal (RELAYER_FEE_MARGIN)
	QuoteTTL time.Duration     // how long a quote is honoured (RELAYER_QUOTE_TTL)
	QuoteKey *ecdsa.PrivateKey // signs quotes (RELAYER_QUOTE_PRIVATE_KEY; default the operator key); never logged
}

// Price is a token's price: wei of the native token per base unit of the token, as the setting
// wrote it (Text, signed into quotes as it is) and as a number.
type Price struct {
	Text string
	rat  *big.Rat
}

var decimalNumber = regexp.MustCompile(`^[0-9]{1,78}(\.[0-9]{1,78})?$`)

// Load reads RELAYER_FUNDING, RELAYER_TOKEN_PRICES, RELAYER_FEE_RECEIVER,
// RELAYER_FEE_MARGIN, RELAYER_QUOTE_TTL and RELAYER_QUOTE_PRIVATE_KEY (or its _FILE). The
// receiver and the quote key default to operator's (nil: none; the relayer gives the first of
// OPERATOR_PRIVATE_KEYS for replicas, which every replica has): every replica then names one
// receiver and signs with one key, so a quote from one is honoured by the others.
func Load(e *config.Env, operator *ecdsa.PrivateKey) Config {
	c := Config{
		Prices:     map[common.Address]Price{},
		QuoteTTL:   e.Duration("RELAYER_QUOTE_TTL", 5*time.Minute),
		QuoteKey:   chain.EnvPrivateKey(e, "RELAYER_QUOTE_PRIVATE_KEY"),
		SponsorLow: chain.EnvEther(e, "RELAYER_SPONSOR_LOW_BALANCE", "0.1"),
		Receiver:   chain.EnvAddress(e, "RELAYER_FEE_RECEIVER"),
	}
	for _, f := range strings.Split(e.String("RELAYER_FUNDING", Treasury), ",") {
		switch f = strings.TrimSpace(f); f {
		case Treasury:
			c.Treasury = true
		case Fee:
			c.Fees = true
		case Sponsor:
			c.Sponsors = true
		case "":
		default:
			e.Fail("RELAYER_FUNDING: %q is not one of fee, sponsor, treasury", f)
		}
	}
	margin := e.String("RELAYER_FEE_MARGIN", "10")
	if m, err := chain.ParseUnits(margin, 2); err != nil || !m.IsInt64() || m.Int64() > 100_000 {
		e.Fail("RELAYER_FEE_MARGIN must be a percentage from 0 to 1000 with at most 2 decimals, got %q", margin)
	} else {
		c.Margin = m.Int64()
	}
	for i, entry := range strings.Split(e.String("RELAYER_TOKEN_PRICES", ""), ",") {
		if entry = strings.TrimSpace(entry); entry == "" {
			continue
		}
		tok, text, ok := strings.Cut(entry, "=")
		a, err := address.ParseNonZero(strings.TrimSpace(tok))
		text = strings.TrimSpace(text)
		r, _ := new(big.Rat).SetString(text)
		switch {
		case !ok || err != nil:
			e.Fail("RELAYER_TOKEN_PRICES: entry %d is not <token address>=<price>: %q", i+1, entry)
		case !decimalNumber.MatchString(text) || r.Sign() <= 0:
			e.Fail("RELAYER_TOKEN_PRICES: entry %d: the price must be a decimal number above 0 (wei per base unit of the token), got %q", i+1, text)
		default:
			if _, dup := c.Prices[a]; dup {
				e.Fail("RELAYER_TOKEN_PRICES: entry %d prices %s again", i+1, a.Hex())
			}
			c.Prices[a] = Price{Text: text, rat: r}
		}
	}
	if operator != nil {
		if c.QuoteKey == nil {
			c.QuoteKey = operator
		}
		if c.Receiver == (common.Address{}) {
			c.Receiver = crypto.PubkeyToAddress(operator.PublicKey)
		}
	}
	return c
}

// Validate checks what spans several of the settings.
func (c Config) Validate() error {
	var errs []error
	if !c.Treasury && !c.Fees && !c.Sponsors {
		errs = append(errs, errors.New("RELAYER_FUNDING must name fee, sponsor or treasury (or several)"))
	}
	if c.Fees && len(c.Prices) == 0 {
		errs = append(errs, errors.New("RELAYER_FUNDING includes fee, but RELAYER_TOKEN_PRICES prices no token: no reveal could pay one"))
	}
	if !c.Fees && len(c.Prices) > 0 {
		errs = append(errs, errors.New("RELAYER_TOKEN_PRICES is set, but RELAYER_FUNDING does not include fee"))
	}
	if c.Fees && c.QuoteTTL < time.Second {
		errs = append(errs, fmt.Errorf("RELAYER_QUOTE_TTL must be at least 1s, got %s", c.QuoteTTL))
	}
	return errors.Join(errs...)
}

// PriceOf is token's price, and whether it has one.
func (c Config) PriceOf(token common.Address) (Price, bool) {
	p, ok := c.Prices[token]
	return p, ok
}

// Accepted is the funding accepted, as RELAYER_FUNDING names it.
func (c Config) Accepted() []string {
	var out []string
	if c.Fees {
		out = append(out, Fee)
	}
	if c.Sponsors {
		out = append(out, Sponsor)
	}
	if c.Treasury {
		out = append(out, Treasury)
	}
	return out
}
