package relayer

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
	"github.com/seed018cc74c/vaultd/service/kit/lifecycle"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Service is a ready-to-run relayer.
type Service struct {
	cfg     Config
	Relayer *Relayer
	handler http.Handler

	stop       context.CancelFunc // ends what Start started
	background sync.WaitGroup
	opened     *lifecycle.Stack // what New opened (and Start leased), given back by Close
	reg        prometheus.Registerer
	signers    []txmgr.Signer // the operator key, or the replicas' keys (one is leased)
}

// Options are the tracer, metrics registry and logger a caller may give (edge.Options).
type Options = edge.Options

// New wires the relayer and checks what it is given: it dials the chain (and settles the chain
// id), reads the verifying key and the tree's root history, reaches Redis and opens the record of
// what it signs. It waits for nothing and sends nothing: Start takes the operator key (leasing
// one of OPERATOR_PRIVATE_KEYS may wait for another replica to let one go), reads its nonce and
// balance, and follows again what was in flight; until then the relayer answers 503
// OPERATOR_KEY_UNAVAILABLE.
func New(ctx context.Context, cfg Config, opts Options) (_ *Service, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opened := &lifecycle.Stack{} // every resource, pushed as it is opened; all given back if New fails
	defer opened.CloseOnError(&err)
	opts = opts.WithDefaults()
	reg, log, tracer := opts.Prometheus, opts.Logger, opts.Tracer()
	client, chainID, err := chain.Connect(ctx, cfg.Chain, chain.NewMetrics(reg).Traced(opts.Traces))
	if err != nil {
		return nil, err
	}
	opened.Push(client.Close)
	var vk *zk.VerificationKey
	if cfg.VerificationKeyFile != "" {
		if vk, err = readVerificationKey(cfg.VerificationKeyFile); err != nil {
			return nil, err
		}
	}
	m := newMetrics(reg)
	for token := range cfg.Fees.Prices { // each priced token's fees exported at 0 before the first
		m.feesEarned.WithLabelValues(token.Hex())
	}
	reads := vaultReads{client: client, nullifiers: cfg.Contracts.NullifierRegistry, tree: cfg.Contracts.CommitmentTree}
	r := &Relayer{cfg: cfg, chainID: chainID, client: client, vk: vk, reads: reads, metrics: m, tracer: tracer, log: log,
		perIP: ratelimit.New(cfg.Limits.PerIP), perRecipient: ratelimit.New(cfg.Limits.PerRecipient), total: ratelimit.New(cfg.Limits.Total),
		perSponsor: ratelimit.New(cfg.Limits.PerSponsor),
		running:    map[common.Hash]*outcome{}, sent: map[common.Hash]*txmgr.Flight{}, closing: make(chan struct{}), keyGone: make(chan struct{}), set: make(chan struct{})}
	if cfg.Limits.RedisURL != "" { // the limits hold across every replica sharing this Redis
		if r.redis, err = ratelimit.Connect(ctx, cfg.Limits.RedisURL, opts.Traces); err != nil {
			return nil, err
		}
		opened.PushErr(r.redis.Close)
		r.perIP = ratelimit.NewRedis(r.redis, "relayer:ip", cfg.Limits.PerIP)
		r.perRecipient = ratelimit.NewRedis(r.redis, "relayer:recipient", cfg.Limits.PerRecipient)
		r.total = ratelimit.NewRedis(r.redis, "relayer:total", cfg.Limits.Total)
		r.perSponsor = ratelimit.NewRedis(r.redis, "relayer:sponsor", cfg.Limits.PerSponsor)
	}
	r.shareWithReplicas()
	if r.rootHistory, err = readRootHistory(ctx, client, cfg.Contracts.CommitmentTree); err != nil {
		return nil, err
	}
	if r.sentTxs, err = openSentStore(cfg.DatabaseURL, chainID, opts.Traces); err != nil {
		return nil, err
	}
	opened.PushErr(r.sentTxs.Close)
	if cfg.Limits.RedisURL == "" { // one relayer per shared database: what keeps one attempt per nullifier without Redis
		release, alone, err := r.sentTxs.db.TryHold(ctx, fmt.Sprintf("vaultd:relayer:alone:%d:%s", chainID, cfg.Contracts.Vault.Hex()))
		if err != nil {
			return nil, fmt.Errorf("DATABASE_URL: %w", err)
		}
		if !alone {
			return nil, errors.New("another relayer of this vault uses this DATABASE_URL without REDIS_URL: relayers sharing a database need the same REDIS_URL (it keeps one attempt at a reveal at a time, and the limits, across them)")
		}
		opened.Push(release)
	}
	if r.hooks, err = webhook.Open(r.sentTxs.db, "relayer", cfg.Admin.Replica, cfg.Webhooks, reg, log); err != nil {
		return nil, err
	}
	r.sentTxs.hooks = r.hooks
	accounts, err := funding.OpenAccounts(r.sentTxs.db, chainID, r.hooks, cfg.Fees.SponsorLow)
	if err != nil {
		return nil, err
	}
	r.funding = funding.New(cfg.Fees, chainID, cfg.Contracts.Vault, reads, accounts)
	r.sentTxs.funding = r.funding
	reg.MustRegister(newSponsorBalances(accounts, log), prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: "relayer",
		Name: "sponsor_balance_threshold_ether", Help: "RELAYER_SPONSOR_LOW_BALANCE in native tokens: a sponsor's balance under it is low (the webhook sponsor.balance_low, the alert VaultdRelayerSponsorBalanceLow)."},
		func() float64 { return gate.WeiToEther(cfg.Fees.SponsorLow) }))
	opened.Push(r.hooks.Close) // before the database closes
	if r.pause, err = pause.Open(ctx, r.sentTxs.db, "relayer", cfg.Admin.Replica, "reveals", reg, log); err != nil {
		return nil, err
	}
	r.pause.OnChange = func(st pause.State) { r.hooks.Tell(st.Event(), wallet.PauseStateOf(st)) }
	signers, err := operatorSigners(ctx, cfg.Operator)
	if err != nil {
		return nil, err
	}
	h, err := r.handler(opts)
	if err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, Relayer: r, handler: h, opened: opened, reg: reg, signers: signers}, nil
}

