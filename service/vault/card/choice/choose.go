// Package choice chooses the relayer a card's reveal is sent through, fails over to the next,
// and never pays twice (docs/choosing.md, the rules @vaultd/client follows too): Choose asks
// every candidate's GET /status (and POST /quote where the reveal pays a fee) at once, drops
// those that cannot take the reveal, with their reasons, and ranks the rest by fee with a random
// pick within a margin of the cheapest; Send posts the reveal to them one at a time, passing to
// the next only when the one before is known not to have sent it.
package choice

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/kit/address"
)

// APIMajor is the major of the relayer API this client speaks; a relayer of another is dropped.
const APIMajor = 1

// Candidate is a relayer the reveal may be sent through.
type Candidate struct {
	Name string // the directory's name; the URL for one given by URL
	URL  string
}

// URLs are candidates given by their base URLs.
func URLs(urls ...string) []Candidate {
	out := make([]Candidate, len(urls))
	for i, u := range urls {
		out[i] = Candidate{Name: u, URL: u}
	}
	return out
}

// Directory reads the relayers the registry at registryURL lists (GET /relayers.json) for
// chainID: an entry of another chain is left out.
func Directory(ctx context.Context, registryURL string, chainID uint64) ([]Candidate, error) {
	client, err := registryapi.NewClientWithResponses(registryURL)
	if err != nil {
		return nil, err
	}
	resp, err := client.GetRelayerDirectoryWithResponse(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("the registry's directory: %w", err)
	}
	if resp.JSON200 == nil {
		return nil, fmt.Errorf("the registry's directory: %d %s", resp.StatusCode(), resp.Body)
	}
	var out []Candidate
	for _, r := range resp.JSON200.Relayers {
		if uint64(r.ChainId) == chainID {
			out = append(out, Candidate{Name: r.Name, URL: r.Url})
		}
	}
	return out, nil
}

// Pay is how a reveal pays for its gas, as a relayer's status names it (funding.modes).
type Pay string

// The ways a reveal pays.
const (
	Treasury Pay = "treasury" // the relayer's operator, for no fee
	Fee      Pay = "fee"      // a fee out of the tokens revealed, on the relayer's quote
	Sponsor  Pay = "sponsor"  // a sponsor's voucher
)

// Want is what the candidates are asked about: the card's chain and vault, how the reveal
// pays, and, paying a fee, what it reveals and the most it pays.
type Want struct {
	ChainID uint64
	Vault   common.Address
	Pay     Pay
	Token   common.Address
	Amount  *big.Int // revealed, fee included
	Partial bool     // with change
	MaxFee  *big.Int // with Fee: the most the caller pays; nil: no cap
}

// Options tune a choice; the zero value is the doc's defaults.
type Options struct {
	Timeout   time.Duration // for each status and quote; 0: 3 s
	MarginBps int64         // the random pick is among fees within this of the cheapest; 0: 1000 (10 %), negative: none
	MinRunway int64         // reveals a runway must pay for; 0: 1
	Rand      *rand.Rand    // draws the pick; nil: randomly seeded
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 3 * time.Second
	}
	return o.Timeout
}

func (o Options) margin() int64 {
	switch {
	case o.MarginBps == 0:
		return 1000
	case o.MarginBps < 0:
		return 0
	}
	return o.MarginBps
}

// Reason is why a candidate was dropped (docs/choosing.md's table).
type Reason string

// The reasons a candidate is dropped.
const (
	Unreachable Reason = "unreachable"
	OtherChain  Reason = "chain"
	OtherVault  Reason = "vault"
	Version     Reason = "version"
	Paused      Reason = "paused"
	NotReady    Reason = "not-ready"
	Runway      Reason = "runway"
	Funding     Reason = "funding"
	Quote       Reason = "quote"
	FeeCap      Reason = "fee-cap"
)

// Dropped is a candidate left out, and why.
type Dropped struct {
	Candidate
	Reason Reason
	Detail string // what it answered, for people
}

func (d Dropped) String() string { return fmt.Sprintf("%s: %s (%s)", d.Name, d.Reason, d.Detail) }

// Kept is a candidate that takes the reveal, with what it asks for it.
type Kept struct {
	Candidate
	Status relayerapi.RelayerStatus
	Quote  *relayerapi.Quote // paying a fee: its quote
	Fee    *big.Int          // its fee (0 but for Fee)
}

// Choice is the candidates ranked (the chosen first) and those dropped.
type Choice struct {
	Ranked  []Kept
	Dropped []Dropped
}

// Choose asks every candidate how it stands, at once, and ranks those that take the reveal
// (docs/choosing.md, "Choosing").
func Choose(ctx context.Context, cands []Candidate, want Want, opts Options) Choice {
	type result struct {
		kept    *Kept
		dropped *Dropped
	}
	results := make([]result, len(cands))
	var wg sync.WaitGroup
	for i, c := range cands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, d := ask(ctx, c, want, opts)
			results[i] = result{k, d}
		}()
	}
	wg.Wait()
	var ch Choice
	for _, r := range results {
		if r.dropped != nil {
			ch.Dropped = append(ch.Dropped, *r.dropped)
		} else {
			ch.Ranked = append(ch.Ranked, *r.kept)
		}
	}
	ch.Ranked = Rank(ch.Ranked, opts.margin(), opts.Rand)
	return ch
}

