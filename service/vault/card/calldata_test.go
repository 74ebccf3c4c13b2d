package card_test

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/seed018cc74c/vaultd/service/vault/card"
)

var updateVectors = flag.Bool("update", false, "write testdata/revealcalldata.json from RevealCalldata")

// The vault's reveal calldata of the committed proof (service/vault/zk/testdata/gnark), to a
// fixed recipient: what web/client's revealCalldata must write too (its test reads this file), so
// that a wallet sending a reveal itself sends what the relayer would.
func TestRevealCalldataVector(t *testing.T) {
	var req card.Request
	for file, into := range map[string]any{"../zk/testdata/gnark/proof.json": &req.Proof, "../zk/testdata/gnark/public.json": &req.PublicSignals} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, into); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	req.Recipient = "0x5555555555555555555555555555555555555555"
	data, err := card.RevealCalldata(req)
	if err != nil {
		t.Fatal(err)
	}
	want := struct {
		Recipient string `json:"recipient"`
		Calldata  string `json:"calldata"`
	}{req.Recipient, hexutil.Encode(data)}
	if *updateVectors {
		out, _ := json.MarshalIndent(want, "", "  ")
		if err := os.WriteFile("testdata/revealcalldata.json", append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile("testdata/revealcalldata.json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Recipient, Calldata string }
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Recipient != want.Recipient || got.Calldata != want.Calldata {
		t.Fatalf("testdata/revealcalldata.json is not RevealCalldata's (go test -run TestRevealCalldataVector -update)")
	}
}
