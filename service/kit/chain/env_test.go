package chain_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// A wallet key from an encrypted keystore (go-ethereum's v3 JSON) and its password file; a wrong
// password, a keystore without a password, a password without a keystore and a keystore beside a
// plain key are each refused, never echoing the key or the password.
func TestEnvWalletKeyFromAKeystore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key, _ := crypto.GenerateKey()
	ks := keystore.NewKeyStore(filepath.Join(dir, "ks"), keystore.LightScryptN, keystore.LightScryptP)
	account, err := ks.ImportECDSA(key, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, wrong := write("password", "correct horse\n"), write("wrong", "battery staple")
	read := func(vars map[string]string) (*config.Env, string) {
		e := config.NewEnv(func(k string) string { return vars[k] })
		k := chain.EnvWalletKey(e, "FAUCET")
		if k != nil && e.Err() == nil {
			return e, crypto.PubkeyToAddress(k.PublicKey).Hex()
		}
		return e, ""
	}
	if _, got := read(map[string]string{"FAUCET_KEYSTORE_FILE": account.URL.Path, "FAUCET_KEYSTORE_PASSWORD_FILE": good}); got != account.Address.Hex() {
		t.Fatalf("the keystore's key is %s, want %s", got, account.Address.Hex())
	}
	plain := hexutil.Encode(crypto.FromECDSA(key))
	for _, c := range []struct {
		name string
		vars map[string]string
		want string
	}{
		{"wrong password", map[string]string{"FAUCET_KEYSTORE_FILE": account.URL.Path, "FAUCET_KEYSTORE_PASSWORD_FILE": wrong}, "does not open with FAUCET_KEYSTORE_PASSWORD"},
		{"no password", map[string]string{"FAUCET_KEYSTORE_FILE": account.URL.Path}, "FAUCET_KEYSTORE_PASSWORD (or FAUCET_KEYSTORE_PASSWORD_FILE) is required"},
		{"password alone", map[string]string{"FAUCET_KEYSTORE_PASSWORD": "correct horse", "FAUCET_PRIVATE_KEY": plain}, "FAUCET_KEYSTORE_PASSWORD is set without FAUCET_KEYSTORE_FILE or FAUCET_KEYSTORE_DIR"},
		{"both ways", map[string]string{"FAUCET_KEYSTORE_FILE": account.URL.Path, "FAUCET_KEYSTORE_PASSWORD_FILE": good, "FAUCET_PRIVATE_KEY": plain}, "not both"},
		{"not a keystore", map[string]string{"FAUCET_KEYSTORE_FILE": good, "FAUCET_KEYSTORE_PASSWORD_FILE": good}, "not a version 3 keystore"},
	} {
		e, got := read(c.vars)
		err := e.Err()
		if got != "" || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: key %q, err %v; want refused with %q", c.name, got, err, c.want)
			continue
		}
		for _, secret := range []string{"correct horse", "battery staple", plain[2:]} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the error shows a secret: %v", c.name, err)
			}
		}
	}
}

