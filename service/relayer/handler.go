package relayer

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/seed018cc74c/vaultd/gen/relayerserver"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
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
	a := &api{r: r, started: time.Now()}
	strict := relayerserver.NewStrictHandlerWithOptions(a, nil, relayerserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  edge.RequestErrorHandler,
		ResponseErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) { edge.WriteError(w, r, answer(err)) },
	})
	return edge.NewHandler(edge.HandlerOptions{
		SpecYAML: openapi.RelayerYAML, AdminKey: r.cfg.Admin.Key, TrustedProxies: r.cfg.HTTP.TrustedProxies, TrustTraceParent: r.cfg.HTTP.TrustTraceParent, CORS: r.cfg.HTTP.CORS, Tracer: r.tracer,
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
