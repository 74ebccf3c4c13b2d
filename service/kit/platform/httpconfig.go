package platform

import (
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// HTTPConfig is what every service's HTTP side needs.
type HTTPConfig struct {
	Port           int
	TrustedProxies Proxies
	LogLevel       slog.Level
	ShutdownGrace  time.Duration
	CORS           CORS
}

// LoadHTTPConfig reads PORT (default defPort), TRUSTED_PROXIES, LOG_LEVEL, SHUTDOWN_GRACE and
// CORS_ALLOWED_ORIGINS.
func LoadHTTPConfig(e *config.Env, defPort int) HTTPConfig {
	return HTTPConfig{
		Port:           int(e.Int("PORT", int64(defPort), 0, 65535)),
		TrustedProxies: LoadProxies(e, "TRUSTED_PROXIES"),
		LogLevel:       e.LogLevel(),
		ShutdownGrace:  e.Duration("SHUTDOWN_GRACE", 30*time.Second),
		CORS:           LoadOrigins(e, "CORS_ALLOWED_ORIGINS"),
	}
}

// LoadProxies reads a comma-separated list of IP addresses, CIDR prefixes and host names.
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
			} else if isHostName(part) {
				out.Hosts = append(out.Hosts, part)
			} else {
				e.Fail("%s: %q is neither an IP address, a CIDR prefix nor a host name", name, part)
			}
		}
	}
	return out
}