// Several wallets' keys from a keystore directory (geth's layout, one v3 file per key) under one
// password: every key read; a wrong password named by file, a repeated key by both files, an empty
// directory and a directory beside PRIVATE_KEYS each refused, never echoing a key or the password.
func TestEnvWalletKeysFromAKeystoreDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ksDir := filepath.Join(dir, "ks")
	ks := keystore.NewKeyStore(ksDir, keystore.LightScryptN, keystore.LightScryptP)
	var want []string
	var plain []string
	for range 3 {
		key, _ := crypto.GenerateKey()
		a, err := ks.ImportECDSA(key, "correct horse")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, a.Address.Hex())
		plain = append(plain, hexutil.Encode(crypto.FromECDSA(key)))
	}
	password := filepath.Join(dir, "password")
	os.WriteFile(password, []byte("correct horse\n"), 0o600)
	read := func(vars map[string]string) (*config.Env, []string) {
		e := config.NewEnv(func(k string) string { return vars[k] })
		var got []string
		for _, k := range chain.EnvWalletKeys(e, "OPERATOR") {
			got = append(got, crypto.PubkeyToAddress(k.PublicKey).Hex())
		}
		return e, got
	}
	e, got := read(map[string]string{"OPERATOR_KEYSTORE_DIR": ksDir, "OPERATOR_KEYSTORE_PASSWORD_FILE": password})
	if e.Err() != nil || len(got) != 3 {
		t.Fatalf("keys %v, err %v; want the 3 of the directory", got, e.Err())
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(got, " "), w) {
			t.Errorf("%s missing from %v", w, got)
		}
	}

	other := filepath.Join(dir, "other")
	otherKs := keystore.NewKeyStore(other, keystore.LightScryptN, keystore.LightScryptP)
	key, _ := crypto.GenerateKey()
	otherKs.ImportECDSA(key, "battery staple")
	same, _ := crypto.HexToECDSA(plain[0][2:])
	if _, err := otherKs.ImportECDSA(same, "correct horse"); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadDir(ksDir)
	data, _ := os.ReadFile(filepath.Join(ksDir, first[0].Name()))
	os.WriteFile(filepath.Join(other, "copy-of-first"), data, 0o600)
	os.WriteFile(filepath.Join(other, ".hidden"), []byte("not a keystore"), 0o600)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o700)
	for _, c := range []struct {
		name string
		vars map[string]string
		want []string
	}{
		{"wrong password, repeated key", map[string]string{"OPERATOR_KEYSTORE_DIR": other, "OPERATOR_KEYSTORE_PASSWORD_FILE": password},
			[]string{"does not open with OPERATOR_KEYSTORE_PASSWORD", "holds the same key as"}},
		{"empty", map[string]string{"OPERATOR_KEYSTORE_DIR": empty, "OPERATOR_KEYSTORE_PASSWORD_FILE": password}, []string{"holds no keystore"}},
		{"missing", map[string]string{"OPERATOR_KEYSTORE_DIR": filepath.Join(dir, "nowhere"), "OPERATOR_KEYSTORE_PASSWORD_FILE": password}, []string{"OPERATOR_KEYSTORE_DIR"}},
		{"no password", map[string]string{"OPERATOR_KEYSTORE_DIR": ksDir}, []string{"OPERATOR_KEYSTORE_PASSWORD (or OPERATOR_KEYSTORE_PASSWORD_FILE) is required"}},
		{"both ways", map[string]string{"OPERATOR_KEYSTORE_DIR": ksDir, "OPERATOR_KEYSTORE_PASSWORD_FILE": password, "OPERATOR_PRIVATE_KEYS": plain[1]}, []string{"not both"}},
	} {
		e, got := read(c.vars)
		err := e.Err()
		if err == nil {
			t.Errorf("%s: keys %v, no error", c.name, got)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want %q", c.name, err, w)
			}
		}
		for _, secret := range append([]string{"correct horse", "battery staple"}, plain...) {
			if strings.Contains(err.Error(), strings.TrimPrefix(secret, "0x")) {
				t.Errorf("%s: the error shows a secret: %v", c.name, err)
			}
		}
	}
}

// nodeAnswer is a JSON-RPC error as a node returns it (rpc.Error), for Retry's test: the fake
// stands for an answer the real node gives only to a call that is wrong.
type nodeAnswer struct{}

func (nodeAnswer) Error() string  { return "execution reverted" }
func (nodeAnswer) ErrorCode() int { return 3 }

// Retry asks again after a passing fault, three times at most, and never after the node's own
// answer or once ctx has ended.
func TestRetryRidesOutAPassingFault(t *testing.T) {
	t.Parallel()
	calls := 0
	passing := errors.New("502 Bad Gateway")
	if err := chain.Retry(t.Context(), func() error {
		if calls++; calls < 3 {
			return passing
		}
		return nil
	}); err != nil || calls != 3 {
		t.Fatalf("two passing faults, then an answer: %v after %d calls", err, calls)
	}
	calls = 0
	if err := chain.Retry(t.Context(), func() error { calls++; return nodeAnswer{} }); !errors.As(err, new(nodeAnswer)) || calls != 1 {
		t.Fatalf("the node's answer: %v after %d calls, want it at once", err, calls)
	}
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	calls = 0
	if err := chain.Retry(ended, func() error { calls++; return passing }); !errors.Is(err, context.Canceled) || !errors.Is(err, passing) || calls != 1 {
		t.Fatalf("a passing fault with ctx ended: %v after %d calls", err, calls)
	}
}
