package faucet_test

import (
	"crypto/ecdsa"
	"log/slog"
	"testing"

	"github.com/seed018cc74c/vaultd/service/faucet"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

func freshKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func keyAddress(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

func keyHex(k *ecdsa.PrivateKey) string { return hexutil.Encode(crypto.FromECDSA(k)) }

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	edgetest.WaitFor(t, what, cond)
}

// logCapture collects the log lines of the faucets a test starts with its logger (the
// process's default logger is not touched: tests run in parallel).
type logCapture struct{ edgetest.Logs }

func captureLogs(testing.TB) *logCapture { return &logCapture{} }

// options are the faucet's options writing its logs here.
func (l *logCapture) options() faucet.Options {
	return faucet.Options{Logger: slog.New(slog.NewJSONHandler(&l.Logs, nil))}
}