func readVerificationKey(path string) (*zk.VerificationKey, error) {
	vk, err := zk.ReadVerificationKeyFile(path)
	if err != nil {
		return nil, fmt.Errorf("VERIFICATION_KEY_FILE: %w", err)
	}
	return vk, nil
}

// Handler is the service's HTTP handler.
func (s *Service) Handler() http.Handler { return s.handler }

// readRootHistory reads how many roots the commitment tree keeps (its ROOT_HISTORY_SIZE). It is
// a check of what New is given, so it runs there: a wrong COMMITMENT_TREE_ADDRESS stops the start,
// as a wrong RPC_URL does; a provider's passing fault is asked again (chain.Retry).
func readRootHistory(ctx context.Context, client *chain.Client, tree common.Address) (uint32, error) {
	var out []byte
	err := chain.Retry(ctx, func() (err error) {
		out, err = client.Call(ctx, "root_history_size", tree, contracts.NewCommitRevealVault().PackROOTHISTORYSIZE())
		return err
	})
	var size uint32
	if err == nil {
		size, err = contracts.NewCommitRevealVault().UnpackROOTHISTORYSIZE(out)
	}
	if err != nil {
		return 0, fmt.Errorf("read the commitment tree's ROOT_HISTORY_SIZE at COMMITMENT_TREE_ADDRESS: %w", err)
	}
	return size, nil
}

// operatorSigners are what signs for the operator: its key or the replicas' keys, in the
// process or in KMS (their addresses read from KMS now, so that a key KMS does not have, or of
// the wrong kind, fails the start).
func operatorSigners(ctx context.Context, o OperatorConfig) ([]txmgr.Signer, error) {
	var out []txmgr.Signer
	for _, k := range append([]*ecdsa.PrivateKey{o.Key}, o.Keys...) {
		if k != nil {
			out = append(out, txmgr.KeySigner(k))
		}
	}
	ids, name := o.KMSKeyIDs, "OPERATOR_KMS_KEY_IDS"
	if o.KMSKeyID != "" {
		ids, name = []string{o.KMSKeyID}, "OPERATOR_KMS_KEY_ID"
	}
	if len(ids) > 0 {
		signers, err := kmssigner.Open(ctx, ids, o.KMSTimeout)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, s := range signers {
			out = append(out, s)
		}
	}
	return out, nil
}
