package indexer

import (
	"encoding/json"
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/seed018cc74c/vaultd/gen/contracts"
)

// The fast path renders every static event exactly as the ABI package does, negative numbers
// and full-width values included.
func TestStaticDecodingAgreesWithTheABIPackage(t *testing.T) {
	t.Parallel()
	vault := contracts.NewCommitRevealVault().GetABI()
	tree := contracts.NewCommitRevealVault().GetABI()
	word := func(v *big.Int) []byte { return common.LeftPadBytes(v.Bytes(), 32) }
	max256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for name, l := range map[string]*types.Log{
		"Revealed": {Topics: []common.Hash{vault.Events["Revealed"].ID, common.HexToHash("0x01"), common.BytesToHash(common.HexToAddress("0xaa").Bytes()),
			common.BytesToHash(common.HexToAddress("0xbb").Bytes())},
			Data: append(append(word(max256), word(big.NewInt(0))...), word(new(big.Int).SetBytes(common.HexToAddress("0x00000000000000000000000000000000000000cc").Bytes()))...)},
		"CommitmentInserted": {Topics: []common.Hash{tree.Events["CommitmentInserted"].ID, common.HexToHash("0xabcdef")},
			Data: append(word(big.NewInt(4294967295)), word(big.NewInt(7))...)},
	} {
		ev := vault.Events[name]
		if name == "CommitmentInserted" {
			ev = tree.Events[name]
		}
		fast, err := decodeStatic(&ev, l)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := decodeDynamic(&ev, l)
		if err != nil {
			t.Fatal(err)
		}
		var a, b map[string]any
		json.Unmarshal(fast, &a)
		json.Unmarshal(slow, &b)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: fast %s, ABI package %s", name, fast, slow)
		}
	}
	if static(ptr(contracts.NewTokenFactory().GetABI().Events["TokenCreated"])) {
		t.Fatal("TokenCreated has strings: not static")
	}
}

func ptr[T any](v T) *T { return &v }
