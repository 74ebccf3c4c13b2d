package chain_test

import (
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
		{"password alone", map[string]string{"FAUCET_KEYSTORE_PASSWORD": "correct horse", "FAUCET_PRIVATE_KEY": plain}, "FAUCET_KEYSTORE_PASSWORD is set without FAUCET_KEYSTORE_FILE"},
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
