// Package devstack runs the whole of vaultd in one process for development: the dev chain and
// every service on it, wired together, with the dev tokens registered. It is what
// `go run ./cmd/devstack` runs.
package devstack

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/registry"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Config says where the stack listens and keeps its files.
type Config struct {
	Host         string // listen host for every service; "" means 127.0.0.1
	RPCPort      int    // dev chain JSON-RPC port
	RegistryPort int
	RelayerPort  int
	FaucetPort   int
	IndexerPort  int
	DataDir      string        // registry data and icons, the faucet's claims, the indexer's events; "" means a fresh temporary folder, removed at exit
	ManifestPath string        // where devnet.json is written; "" means not at all
	BlockTime    time.Duration // dev chain block time; 0 seals a block as soon as a transaction arrives
	// KeysDir, when set, is a keys directory (cmd/ceremony finalize): the chain's verifier is
	// deployed from its verification_key.json, and the relayer verifies with it. "" means the
	// dev keys.
	KeysDir string
	// Relayers is how many relayers to run (0 means 1), each paying from a wallet of its own
	// (operator, operator1, …) and listed in the registry's directory (GET /relayers.json). With
	// more than one, each takes fees as well as paying from its treasury (every vault token at 1
	// wei per base unit, unless the environment sets RELAYER_FUNDING), and the second charges a
	// larger margin (60 % against 10 %), so that a client's choice by fee can be seen. The first
	// listens on RelayerPort; the others on the ports after IndexerPort (any free one when
	// RelayerPort is 0).
	Relayers int
	// FaucetPowWork, when not 0, is the faucet's FAUCET_POW_WORK: its claims carry a proof of
	// work (docs/faucet.md), as a browser test of a client's solver needs. 0 leaves the
	// environment's (off unless set).
	FaucetPowWork uint64
	// PublicHost is the host the printed URLs and the registry's icon URLs name when Host is
	// every interface (0.0.0.0 in a container): "" means localhost. cmd/devstack reads
	// PUBLIC_HOST.
	PublicHost string
	Getenv     func(string) string
	Out        io.Writer // the ready banner
	// Logger gives each service its logger, so that lines say which service wrote them
	// (service=registry, service=relayer); nil: the default logger for all.
	Logger func(service string) *slog.Logger
	// Traces gives each service its tracer provider, so that spans say which service made them
	// (service.name registry, relayer, …); nil: no spans.
	Traces func(service string) trace.TracerProvider
}

