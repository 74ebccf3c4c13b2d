package relayer

import (
	"context"
	"errors"
	"math/big"
	"net/http"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// A reveal paid by a sponsor (sponsors.go): who the payer is (checkFunding, before anything is
// read), then the worst case reserved once the gas limit is known (reserveSponsor, a step of
// revealSteps whose undo gives it back), then the debit once mined (sentStore.finish).

// sponsorKeyHeader carries a sponsor's key (openapi/relayer.yaml's sponsorKey).
const sponsorKeyHeader = "X-Sponsor-Key"

// payer is the sponsor paying for a reveal, and the voucher it pays through (none with its key)
// with the voucher's allowance.
type payer struct {
	sponsor   string
	voucher   string
	allowance *big.Int // nil with the key
}

type sponsorKeyCtx struct{}

// carrySponsorKey puts a request's X-Sponsor-Key where the handlers read it (sponsorKeyOf).
func carrySponsorKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if key := r.Header.Get(sponsorKeyHeader); key != "" {
			r = r.WithContext(context.WithValue(r.Context(), sponsorKeyCtx{}, key))
		}
		next.ServeHTTP(w, r)
	})
}

func sponsorKeyOf(ctx context.Context) string {
	key, _ := ctx.Value(sponsorKeyCtx{}).(string)
	return key
}

// checkSponsorKey is checkFunding for a reveal carrying a sponsor's key: the relayer takes
// sponsors, the reveal pays no fee besides, and the key is a sponsor's, not revoked.
func (r *Relayer) checkSponsorKey(ctx context.Context, a *attempt) error {
	if !r.cfg.Fees.Sponsors {
		return reject(SponsorsNotAccepted, "this relayer takes no sponsors (RELAYER_FUNDING): send the reveal without %s", sponsorKeyHeader)
	}
	if a.in.fee != nil || a.in.voucher != nil {
		return reject(InvalidInput, "a reveal is paid by one of a fee, a sponsor's key or a voucher: send it with one")
	}
	sp, err := r.sponsorByKey(ctx, a.in.sponsorKey)
	if err != nil {
		return err
	}
	if sp.revoked() {
		return reject(SponsorRevoked, "the sponsor's key was revoked: it pays for no reveal")
	}
	a.payer = &payer{sponsor: sp.id}
	return nil
}

// sponsorByKey is the sponsor whose key this is; a key that is no sponsor's is refused.
func (r *Relayer) sponsorByKey(ctx context.Context, key string) (sponsor, error) {
	sp, err := r.sponsors.byKey(ctx, key)
	if errors.Is(err, errNoSponsor) {
		return sp, reject(SponsorKeyUnknown, "the %s is no sponsor's", sponsorKeyHeader)
	}
	return sp, err
}

func notSponsored(_ *Relayer, a *attempt) bool { return a.payer == nil }

// reserveSponsor holds the reveal's worst case of its sponsor's balance, given back by the
// reveal's undo when it stops before its send, and settled once its transaction is mined.
func (r *Relayer) reserveSponsor(ctx context.Context, a *attempt) error {
	worst, err := r.tx.WorstCost(ctx, a.gas)
	if err != nil {
		return chainUnavailable(err)
	}
	if allowance := a.payer.allowance; allowance != nil && allowance.Cmp(worst) < 0 {
		return reject(VoucherAllowanceLow, "the voucher allows %s wei, less than this reveal's worst case of %s wei", allowance, worst)
	}
	if err := r.sponsors.reserve(ctx, a.in.nullifier, *a.payer, worst); err != nil {
		return err
	}
	a.took(func(ctx context.Context) {
		if err := r.sponsors.release(ctx, a.in.nullifier); err != nil {
			r.log.Warn("could not give back a sponsor's reservation for a reveal not sent; it is held until the same reveal is asked again", "err", err)
		}
	})
	return nil
}

// sponsorAdmission counts a request carrying a sponsor's key against that sponsor's limit
// (RATE_LIMIT_PER_SPONSOR, policy "sponsor") instead of otherwise's: a sponsor's backend sends
// for many people from few addresses. A request without a key, or with one that is no
// sponsor's, is counted by otherwise (its IP).
func (r *Relayer) sponsorAdmission(w ratelimit.Window, otherwise edge.Admission) edge.Admission {
	return func(req *http.Request) (ratelimit.Quota, error) {
		key := req.Header.Get(sponsorKeyHeader)
		if key == "" {
			return otherwise(req)
		}
		sp, err := r.sponsors.byKey(req.Context(), key)
		if err != nil {
			return otherwise(req)
		}
		d, err := w.Allow(req.Context(), sp.id)
		if err != nil {
			return ratelimit.Quota{}, ratelimit.Unavailable(err)
		}
		q := ratelimit.Quota{Policy: "sponsor", Rate: w.Rate(), Decision: d}
		if !d.OK {
			r.metrics.rateLimited.WithLabelValues("sponsor").Inc()
			return q, ratelimit.Exceeded(w.Rate(), "requests per sponsor", d.Reset)
		}
		return q, nil
	}
}
