package faucet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// The optional gates a claimant passes before it is paid, each off by default and each refused
// with its own code: activity on another chain (an address that holds something or has sent
// transactions there is not one a bot made a second ago), and a captcha verified by its
// provider. They work with any provider that answers as Cloudflare Turnstile and hCaptcha do.

// GatesConfig are the optional gates.
type GatesConfig struct {
	// RPCURL is the other chain's node (GATE_RPC_URL); "" turns the activity gate off.
	RPCURL string
	// MinBalance (GATE_MIN_BALANCE, wei) and MinNonce (GATE_MIN_NONCE, transactions sent) are
	// what the claimant's address must hold and have sent there; at least one is set with RPCURL.
	MinBalance *big.Int
	MinNonce   uint64
	// CaptchaURL is the provider's verify endpoint (CAPTCHA_VERIFY_URL); "" turns the captcha off.
	CaptchaURL string
	// CaptchaSecret is the site's secret for it (CAPTCHA_SECRET); never logged or returned.
	CaptchaSecret string
}

func loadGates(e *config.Env) GatesConfig {
	return GatesConfig{
		RPCURL:        e.String("GATE_RPC_URL", ""),
		MinBalance:    chain.EnvEther(e, "GATE_MIN_BALANCE", "0"),
		MinNonce:      uint64(e.Int("GATE_MIN_NONCE", 0, 0, 1<<40)),
		CaptchaURL:    e.String("CAPTCHA_VERIFY_URL", ""),
		CaptchaSecret: e.OptionalSecret("CAPTCHA_SECRET"),
	}
}

// Validate lists the gates' problems.
func (c GatesConfig) Validate() error {
	var errs []error
	activity := c.MinNonce > 0 || (c.MinBalance != nil && c.MinBalance.Sign() > 0)
	switch {
	case c.RPCURL != "" && !activity:
		errs = append(errs, errors.New("GATE_RPC_URL needs GATE_MIN_BALANCE or GATE_MIN_NONCE: what a claimant must have there"))
	case c.RPCURL == "" && activity:
		errs = append(errs, errors.New("GATE_MIN_BALANCE and GATE_MIN_NONCE need GATE_RPC_URL: the chain to read them on"))
	}
	if c.RPCURL != "" {
		errs = append(errs, chain.ValidateRPCURL("GATE_RPC_URL", c.RPCURL))
	}
	switch {
	case c.CaptchaURL != "" && c.CaptchaSecret == "":
		errs = append(errs, errors.New("CAPTCHA_VERIFY_URL needs CAPTCHA_SECRET (or CAPTCHA_SECRET_FILE)"))
	case c.CaptchaURL == "" && c.CaptchaSecret != "":
		errs = append(errs, errors.New("CAPTCHA_SECRET needs CAPTCHA_VERIFY_URL"))
	}
	if c.CaptchaURL != "" && !config.IsHTTPURL(c.CaptchaURL) {
		errs = append(errs, errors.New("CAPTCHA_VERIFY_URL must be an http(s):// URL"))
	}
	return errors.Join(errs...)
}

// gateTimeout bounds each call a gate makes: a claim waits for it.
const gateTimeout = 5 * time.Second

// gates are the optional gates as the faucet runs them.
type gates struct {
	cfg     GatesConfig
	chain   *chain.Client // the other chain's node; nil: no activity gate
	captcha *http.Client  // nil: no captcha
}

func newGates(cfg GatesConfig) (*gates, error) {
	g := &gates{cfg: cfg}
	if cfg.RPCURL != "" {
		c, err := chain.Dial(cfg.RPCURL, gateTimeout, nil)
		if err != nil {
			return nil, fmt.Errorf("GATE_RPC_URL: %w", err)
		}
		g.chain = c
	}
	if cfg.CaptchaURL != "" {
		g.captcha = &http.Client{Timeout: gateTimeout}
	}
	return g, nil
}

