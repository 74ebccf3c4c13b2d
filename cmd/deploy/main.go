// Command deploy puts vaultd's contracts on an EVM chain and writes the deployment file every
// service reads (DEPLOYMENT_FILE), the verifying key beside it, and the services' variables:
//
//	deploy --rpc-url URL --deployer-key-file FILE --out deployment.json (--keys DIR | --dev-keys)
//	       [--operator ADDR] [--tokens A,B,...] [--dev-tokens [--mint-to A,B,...]] [--chain-id N]
//
// It is resumable and idempotent (service/ops/deploy): run it again after a failure and it goes on
// where it stopped; run it against a complete deployment and it sends nothing.
package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/ops/deploy"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func main() {
	buildversion.Answer("deploy")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, errUsage) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "deploy:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run deploys; progress goes to stderr, the services' variables to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("deploy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rpcURL := fs.String("rpc-url", os.Getenv("RPC_URL"), "the chain's JSON-RPC endpoint (default $RPC_URL)")
	keyFile := fs.String("deployer-key-file", "", "a file holding the deployer's private key (hex); it pays, and owns the vault (registers tokens)")
	out := fs.String("out", "deployment.json", "the deployment file to write; its journal is kept beside it (<name>.journal.json)")
	keysDir := fs.String("keys", "", "deploy the verifier with DIR/verification_key.json (a ceremony's: cmd/ceremony finalize)")
	devKeys := fs.Bool("dev-keys", false, "deploy the verifier with the dev keys (public secrets: test chains only)")
	operator := fs.String("operator", "", "only this address may call the vault's reveal (the relayer's wallet); default anyone")
	tokens := fs.String("tokens", "", "existing ERC-20 tokens to register in the vault, comma-separated")
	devTokens := fs.Bool("dev-tokens", false, "deploy the dev token factory and its tokens (vWETH, vUSDC, vWBTC), registered: test chains only")
	mintTo := fs.String("mint-to", "", "with --dev-tokens: addresses that get 1,000,000 of each dev token, comma-separated")
	chainID := fs.Uint64("chain-id", 0, "refuse to deploy unless the node is this chain (default: the node's)")
	timeout := fs.Duration("rpc-timeout", 30*time.Second, "how long one JSON-RPC call may take")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	opts := deploy.Options{DevTokens: *devTokens, ChainID: *chainID, Log: stderr}
	var errs []error
	if *rpcURL == "" {
		errs = append(errs, errors.New("--rpc-url (or RPC_URL) is required"))
	}
	key, err := readKey(*keyFile)
	if err != nil {
		errs = append(errs, err)
	}
	switch {
	case *keysDir != "" && *devKeys:
		errs = append(errs, errors.New("choose one of --keys DIR and --dev-keys"))
	case *keysDir != "":
		if opts.VerificationKey, err = zk.ReadVerificationKeyFile(filepath.Join(*keysDir, zk.VerificationKeyJSONFile)); err != nil {
			errs = append(errs, fmt.Errorf("--keys: %w", err))
		}
	case *devKeys:
		opts.DevKeys = true
		if opts.VerificationKey, err = zk.DevVerificationKey(); err != nil {
			errs = append(errs, err)
		}
	default:
		errs = append(errs, errors.New("give the verifying key: --keys DIR (a ceremony's) or --dev-keys (test chains only)"))
	}
	if *operator != "" {
		if opts.Operator, err = address.Parse(*operator); err != nil || opts.Operator == (common.Address{}) {
			errs = append(errs, fmt.Errorf("--operator: not an address"))
		}
	}
	if opts.Tokens, err = addresses("--tokens", *tokens); err != nil {
		errs = append(errs, err)
	}
	if opts.MintTo, err = addresses("--mint-to", *mintTo); err != nil {
		errs = append(errs, err)
	}
	if len(opts.MintTo) > 0 && !opts.DevTokens {
		errs = append(errs, errors.New("--mint-to mints dev tokens: give --dev-tokens too"))
	}
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprintln(stderr, "usage: deploy --rpc-url URL --deployer-key-file FILE --out deployment.json (--keys DIR | --dev-keys) [flags] (deploy -h)")
		return errUsage
	}
	if opts.DevKeys {
		fmt.Fprintln(stderr, strings.Repeat("!", 78))
		fmt.Fprintln(stderr, "!! --dev-keys: the verifier takes proofs made with the DEV KEYS, whose secrets are in this")
		fmt.Fprintln(stderr, "!! repository: anyone can forge a reveal and drain the vault. Test chains only; real chains")
		fmt.Fprintln(stderr, "!! take a ceremony's keys (--keys DIR, cmd/ceremony). The file says \"devKeys\": true.")
		fmt.Fprintln(stderr, strings.Repeat("!", 78))
	}

	client, err := chain.Dial(*rpcURL, *timeout, nil)
	if err != nil {
		return err
	}
	defer client.Close()
	journal, err := deploy.OpenJournal(deploy.JournalPath(*out))
	if err != nil {
		return err
	}
	existing, err := deploy.ReadDeployment(*out)
	if err != nil {
		return err
	}
	start := time.Now()
	d, report, err := deploy.Run(ctx, client, key, opts, journal, existing)
	if err != nil {
		return err
	}
	if err := deploy.Write(*out, d, opts); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "deployed on chain %d: %d steps, %d transactions sent by this run, %d gas in all steps' transactions, %s\n",
		d.ChainID, len(report.Steps), report.Sent(), report.GasUsed(), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stderr, "wrote %s, %s and %s\n", *out, filepath.Join(filepath.Dir(*out), "verification_key.json"), deploy.JournalPath(*out))
	fmt.Fprint(stdout, deploy.EnvLines(*out, d))
	return nil
}

// readKey reads the deployer's key from its file (chain.ReadPrivateKeyFile: never quoted).
func readKey(path string) (*ecdsa.PrivateKey, error) {
	if path == "" {
		return nil, errors.New("--deployer-key-file is required")
	}
	key, err := chain.ReadPrivateKeyFile(path)
	if err != nil {
		return nil, fmt.Errorf("--deployer-key-file: %w", err)
	}
	return key, nil
}

// addresses parses a comma-separated list of addresses.
func addresses(flagName, list string) ([]common.Address, error) {
	var out []common.Address
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		a, err := address.Parse(s)
		if err != nil || a == (common.Address{}) {
			return nil, fmt.Errorf("%s: %q is not an address", flagName, s)
		}
		out = append(out, a)
	}
	return out, nil
}