// Rank orders kept candidates: one drawn at random among those whose fee is within marginBps
// of the cheapest, the rest of those in random order, then the dearer ones by fee.
func Rank(kept []Kept, marginBps int64, r *rand.Rand) []Kept {
	if r == nil {
		r = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	out := slices.Clone(kept)
	slices.SortStableFunc(out, func(a, b Kept) int { return a.Fee.Cmp(b.Fee) })
	if len(out) == 0 {
		return out
	}
	// within: fee × 10000 ≤ cheapest × (10000 + margin)
	limit := new(big.Int).Mul(out[0].Fee, big.NewInt(10_000+marginBps))
	n := 0
	for n < len(out) && new(big.Int).Mul(out[n].Fee, big.NewInt(10_000)).Cmp(limit) <= 0 {
		n++
	}
	r.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// ask reads one candidate's status (and quote), and keeps or drops it.
func ask(ctx context.Context, c Candidate, want Want, opts Options) (*Kept, *Dropped) {
	drop := func(r Reason, format string, args ...any) (*Kept, *Dropped) {
		return nil, &Dropped{Candidate: c, Reason: r, Detail: fmt.Sprintf(format, args...)}
	}
	client, err := relayerapi.NewClientWithResponses(c.URL, relayerapi.WithHTTPClient(&http.Client{Timeout: opts.timeout()}))
	if err != nil {
		return drop(Unreachable, "%v", err)
	}
	var quote *relayerapi.QuoteResponse
	var quoteErr error
	var wg sync.WaitGroup
	if want.Pay == Fee {
		wg.Add(1)
		go func() {
			defer wg.Done()
			partial := want.Partial
			quote, quoteErr = client.QuoteWithResponse(ctx, relayerapi.QuoteRequest{TokenAddress: want.Token.Hex(), Amount: want.Amount.String(), Partial: &partial})
		}()
	}
	st, err := client.GetStatusWithResponse(ctx)
	wg.Wait()
	switch {
	case err != nil:
		return drop(Unreachable, "GET /status: %v", err)
	case st.JSON200 == nil:
		return drop(Unreachable, "GET /status answered %d", st.StatusCode())
	}
	s := *st.JSON200
	vault, _ := address.Parse(s.Vault)
	major, _, _ := strings.Cut(s.ApiVersion, ".")
	switch {
	case uint64(s.ChainId) != want.ChainID:
		return drop(OtherChain, "it serves chain %d, the card is of chain %d", s.ChainId, want.ChainID)
	case vault != want.Vault:
		return drop(OtherVault, "it serves vault %s, the card is of %s", s.Vault, want.Vault.Hex())
	case major != strconv.Itoa(APIMajor):
		return drop(Version, "its API is %s, this client speaks %d", s.ApiVersion, APIMajor)
	case s.Paused:
		return drop(Paused, "an operator paused it")
	case !s.Ready:
		code := "not ready"
		if s.NotReady != nil {
			code = *s.NotReady
		}
		return drop(NotReady, "%s", code)
	case s.Runway == nil:
		return drop(Runway, "its runway is not read yet")
	}
	runway := s.Runway.Reveals
	if l := s.Runway.SpendLimitReveals; l != nil && *l < runway {
		runway = *l
	}
	minRunway := opts.MinRunway
	if minRunway <= 0 {
		minRunway = 1
	}
	if runway < minRunway {
		return drop(Runway, "it pays for %d reveals now, fewer than %d", runway, minRunway)
	}
	if !slices.Contains(s.Funding.Modes, string(want.Pay)) {
		return drop(Funding, "it takes %s, this reveal pays by %s", strings.Join(s.Funding.Modes, ", "), want.Pay)
	}
	k := &Kept{Candidate: c, Status: s, Fee: new(big.Int)}
	if want.Pay != Fee {
		return k, nil
	}
	switch {
	case quoteErr != nil:
		return drop(Quote, "POST /quote: %v", quoteErr)
	case quote.JSON200 == nil:
		return drop(Quote, "POST /quote answered %d %s", quote.StatusCode(), codeOf(quote.Body))
	}
	q := quote.JSON200
	fee, ok := new(big.Int).SetString(q.Fee, 10)
	if _, err := address.Parse(q.FeeReceiver); !ok || err != nil {
		return drop(Quote, "its quote does not read: fee %q, receiver %q", q.Fee, q.FeeReceiver)
	}
	if want.MaxFee != nil && fee.Cmp(want.MaxFee) > 0 {
		return drop(FeeCap, "its fee is %s, above the most paid, %s", fee, want.MaxFee)
	}
	k.Quote, k.Fee = q, fee
	return k, nil
}
