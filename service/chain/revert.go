package chain

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// RevertData returns the revert data a node sent with an error (eth_call, eth_estimateGas).
func RevertData(err error) ([]byte, bool) {
	var de interface{ ErrorData() interface{} }
	if !errors.As(err, &de) {
		return nil, false
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return nil, false
	}
	data, decErr := hexutil.Decode(s)
	if decErr != nil || len(data) == 0 {
		return nil, false
	}
	return data, true
}

// Revert is a decoded revert: a custom error of a contract, Error(string) or Panic(uint256).
type Revert struct {
	Name string // custom error name, "Error", "Panic", or "" when unknown
	Args []any
	Data []byte
}

func (r Revert) String() string {
	if r.Name == "" {
		return fmt.Sprintf("unknown revert 0x%x", r.Data)
	}
	args := make([]string, len(r.Args))
	for i, a := range r.Args {
		args[i] = fmt.Sprint(a)
	}
	return r.Name + "(" + strings.Join(args, ", ") + ")"
}

// DecodeRevert decodes revert data against a contract's ABI.
func DecodeRevert(contract *abi.ABI, data []byte) Revert {
	r := Revert{Data: data}
	if len(data) < 4 {
		return r
	}
	if reason, err := abi.UnpackRevert(data); err == nil {
		r.Name, r.Args = "Error", []any{reason}
		return r
	}
	if contract != nil {
		for name, e := range contract.Errors {
			if string(e.ID[:4]) == string(data[:4]) {
				args, err := e.Inputs.Unpack(data[4:])
				if err == nil {
					r.Name, r.Args = name, args
				}
				return r
			}
		}
	}
	return r
}

// RevertOf decodes the revert carried by err, if any.
func RevertOf(contract *abi.ABI, err error) (Revert, bool) {
	data, ok := RevertData(err)
	if !ok {
		return Revert{}, false
	}
	return DecodeRevert(contract, data), true
}
