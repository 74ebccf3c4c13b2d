package devchain

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"

	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A deployment is ~20 transactions and 0.3 s of a start, and tests start hundreds of chains. So
// the contracts are deployed once a process for each kind of chain (its chain id, accounts and
// verifying key), on a chain of its own, and every chain of that kind starts from a genesis that
// holds the state the deployment left: code, storage, balances and nonces. The deployment is
// service/ops/deploy's, as cmd/deploy runs it; what a chain started so lacks is the deployment's
// blocks and their logs.

// snapshot is the state a deployment left, and what it deployed.
type snapshot struct {
	alloc     types.GenesisAlloc
	baseFee   *big.Int // the base fee of the block after the deployment's last
	contracts Contracts
	tokens    []Token
	libraries map[string]common.Address
}

// kind is what a deployment's state depends on.
type kind struct {
	chainID                             uint64
	users, spareOperators, spareFaucets int
	vk                                  *zk.VerificationKey
}

var snapshots struct {
	sync.Mutex
	of map[kind]*deployment
}

// deployment is the snapshot of one kind, taken once, at the first start of that kind.
type deployment struct {
	sync.Mutex
	snap *snapshot
}

// deployed returns the snapshot for cfg's kind of chain, deploying on a chain of its own the
// first time. A failed deployment is tried again by the next start.
func deployed(ctx context.Context, cfg Config) (*snapshot, error) {
	k := kind{cfg.ChainID, cfg.Users, cfg.SpareOperators, cfg.SpareFaucets, cfg.VerificationKey}
	snapshots.Lock()
	if snapshots.of == nil {
		snapshots.of = map[kind]*deployment{}
	}
	d := snapshots.of[k]
	if d == nil {
		d = &deployment{}
		snapshots.of[k] = d
	}
	snapshots.Unlock()

	d.Lock()
	defer d.Unlock()
	if d.snap != nil {
		return d.snap, nil
	}
	template := cfg
	template.Host, template.Port = "127.0.0.1", 0 // beside the chain asked for, on a port of its own
	c, err := boot(template, accountsGenesis(cfg), true)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.deploy(ctx); err != nil {
		return nil, err
	}
	snap, err := c.snapshot()
	if err != nil {
		return nil, err
	}
	d.snap = snap
	return snap, nil
}

// gasLimit is a dev block's gas limit, as go-ethereum's miner aims for.
var gasLimit = ethconfig.Defaults.Miner.GasCeil

// snapshot reads back the chain's whole state at its head, and checks that a genesis of it has the
// head's state root: no account or slot was left out.
func (c *Chain) snapshot() (*snapshot, error) {
	chain := c.eth.BlockChain()
	head := chain.CurrentBlock()
	st, err := chain.StateAt(head.Root, head.Number, head.Time)
	if err != nil {
		return nil, err
	}
	dump := st.RawDump(&state.DumpConfig{})
	s := &snapshot{alloc: types.GenesisAlloc{}, baseFee: eip1559.CalcBaseFee(chain.Config(), head),
		contracts: c.Contracts, tokens: c.Tokens, libraries: c.libraries}
	for key, a := range dump.Accounts {
		if a.Address == nil {
			return nil, fmt.Errorf("the state's account %s has no address (no preimage)", key)
		}
		balance, ok := new(big.Int).SetString(a.Balance, 10)
		if !ok {
			return nil, fmt.Errorf("account %s: balance %q", a.Address, a.Balance)
		}
		acct := types.Account{Balance: balance, Nonce: a.Nonce, Code: a.Code}
		if len(a.Storage) > 0 {
			acct.Storage = make(map[common.Hash]common.Hash, len(a.Storage))
			for slot, v := range a.Storage {
				acct.Storage[slot] = common.HexToHash(strings.TrimPrefix(v, "0x"))
			}
		}
		s.alloc[*a.Address] = acct
	}
	if root := s.genesis(c.ChainID).ToBlock().Root(); root != head.Root {
		return nil, fmt.Errorf("the state read back has root %s, the chain's head %s", root, head.Root)
	}
	return s, nil
}

// genesis is a genesis block holding the snapshot's state.
func (s *snapshot) genesis(chainID uint64) *core.Genesis {
	return &core.Genesis{Config: chainConfig(chainID), GasLimit: gasLimit, BaseFee: s.baseFee, Alloc: s.alloc}
}
