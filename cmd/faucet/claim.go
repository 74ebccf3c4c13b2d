package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/faucet/pow"
)

// claimCommand answers `faucet claim [--url URL] ADDRESS`: a claim as a client makes it, the
// proof of work solved with Go's solver when the faucet asks for one (GET /api/faucet/challenge
// answers 404 when it does not). For operators and scripts (a smoke test of a deployment); a
// web page solves with @vaultd/client/pow. It prints the claim and exits 0 on 202, else prints
// the answer to stderr and exits 1.
func claimCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("faucet claim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "http://127.0.0.1:3011", "the faucet's base URL")
	timeout := fs.Duration("timeout", 5*time.Minute, "how long the solve and the claim may take")
	fs.Usage = func() { fmt.Fprintln(stderr, "usage: faucet claim [--url URL] [--timeout 5m] ADDRESS") }
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	addr := fs.Arg(0)
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	api, err := faucetapi.NewClientWithResponses(*url)
	if err != nil {
		fmt.Fprintln(stderr, "faucet claim:", err)
		return 1
	}
	body := faucetapi.ClaimRequest{Address: addr}
	ch, err := api.GetChallengeWithResponse(ctx, &faucetapi.GetChallengeParams{Address: addr})
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "faucet claim: asking for a challenge:", err)
		return 1
	case ch.JSON200 != nil:
		c, err := pow.Parse(ch.JSON200.Challenge)
		if err != nil {
			fmt.Fprintln(stderr, "faucet claim: the faucet's challenge:", err)
			return 1
		}
		start := time.Now()
		nonce, err := pow.Solve(ctx, c)
		if err != nil {
			fmt.Fprintln(stderr, "faucet claim:", err)
			return 1
		}
		fmt.Fprintf(stderr, "faucet claim: solved the proof of work (work %d) in %d tries, %s\n", c.Work, nonce+1, time.Since(start).Round(time.Millisecond))
		body.Pow = &faucetapi.PowSolution{Challenge: ch.JSON200.Challenge, Nonce: int64(nonce)}
	case ch.StatusCode() != http.StatusNotFound: // 404: the faucet asks no proof of work
		fmt.Fprintf(stderr, "faucet claim: asking for a challenge: %d %s\n", ch.StatusCode(), ch.Body)
		return 1
	}
	r, err := api.ClaimWithResponse(ctx, body)
	if err != nil {
		fmt.Fprintln(stderr, "faucet claim:", err)
		return 1
	}
	if r.StatusCode() != http.StatusAccepted {
		fmt.Fprintf(stderr, "faucet claim: %d %s\n", r.StatusCode(), r.Body)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", r.Body)
	return 0
}