func (g *gates) close() {
	if g.chain != nil {
		g.chain.Close()
	}
}

// check runs the gates for a claim by addr carrying captcha: the activity gate first (it spends
// nothing), the captcha last (a provider's token is good for one verification).
func (g *gates) check(ctx context.Context, addr common.Address, captcha string) error {
	if err := g.checkActivity(ctx, addr); err != nil {
		return err
	}
	return g.checkCaptcha(ctx, captcha)
}

// checkActivity reads addr's balance and nonce on the other chain, at its latest block.
func (g *gates) checkActivity(ctx context.Context, addr common.Address) error {
	if g.chain == nil {
		return nil
	}
	unavailable := func(err error) error {
		return &ClaimError{Reason: GateUnavailable, RetryAfter: 5 * time.Second, Cause: err,
			Message: "the chain this faucet checks claimants on (GATE_RPC_URL) is unavailable, try again later"}
	}
	if min := g.cfg.MinBalance; min != nil && min.Sign() > 0 {
		balance, err := g.chain.BalanceAt(ctx, addr)
		if err != nil {
			return unavailable(err)
		}
		if balance.Cmp(min) < 0 {
			return &ClaimError{Reason: GateBalanceLow,
				Message: fmt.Sprintf("this faucet pays addresses that hold at least %s wei on its gate chain; this one holds %s", min, balance)}
		}
	}
	if g.cfg.MinNonce > 0 {
		nonce, err := g.chain.NonceAt(ctx, addr)
		if err != nil {
			return unavailable(err)
		}
		if nonce < g.cfg.MinNonce {
			return &ClaimError{Reason: GateNonceLow,
				Message: fmt.Sprintf("this faucet pays addresses that have sent at least %d transactions on its gate chain; this one has sent %d", g.cfg.MinNonce, nonce)}
		}
	}
	return nil
}

// captchaAnswer is the provider's answer (Turnstile's and hCaptcha's siteverify shape).
type captchaAnswer struct {
	Success    bool     `json:"success"`
	ErrorCodes []string `json:"error-codes"`
}

// checkCaptcha has the provider verify the claim's token: a form POST of the secret and the
// token, answered with {"success": …}.
func (g *gates) checkCaptcha(ctx context.Context, token string) error {
	if g.captcha == nil {
		return nil
	}
	if token == "" {
		return &ClaimError{Reason: CaptchaRequired, Message: "this faucet asks for a captcha: send its token as captcha"}
	}
	form := url.Values{"secret": {g.cfg.CaptchaSecret}, "response": {token}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.cfg.CaptchaURL, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	unavailable := func(cause error) error {
		return &ClaimError{Reason: CaptchaUnavailable, RetryAfter: 5 * time.Second, Cause: cause,
			Message: "the captcha could not be verified right now (its provider did not answer), try again later"}
	}
	resp, err := g.captcha.Do(req)
	if err != nil {
		return unavailable(errors.New("the captcha provider did not answer")) // its error would name the URL
	}
	defer resp.Body.Close()
	var a captchaAnswer
	if resp.StatusCode != http.StatusOK {
		return unavailable(fmt.Errorf("the captcha provider answered %s", resp.Status))
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&a); err != nil {
		return unavailable(fmt.Errorf("the captcha provider's answer does not decode: %w", err))
	}
	if !a.Success {
		return &ClaimError{Reason: CaptchaInvalid, Message: "the captcha was not accepted (" + captchaWhy(a.ErrorCodes) + "): solve a new one"}
	}
	return nil
}

// captchaWhy is the provider's error codes, kept to their documented alphabet.
func captchaWhy(codes []string) string {
	var kept []string
	for _, c := range codes {
		if len(c) <= 40 && strings.Trim(c, "abcdefghijklmnopqrstuvwxyz-_") == "" {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return "refused"
	}
	return strings.Join(kept, ", ")
}