// Run starts everything, prints where it is, and serves until ctx is done.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Host == "" {
		cfg.Host = "127.0.0.1"
	}
	if cfg.Logger == nil {
		cfg.Logger = func(string) *slog.Logger { return slog.Default() }
	}
	if cfg.Traces == nil {
		cfg.Traces = func(string) trace.TracerProvider { return noop.NewTracerProvider() }
	}
	if cfg.DataDir == "" {
		dir, err := os.MkdirTemp("", "vaultd-devstack-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg.DataDir = dir
	}
	vkJSON := devkeys.VerificationKeyJSON
	var vk *zk.VerificationKey // nil: the dev key
	if cfg.KeysDir != "" {
		var err error
		path := filepath.Join(cfg.KeysDir, zk.VerificationKeyJSONFile)
		if vk, err = zk.ReadVerificationKeyFile(path); err != nil {
			return fmt.Errorf("--keys: %w", err)
		}
		if vkJSON, err = os.ReadFile(path); err != nil {
			return err
		}
	}
	if cfg.Relayers < 1 {
		cfg.Relayers = 1
	}
	chain, err := devchain.Start(ctx, devchain.Config{Host: cfg.Host, Port: cfg.RPCPort, BlockTime: cfg.BlockTime, VerificationKey: vk, OnChainDeployment: true,
		SpareOperators: cfg.Relayers - 1})
	if err != nil {
		return err
	}
	defer chain.Close()
	if cfg.ManifestPath != "" {
		if err := chain.WriteManifest(cfg.ManifestPath); err != nil {
			return fmt.Errorf("write %s: %w", cfg.ManifestPath, err)
		}
	}

	// A web application's dev server (another port, so another origin) may call both services.
	origins := cfg.Getenv("CORS_ALLOWED_ORIGINS")
	if origins == "" {
		origins = "*"
	}
	adminKey := cfg.Getenv("ADMIN_API_KEY")
	if adminKey == "" {
		adminKey = randomKey()
	}
	regLn, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.RegistryPort)))
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	defer regLn.Close()
	regURL := cfg.publicURL(regLn.Addr().String())
	regCfg, err := registry.LoadConfig(overlay(withDefaults(cfg.Getenv, DevReadLimits), map[string]string{
		"PORT":                 strconv.Itoa(regLn.Addr().(*net.TCPAddr).Port),
		"RPC_URL":              chain.RPCURL,
		"ADMIN_API_KEY":        adminKey,
		"DATA_FILE":            filepath.Join(cfg.DataDir, "tokens.json"),
		"ICONS_DIR":            filepath.Join(cfg.DataDir, "icons"),
		"PUBLIC_BASE_URL":      regURL,
		"CORS_ALLOWED_ORIGINS": origins,
	}))
	if err != nil {
		return fmt.Errorf("registry configuration: %w", err)
	}
	reg, err := registry.New(ctx, regCfg, registry.Options{Traces: cfg.Traces("registry"), Logger: cfg.Logger("registry")})
	if err != nil {
		return err
	}
	defer reg.Close()

	vkey := filepath.Join(cfg.DataDir, "verification_key.json")
	if err := os.WriteFile(vkey, vkJSON, 0o644); err != nil {
		return err
	}
	var relayers []devRelayer
	for i := range cfg.Relayers {
		r, err := cfg.startRelayer(ctx, chain, i, vkey, origins, adminKey)
		if err != nil {
			return err
		}
		defer r.close()
		relayers = append(relayers, r)
	}

	fctLn, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.FaucetPort)))
	if err != nil {
		return fmt.Errorf("faucet: %w", err)
	}
	defer fctLn.Close()
	fctURL := cfg.publicURL(fctLn.Addr().String())
	fctEnv := FaucetEnv(chain, filepath.Join(cfg.DataDir, "faucet.db"))
	fctEnv["PORT"] = strconv.Itoa(fctLn.Addr().(*net.TCPAddr).Port)
	fctEnv["CORS_ALLOWED_ORIGINS"] = origins
	fctEnv["ADMIN_API_KEY"] = adminKey
	delete(fctEnv, "FAUCET_POW_WORK") // the environment's, or DevLimits' 0
	if cfg.FaucetPowWork > 0 {
		fctEnv["FAUCET_POW_WORK"] = strconv.FormatUint(cfg.FaucetPowWork, 10)
	}
	fctCfg, err := faucet.LoadConfig(overlay(withDefaults(cfg.Getenv, DevLimits), fctEnv))
	if err != nil {
		return fmt.Errorf("faucet configuration: %w", err)
	}
	fct, err := faucet.New(ctx, fctCfg, faucet.Options{Traces: cfg.Traces("faucet"), Logger: cfg.Logger("faucet")})
	if err != nil {
		return err
	}
	defer fct.Close()

	ixLn, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.IndexerPort)))
	if err != nil {
		return fmt.Errorf("indexer: %w", err)
	}
	defer ixLn.Close()
	ixURL := cfg.publicURL(ixLn.Addr().String())
	ixEnv := IndexerEnv(chain, filepath.Join(cfg.DataDir, "indexer.db"))
	ixEnv["PORT"] = strconv.Itoa(ixLn.Addr().(*net.TCPAddr).Port)
	ixEnv["CORS_ALLOWED_ORIGINS"] = origins
	ixCfg, err := indexer.LoadConfig(overlay(withDefaults(cfg.Getenv, DevReadLimits), ixEnv))
	if err != nil {
		return fmt.Errorf("indexer configuration: %w", err)
	}
	ix, err := indexer.New(ctx, ixCfg, indexer.Options{Traces: cfg.Traces("indexer"), Logger: cfg.Logger("indexer")})
	if err != nil {
		return err
	}
	defer ix.Close()

	for _, r := range relayers {
		r.rel.Start() // until its Close, after the servers' drain
	}
	fct.Start()
	ix.Start()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	servers := []struct {
		ln    net.Listener
		h     http.Handler
		grace time.Duration
	}{{regLn, reg.Handler(), regCfg.HTTP.ShutdownGrace}, {fctLn, fct.Handler(), fctCfg.HTTP.ShutdownGrace}, {ixLn, ix.Handler(), ixCfg.HTTP.ShutdownGrace}}
	for _, r := range relayers {
		servers = append(servers, struct {
			ln    net.Listener
			h     http.Handler
			grace time.Duration
		}{r.ln, r.rel.Handler(), r.grace})
	}
	errc := make(chan error, len(servers))
	for _, s := range servers {
		go func() { errc <- edge.Serve(ctx, s.ln, s.h, s.grace) }()
	}

	if err := registerDevTokens(ctx, regURL, adminKey, chain.Tokens); err != nil {
		return fmt.Errorf("register dev tokens: %w", err)
	}
	if err := listRelayers(ctx, regURL, adminKey, chain, relayers); err != nil {
		return fmt.Errorf("list the relayers in the registry's directory: %w", err)
	}
	fmt.Fprintf(cfg.Out, `vaultd devstack ready
  chain      %s (chain id %d)
  registry   %s   (GET /tokens, /tokenlist.json, /relayers.json, /health, /metrics, /openapi.yaml, /docs)
  relayer    %s   (POST /reveal, POST /quote, GET /status, GET /reveal/{nullifier}, /admin/*, /health, /metrics, /openapi.yaml, /docs)
%s  faucet     %s   (POST /api/faucet/claim, GET /api/faucet/status, /admin/*, /health, /metrics, /openapi.yaml, /docs)
  indexer    %s   (GET /api/indexer?event=CommitmentInserted, /health, /metrics, /openapi.yaml, /docs)
  admin key  %s   (the registry's writes, the relayer's and the faucet's /admin/*)
  operator   %s
  faucet key %s   (the faucet's wallet)
  data       %s
`, cfg.publicURL(strings.TrimPrefix(chain.RPCURL, "http://")), chain.ChainID, regURL, relayers[0].url, others(relayers[1:]), fctURL, ixURL, adminKey, chain.Accounts.Operator.Address.Hex(), chain.Accounts.Faucet.Address.Hex(), cfg.DataDir)
	if cfg.ManifestPath != "" {
		fmt.Fprintf(cfg.Out, "  manifest   %s\n", cfg.ManifestPath)
	}

	// The first server to stop (or ctx) stops them all; the first error is the answer.
	var first error
	select {
	case first = <-errc:
		cancel()
	case <-ctx.Done():
		first = <-errc
	}
	for range len(servers) - 1 {
		if err := <-errc; first == nil {
			first = err
		}
	}
	return first
}

