package devchain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/ops/deploy"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Contracts are the addresses of the deployed contracts.
type Contracts struct {
	TokenFactory      common.Address
	Verifier          common.Address
	Vault             common.Address
	CommitmentTree    common.Address
	NullifierRegistry common.Address
}

// Token is a token deployed on the dev chain.
type Token struct {
	Address  common.Address
	Name     string
	Symbol   string
	Decimals uint8
	Legacy   bool // name() and symbol() return bytes32
}

// legacyToken is deployed directly; its name and symbol are bytes32.
var legacyToken = Token{Name: "Vault Legacy Maker", Symbol: "vMKR", Decimals: 18, Legacy: true}

// deploy deploys the contracts as cmd/deploy does (service/ops/deploy: the Poseidon libraries, the
// verifier, the vault, the dev token factory and its tokens, registered and minted to every user
// account), then the legacy token, which the vault does not take.
func (c *Chain) deploy(ctx context.Context) error {
	users := make([]common.Address, len(c.Accounts.Users))
	for i, u := range c.Accounts.Users {
		users[i] = u.Address
	}
	d, err := c.runDeploy(ctx, deploy.Options{DevTokens: true, MintTo: users}, nil)
	if err != nil {
		return err
	}
	c.StartBlock = d.StartBlock
	c.Contracts = Contracts{
		TokenFactory:      d.Contracts["tokenFactory"],
		Verifier:          d.Contracts["verifier"],
		Vault:             d.Contracts["vault"],
		CommitmentTree:    d.Contracts["commitmentTree"],
		NullifierRegistry: d.Contracts["nullifierRegistry"],
	}
	c.libraries = map[string]common.Address{"poseidonT3": d.Contracts["poseidonT3"], "poseidonT4": d.Contracts["poseidonT4"]}
	for _, t := range d.Tokens {
		c.Tokens = append(c.Tokens, Token{Address: t.Address, Name: t.Name, Symbol: t.Symbol, Decimals: t.Decimals})
	}

	legacy := legacyToken
	supply := new(big.Int).Mul(big.NewInt(1_000_000_000), ether)
	dep := &deployer{chain: c, key: c.Accounts.Deployer.Key}
	legacy.Address, err = dep.create(ctx, contracts.LegacyTokenMetaData.Bin,
		contracts.NewLegacyToken().PackConstructor(bytes32(legacy.Name), bytes32(legacy.Symbol), supply))
	if err != nil {
		return fmt.Errorf("legacy token: %w", err)
	}
	c.Tokens = append(c.Tokens, legacy)
	return nil
}

// DeployVault deploys another vault (with its own verifier, on the chain's Poseidon libraries;
// its tree and nullifier registry are its own state) whose reveal only operator may call (zero:
// anyone), with the wrapped tokens registered. The chain's own vault, in Contracts, is open to anyone.
func (c *Chain) DeployVault(ctx context.Context, operator common.Address) (Contracts, error) {
	var wrapped []common.Address
	for _, t := range c.Tokens {
		if !t.Legacy {
			wrapped = append(wrapped, t.Address)
		}
	}
	d, err := c.runDeploy(ctx, deploy.Options{Operator: operator, Tokens: wrapped},
		&deploy.Deployment{ChainID: c.ChainID, Contracts: c.libraries})
	if err != nil {
		return Contracts{}, err
	}
	return Contracts{Verifier: d.Contracts["verifier"], Vault: d.Contracts["vault"],
		CommitmentTree: d.Contracts["commitmentTree"], NullifierRegistry: d.Contracts["nullifierRegistry"]}, nil
}

// runDeploy runs service/ops/deploy from the deployer account with the chain's verifying key and a
// journal in memory; existing, when set, holds contracts to reuse (the libraries).
func (c *Chain) runDeploy(ctx context.Context, opts deploy.Options, existing *deploy.Deployment) (deploy.Deployment, error) {
	client, err := chain.Dial(c.RPCURL, 30*time.Second, nil)
	if err != nil {
		return deploy.Deployment{}, err
	}
	defer client.Close()
	if opts.VerificationKey, err = c.verificationKey(); err != nil {
		return deploy.Deployment{}, err
	}
	opts.DevKeys = c.vk == nil
	opts.Poll = 5 * time.Millisecond
	opts.DeprecatedChainID = true // the dev chain runs on it to show the services' warning
	d, _, err := deploy.Run(ctx, client, c.Accounts.Deployer.Key, opts, deploy.NewJournal(), existing)
	return d, err
}

