// Package relayer is the sponsored-reveal relayer: it checks a reveal request
// against the chain, submits the vault's reveal from its own operator wallet and pays the gas,
// under rate limits and a minimum-balance gate, so no one actor can drain the wallet.
package relayer

import (
	"context"
	"log/slog"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/edge/paying"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/relayer/holds"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Error codes of the relayer (docs/design.md, "Error codes"; openapi/relayer.yaml).
const (
	CodeNullifierUsed    = "NULLIFIER_USED"
	CodeUnknownRoot      = "UNKNOWN_ROOT"
	CodeInvalidProof     = "INVALID_PROOF"
	CodeInvalidRecipient = "INVALID_RECIPIENT"
	CodeSignalMismatch   = "SIGNAL_MISMATCH"
	CodeRevealRejected   = "REVEAL_REJECTED"
	CodeTxReverted       = "TX_REVERTED"
	CodeTxPending        = "TX_PENDING"
	// CodeRootExpiring is a reveal whose root would leave the tree's history before it is mined.
	CodeRootExpiring = "ROOT_EXPIRING"
	// CodeOperatorBalanceLow is the 503 of a closed balance gate.
	CodeOperatorBalanceLow = "OPERATOR_BALANCE_LOW"
	// CodeSpendLimitReached is the 503 of a spent OPERATOR_SPEND_LIMIT.
	CodeSpendLimitReached = paying.CodeSpendLimitReached
	// CodeOperatorKeyUnavailable is the 503 of a replica whose operator key's lease lapsed.
	CodeOperatorKeyUnavailable = "OPERATOR_KEY_UNAVAILABLE"
	// CodeTxCancelled is the 503 of a reveal whose transaction an operator cancelled.
	CodeTxCancelled = "TX_CANCELLED"
	// CodeRecipientNotAllowed is the 400 of a recipient that is the vault or one of its tokens.
	CodeRecipientNotAllowed = "RECIPIENT_NOT_ALLOWED"
)

var (
	vaultABI   = contracts.NewCommitRevealVault()
	vaultError = func() *abi.ABI { a := vaultABI.GetABI(); return &a }()
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

// chainReader is what a reveal's checks read from the chain: the nullifier's state (check 1),
// the root's age (check 2), and the vault's reveal run as a call (check 7, simulate). The
// relayer's is vaultReads, over its chain client; the checks' internal tests give it a fake.
type chainReader interface {
	isSpent(ctx context.Context, nullifier common.Hash) (bool, error)
	rootAge(ctx context.Context, root common.Hash) (contracts.RootAgeOutput, error)
	simulate(ctx context.Context, msg ethereum.CallMsg) error
	estimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error)
}

// insertCounter counts the reveals with change in flight: each inserts a leaf, and so a new
// root, ahead of the reveals sent after it (see holdRoot). localInserts counts this process's;
// with REDIS_URL, fleetInserts counts every replica's (inserts.go).
type insertCounter interface {
	// hold admits a reveal whose root is age inserts old if age plus the inserts in flight stay
	// under history, counting the reveal's own insert as id when change; inFlight is that count.
	hold(ctx context.Context, id string, age, history uint32, change bool) (ok bool, inFlight uint32, err error)
	// count counts the insert id (a reveal adopted), once.
	count(ctx context.Context, id string) error
	// release gives back the insert id if it was counted, once; counted after, it is not.
	release(ctx context.Context, id string) error
}

// Relayer runs reveals.
type Relayer struct {
	cfg     Config
	chainID uint64
	client  *chain.Client       // sends, receipts, what recover reads
	reads   chainReader         // what a reveal's checks read from the chain (chainreads.go)
	vk      *zk.VerificationKey // nil: no off-chain verification
	tx      *txmgr.Manager
	gate    *gate.Gate
	metrics *metrics
	tracer  trace.Tracer
	log     *slog.Logger

	perIP, perRecipient, total ratelimit.Window
	perSponsor                 ratelimit.Window // requests carrying a sponsor's key, by sponsor
	redis                      *redis.Client    // the limits' Redis (REDIS_URL); nil: in this process
	holds                      *holds.Holds     // one transaction per nullifier across replicas; nil: one process
	inserts                    insertCounter    // the change inserts in flight: this process's, or every replica's (inserts.go)
	lease                      *operatorLease   // the operator key leased from OPERATOR_PRIVATE_KEYS; nil: OPERATOR_PRIVATE_KEY
	sentTxs                    *sentStore       // what the operator signed, durably (sent.go)
	funding                    *funding.Funding // who pays for reveals, and the sponsors' accounts in the same database
	pause                      *pause.Switch    // an operator's pause of this replica (POST /admin/pause)
	hooks                      *webhook.Outbox  // webhook events (WEBHOOK_URLS), delivered from the database
	gas                        gasBook          // the learned gas limit of reveals without change (gas.go)
	rootHistory                uint32           // how many roots the tree keeps (ROOT_HISTORY_SIZE), read once at New
	board                      statusBoard      // what GET /status answers, read in the background (status.go)

	// set is closed once Start has set the operator up: tx, gate and lease are written before
	// it and read only after it (every entry point asks isSet first).
	set     chan struct{}
	keyGone chan struct{} // closed when another replica took the leased key (never with one key)

	// closing is closed when the relayer stops; tracking counts the goroutines following a
	// reveal's flight (track), which end by then.
	closing  chan struct{}
	tracking sync.WaitGroup

	mu      sync.Mutex                    // guards running and sent; never held across a network call
	running map[common.Hash]*outcome      // reveals being checked or sent, by nullifier
	sent    map[common.Hash]*txmgr.Flight // reveals whose transaction is in flight, by nullifier
	// settled is closed, for each tracked flight, once the tracking goroutine has written down
	// how it ended (settle): what a request waiting for the flight waits for before answering.
	settled map[*txmgr.Flight]chan struct{}
}

// isSet reports whether Start has set the operator up.
func (r *Relayer) isSet() bool {
	select {
	case <-r.set:
		return true
	default:
		return false
	}
}

// RevealResult is a reveal's outcome: its transaction, and, once mined, whether it succeeded,
// in which block and for how much gas.
type RevealResult struct {
	Success     bool
	TxHash      string // hex; "" when nothing is known to be sent
	BlockNumber int64
	GasUsed     uint64
}

// outcome is a reveal's result, shared with identical requests that arrive meanwhile.
type outcome struct {
	in     RevealRequest // the request run: a copy of it takes its outcome
	done   chan struct{}
	result RevealResult
	err    error
}
