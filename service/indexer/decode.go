package indexer

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strconv"

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
	"COMMITMENT_TREE_ADDRESS":     contracts.NewCommitRevealVault().GetABI(),
	"NULLIFIER_REGISTRY_ADDRESS":  contracts.NewCommitRevealVault().GetABI(),
	"COMMIT_REVEAL_VAULT_ADDRESS": contracts.NewCommitRevealVault().GetABI(),
	"TOKEN_FACTORY_ADDRESS":       contracts.NewTokenFactory().GetABI(),
}

func newDecoder(sources []source) *decoder {
	d := &decoder{byAddress: map[common.Address]abi.ABI{}}
	seen := map[string]bool{}
	for _, s := range sources {
		// One contract may be named by several variables (the vault holds its tree and its
		// registry: the three addresses are one): its events are those of every ABI named.
		a, ok := d.byAddress[s.address]
		if !ok {
			a = abi.ABI{Events: map[string]abi.Event{}}
		}
		for name, ev := range s.abi.Events {
			a.Events[name] = ev
			if !seen[name] {
				seen[name] = true
				d.names = append(d.names, name)
			}
		}
		d.byAddress[s.address] = a
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
	if static(ev) {
		args, err = decodeStatic(ev, l)
	} else {
		args, err = decodeDynamic(ev, l)
	}
	if err != nil {
		return "", nil, false, fmt.Errorf("%s at %s: %w", ev.Name, l.Address.Hex(), err)
	}
	return ev.Name, args, true, nil
}

// static reports whether every argument of ev is one 32-byte word (numbers, addresses, bools,
// bytesN), as every event of the vault's contracts is: those are rendered straight from their
// words, in ABI order, without reflection.
func static(ev *abi.Event) bool {
	for _, in := range ev.Inputs {
		switch in.Type.T {
		case abi.UintTy, abi.IntTy, abi.BoolTy, abi.AddressTy, abi.FixedBytesTy:
		default:
			return false
		}
	}
	return true
}

// decodeStatic renders an event whose arguments are all one word each: indexed ones from the
// topics, the others from the data, in order.
func decodeStatic(ev *abi.Event, l *types.Log) (json.RawMessage, error) {
	topics, data := l.Topics[1:], l.Data
	out := make([]byte, 0, 64*len(ev.Inputs))
	out = append(out, '{')
	for i, in := range ev.Inputs {
		var word []byte
		if in.Indexed {
			if len(topics) == 0 {
				return nil, fmt.Errorf("too few topics")
			}
			word, topics = topics[0][:], topics[1:]
		} else {
			if len(data) < 32 {
				return nil, fmt.Errorf("data too short")
			}
			word, data = data[:32], data[32:]
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, in.Name)
		out = append(out, ':')
		out = appendWord(out, in.Type, word)
	}
	if len(topics) != 0 || len(data) != 0 {
		return nil, fmt.Errorf("%d topics and %d bytes of data left over", len(topics), len(data))
	}
	return append(out, '}'), nil
}

// appendWord appends the JSON of one word of type t: numbers as decimal strings, addresses
// EIP-55, bytesN as 0x-hex, bools as JSON booleans.
func appendWord(out []byte, t abi.Type, w []byte) []byte {
	switch t.T {
	case abi.UintTy:
		if t.Size <= 64 {
			out = append(out, '"')
			out = strconv.AppendUint(out, binary.BigEndian.Uint64(w[24:]), 10)
			return append(out, '"')
		}
		return strconv.AppendQuote(out, new(big.Int).SetBytes(w).String())
	case abi.IntTy:
		v := new(big.Int).SetBytes(w)
		if w[0]&0x80 != 0 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 256))
		}
		return strconv.AppendQuote(out, v.String())
	case abi.BoolTy:
		return strconv.AppendBool(out, w[31] != 0)
	case abi.AddressTy:
		return strconv.AppendQuote(out, common.BytesToAddress(w[12:]).Hex())
	default: // bytesN
		return strconv.AppendQuote(out, hexutil.Encode(w[:t.Size]))
	}
}

// decodeDynamic renders an event with strings, bytes or arrays through the ABI package.
func decodeDynamic(ev *abi.Event, l *types.Log) (json.RawMessage, error) {
	values := map[string]any{}
	if err := ev.Inputs.NonIndexed().UnpackIntoMap(values, l.Data); err != nil {
		return nil, err
	}
	var indexed abi.Arguments
	for _, in := range ev.Inputs {
		if in.Indexed {
			indexed = append(indexed, in)
		}
	}
	if err := abi.ParseTopicsIntoMap(values, indexed, l.Topics[1:]); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(values))
	for k, v := range values {
		out[k] = render(v)
	}
	return json.Marshal(out)
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
