package relayer

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/seed018cc74c/vaultd/gen/relayerserver"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// handler is the relayer's HTTP edge: the document's routes (api, through the strict handler),
// every error answered by answer, and each route's admission (its rate limit per client IP or
// per sponsor).
func (r *Relayer) handler(opts Options) (http.Handler, error) {
	var adminIP, statusIP, quoteIP ratelimit.Window = ratelimit.New(r.cfg.Admin.PerIP), ratelimit.New(r.cfg.Limits.StatusPerIP), ratelimit.New(r.cfg.Limits.QuotePerIP)
	if r.redis != nil {
		adminIP = ratelimit.NewRedis(r.redis, "relayer:admin-ip", r.cfg.Admin.PerIP)
		statusIP = ratelimit.NewRedis(r.redis, "relayer:status-ip", r.cfg.Limits.StatusPerIP)
		quoteIP = ratelimit.NewRedis(r.redis, "relayer:quote-ip", r.cfg.Limits.QuotePerIP)
	}
	statusAdmission := edge.ClientAdmission(statusIP, r.cfg.Limits.IPv6Prefix, "status requests per client IP", r.metrics.rateLimited.WithLabelValues("status_ip").Inc)
	admin := edge.ClientAdmission(adminIP, r.cfg.Limits.IPv6Prefix, "admin requests per client IP", r.metrics.rateLimited.WithLabelValues("admin_ip").Inc)
	schema, err := r.sentTxs.db.Versions(context.Background(), Schemas...)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	a := &api{r: r, started: time.Now(), schema: schema}
	strict := relayerserver.NewStrictHandlerWithOptions(a, nil, relayerserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  edge.RequestErrorHandler,
		ResponseErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) { edge.WriteError(w, r, answer(err)) },
	})
	return edge.NewHandler(edge.HandlerOptions{
		SpecYAML: openapi.RelayerYAML, PublicYAML: openapi.RelayerPublicYAML, AdminKey: r.cfg.Admin.Key, TrustedProxies: r.cfg.HTTP.TrustedProxies, TrustTraceParent: r.cfg.HTTP.TrustTraceParent, CORS: r.cfg.HTTP.CORS, Tracer: r.tracer,
		Metrics: opts.Prometheus, Gatherer: opts.Prometheus, Logger: opts.Logger, Answer: answer,
		BodyLimits: map[string]int64{"POST /reveal": 16 << 10, "POST /quote": 1 << 10},
		Admit: wallet.Admit(admin, map[string]edge.Admission{ // every POST /reveal counts, malformed ones too
			// A sponsor's backend sends for many people from few addresses: per sponsor.
			"POST /reveal": r.sponsorAdmission(r.perSponsor, edge.ClientAdmission(r.perIP, r.cfg.Limits.IPv6Prefix, "requests per client IP",
				r.metrics.rateLimited.WithLabelValues("ip").Inc)),
			// A poll, cheap but read from the shared database: its own, larger, limit.
			"GET /reveal/{nullifier}": statusAdmission,
			"GET /sponsor":            r.sponsorAdmission(r.perSponsor, statusAdmission),
			// A quote reads the chain's fees and signs: its own limit.
			"POST /quote": edge.ClientAdmission(quoteIP, r.cfg.Limits.IPv6Prefix, "quote requests per client IP",
				r.metrics.rateLimited.WithLabelValues("quote_ip").Inc),
			"GET /admin/sponsors": admin, "POST /admin/sponsors": admin, // a wrong key counts too
			"POST /admin/sponsors/{id}/credit": admin, "POST /admin/sponsors/{id}/revoke": admin,
		}),
		API: func(rt chi.Router) {
			relayerserver.HandlerWithOptions(strict, relayerserver.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: edge.RequestErrorHandler,
				Middlewares: []relayerserver.MiddlewareFunc{carrySponsorKey}})
			r.walletRoutes().Mount(rt, answer)
		},
	})
}

type sponsorKeyCtx struct{}

// carrySponsorKey puts a request's X-Sponsor-Key where the handlers read it (sponsorKeyOf).
func carrySponsorKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if key := r.Header.Get(funding.SponsorKeyHeader); key != "" {
			r = r.WithContext(context.WithValue(r.Context(), sponsorKeyCtx{}, key))
		}
		next.ServeHTTP(w, r)
	})
}

func sponsorKeyOf(ctx context.Context) string {
	key, _ := ctx.Value(sponsorKeyCtx{}).(string)
	return key
}

// sponsorAdmission counts a request carrying a sponsor's key against that sponsor's limit
// (RATE_LIMIT_PER_SPONSOR, policy "sponsor") instead of otherwise's: a sponsor's backend sends
// for many people from few addresses. A request without a key, or with one that is no
// sponsor's, is counted by otherwise (its IP).
func (r *Relayer) sponsorAdmission(w ratelimit.Window, otherwise edge.Admission) edge.Admission {
	return func(req *http.Request) (ratelimit.Quota, error) {
		key := req.Header.Get(funding.SponsorKeyHeader)
		if key == "" {
			return otherwise(req)
		}
		sp, err := r.funding.Accounts().ByKey(req.Context(), key)
		if err != nil {
			return otherwise(req)
		}
		d, err := w.Allow(req.Context(), sp.ID)
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