// RelayerEnv is the relayer's configuration on dev chain c: its RPC, the dev operator's key, the
// vault's contracts, the verifying key in vkeyFile, and the record of what it signs at dbFile.
// Callers add what differs (port, limits).
func RelayerEnv(c *devchain.Chain, vkeyFile, dbFile string) map[string]string {
	return map[string]string{
		"DATABASE_URL":                "sqlite:" + dbFile,
		"RPC_URL":                     c.RPCURL,
		"OPERATOR_PRIVATE_KEY":        hexutil.Encode(crypto.FromECDSA(c.Accounts.Operator.Key)),
		"COMMIT_REVEAL_VAULT_ADDRESS": c.Contracts.Vault.Hex(),
		"NULLIFIER_REGISTRY_ADDRESS":  c.Contracts.NullifierRegistry.Hex(),
		"COMMITMENT_TREE_ADDRESS":     c.Contracts.CommitmentTree.Hex(),
		"VERIFICATION_KEY_FILE":       vkeyFile,
		"VAULT_TOKENS":                vaultTokens(c),
	}
}

// vaultTokens is VAULT_TOKENS for dev chain c: its tokens' addresses, comma-separated.
func vaultTokens(c *devchain.Chain) string {
	var out []string
	for _, t := range c.Tokens {
		out = append(out, t.Address.Hex())
	}
	return strings.Join(out, ",")
}

// FaucetEnv is the faucet's configuration on dev chain c: its RPC, the dev faucet account's key
// and the claim store at dbFile. Callers add what differs (port, limits).
func FaucetEnv(c *devchain.Chain, dbFile string) map[string]string {
	return map[string]string{
		"RPC_URL":            c.RPCURL,
		"FAUCET_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(c.Accounts.Faucet.Key)),
		"DATABASE_URL":       "sqlite:" + dbFile,
		"FAUCET_POW_WORK":    "0", // tests of other things claim without solving; the proof of work's own set it
	}
}

