package main

import (
	"bytes"
	"context"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/faucet"
)

// `faucet claim` claims as a client does: it solves the proof of work a faucet asks for (and
// claims without one from a faucet that asks none), prints the 202's claim and exits 0; a
// refused claim (409 the second time) is printed to stderr with exit 1.
func TestClaimCommand(t *testing.T) {
	c := devchaintest.Start(t)
	for _, work := range []string{"4", "0"} {
		env := devstack.FaucetEnv(c, filepath.Join(t.TempDir(), "faucet.db"))
		maps.Copy(env, map[string]string{"FAUCET_POW_WORK": work, "FAUCET_POW_MEMORY_KIB": "64"})
		cfg, err := faucet.LoadConfig(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		svc, err := faucet.New(context.Background(), cfg, faucet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		url, stop := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)
		k, _ := crypto.GenerateKey()
		addr := crypto.PubkeyToAddress(k.PublicKey).Hex()
		var out, errs bytes.Buffer
		if code := claimCommand([]string{"--url", url, addr}, &out, &errs); code != 0 || !strings.Contains(out.String(), `"status":"pending"`) {
			t.Fatalf("work %s: exit %d, stdout %q, stderr %q", work, code, out.String(), errs.String())
		}
		if solved := strings.Contains(errs.String(), "solved the proof of work"); solved != (work != "0") {
			t.Fatalf("work %s: stderr %q", work, errs.String())
		}
		out.Reset()
		errs.Reset()
		if code := claimCommand([]string{"--url", url, addr}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "409") || out.Len() != 0 {
			t.Fatalf("work %s, a second claim: exit %d, stdout %q, stderr %q", work, code, out.String(), errs.String())
		}
		stop()
	}
	var errs bytes.Buffer
	if code := claimCommand(nil, &bytes.Buffer{}, &errs); code != 2 || !strings.Contains(errs.String(), "usage") {
		t.Fatalf("no address: exit %d, %q", code, errs.String())
	}
}
