package zk

import (
	"encoding/json"
	"math/big"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// The shared vectors of testdata/feebinding.json (web/client's tests read them too): each
// recipient, fee and receiver gives the binding. The vault's own feeBinding is checked against
// FeeBinding on the dev chain by service/vault/card's fee test.
func TestFeeBindingVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/feebinding.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct{ Recipient, Fee, Receiver, Binding string }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range doc.Cases {
		fee, _ := new(big.Int).SetString(c.Fee, 10)
		got := FeeBinding(common.HexToAddress(c.Recipient), Fee{Amount: fee, Receiver: common.HexToAddress(c.Receiver)})
		if got.String() != c.Binding {
			t.Errorf("FeeBinding(%s, %s, %s) = %s, want %s", c.Recipient, c.Fee, c.Receiver, got, c.Binding)
		}
	}
}
