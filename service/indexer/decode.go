package indexer

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"sort"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/seed018cc74c/vaultd/gen/contracts"
)

// source is one contract whose events are indexed.
type source struct {
	address common.Address
	abi     abi.ABI
}

// decoder turns the logs of the indexed contracts into events, by their ABIs from gen/.
type decoder struct {
	byAddress map[common.Address]abi.ABI
	names     []string // every event name it knows, sorted
}

// contractABIs are the ABIs of the contracts an indexer can follow, by the variable that names
// their address.
var contractABIs = map[string]abi.ABI{
	"COMMITMENT_TREE_ADDRESS":     contracts.NewCommitmentTree().GetABI(),
	"NULLIFIER_REGISTRY_ADDRESS":  contracts.NewNullifierRegistry().GetABI(),
	"COMMIT_REVEAL_VAULT_ADDRESS": contracts.NewCommitRevealVault().GetABI(),
	"TOKEN_FACTORY_ADDRESS":       contracts.NewTokenFactory().GetABI(),
}

func newDecoder(sources []source) *decoder {
	d := &decoder{byAddress: map[common.Address]abi.ABI{}}
	for _, s := range sources {
		d.byAddress[s.address] = s.abi
		for name := range s.abi.Events {
			d.names = append(d.names, name)
		}
	}
	sort.Strings(d.names)
	return d
}

// knows reports whether name is an event of an indexed contract.
func (d *decoder) knows(name string) bool {
	i := sort.SearchStrings(d.names, name)
	return i < len(d.names) && d.names[i] == name
}

// decode returns the event a log is, or ok false for a log of another contract or of an event
// the ABI does not have.
func (d *decoder) decode(l *types.Log) (name string, args json.RawMessage, ok bool, err error) {
	a, found := d.byAddress[l.Address]
	if !found || len(l.Topics) == 0 {
		return "", nil, false, nil
	}
	ev, err := a.EventByID(l.Topics[0])
	if err != nil {
		return "", nil, false, nil
	}
	values := map[string]any{}
	if err := ev.Inputs.NonIndexed().UnpackIntoMap(values, l.Data); err != nil {
		return "", nil, false, fmt.Errorf("%s at %s: %w", ev.Name, l.Address.Hex(), err)
	}
	var indexed abi.Arguments
	for _, in := range ev.Inputs {
		if in.Indexed {
			indexed = append(indexed, in)
		}
	}
	if err := abi.ParseTopicsIntoMap(values, indexed, l.Topics[1:]); err != nil {
		return "", nil, false, fmt.Errorf("%s at %s: %w", ev.Name, l.Address.Hex(), err)
	}
	out := make(map[string]any, len(values))
	for k, v := range values {
		out[k] = render(v)
	}
	args, err = json.Marshal(out)
	return ev.Name, args, err == nil, err
}

// render is how an argument appears in JSON: numbers as decimal strings, bytes as 0x-hex,
// addresses EIP-55.
func render(v any) any {
	switch x := v.(type) {
	case *big.Int:
		return x.String()
	case common.Address:
		return x.Hex()
	case common.Hash:
		return x.Hex()
	case []byte:
		return hexutil.Encode(x)
	case string, bool:
		return x
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprint(rv.Uint())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprint(rv.Int())
	case reflect.Array:
		if rv.Type().Elem().Kind() == reflect.Uint8 { // bytesN
			b := make([]byte, rv.Len())
			reflect.Copy(reflect.ValueOf(b), rv)
			return hexutil.Encode(b)
		}
		fallthrough
	case reflect.Slice:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = render(rv.Index(i).Interface())
		}
		return out
	}
	return fmt.Sprint(v)
}
