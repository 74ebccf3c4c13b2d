package relayer_test

import (
	"math/big"
	"strings"
	"testing"

	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/dev/localkms"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// The operator key is a key in KMS (Local KMS, a real process): the relayer pays a reveal from
// its address, signed there.
func TestRevealPaidFromAKMSKey(t *testing.T) {
	srv := localkms.Start(t)
	keyID := srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1)
	for k, v := range localkms.Env(srv.URL) { // the AWS SDK's standard configuration reads the process's environment
		t.Setenv(k, v)
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	c := devchaintest.Start(t)
	signers, err := kmssigner.Open(ctx, []string{keyID}, 0)
	if err != nil {
		t.Fatal(err)
	}
	operator := signers[0].Address()
	funding, err := devchain.SendTx(ctx, c, c.Accounts.Deployer.Key, &operator, new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether)), nil)
	if err == nil {
		_, err = devchain.WaitReceipt(ctx, c.Client(), funding.Hash())
	}
	if err != nil {
		t.Fatal(err)
	}
	s := relayertest.Start(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_ID": keyID, "MIN_OPERATOR_BALANCE": "1"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 5)
	resp := relayertest.Reveal(t, s, req)
	if resp.StatusCode() != 200 || resp.JSON200 == nil || !resp.JSON200.Success {
		t.Fatalf("reveal: %d %s", resp.StatusCode(), resp.Body)
	}
	mined, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(resp.JSON200.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	if from, err := types.Sender(types.LatestSignerForChainID(mined.ChainId()), mined); err != nil || from != operator {
		t.Fatalf("the reveal was sent by %s (%v), want the KMS key's %s", from.Hex(), err, operator.Hex())
	}
}

// Two ways of giving the operator key at once are refused, every problem listed; KMS keys for
// replicas need REDIS_URL like any; a key in KMS signs no quote, so fees need a quote key.
func TestKMSOperatorSettings(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	_, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_KMS_KEY_ID": "alias/operator", "OPERATOR_KMS_KEY_IDS": "k1,k2,k1"}))
	for _, want := range []string{"set one way of giving the operator key, not all of OPERATOR_PRIVATE_KEY (or OPERATOR_KEYSTORE_FILE), OPERATOR_KMS_KEY_ID, OPERATOR_KMS_KEY_IDS",
		"OPERATOR_KMS_KEY_IDS: key 3 repeats an earlier key"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_KMS_KEY_ID": "k1"}))
	if err == nil || !strings.Contains(err.Error(), "not both OPERATOR_PRIVATE_KEY (or OPERATOR_KEYSTORE_FILE) and OPERATOR_KMS_KEY_ID") {
		t.Errorf("a key in the process and one in KMS: %v", err)
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_IDS": "k1,k2"}))
	if err == nil || !strings.Contains(err.Error(), "OPERATOR_KMS_KEY_IDS needs REDIS_URL") {
		t.Errorf("replicas' KMS keys without Redis: %v", err)
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_ID": "k1",
		"RELAYER_FUNDING": "fee", "RELAYER_TOKEN_PRICES": c.Tokens[0].Address.Hex() + "=1"}))
	if err == nil || !strings.Contains(err.Error(), "set RELAYER_QUOTE_PRIVATE_KEY") {
		t.Errorf("fees with the operator key in KMS and no quote key: %v", err)
	}
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_IDS": "k1, k2", "REDIS_URL": "redis://127.0.0.1:1/0"}))
	if err != nil || len(cfg.Operator.KMSKeyIDs) != 2 || !cfg.Operator.Replicas() {
		t.Errorf("two KMS keys for replicas: %v %v", err, cfg.Operator.KMSKeyIDs)
	}
}
