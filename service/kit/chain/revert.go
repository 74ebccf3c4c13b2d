package chain

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// RevertData returns the revert data a node sent with an error (eth_call, eth_estimateGas), in
// each shape nodes send it: the error's data as a hex string (geth, Anvil: code 3), an object
// holding it (Hardhat: code -32603, data {message, data: "0x…"}; some providers nest it once
// more), or only in the message ("… return data 0x…", "reverted with … 0x…").
func RevertData(err error) ([]byte, bool) {
	var de interface{ ErrorData() interface{} }
	if errors.As(err, &de) {
		if data, ok := hexIn(de.ErrorData(), 3); ok {
			return data, true
		}
	}
	if err == nil {
		return nil, false
	}
	msg := err.Error()
	for _, marker := range []string{"return data 0x", "return data: 0x", "execution reverted: 0x"} {
		if i := strings.Index(msg, marker); i >= 0 {
			hex := msg[i+len(marker)-2:]
			if end := strings.IndexFunc(hex[2:], func(r rune) bool { return !strings.ContainsRune("0123456789abcdefABCDEF", r) }); end >= 0 {
				hex = hex[:2+end]
			}
			if data, err := hexutil.Decode(hex); err == nil && len(data) >= 4 {
				return data, true
			}
		}
	}
	return nil, false
}

// isRevert reports whether err is the node saying a call reverted (with data or without): the
// contract's answer to what was asked, not a fault of the node or of the way to it.
func isRevert(err error) bool {
	if !IsNodeAnswer(err) {
		return false
	}
	if _, ok := RevertData(err); ok {
		return true
	}
	return strings.Contains(strings.ToLower(err.Error()), "execution reverted")
}

// hexIn finds revert data in an error's data: a 0x string, or under a "data" (or
// "originalError") key of an object, depth levels down at most.
func hexIn(v any, depth int) ([]byte, bool) {
	switch d := v.(type) {
	case string:
		data, err := hexutil.Decode(d)
		return data, err == nil && len(data) > 0
	case map[string]any:
		if depth == 0 {
			return nil, false
		}
		for _, k := range []string{"data", "originalError"} {
			if data, ok := hexIn(d[k], depth-1); ok {
				return data, true
			}
		}
	}
	return nil, false
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
