// Command devnet runs the in-process dev chain with every contract deployed, writes devnet.json
// (RPC URL, chain id, contract and token addresses, dev accounts) and, beside it, the verifying
// key its verifier was deployed with as snarkjs's verification_key.json (the dev key, or with
// --keys DIR a ceremony's), and runs until SIGINT/SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func main() {
	buildversion.Answer("devnet")
	out := flag.String("out", "devnet.json", "where to write the chain's manifest")
	host := flag.String("host", "127.0.0.1", "JSON-RPC listen host")
	port := flag.Int("port", 8545, "JSON-RPC listen port (0: any free port)")
	chainID := flag.Uint64("chain-id", devchain.DefaultChainID, "chain id")
	blockTime := flag.Duration("block-time", 0, "block time, e.g. 2s (default: a block as soon as a transaction arrives)")
	spareOperators := flag.Int("spare-operators", 0, "operator wallets to prefund beyond the first (operator1…), one per extra relayer replica (deploy/compose.replicas.yaml)")
	spareFaucets := flag.Int("spare-faucets", 0, "faucet wallets to prefund beyond the first (faucet1…), one per extra faucet replica")
	keysDir := flag.String("keys", "", "a keys directory from cmd/ceremony finalize: deploy the verifier from its verification_key.json (default: the dev keys)")
	flag.Parse()
	if *spareOperators < 0 || *spareFaucets < 0 {
		fmt.Fprintln(os.Stderr, "devnet: --spare-operators and --spare-faucets count wallets: 0 or more")
		os.Exit(2)
	}

	vkJSON := devkeys.VerificationKeyJSON
	var vk *zk.VerificationKey // nil: the dev key
	if *keysDir != "" {
		path := filepath.Join(*keysDir, zk.VerificationKeyJSONFile)
		var err error
		if vk, err = zk.ReadVerificationKeyFile(path); err == nil {
			vkJSON, err = os.ReadFile(path)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "devnet: --keys:", err)
			os.Exit(2)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := devchain.Start(ctx, devchain.Config{ChainID: *chainID, Host: *host, Port: *port, BlockTime: *blockTime, VerificationKey: vk,
		SpareOperators: *spareOperators, SpareFaucets: *spareFaucets, OnChainDeployment: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "devnet:", err)
		os.Exit(1)
	}
	defer c.Close()
	if err := c.WriteManifest(*out); err != nil {
		fmt.Fprintln(os.Stderr, "devnet: write manifest:", err)
		os.Exit(1)
	}
	vkey := filepath.Join(filepath.Dir(*out), "verification_key.json")
	if err := os.WriteFile(vkey, vkJSON, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "devnet: write verification key:", err)
		os.Exit(1)
	}
	fmt.Printf("devnet ready: rpc %s, chain id %d, manifest %s, verifying key %s\n", c.RPCURL, c.ChainID, *out, vkey)
	<-ctx.Done()
}
