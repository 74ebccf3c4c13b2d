// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// LegacyTokenMetaData contains all meta data concerning the LegacyToken contract.
var LegacyTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"name_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"symbol_\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"supply\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "761b27323de41d3d646619221e8e65ea12",
	Bin: "0x6080604052348015600e575f5ffd5b506040516102ec3803806102ec833981016040819052602b916085565b5f8381556001839055600282905533808252600360209081526040808420859055518481529192917fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a350505060af565b5f5f5f606084860312156096575f5ffd5b5050815160208301516040909301519094929350919050565b610230806100bc5f395ff3fe608060405234801561000f575f5ffd5b5060043610610060575f3560e01c806306fdde031461006457806318160ddd1461007f578063313ce5671461008857806370a08231146100a257806395d89b41146100c1578063a9059cbb146100ca575b5f5ffd5b61006c5f5481565b6040519081526020015b60405180910390f35b61006c60025481565b610090601281565b60405160ff9091168152602001610076565b61006c6100b03660046101c9565b60036020525f908152604090205481565b61006c60015481565b6100dd6100d83660046101e9565b6100ed565b6040519015158152602001610076565b335f908152600360205260408120548281101561012b5760405163cf47918160e01b8152600481018290526024810184905260440160405180910390fd5b335f9081526003602052604080822085840390556001600160a01b03861682528120805485929061015d908490610211565b90915550506040518381526001600160a01b0385169033907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a360019150505b92915050565b80356001600160a01b03811681146101c4575f5ffd5b919050565b5f602082840312156101d9575f5ffd5b6101e2826101ae565b9392505050565b5f5f604083850312156101fa575f5ffd5b610203836101ae565b946020939093013593505050565b808201808211156101a857634e487b7160e01b5f52601160045260245ffd",
}

// LegacyToken is an auto generated Go binding around an Ethereum contract.
type LegacyToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *LegacyToken) GetABI() abi.ABI {
	return c.abi
}

