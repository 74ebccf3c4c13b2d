// Command ceremony runs the multi-party Groth16 setup of the reveal circuit (service/ops/ceremony):
//
//	ceremony init       [--dir setup]                  start phase 1
//	ceremony contribute [--dir setup] --name <who>     add a contribution to the open phase
//	ceremony finalize   [--dir setup] --beacon <hex>   close the open phase (phase 2: write keys/)
//	ceremony verify     [--dir setup] [--partial]      re-derive and check everything (a finished ceremony; --partial: one still open, as far as it goes)
//
// The coordinator runs init, passes the directory to each participant in turn for contribute
// (each publishes the sha256 it prints), and after each phase's last contribution runs finalize
// with a public random beacon fixed in advance (a future drand round, a block hash). Anyone
// runs verify on the published directory. The keys end up in <dir>/keys: reveal.pk and
// reveal.vk for provers (card redeem --keys), verification_key.json for the relayer
// (VERIFICATION_KEY_FILE) and devnet (--keys), verifier-args.json to deploy the verifier.
package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/ops/ceremony"
)

func main() {
	buildversion.Answer("ceremony")
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, errUsage) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ceremony:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

const usage = "usage: ceremony init|contribute|finalize|verify [--dir DIR] [flags]  (ceremony <command> -h)"

// run runs one subcommand; results go to stdout, progress to stderr.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) < 1 {
		fmt.Fprintln(stderr, usage)
		return errUsage
	}
	fs := flag.NewFlagSet("ceremony "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "setup", "the ceremony's transcript directory")
	switch args[0] {
	case "init":
		if err := fs.Parse(args[1:]); err != nil {
			return errUsage
		}
		fmt.Fprintln(stderr, "compiling the reveal circuit…")
		m, err := ceremony.Init(*dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "ceremony started in %s: circuit %s, %d constraints, domain %d, sha256 %s\nnext: ceremony contribute --dir %s --name <who>\n",
			*dir, m.Circuit, m.Constraints, m.DomainSize, m.CircuitHash, *dir)
		return nil
	case "contribute":
		name := fs.String("name", "", "who contributes, recorded in the transcript (required)")
		if err := fs.Parse(args[1:]); err != nil {
			return errUsage
		}
		if strings.TrimSpace(*name) == "" {
			fmt.Fprintln(stderr, "--name is required: the transcript says who contributed")
			return errUsage
		}
		fmt.Fprintln(stderr, "contributing (fresh randomness, never written anywhere)…")
		c, err := ceremony.Contribute(*dir, *name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s written by %q\nsha256 %s\npublish this hash: verify checks the transcript against it\n", filepath.Join(*dir, c.File), c.Name, c.SHA256)
		return nil
	case "finalize":
		beacon := fs.String("beacon", "", "the public random beacon that closes the phase, in hex, fixed only after its last contribution (required)")
		if err := fs.Parse(args[1:]); err != nil {
			return errUsage
		}
		b, err := hex.DecodeString(strings.TrimPrefix(*beacon, "0x"))
		if err != nil || len(b) == 0 {
			fmt.Fprintln(stderr, "--beacon must be a non-empty hex string, e.g. a drand round's randomness or a block hash announced in advance")
			return errUsage
		}
		fmt.Fprintln(stderr, "verifying the phase's contributions and sealing it (phase 2 takes about a minute)…")
		if err := ceremony.Finalize(*dir, b); err != nil {
			return err
		}
		m, err := ceremony.ReadManifest(*dir)
		if err != nil {
			return err
		}
		if m.Phase2 != nil && m.Phase2.Beacon != "" {
			fmt.Fprintf(stdout, "phase 2 finalized: keys in %s\n", filepath.Join(*dir, ceremony.KeysDir))
		} else {
			fmt.Fprintf(stdout, "phase 1 finalized; phase 2 is open: ceremony contribute --dir %s --name <who>\n", *dir)
		}
		return nil
	case "verify":
		partial := fs.Bool("partial", false, "a ceremony still open verifies as far as it goes (progress checks); without it, only a finished one verifies")
		if err := fs.Parse(args[1:]); err != nil {
			return errUsage
		}
		err := ceremony.Verify(*dir, func(format string, args ...any) { fmt.Fprintf(stdout, format+"\n", args...) })
		switch {
		case errors.Is(err, ceremony.ErrOpen) && *partial:
			fmt.Fprintf(stdout, "verified so far (%v); it has produced no keys yet\n", err)
			return nil
		case errors.Is(err, ceremony.ErrOpen):
			return fmt.Errorf("%w: nothing to use yet (verify --partial checks the contributions so far)", err)
		case err != nil:
			return fmt.Errorf("the transcript does not verify: %w", err)
		}
		fmt.Fprintln(stdout, "verified")
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return errUsage
}
