// Command devnet runs the in-process dev chain with every contract deployed, writes devnet.json
// (RPC URL, chain id, contract and token addresses, dev accounts) and, beside it, the dev
// verifying key as snarkjs's verification_key.json, and runs until SIGINT/SIGTERM.
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
	"github.com/seed018cc74c/vaultd/service/devchain"
)

func main() {
	out := flag.String("out", "devnet.json", "where to write the chain's manifest")
	host := flag.String("host", "127.0.0.1", "JSON-RPC listen host")
	port := flag.Int("port", 8545, "JSON-RPC listen port (0: any free port)")
	chainID := flag.Uint64("chain-id", devchain.DefaultChainID, "chain id")
	blockTime := flag.Duration("block-time", 0, "block time, e.g. 2s (default: a block as soon as a transaction arrives)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := devchain.Start(ctx, devchain.Config{ChainID: *chainID, Host: *host, Port: *port, BlockTime: *blockTime})
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
	if err := os.WriteFile(vkey, devkeys.VerificationKeyJSON, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "devnet: write verification key:", err)
		os.Exit(1)
	}
	fmt.Printf("devnet ready: rpc %s, chain id %d, manifest %s, verifying key %s\n", c.RPCURL, c.ChainID, *out, vkey)
	<-ctx.Done()
}