// NewLegacyToken creates a new instance of LegacyToken.
func NewLegacyToken() *LegacyToken {
	parsed, err := LegacyTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &LegacyToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *LegacyToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(bytes32 name_, bytes32 symbol_, uint256 supply) returns()
func (legacyToken *LegacyToken) PackConstructor(name_ [32]byte, symbol_ [32]byte, supply *big.Int) []byte {
	enc, err := legacyToken.abi.Pack("", name_, symbol_, supply)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (legacyToken *LegacyToken) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := legacyToken.abi.Pack("balanceOf", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (legacyToken *LegacyToken) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return legacyToken.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (legacyToken *LegacyToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := legacyToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (legacyToken *LegacyToken) PackDecimals() []byte {
	enc, err := legacyToken.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (legacyToken *LegacyToken) TryPackDecimals() ([]byte, error) {
	return legacyToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (legacyToken *LegacyToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := legacyToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(bytes32)
func (legacyToken *LegacyToken) PackName() []byte {
	enc, err := legacyToken.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(bytes32)
func (legacyToken *LegacyToken) TryPackName() ([]byte, error) {
	return legacyToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(bytes32)
func (legacyToken *LegacyToken) UnpackName(data []byte) ([32]byte, error) {
	out, err := legacyToken.abi.Unpack("name", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(bytes32)
func (legacyToken *LegacyToken) PackSymbol() []byte {
	enc, err := legacyToken.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(bytes32)
func (legacyToken *LegacyToken) TryPackSymbol() ([]byte, error) {
	return legacyToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(bytes32)
func (legacyToken *LegacyToken) UnpackSymbol(data []byte) ([32]byte, error) {
	out, err := legacyToken.abi.Unpack("symbol", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (legacyToken *LegacyToken) PackTotalSupply() []byte {
	enc, err := legacyToken.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (legacyToken *LegacyToken) TryPackTotalSupply() ([]byte, error) {
	return legacyToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (legacyToken *LegacyToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := legacyToken.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (legacyToken *LegacyToken) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := legacyToken.abi.Pack("transfer", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (legacyToken *LegacyToken) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return legacyToken.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (legacyToken *LegacyToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := legacyToken.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// LegacyTokenTransfer represents a Transfer event raised by the LegacyToken contract.
type LegacyTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const LegacyTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (LegacyTokenTransfer) ContractEventName() string {
	return LegacyTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (legacyToken *LegacyToken) UnpackTransferEvent(log *types.Log) (*LegacyTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != legacyToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(LegacyTokenTransfer)
	if len(log.Data) > 0 {
		if err := legacyToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range legacyToken.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (legacyToken *LegacyToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], legacyToken.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return legacyToken.UnpackInsufficientBalanceError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// LegacyTokenInsufficientBalance represents a InsufficientBalance error raised by the LegacyToken contract.
type LegacyTokenInsufficientBalance struct {
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance(uint256 balance, uint256 needed)
func LegacyTokenInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xcf4791818fba6e019216eb4864093b4947f674afada5d305e57d598b641dad1d")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance(uint256 balance, uint256 needed)
func (legacyToken *LegacyToken) UnpackInsufficientBalanceError(raw []byte) (*LegacyTokenInsufficientBalance, error) {
	out := new(LegacyTokenInsufficientBalance)
	if err := legacyToken.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// TokenFactoryMetaData contains all meta data concerning the TokenFactory contract.
var TokenFactoryMetaData = bind.MetaData{
	ABI: "[{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"indexed\":false,\"internalType\":\"string\",\"name\":\"symbol\",\"type\":\"string\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"decimals\",\"type\":\"uint8\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"minter\",\"type\":\"address\"}],\"name\":\"TokenCreated\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol\",\"type\":\"string\"},{\"internalType\":\"uint8\",\"name\":\"decimals\",\"type\":\"uint8\"}],\"name\":\"createToken\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"tokenCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"tokens\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "41d25a2a89d8a90b39711bcb2b7f15d947",
	Bin: "0x6080604052348015600e575f5ffd5b50610d658061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80634f64b2be146100435780639f181b5e14610073578063e8a0aed314610083575b5f5ffd5b61005661005136600461019e565b610096565b6040516001600160a01b0390911681526020015b60405180910390f35b5f5460405190815260200161006a565b6100566100913660046101fa565b6100bd565b5f81815481106100a4575f80fd5b5f918252602090912001546001600160a01b0316905081565b5f8585858585336040516100d090610191565b6100df969594939291906102aa565b604051809103905ff0801580156100f8573d5f5f3e3d5ffd5b505f80546001810182559080527f290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e5630180546001600160a01b0319166001600160a01b03831690811790915560405191925033917f8fb1ffd0ab3f6379154037519ff749b01e1fa060a331f5394175f393c3db596b90610180908a908a908a908a908a906102f7565b60405180910390a395945050505050565b610a318061033483390190565b5f602082840312156101ae575f5ffd5b5035919050565b5f5f83601f8401126101c5575f5ffd5b50813567ffffffffffffffff8111156101dc575f5ffd5b6020830191508360208285010111156101f3575f5ffd5b9250929050565b5f5f5f5f5f6060868803121561020e575f5ffd5b853567ffffffffffffffff811115610224575f5ffd5b610230888289016101b5565b909650945050602086013567ffffffffffffffff81111561024f575f5ffd5b61025b888289016101b5565b909450925050604086013560ff81168114610274575f5ffd5b809150509295509295909350565b81835281816020850137505f828201602090810191909152601f909101601f19169091010190565b608081525f6102bd60808301888a610282565b82810360208401526102d0818789610282565b60ff95909516604084015250506001600160a01b0391909116606090910152949350505050565b606081525f61030a606083018789610282565b828103602084015261031d818688610282565b91505060ff83166040830152969550505050505056fe60c060405234801561000f575f5ffd5b50604051610a31380380610a3183398101604081905261002e91610100565b5f6100398582610229565b5060016100468482610229565b5060ff9091166080526001600160a01b031660a052506102e79050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610086575f5ffd5b81516001600160401b0381111561009f5761009f610063565b604051601f8201601f19908116603f011681016001600160401b03811182821017156100cd576100cd610063565b6040528181528382016020018510156100e4575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f5f5f60808587031215610113575f5ffd5b84516001600160401b03811115610128575f5ffd5b61013487828801610077565b602087015190955090506001600160401b03811115610151575f5ffd5b61015d87828801610077565b935050604085015160ff81168114610173575f5ffd5b60608601519092506001600160a01b038116811461018f575f5ffd5b939692955090935050565b600181811c908216806101ae57607f821691505b6020821081036101cc57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f821115610224578282111561022457805f5260205f20601f840160051c60208510156101fd57505f5b90810190601f840160051c035f5b81811015610220575f8382015560010161020b565b5050505b505050565b81516001600160401b0381111561024257610242610063565b61025681610250845461019a565b846101d2565b6020601f821160018114610288575f83156102715750848201515b5f19600385901b1c1916600184901b1784556102e0565b5f84815260208120601f198516915b828110156102b75787850151825560209485019460019092019101610297565b50848210156102d457868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b60805160a05161072361030e5f395f818160cd01526103a701525f61015901526107235ff3fe608060405234801561000f575f5ffd5b50600436106100a6575f3560e01c8063313ce5671161006e578063313ce5671461015457806340c10f191461018d57806370a08231146101a257806395d89b41146101c1578063a9059cbb146101c9578063dd62ed3e146101dc575f5ffd5b806306fdde03146100aa57806307546172146100c8578063095ea7b31461010757806318160ddd1461012a57806323b872dd14610141575b5f5ffd5b6100b2610206565b6040516100bf91906105ae565b60405180910390f35b6100ef7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b0390911681526020016100bf565b61011a6101153660046105fe565b610291565b60405190151581526020016100bf565b61013360025481565b6040519081526020016100bf565b61011a61014f366004610626565b6102fd565b61017b7f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff90911681526020016100bf565b6101a061019b3660046105fe565b61039c565b005b6101336101b0366004610660565b60036020525f908152604090205481565b6100b2610492565b61011a6101d73660046105fe565b61049f565b6101336101ea366004610680565b600460209081525f928352604080842090915290825290205481565b5f8054610212906106b1565b80601f016020809104026020016040519081016040528092919081815260200182805461023e906106b1565b80156102895780601f1061026057610100808354040283529160200191610289565b820191905f5260205f20905b81548152906001019060200180831161026c57829003601f168201915b505050505081565b335f8181526004602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906102eb9086815260200190565b60405180910390a35060015b92915050565b6001600160a01b0383165f9081526004602090815260408083203384529091528120545f19811461038657828110156103585760405163054365bb60e31b815260048101829052602481018490526044015b60405180910390fd5b61036283826106fd565b6001600160a01b0386165f9081526004602090815260408083203384529091529020555b6103918585856104b4565b506001949350505050565b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146103e557604051633e34a41b60e21b815260040160405180910390fd5b6001600160a01b03821661040c5760405163d92e233d60e01b815260040160405180910390fd5b8060025f82825461041d9190610710565b90915550506001600160a01b0382165f9081526003602052604081208054839290610449908490610710565b90915550506040518181526001600160a01b038316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b60018054610212906106b1565b5f6104ab3384846104b4565b50600192915050565b6001600160a01b0382166104db5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0383165f908152600360205260409020548181101561051e5760405163cf47918160e01b8152600481018290526024810183905260440161034f565b6001600160a01b038085165f90815260036020526040808220858503905591851681529081208054849290610554908490610710565b92505081905550826001600160a01b0316846001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef846040516105a091815260200190565b60405180910390a350505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b03811681146105f9575f5ffd5b919050565b5f5f6040838503121561060f575f5ffd5b610618836105e3565b946020939093013593505050565b5f5f5f60608486031215610638575f5ffd5b610641846105e3565b925061064f602085016105e3565b929592945050506040919091013590565b5f60208284031215610670575f5ffd5b610679826105e3565b9392505050565b5f5f60408385031215610691575f5ffd5b61069a836105e3565b91506106a8602084016105e3565b90509250929050565b600181811c908216806106c557607f821691505b6020821081036106e357634e487b7160e01b5f52602260045260245ffd5b50919050565b634e487b7160e01b5f52601160045260245ffd5b818103818111156102f7576102f76106e9565b808201808211156102f7576102f76106e956",
}

// TokenFactory is an auto generated Go binding around an Ethereum contract.
type TokenFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TokenFactory) GetABI() abi.ABI {
	return c.abi
}

// NewTokenFactory creates a new instance of TokenFactory.
func NewTokenFactory() *TokenFactory {
	parsed, err := TokenFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TokenFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TokenFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackCreateToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe8a0aed3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createToken(string name, string symbol, uint8 decimals) returns(address token)
func (tokenFactory *TokenFactory) PackCreateToken(name string, symbol string, decimals uint8) []byte {
	enc, err := tokenFactory.abi.Pack("createToken", name, symbol, decimals)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe8a0aed3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createToken(string name, string symbol, uint8 decimals) returns(address token)
func (tokenFactory *TokenFactory) TryPackCreateToken(name string, symbol string, decimals uint8) ([]byte, error) {
	return tokenFactory.abi.Pack("createToken", name, symbol, decimals)
}

// UnpackCreateToken is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe8a0aed3.
//
// Solidity: function createToken(string name, string symbol, uint8 decimals) returns(address token)
func (tokenFactory *TokenFactory) UnpackCreateToken(data []byte) (common.Address, error) {
	out, err := tokenFactory.abi.Unpack("createToken", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackTokenCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9f181b5e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokenCount() view returns(uint256)
func (tokenFactory *TokenFactory) PackTokenCount() []byte {
	enc, err := tokenFactory.abi.Pack("tokenCount")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokenCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9f181b5e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokenCount() view returns(uint256)
func (tokenFactory *TokenFactory) TryPackTokenCount() ([]byte, error) {
	return tokenFactory.abi.Pack("tokenCount")
}

// UnpackTokenCount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9f181b5e.
//
// Solidity: function tokenCount() view returns(uint256)
func (tokenFactory *TokenFactory) UnpackTokenCount(data []byte) (*big.Int, error) {
	out, err := tokenFactory.abi.Unpack("tokenCount", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTokens is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4f64b2be.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokens(uint256 ) view returns(address)
func (tokenFactory *TokenFactory) PackTokens(arg0 *big.Int) []byte {
	enc, err := tokenFactory.abi.Pack("tokens", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokens is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4f64b2be.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokens(uint256 ) view returns(address)
func (tokenFactory *TokenFactory) TryPackTokens(arg0 *big.Int) ([]byte, error) {
	return tokenFactory.abi.Pack("tokens", arg0)
}

// UnpackTokens is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4f64b2be.
//
// Solidity: function tokens(uint256 ) view returns(address)
func (tokenFactory *TokenFactory) UnpackTokens(data []byte) (common.Address, error) {
	out, err := tokenFactory.abi.Unpack("tokens", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// TokenFactoryTokenCreated represents a TokenCreated event raised by the TokenFactory contract.
type TokenFactoryTokenCreated struct {
	Token    common.Address
	Name     string
	Symbol   string
	Decimals uint8
	Minter   common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const TokenFactoryTokenCreatedEventName = "TokenCreated"

// ContractEventName returns the user-defined event name.
func (TokenFactoryTokenCreated) ContractEventName() string {
	return TokenFactoryTokenCreatedEventName
}

// UnpackTokenCreatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event TokenCreated(address indexed token, string name, string symbol, uint8 decimals, address indexed minter)
func (tokenFactory *TokenFactory) UnpackTokenCreatedEvent(log *types.Log) (*TokenFactoryTokenCreated, error) {
	event := "TokenCreated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != tokenFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TokenFactoryTokenCreated)
	if len(log.Data) > 0 {
		if err := tokenFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range tokenFactory.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WrappedTokenMetaData contains all meta data concerning the WrappedToken contract.
var WrappedTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"},{\"internalType\":\"uint8\",\"name\":\"decimals_\",\"type\":\"uint8\"},{\"internalType\":\"address\",\"name\":\"minter_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"allowance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotMinter\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"minter\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "1e526dd2087b10f473e4552e351d9945eb",
	Bin: "0x60c060405234801561000f575f5ffd5b50604051610a31380380610a3183398101604081905261002e91610100565b5f6100398582610229565b5060016100468482610229565b5060ff9091166080526001600160a01b031660a052506102e79050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610086575f5ffd5b81516001600160401b0381111561009f5761009f610063565b604051601f8201601f19908116603f011681016001600160401b03811182821017156100cd576100cd610063565b6040528181528382016020018510156100e4575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f5f5f60808587031215610113575f5ffd5b84516001600160401b03811115610128575f5ffd5b61013487828801610077565b602087015190955090506001600160401b03811115610151575f5ffd5b61015d87828801610077565b935050604085015160ff81168114610173575f5ffd5b60608601519092506001600160a01b038116811461018f575f5ffd5b939692955090935050565b600181811c908216806101ae57607f821691505b6020821081036101cc57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f821115610224578282111561022457805f5260205f20601f840160051c60208510156101fd57505f5b90810190601f840160051c035f5b81811015610220575f8382015560010161020b565b5050505b505050565b81516001600160401b0381111561024257610242610063565b61025681610250845461019a565b846101d2565b6020601f821160018114610288575f83156102715750848201515b5f19600385901b1c1916600184901b1784556102e0565b5f84815260208120601f198516915b828110156102b75787850151825560209485019460019092019101610297565b50848210156102d457868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b60805160a05161072361030e5f395f818160cd01526103a701525f61015901526107235ff3fe608060405234801561000f575f5ffd5b50600436106100a6575f3560e01c8063313ce5671161006e578063313ce5671461015457806340c10f191461018d57806370a08231146101a257806395d89b41146101c1578063a9059cbb146101c9578063dd62ed3e146101dc575f5ffd5b806306fdde03146100aa57806307546172146100c8578063095ea7b31461010757806318160ddd1461012a57806323b872dd14610141575b5f5ffd5b6100b2610206565b6040516100bf91906105ae565b60405180910390f35b6100ef7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b0390911681526020016100bf565b61011a6101153660046105fe565b610291565b60405190151581526020016100bf565b61013360025481565b6040519081526020016100bf565b61011a61014f366004610626565b6102fd565b61017b7f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff90911681526020016100bf565b6101a061019b3660046105fe565b61039c565b005b6101336101b0366004610660565b60036020525f908152604090205481565b6100b2610492565b61011a6101d73660046105fe565b61049f565b6101336101ea366004610680565b600460209081525f928352604080842090915290825290205481565b5f8054610212906106b1565b80601f016020809104026020016040519081016040528092919081815260200182805461023e906106b1565b80156102895780601f1061026057610100808354040283529160200191610289565b820191905f5260205f20905b81548152906001019060200180831161026c57829003601f168201915b505050505081565b335f8181526004602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906102eb9086815260200190565b60405180910390a35060015b92915050565b6001600160a01b0383165f9081526004602090815260408083203384529091528120545f19811461038657828110156103585760405163054365bb60e31b815260048101829052602481018490526044015b60405180910390fd5b61036283826106fd565b6001600160a01b0386165f9081526004602090815260408083203384529091529020555b6103918585856104b4565b506001949350505050565b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146103e557604051633e34a41b60e21b815260040160405180910390fd5b6001600160a01b03821661040c5760405163d92e233d60e01b815260040160405180910390fd5b8060025f82825461041d9190610710565b90915550506001600160a01b0382165f9081526003602052604081208054839290610449908490610710565b90915550506040518181526001600160a01b038316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b60018054610212906106b1565b5f6104ab3384846104b4565b50600192915050565b6001600160a01b0382166104db5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0383165f908152600360205260409020548181101561051e5760405163cf47918160e01b8152600481018290526024810183905260440161034f565b6001600160a01b038085165f90815260036020526040808220858503905591851681529081208054849290610554908490610710565b92505081905550826001600160a01b0316846001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef846040516105a091815260200190565b60405180910390a350505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b03811681146105f9575f5ffd5b919050565b5f5f6040838503121561060f575f5ffd5b610618836105e3565b946020939093013593505050565b5f5f5f60608486031215610638575f5ffd5b610641846105e3565b925061064f602085016105e3565b929592945050506040919091013590565b5f60208284031215610670575f5ffd5b610679826105e3565b9392505050565b5f5f60408385031215610691575f5ffd5b61069a836105e3565b91506106a8602084016105e3565b90509250929050565b600181811c908216806106c557607f821691505b6020821081036106e357634e487b7160e01b5f52602260045260245ffd5b50919050565b634e487b7160e01b5f52601160045260245ffd5b818103818111156102f7576102f76106e9565b808201808211156102f7576102f76106e956",
}

// WrappedToken is an auto generated Go binding around an Ethereum contract.
type WrappedToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *WrappedToken) GetABI() abi.ABI {
	return c.abi
}

// NewWrappedToken creates a new instance of WrappedToken.
func NewWrappedToken() *WrappedToken {
	parsed, err := WrappedTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &WrappedToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *WrappedToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_, uint8 decimals_, address minter_) returns()
func (wrappedToken *WrappedToken) PackConstructor(name_ string, symbol_ string, decimals_ uint8, minter_ common.Address) []byte {
	enc, err := wrappedToken.abi.Pack("", name_, symbol_, decimals_, minter_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedToken *WrappedToken) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := wrappedToken.abi.Pack("allowance", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedToken *WrappedToken) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return wrappedToken.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedToken *WrappedToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := wrappedToken.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) PackApprove(spender common.Address, amount *big.Int) []byte {
	enc, err := wrappedToken.abi.Pack("approve", spender, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) TryPackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	return wrappedToken.abi.Pack("approve", spender, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) UnpackApprove(data []byte) (bool, error) {
	out, err := wrappedToken.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedToken *WrappedToken) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := wrappedToken.abi.Pack("balanceOf", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedToken *WrappedToken) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return wrappedToken.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedToken *WrappedToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := wrappedToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedToken *WrappedToken) PackDecimals() []byte {
	enc, err := wrappedToken.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedToken *WrappedToken) TryPackDecimals() ([]byte, error) {
	return wrappedToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedToken *WrappedToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := wrappedToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (wrappedToken *WrappedToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := wrappedToken.abi.Pack("mint", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (wrappedToken *WrappedToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return wrappedToken.abi.Pack("mint", to, amount)
}

// PackMinter is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07546172.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function minter() view returns(address)
func (wrappedToken *WrappedToken) PackMinter() []byte {
	enc, err := wrappedToken.abi.Pack("minter")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMinter is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07546172.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function minter() view returns(address)
func (wrappedToken *WrappedToken) TryPackMinter() ([]byte, error) {
	return wrappedToken.abi.Pack("minter")
}

// UnpackMinter is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x07546172.
//
// Solidity: function minter() view returns(address)
func (wrappedToken *WrappedToken) UnpackMinter(data []byte) (common.Address, error) {
	out, err := wrappedToken.abi.Unpack("minter", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (wrappedToken *WrappedToken) PackName() []byte {
	enc, err := wrappedToken.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (wrappedToken *WrappedToken) TryPackName() ([]byte, error) {
	return wrappedToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (wrappedToken *WrappedToken) UnpackName(data []byte) (string, error) {
	out, err := wrappedToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (wrappedToken *WrappedToken) PackSymbol() []byte {
	enc, err := wrappedToken.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (wrappedToken *WrappedToken) TryPackSymbol() ([]byte, error) {
	return wrappedToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (wrappedToken *WrappedToken) UnpackSymbol(data []byte) (string, error) {
	out, err := wrappedToken.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedToken *WrappedToken) PackTotalSupply() []byte {
	enc, err := wrappedToken.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedToken *WrappedToken) TryPackTotalSupply() ([]byte, error) {
	return wrappedToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedToken *WrappedToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := wrappedToken.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := wrappedToken.abi.Pack("transfer", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return wrappedToken.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := wrappedToken.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) PackTransferFrom(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := wrappedToken.abi.Pack("transferFrom", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) TryPackTransferFrom(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return wrappedToken.abi.Pack("transferFrom", from, to, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (wrappedToken *WrappedToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := wrappedToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// WrappedTokenApproval represents a Approval event raised by the WrappedToken contract.
type WrappedTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const WrappedTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (WrappedTokenApproval) ContractEventName() string {
	return WrappedTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (wrappedToken *WrappedToken) UnpackApprovalEvent(log *types.Log) (*WrappedTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedTokenApproval)
	if len(log.Data) > 0 {
		if err := wrappedToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedToken.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WrappedTokenTransfer represents a Transfer event raised by the WrappedToken contract.
type WrappedTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const WrappedTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (WrappedTokenTransfer) ContractEventName() string {
	return WrappedTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (wrappedToken *WrappedToken) UnpackTransferEvent(log *types.Log) (*WrappedTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedTokenTransfer)
	if len(log.Data) > 0 {
		if err := wrappedToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedToken.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (wrappedToken *WrappedToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], wrappedToken.abi.Errors["InsufficientAllowance"].ID.Bytes()[:4]) {
		return wrappedToken.UnpackInsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], wrappedToken.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return wrappedToken.UnpackInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], wrappedToken.abi.Errors["NotMinter"].ID.Bytes()[:4]) {
		return wrappedToken.UnpackNotMinterError(raw[4:])
	}
	if bytes.Equal(raw[:4], wrappedToken.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return wrappedToken.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// WrappedTokenInsufficientAllowance represents a InsufficientAllowance error raised by the WrappedToken contract.
type WrappedTokenInsufficientAllowance struct {
	Allowance *big.Int
	Needed    *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientAllowance(uint256 allowance, uint256 needed)
func WrappedTokenInsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0x2a1b2dd846b7c4bf41216c8f38fc58089000eb0b20edf03e6f81ecadbe2cbedf")
}

// UnpackInsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientAllowance(uint256 allowance, uint256 needed)
func (wrappedToken *WrappedToken) UnpackInsufficientAllowanceError(raw []byte) (*WrappedTokenInsufficientAllowance, error) {
	out := new(WrappedTokenInsufficientAllowance)
	if err := wrappedToken.abi.UnpackIntoInterface(out, "InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// WrappedTokenInsufficientBalance represents a InsufficientBalance error raised by the WrappedToken contract.
type WrappedTokenInsufficientBalance struct {
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance(uint256 balance, uint256 needed)
func WrappedTokenInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xcf4791818fba6e019216eb4864093b4947f674afada5d305e57d598b641dad1d")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance(uint256 balance, uint256 needed)
func (wrappedToken *WrappedToken) UnpackInsufficientBalanceError(raw []byte) (*WrappedTokenInsufficientBalance, error) {
	out := new(WrappedTokenInsufficientBalance)
	if err := wrappedToken.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// WrappedTokenNotMinter represents a NotMinter error raised by the WrappedToken contract.
type WrappedTokenNotMinter struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotMinter()
func WrappedTokenNotMinterErrorID() common.Hash {
	return common.HexToHash("0xf8d2906ce84a96639fbeeedc84c13a0873e5d5e48a49a084ea78b44722550223")
}

// UnpackNotMinterError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotMinter()
func (wrappedToken *WrappedToken) UnpackNotMinterError(raw []byte) (*WrappedTokenNotMinter, error) {
	out := new(WrappedTokenNotMinter)
	if err := wrappedToken.abi.UnpackIntoInterface(out, "NotMinter", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// WrappedTokenZeroAddress represents a ZeroAddress error raised by the WrappedToken contract.
type WrappedTokenZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func WrappedTokenZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (wrappedToken *WrappedToken) UnpackZeroAddressError(raw []byte) (*WrappedTokenZeroAddress, error) {
	out := new(WrappedTokenZeroAddress)
	if err := wrappedToken.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