// IndexerEnv is the indexer's configuration on dev chain c: its RPC, the contracts, the start
// block, and the store at dbFile. Callers add what differs (port).
func IndexerEnv(c *devchain.Chain, dbFile string) map[string]string {
	return map[string]string{
		"RPC_URL":                     c.RPCURL,
		"COMMIT_REVEAL_VAULT_ADDRESS": c.Contracts.Vault.Hex(),
		"NULLIFIER_REGISTRY_ADDRESS":  c.Contracts.NullifierRegistry.Hex(),
		"COMMITMENT_TREE_ADDRESS":     c.Contracts.CommitmentTree.Hex(),
		"TOKEN_FACTORY_ADDRESS":       c.Contracts.TokenFactory.Hex(),
		"START_BLOCK":                 strconv.FormatUint(c.StartBlock, 10),
		"DATABASE_URL":                "sqlite:" + dbFile,
	}
}

// registerDevTokens adds every dev token through the registry's own API, as an admin would.
func registerDevTokens(ctx context.Context, url, adminKey string, tokens []devchain.Token) error {
	client, err := registryapi.NewClientWithResponses(url, registryapi.WithRequestEditorFn(func(ctx context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+adminKey)
		return nil
	}))
	if err != nil {
		return err
	}
	categories := map[string]string{"vUSDC": "stablecoin", "vWBTC": "wrapped", "vWETH": "native", "vMKR": "governance"}
	colors := []color.RGBA{{39, 117, 202, 255}, {247, 147, 26, 255}, {98, 126, 234, 255}, {26, 171, 155, 255}}
	for i, t := range tokens {
		if t.Legacy {
			continue // vMKR is not in the vault: listed, it could not be committed (the README's walkthrough registers it, disabled)
		}
		category, order, chain := categories[t.Symbol], int32(i*10), "ethereum"
		icon, err := dotIcon(colors[i%len(colors)])
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		resp, err := client.UpsertTokenWithResponse(ctx, registryapi.TokenInput{
			Address: t.Address.Hex(), Category: &category, SortOrder: &order, UnderlyingChain: &chain, Icon: &icon,
		})
		cancel()
		if err != nil {
			return err
		}
		if resp.StatusCode() != http.StatusCreated && resp.StatusCode() != http.StatusOK {
			return errors.New(resp.Status() + ": " + string(resp.Body))
		}
	}
	return nil
}

// dotIcon is a 64×64 PNG of a coloured disc, as a data URI: a dev token's icon, uploaded like
// any other so that a web app shows the registry's icons.
func dotIcon(c color.RGBA) (string, error) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			if dx, dy := x-32, y-32; dx*dx+dy*dy <= 30*30 {
				img.Set(x, y, c)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

func overlay(getenv func(string) string, over map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := over[k]; ok {
			return v
		}
		return getenv(k)
	}
}

// publicURL is the URL a client reaches a listener at: its own address, or PublicHost (default
// localhost) with its port when it listens on every interface.
func (c Config) publicURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = c.PublicHost
		if host == "" {
			host = "localhost"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// DevLimits are devstack's per-IP limits, relaxed from the services' defaults (5 a minute for
// reveals, 5 an hour for claims) because in development every request comes from one address:
// a web app's test run, a walkthrough, a browser test; the relayer's status polls and quotes as the
// registry's and the indexer's reads. The faucet asks no proof of work (a newcomer's curl claim
// works; `--faucet-pow-work` asks one). The environment overrides them.
var DevLimits = map[string]string{"RATE_LIMIT_PER_IP": "120/1m", "RATE_LIMIT_CHALLENGE_PER_IP": "600/1m", "RATE_LIMIT_STATUS_PER_IP": "6000/1m", "RATE_LIMIT_QUOTE_PER_IP": "600/1m", "FAUCET_POW_WORK": "0"}

// DevReadLimits are the registry's and the indexer's per-IP limits in devstack: a browser app
// polling the indexer, a test run and a walkthrough all come from one address. The environment
// overrides them.
var DevReadLimits = map[string]string{"RATE_LIMIT_PER_IP": "6000/1m"}

// withDefaults answers def[k] for a variable getenv leaves empty.
func withDefaults(getenv func(string) string, def map[string]string) func(string) string {
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def[k]
	}
}

func randomKey() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// devRelayer is one of the stack's relayers: where it listens, the wallet it pays from and its
// terms as the banner says them.
type devRelayer struct {
	name     string // its directory entry's name: relayer-1, relayer-2, …
	url      string
	operator common.Address
	terms    string
	ln       net.Listener
	rel      *relayer.Service
	grace    time.Duration
}

