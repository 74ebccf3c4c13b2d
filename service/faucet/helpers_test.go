package faucet_test

import (
	"crypto/ecdsa"
	"log/slog"
	"testing"

	"github.com/seed018cc74c/vaultd/service/kit/platform/platformtest"

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
	platformtest.WaitFor(t, what, cond)
}

// logCapture collects log lines a service writes while the test reads them.
type logCapture = platformtest.Logs

func captureLogs(t testing.TB) *logCapture {
	var l logCapture
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&l, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return &l
}
