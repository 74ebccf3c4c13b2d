package registry

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/deployment"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// DefaultPort is the registry's port, 3009 (docs/registry.md).
const DefaultPort = 3009

// DefaultGOGC is the garbage collector's target cmd/registry sets when the environment has no
// GOGC (edge.DefaultGOGC).
const DefaultGOGC = 400

// minAdminKeyLen is the shortest admin key accepted.
const minAdminKeyLen = 16

// Config is the registry's configuration, split by concern.
type Config struct {
	HTTP          edge.HTTPConfig
	AdminAPIKey   string // never logged or returned
	PublicBaseURL string // prefix of icon URLs (in /tokens and /tokenlist.json); default http://localhost:PORT
	TokenListName string // the name of GET /tokenlist.json
	Chain         chain.Config
	Store         StoreConfig
	Icons         IconsConfig
	Limits        ratelimit.ClientLimit // every request, per client IP (admin-key guesses included)
}

// StoreConfig says where the registry keeps its entries: DATA_FILE (and ICONS_DIR), or the
// Postgres at DatabaseURL, shared by replicas.
type StoreConfig struct {
	DataFile    string
	DatabaseURL string // never logged: it may carry a password
}

// IconsConfig says where icons are stored and how they are served.
type IconsConfig struct {
	Dir      string
	MaxBytes int64
	Serve    bool // serve Dir at /icons
}

// LoadConfig reads the registry's environment variables (docs/registry.md lists them) and validates
// them, reporting every problem at once.
func LoadConfig(getenv func(string) string) (Config, error) {
	getenv, fileErr := deployment.Env(getenv) // DEPLOYMENT_FILE under what is set
	e := config.NewEnv(getenv)
	c := Config{
		HTTP:        edge.LoadHTTPConfig(e, DefaultPort),
		AdminAPIKey: e.Secret("ADMIN_API_KEY"),
		Chain:       chain.LoadConfig(e),
		Store:       StoreConfig{DataFile: e.String("DATA_FILE", "./tokens.json"), DatabaseURL: e.String("DATABASE_URL", "")},
		Icons: IconsConfig{
			Dir:      e.String("ICONS_DIR", "./icons"),
			MaxBytes: e.Int("ICON_MAX_BYTES", 100<<10, 1, 16<<20),
			Serve:    e.Bool("SERVE_ICONS", true),
		},
		Limits:        ratelimit.ClientLimitFromEnv(e, "600/1m"),
		TokenListName: e.String("TOKENLIST_NAME", defaultListName),
	}
	c.PublicBaseURL = strings.TrimRight(e.String("PUBLIC_BASE_URL", "http://localhost:"+strconv.Itoa(c.HTTP.Port)), "/")
	return c, errors.Join(fileErr, e.Err(), c.Validate())
}

// Validate checks the whole configuration and joins every problem.
func (c Config) Validate() error {
	var errs []error
	if c.AdminAPIKey != "" && len(c.AdminAPIKey) < minAdminKeyLen {
		errs = append(errs, fmt.Errorf("ADMIN_API_KEY must be at least %d characters", minAdminKeyLen))
	}
	if u, err := url.Parse(c.PublicBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("PUBLIC_BASE_URL must be an http(s) URL, got %q", c.PublicBaseURL))
	}
	if len(c.TokenListName) > listMaxName || !listNamePattern.MatchString(c.TokenListName) {
		errs = append(errs, fmt.Errorf("TOKENLIST_NAME must be 1 to %d letters, digits, _ or spaces (the token-lists format), got %q", listMaxName, c.TokenListName))
	}
	return errors.Join(append(errs, c.Chain.Validate(), c.Store.Validate(), c.Icons.Validate())...)
}

// Validate checks the store settings.
func (c StoreConfig) Validate() error {
	if c.DataFile == "" {
		return errors.New("DATA_FILE must not be empty")
	}
	if c.DatabaseURL != "" && !sqldb.IsPostgres(c.DatabaseURL) {
		return errors.New("DATABASE_URL must be a postgres:// URL (unset: DATA_FILE)")
	}
	return nil
}

// Validate checks the icon settings.
func (c IconsConfig) Validate() error {
	if c.Dir == "" {
		return errors.New("ICONS_DIR must not be empty")
	}
	return nil
}