// verificationKey is the key the chain's verifiers are deployed with.
func (c *Chain) verificationKey() (*zk.VerificationKey, error) {
	if c.vk != nil {
		return c.vk, nil
	}
	return zk.DevVerificationKey()
}

func bytes32(s string) [32]byte {
	var b [32]byte
	copy(b[:], s)
	return b
}

// deployer sends the deployment transactions one after the other from one key.
type deployer struct {
	chain *Chain
	key   *ecdsa.PrivateKey
}

// create deploys bytecode (hex, as in the generated metadata) with constructor arguments.
func (d *deployer) create(ctx context.Context, binHex string, args []byte) (common.Address, error) {
	code := append(common.FromHex(strings.TrimPrefix(binHex, "0x")), args...)
	receipt, err := d.send(ctx, nil, code)
	if err != nil {
		return common.Address{}, err
	}
	return receipt.ContractAddress, nil
}

// call sends a transaction to a contract and waits for its successful receipt.
func (d *deployer) call(ctx context.Context, to common.Address, data []byte) (*types.Receipt, error) {
	return d.send(ctx, &to, data)
}

func (d *deployer) send(ctx context.Context, to *common.Address, data []byte) (*types.Receipt, error) {
	tx, err := SendTx(ctx, d.chain, d.key, to, nil, data)
	if err != nil {
		return nil, err
	}
	waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	receipt, err := WaitReceipt(waitCtx, d.chain.client, tx.Hash())
	if err != nil {
		return nil, err
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return nil, fmt.Errorf("transaction %s reverted", tx.Hash())
	}
	return receipt, nil
}

// SendTx sends a transaction from key on the dev chain (see chain.SendTx).
func SendTx(ctx context.Context, c *Chain, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte) (*types.Transaction, error) {
	return chain.SendTx(ctx, c.client, key, to, value, data)
}

// FundedKey makes a fresh key and funds its address from the deployer with as much as the dev
// operator holds, waiting until that is mined: one more wallet for a replica (a relayer's
// operator key, say) on a chain already running.
func FundedKey(ctx context.Context, c *Chain) (*ecdsa.PrivateKey, error) {
	k, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	to := crypto.PubkeyToAddress(k.PublicKey)
	tx, err := SendTx(ctx, c, c.Accounts.Deployer.Key, &to, operatorBalance, nil)
	if err != nil {
		return nil, err
	}
	if _, err := WaitReceipt(ctx, c.Client(), tx.Hash()); err != nil {
		return nil, err
	}
	return k, nil
}

// WaitReceipt waits for hash to be mined, polling every 10 ms (bind.WaitMined polls once a
// second, far too slow for a chain that seals on demand); see chain.WaitMined.
func WaitReceipt(ctx context.Context, client chain.ReceiptSource, hash common.Hash) (*types.Receipt, error) {
	return chain.WaitMined(ctx, client, hash, 10*time.Millisecond)
}

// CreateToken deploys one more wrapped token through the factory, from the deployer account.
func (c *Chain) CreateToken(ctx context.Context, name, symbol string, decimals uint8) (Token, error) {
	d := &deployer{chain: c, key: c.Accounts.Deployer.Key}
	factory := contracts.NewTokenFactory()
	receipt, err := d.call(ctx, c.Contracts.TokenFactory, factory.PackCreateToken(name, symbol, decimals))
	if err != nil {
		return Token{}, err
	}
	created, err := factory.UnpackTokenCreatedEvent(receipt.Logs[len(receipt.Logs)-1])
	if err != nil {
		return Token{}, err
	}
	return Token{Address: created.Token, Name: name, Symbol: symbol, Decimals: decimals}, nil
}
