package edge

import (
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// HTTPConfig is what every service's HTTP side needs.
type HTTPConfig struct {
	Port           int
	TrustedProxies Proxies
	// TrustTraceParent: a caller's traceparent decides whether its request is traced, whoever
	// the caller (TRUST_TRACEPARENT; by default only a trusted proxy's does).
	TrustTraceParent bool
	LogLevel         slog.Level
	ShutdownGrace    time.Duration
	CORS             CORS
}

// LoadHTTPConfig reads PORT (default defPort), TRUSTED_PROXIES, TRUST_TRACEPARENT, LOG_LEVEL,
// SHUTDOWN_GRACE and CORS_ALLOWED_ORIGINS, and checks the tracing settings NewTracerProvider
// reads (OTEL_SDK_DISABLED, OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG), so that a mistake in
// them is listed with the other problems at start.
func LoadHTTPConfig(e *config.Env, defPort int) HTTPConfig {
	getenv := func(name string) string { return e.String(name, "") }
	if _, err := boolSetting(getenv, "OTEL_SDK_DISABLED"); err != nil {
		e.Fail("%v", err)
	}
	if _, err := samplerFromEnv(getenv); err != nil {
		e.Fail("%v", err)
	}
	return HTTPConfig{
		Port:             int(e.Int("PORT", int64(defPort), 0, 65535)),
		TrustedProxies:   LoadProxies(e, "TRUSTED_PROXIES"),
		TrustTraceParent: e.Bool("TRUST_TRACEPARENT", false),
		LogLevel:         e.LogLevel(),
		ShutdownGrace:    e.Duration("SHUTDOWN_GRACE", 30*time.Second),
		CORS:             LoadOrigins(e, "CORS_ALLOWED_ORIGINS"),
	}
}

// LoadProxies reads a comma-separated list of IP addresses, CIDR prefixes and host names. An
// entry that ends in a number (10.0.0.256, 10.0.0) is a mistyped IP address, not a host name: it
// would never resolve, and the proxy it meant would never be trusted.
func LoadProxies(e *config.Env, name string) Proxies {
	var out Proxies
	for _, part := range strings.Split(e.String(name, ""), ",") {
		part = strings.TrimSpace(part)
		switch p, err := netip.ParsePrefix(part); {
		case part == "":
		case err == nil:
			out.Prefixes = append(out.Prefixes, p.Masked())
		default:
			if a, err := netip.ParseAddr(part); err == nil {
				out.Prefixes = append(out.Prefixes, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			} else if endsInNumber(part) {
				_, why, _ := strings.Cut(err.Error(), "): ") // netip's reason, without its ParseAddr("…") prefix
				e.Fail("%s: %q is not a valid IP address (%s)", name, part, why)
			} else if isHostName(part) {
				out.Hosts = append(out.Hosts, part)
			} else {
				e.Fail("%s: %q is neither an IP address, a CIDR prefix nor a host name", name, part)
			}
		}
	}
	return out
}

// MinAdminKeyLen is the shortest admin key accepted.
const MinAdminKeyLen = 16

// AdminConfig is a service's operator routes (/admin/*): the key that opens them (none: they
// answer 404), the address of their own listener (none: they share PORT), their own per-IP
// limit, and this replica's name, under which what an operator sets for it (a pause) is kept.
type AdminConfig struct {
	Key     string
	Addr    string // host:port, or :port (every interface); "" serves them on PORT
	PerIP   ratelimit.Rate
	Replica string
}

// LoadAdminConfig reads ADMIN_API_KEY (or _FILE; optional, at least MinAdminKeyLen characters),
// ADMIN_ADDR (optional; the operator's routes are served there alone, ListenAndServeAdmin),
// ADMIN_RATE_LIMIT_PER_IP (30/1m) and REPLICA_NAME (the host name by default: a container's,
// stable across restarts in compose and Kubernetes StatefulSets).
func LoadAdminConfig(e *config.Env) AdminConfig {
	c := AdminConfig{Key: e.OptionalSecret("ADMIN_API_KEY"), Addr: e.String("ADMIN_ADDR", ""),
		PerIP: ratelimit.FromEnv(e, "ADMIN_RATE_LIMIT_PER_IP", "30/1m"), Replica: e.String("REPLICA_NAME", "")}
	if c.Key != "" && len(c.Key) < MinAdminKeyLen {
		e.Fail("ADMIN_API_KEY must be at least %d characters", MinAdminKeyLen)
	}
	if c.Addr != "" {
		host, port, err := net.SplitHostPort(c.Addr)
		n, perr := strconv.Atoi(port)
		switch {
		case err != nil || perr != nil || n < 1 || n > 65535 || strings.ContainsAny(host, " /"):
			e.Fail("ADMIN_ADDR must be host:port or :port (a port from 1 to 65535), got %q", c.Addr)
		case c.Key == "":
			e.Fail("ADMIN_ADDR is set but ADMIN_API_KEY is not: without a key there are no admin routes to serve there")
		}
	}
	if c.Replica != "" && !printable(c.Replica) {
		e.Fail("REPLICA_NAME must be 1 to 255 printable ASCII characters, got %q", c.Replica)
	}
	if c.Replica == "" {
		if host, err := os.Hostname(); err == nil && host != "" {
			c.Replica = host
		} else {
			c.Replica = "default"
		}
	}
	return c
}

// printable reports whether s is 1 to 255 printable ASCII characters (what PauseState.replica
// may hold).
func printable(s string) bool {
	if len(s) == 0 || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
