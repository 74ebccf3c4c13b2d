package edge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-chi/chi/v5"
)

// CodeWalletMismatch is the refusal of an operator's replace or cancel that names a wallet other
// than the replica's own: its nonce N would be another wallet's transaction.
const CodeWalletMismatch = "WALLET_MISMATCH"

// SameWallet checks that named, the wallet an operator's replace or cancel names, is ours, the
// wallet this replica pays from; otherwise a 409 WALLET_MISMATCH, nothing done.
func SameWallet(named string, ours common.Address) error {
	if common.IsHexAddress(named) && common.HexToAddress(named) == ours {
		return nil
	}
	return Errorf(http.StatusConflict, CodeWalletMismatch,
		"this replica pays from %s, not %s: ask that wallet's replica (GET /admin/fleet lists them)", ours.Hex(), named)
}

// A listener's role: with ADMIN_ADDR set, a service's one handler is served on two listeners,
// the public one without the operator's routes and the operator's with them alone
// (ServeSplit); without it, one listener serves every route (Serve).
type listenerRole int

const (
	everyRoute listenerRole = iota
	publicRoutes
	adminRoutes
)

type roleKey struct{}

// adminRoute reports whether r is for one of the operator's routes (/admin and what is under
// it): whether the route the router takes r to, or would take it to under another method (a
// 405), has a pattern under /admin. It asks the router itself, on the path it routes (the
// escaped one when an encoded slash keeps it), so that no spelling of a path (..%2F, //, %2e%2e)
// reaches a route on one listener and is counted for the other.
func adminRoute(r *http.Request) bool {
	rctx := chi.RouteContext(r.Context())
	p := rctx.RoutePath
	if p == "" {
		p = r.URL.RawPath
	}
	if p == "" {
		p = r.URL.Path
	}
	if p == "" {
		p = "/"
	}
	method := rctx.RouteMethod
	if method == "" {
		method = r.Method
	}
	for _, m := range append([]string{method}, routeMethods...) {
		if pattern := rctx.Routes.Find(chi.NewRouteContext(), m, p); pattern != "" {
			return pattern == "/admin" || strings.HasPrefix(pattern, "/admin/")
		}
	}
	return false
}

// routeMethods are the methods a path's routes are looked up under when the request's own has
// none.
var routeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// onItsListener answers 404, as for a route that does not exist, a request that reached the
// listener its route is not served on (an operator's route on the public listener, any other on
// the operator's), whatever its method; the request is counted, traced and logged as any other.
// It runs before routing, after what changes the path or the method routing uses (plainPath,
// GetHead).
func onItsListener(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		role, _ := r.Context().Value(roleKey{}).(listenerRole)
		if role != everyRoute && adminRoute(r) != (role == adminRoutes) {
			WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "no such endpoint"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ServeSplit serves h on two listeners until ctx is done (then as Serve shuts down): public
// with every route but the operator's, which answer 404 there, and admin with the operator's
// routes (/admin/*) alone. If either stops, so does the other.
func ServeSplit(ctx context.Context, public, admin net.Listener, h http.Handler, grace time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	go func() { errc <- serveAs(ctx, public, h, grace, publicRoutes) }()
	go func() { errc <- serveAs(ctx, admin, h, grace, adminRoutes) }()
	err := <-errc
	cancel()
	return errors.Join(err, <-errc)
}

// ListenAndServeAdmin is ListenAndServe with the operator's routes on a listener of their own
// when adminAddr (ADMIN_ADDR) is set: there alone, and 404 on port (ServeSplit).
func ListenAndServeAdmin(ctx context.Context, name string, port int, adminAddr string, h http.Handler, grace time.Duration) error {
	if adminAddr == "" {
		return ListenAndServe(ctx, name, port, h, grace)
	}
	public, err := net.Listen("tcp", net.JoinHostPort("", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	admin, err := net.Listen("tcp", adminAddr)
	if err != nil {
		public.Close()
		return fmt.Errorf("ADMIN_ADDR: %w", err)
	}
	slog.Info(name+" listening", "addr", public.Addr().String(), "admin", admin.Addr().String())
	err = ServeSplit(ctx, public, admin, h, grace)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