func (r devRelayer) close() {
	r.rel.Close()
	r.ln.Close()
}

// others are the banner's lines for the relayers after the first.
func others(relayers []devRelayer) string {
	var b strings.Builder
	for _, r := range relayers {
		fmt.Fprintf(&b, "  %-10s %s   (operator %s; %s)\n", r.name, r.url, r.operator.Hex(), r.terms)
	}
	return b.String()
}

// startRelayer makes the stack's relayer i (from 0): the first pays from the dev operator, the
// others from the spare operators (operator1, …), each with a database of its own.
func (cfg Config) startRelayer(ctx context.Context, chain *devchain.Chain, i int, vkey, origins, adminKey string) (devRelayer, error) {
	port, db, key := cfg.RelayerPort, "relayer.db", chain.Accounts.Operator
	if i > 0 {
		port, db, key = 0, fmt.Sprintf("relayer%d.db", i+1), chain.Accounts.SpareOperators[i-1]
		if cfg.RelayerPort != 0 && cfg.IndexerPort != 0 {
			port = cfg.IndexerPort + i
		}
	}
	r := devRelayer{name: fmt.Sprintf("relayer-%d", i+1), operator: key.Address, terms: "the treasury pays"}
	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(port)))
	if err != nil {
		return r, fmt.Errorf("%s: %w", r.name, err)
	}
	r.ln, r.url = ln, cfg.publicURL(ln.Addr().String())
	env := RelayerEnv(chain, vkey, filepath.Join(cfg.DataDir, db))
	env["OPERATOR_PRIVATE_KEY"] = hexutil.Encode(crypto.FromECDSA(key.Key))
	env["PORT"] = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	env["CORS_ALLOWED_ORIGINS"] = origins
	env["ADMIN_API_KEY"] = adminKey // the operator's routes (/admin/*), as the registry's
	if cfg.Relayers > 1 && cfg.Getenv("RELAYER_FUNDING") == "" {
		var prices []string
		for _, t := range strings.Split(vaultTokens(chain), ",") {
			prices = append(prices, t+"=1")
		}
		env["RELAYER_FUNDING"], env["RELAYER_TOKEN_PRICES"], env["RELAYER_FEE_MARGIN"] = "treasury,fee", strings.Join(prices, ","), "10"
		if i == 1 {
			env["RELAYER_FEE_MARGIN"] = "60"
		}
		r.terms = fmt.Sprintf("the treasury pays, or a fee at a %s %% margin", env["RELAYER_FEE_MARGIN"])
	}
	relCfg, err := relayer.LoadConfig(overlay(withDefaults(cfg.Getenv, DevLimits), env))
	if err != nil {
		ln.Close()
		return r, fmt.Errorf("%s configuration: %w", r.name, err)
	}
	if r.rel, err = relayer.New(ctx, relCfg, relayer.Options{Traces: cfg.Traces("relayer"), Logger: cfg.Logger("relayer").With("relayer", r.name)}); err != nil {
		ln.Close()
		return r, err
	}
	r.grace = relCfg.HTTP.ShutdownGrace
	return r, nil
}

// listRelayers puts the stack's relayers in the registry's directory through its own API, as an
// admin would. A relayer whose URL the directory does not take (plain http to a host that is not
// loopback: a container's PUBLIC_HOST) is left out, and said.
func listRelayers(ctx context.Context, url, adminKey string, chain *devchain.Chain, relayers []devRelayer) error {
	client, err := registryapi.NewClientWithResponses(url, registryapi.WithRequestEditorFn(func(ctx context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+adminKey)
		return nil
	}))
	if err != nil {
		return err
	}
	for _, r := range relayers {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		resp, err := client.AddRelayerWithResponse(ctx, registryapi.RelayerInput{
			Name: r.name, Url: r.url, ChainId: int64(chain.ChainID), Vault: chain.Contracts.Vault.Hex(),
			Operator: r.operator.Hex(), FeeReceiver: r.operator.Hex(),
		})
		cancel()
		switch {
		case err != nil:
			return err
		case resp.StatusCode() == http.StatusBadRequest:
			slog.Warn("devstack: a relayer is not listed in the registry's directory", "relayer", r.name, "reason", string(resp.Body))
		case resp.StatusCode() != http.StatusCreated:
			return errors.New(resp.Status() + ": " + string(resp.Body))
		}
	}
	return nil
}
