package devchain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/chain"
	"github.com/seed018cc74c/vaultd/service/zk"
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

// devTokens are the wrapped tokens the factory creates at start: the usual decimals of
// stablecoins (6), bitcoin (8) and ether (18).
var devTokens = []Token{
	{Name: "Vault Wrapped Ether", Symbol: "vWETH", Decimals: 18},
	{Name: "Vault Wrapped USD Coin", Symbol: "vUSDC", Decimals: 6},
	{Name: "Vault Wrapped Bitcoin", Symbol: "vWBTC", Decimals: 8},
}

// legacyToken is deployed directly; its name and symbol are bytes32.
var legacyToken = Token{Name: "Vault Legacy Maker", Symbol: "vMKR", Decimals: 18, Legacy: true}

// userTokenBalance is minted to every user account of every wrapped token (in whole tokens).
const userTokenBalance = 1_000_000

func (c *Chain) deploy(ctx context.Context) error {
	d := &deployer{chain: c, key: c.Accounts.Deployer.Key}
	head, err := c.client.BlockNumber(ctx)
	if err != nil {
		return err
	}
	c.StartBlock = head + 1 // every deployment is mined after the head of genesis

	factoryAddr, err := d.create(ctx, contracts.TokenFactoryMetaData.Bin, nil)
	if err != nil {
		return fmt.Errorf("token factory: %w", err)
	}
	c.Contracts.TokenFactory = factoryAddr

	factory := contracts.NewTokenFactory()
	for _, t := range devTokens {
		receipt, err := d.call(ctx, factoryAddr, factory.PackCreateToken(t.Name, t.Symbol, t.Decimals))
		if err != nil {
			return fmt.Errorf("create %s: %w", t.Symbol, err)
		}
		created, err := factory.UnpackTokenCreatedEvent(receipt.Logs[len(receipt.Logs)-1])
		if err != nil {
			return fmt.Errorf("create %s: %w", t.Symbol, err)
		}
		t.Address = created.Token
		c.Tokens = append(c.Tokens, t)
	}

	legacy := legacyToken
	supply := new(big.Int).Mul(big.NewInt(1_000_000_000), ether)
	legacy.Address, err = d.create(ctx, contracts.LegacyTokenMetaData.Bin,
		contracts.NewLegacyToken().PackConstructor(bytes32(legacy.Name), bytes32(legacy.Symbol), supply))
	if err != nil {
		return fmt.Errorf("legacy token: %w", err)
	}
	c.Tokens = append(c.Tokens, legacy)

	vault, err := c.deployVault(ctx, d, common.Address{})
	if err != nil {
		return err
	}
	c.Contracts.Verifier, c.Contracts.Vault, c.Contracts.CommitmentTree, c.Contracts.NullifierRegistry =
		vault.Verifier, vault.Vault, vault.CommitmentTree, vault.NullifierRegistry

	wrapped := contracts.NewWrappedToken()
	for _, t := range c.Tokens[:len(devTokens)] {
		amount := new(big.Int).Mul(big.NewInt(userTokenBalance), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Decimals)), nil))
		for _, u := range c.Accounts.Users {
			if _, err := d.call(ctx, t.Address, wrapped.PackMint(u.Address, amount)); err != nil {
				return fmt.Errorf("mint %s: %w", t.Symbol, err)
			}
		}
	}
	return nil
}

// DeployVault deploys another vault (with its own verifier, tree and nullifier registry) whose
// reveal only operator may call (zero: anyone), with the wrapped tokens registered. The chain's
// own vault, in Contracts, is open to anyone.
func (c *Chain) DeployVault(ctx context.Context, operator common.Address) (Contracts, error) {
	return c.deployVault(ctx, &deployer{chain: c, key: c.Accounts.Deployer.Key}, operator)
}

// deployVault deploys the Groth16 verifier with the chain's verifying key (Config.VerificationKey), the vault (which creates
// its commitment tree and nullifier registry, and is linked to the Poseidon libraries), and
// registers the wrapped tokens. Only the vault fields of the result are set.
func (c *Chain) deployVault(ctx context.Context, d *deployer, operator common.Address) (Contracts, error) {
	var out Contracts
	vk, err := c.verificationKey()
	if err != nil {
		return out, err
	}
	alpha, beta, gamma, delta, ic := zk.VerifierArgs(vk)
	out.Verifier, err = d.create(ctx, contracts.Groth16VerifierMetaData.Bin,
		contracts.NewGroth16Verifier().PackConstructor(alpha, beta, gamma, delta, ic))
	if err != nil {
		return out, fmt.Errorf("verifier: %w", err)
	}
	vault := contracts.NewCommitRevealVault()
	res, err := bind.LinkAndDeploy(&bind.DeploymentParams{
		Contracts: []*bind.MetaData{&contracts.CommitRevealVaultMetaData},
		Inputs:    map[string][]byte{contracts.CommitRevealVaultMetaData.ID: vault.PackConstructor(out.Verifier, operator)},
		Overrides: c.libraries,
	}, func(input, code []byte) (common.Address, *types.Transaction, error) {
		receipt, err := d.send(ctx, nil, append(append([]byte{}, code...), input...))
		if err != nil {
			return common.Address{}, nil, err
		}
		return receipt.ContractAddress, nil, nil
	})
	if err != nil {
		return out, fmt.Errorf("vault: %w", err)
	}
	if c.libraries == nil { // the Poseidon libraries are deployed once and reused
		c.libraries = map[string]common.Address{}
		for id, addr := range res.Addresses {
			if id != contracts.CommitRevealVaultMetaData.ID {
				c.libraries[id] = addr
			}
		}
	}
	out.Vault = res.Addresses[contracts.CommitRevealVaultMetaData.ID]
	inst := vault.Instance(c.client, out.Vault)
	if out.CommitmentTree, err = bind.Call(inst, nil, vault.PackCommitmentTree(), vault.UnpackCommitmentTree); err != nil {
		return out, err
	}
	if out.NullifierRegistry, err = bind.Call(inst, nil, vault.PackNullifierRegistry(), vault.UnpackNullifierRegistry); err != nil {
		return out, err
	}
	for _, t := range c.Tokens[:len(devTokens)] {
		if _, err := d.call(ctx, out.Vault, vault.PackRegisterToken(t.Address)); err != nil {
			return out, fmt.Errorf("register %s in the vault: %w", t.Symbol, err)
		}
	}
	return out, nil
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
