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

// CommitRevealVaultMetaData contains all meta data concerning the CommitRevealVault contract.
var CommitRevealVaultMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"verifier_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"operator_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"commitment\",\"type\":\"bytes32\"}],\"name\":\"CommitmentAlreadyUsed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"signal\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"binding\",\"type\":\"uint256\"}],\"name\":\"FeeBindingMismatch\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"InvalidAmount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"commitment\",\"type\":\"bytes32\"}],\"name\":\"InvalidCommitment\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"fee\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"InvalidFee\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"feeReceiver\",\"type\":\"address\"}],\"name\":\"InvalidFeeReceiver\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidProof\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"InvalidRecipient\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"leaf\",\"type\":\"bytes32\"}],\"name\":\"LeafNotInField\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotOperator\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"nullifier\",\"type\":\"bytes32\"}],\"name\":\"NullifierAlreadySpent\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"signal\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"RecipientMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Reentrancy\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenAlreadyRegistered\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenNotRegistered\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"expected\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"received\",\"type\":\"uint256\"}],\"name\":\"TransferShortfall\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"TreeFull\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"}],\"name\":\"UnknownRoot\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"UnknownTokenId\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"commitment\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"leafIndex\",\"type\":\"uint32\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"}],\"name\":\"CommitmentInserted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"commitment\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"leaf\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"leafIndex\",\"type\":\"uint32\"}],\"name\":\"Committed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"nullifier\",\"type\":\"bytes32\"}],\"name\":\"NullifierSpent\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"nullifier\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"feeReceiver\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"fee\",\"type\":\"uint256\"}],\"name\":\"RevealFeePaid\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"nullifier\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"changeCommitment\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"Revealed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"TokenRegistered\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DEPTH\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_AMOUNT\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"ROOT_HISTORY_SIZE\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"commitment\",\"type\":\"bytes32\"}],\"name\":\"commit\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"leafIndex\",\"type\":\"uint32\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"commitmentTree\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"committed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"currentRootIndex\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"fee\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"feeReceiver\",\"type\":\"address\"}],\"name\":\"feeBinding\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getLastRoot\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"}],\"name\":\"isKnownRoot\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"nullifier\",\"type\":\"bytes32\"}],\"name\":\"isSpent\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"nextIndex\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"nullifierRegistry\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"operator\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"registerToken\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256[2]\",\"name\":\"pA\",\"type\":\"uint256[2]\"},{\"internalType\":\"uint256[2][2]\",\"name\":\"pB\",\"type\":\"uint256[2][2]\"},{\"internalType\":\"uint256[2]\",\"name\":\"pC\",\"type\":\"uint256[2]\"},{\"internalType\":\"uint256[6]\",\"name\":\"pubSignals\",\"type\":\"uint256[6]\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"reveal\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256[2]\",\"name\":\"pA\",\"type\":\"uint256[2]\"},{\"internalType\":\"uint256[2][2]\",\"name\":\"pB\",\"type\":\"uint256[2][2]\"},{\"internalType\":\"uint256[2]\",\"name\":\"pC\",\"type\":\"uint256[2]\"},{\"internalType\":\"uint256[6]\",\"name\":\"pubSignals\",\"type\":\"uint256[6]\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"fee\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"feeReceiver\",\"type\":\"address\"}],\"name\":\"revealWithFee\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"}],\"name\":\"rootAge\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"known\",\"type\":\"bool\"},{\"internalType\":\"uint32\",\"name\":\"age\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"tokenIdOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"tokenOfId\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"verifier\",\"outputs\":[{\"internalType\":\"contractIGroth16Verifier\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "c815686d33def1fc4b5d73e11b7ce85ad7",
	Bin: "0x60e060405234801561000f575f5ffd5b50604051611efe380380611efe83398101604081905261002e9161008e565b5f5b60148110156100575760015f826014811061004d5761004d6100bf565b0155600101610030565b503360c0526001600160a01b039182166080521660a0526100d3565b80516001600160a01b0381168114610089575f5ffd5b919050565b5f5f6040838503121561009f575f5ffd5b6100a883610073565b91506100b660208401610073565b90509250929050565b634e487b7160e01b5f52603260045260245ffd5b60805160a05160c051611de56101195f395f818161032a01526103f101525f818161025701528181610e3f0152610e9501525f81816101d001526112430152611de55ff3fe608060405234801561000f575f5ffd5b5060043610610179575f3560e01c80637e8a5077116100d2578063b870676c11610088578063d40dc87011610063578063d40dc87014610396578063e5285dcc1461039e578063fc7e9c6f146103c0575f5ffd5b8063b870676c1461024c578063ba70f75714610386578063cd87a3b41461038e575f5ffd5b806390eeb02b116100b857806390eeb02b1461034c57806398366e351461035c578063b5ee95d314610364575f5ffd5b80637e8a5077146103125780638da5cb5b14610325575f5ffd5b806345b2a6a1116101325780636d9833e31161010d5780636d9833e3146102a15780636e822dd0146102c4578063773c02d4146102f3575f5ffd5b806345b2a6a11461024c578063570ca7351461025257806364fc31b314610279575f5ffd5b8063159518d711610162578063159518d7146101b85780632b7ac3f3146101cb5780633deb57d614610217575f5ffd5b806309824a801461017d57806314590546146101a3575b5f5ffd5b61019061018b3660046119ef565b6103d8565b6040519081526020015b60405180910390f35b6101b66101b1366004611a45565b61060f565b005b6101906101c6366004611aad565b610667565b6101f27f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200161019a565b6101f2610225366004611ae6565b60366020525f908152604090205473ffffffffffffffffffffffffffffffffffffffff1681565b306101f2565b6101f27f000000000000000000000000000000000000000000000000000000000000000081565b61028c610287366004611afd565b6106e7565b60405163ffffffff909116815260200161019a565b6102b46102af366004611ae6565b610c29565b604051901515815260200161019a565b6102d76102d2366004611ae6565b610cb2565b60408051921515835263ffffffff90911660208301520161019a565b6101906103013660046119ef565b60376020525f908152604090205481565b6101b6610320366004611b2d565b610d4a565b6101f27f000000000000000000000000000000000000000000000000000000000000000081565b60345461028c9063ffffffff1681565b61028c601481565b6102b4610372366004611ae6565b60386020525f908152604090205460ff1681565b610190610dea565b61028c602081565b610190610e0f565b6102b46103ac366004611ae6565b5f9081526035602052604090205460ff1690565b60345461028c90640100000000900463ffffffff1681565b5f3373ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000161461044f576040517f245aecd30000000000000000000000000000000000000000000000000000000081523360048201526024015b60405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82165f90815260376020526040902054156104c3576040517f4f4b634e00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff83166004820152602401610446565b60408051808201825273ffffffffffffffffffffffffffffffffffffffff8416815246602082015290517f561558fe00000000000000000000000000000000000000000000000000000000815273__$75f79a42d9bcbdbb69ad79ebd80f556f39$__9163561558fe916105399190600401611bb0565b602060405180830381865af4158015610554573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906105789190611be0565b73ffffffffffffffffffffffffffffffffffffffff83165f818152603760209081526040808320859055848352603682529182902080547fffffffffffffffffffffffff00000000000000000000000000000000000000001684179055905183815292935090917fd7ca5dc2f8c6bb37c3a4de2a81499b25f8ca8bbb3082010244fe747077d0f6cc910160405180910390a2919050565b5f5c8015610649576040517fab143c0600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60015f5d61065c86868686865f5f610e3d565b5f5f5d505050505050565b6040805173ffffffffffffffffffffffffffffffffffffffff808616602083015291810184905290821660608201525f907f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000190608001604051602081830303815290604052805190602001205f1c6106df9190611c24565b949350505050565b5f805c8015610722576040517fab143c0600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60015f5d73ffffffffffffffffffffffffffffffffffffffff85165f908152603760205260408120549081900361079d576040517fddef98d700000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff87166004820152602401610446565b8415806107d357506107d060017f0100000000000000000000000000000000000000000000000000000000000000611c64565b85115b1561080d576040517f3728b83d00000000000000000000000000000000000000000000000000000000815260048101869052602401610446565b83158061083a57507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018410155b15610874576040517f537fbfab00000000000000000000000000000000000000000000000000000000815260048101859052602401610446565b5f8481526038602052604090205460ff16156108bf576040517f30c56f3100000000000000000000000000000000000000000000000000000000815260048101859052602401610446565b5f8481526038602052604080822080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00166001179055517f70a0823100000000000000000000000000000000000000000000000000000000815230600482015273ffffffffffffffffffffffffffffffffffffffff8816906370a0823190602401602060405180830381865afa15801561095c573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906109809190611be0565b60405133602482015230604482015260648101889052909150610a1d908890608401604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe08184030181529190526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167f23b872dd000000000000000000000000000000000000000000000000000000001790526114b6565b6040517f70a082310000000000000000000000000000000000000000000000000000000081523060048201525f90829073ffffffffffffffffffffffffffffffffffffffff8a16906370a0823190602401602060405180830381865afa158015610a89573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610aad9190611be0565b610ab79190611c64565b9050868114610afc576040517faea7b7c00000000000000000000000000000000000000000000000000000000081526004810188905260248101829052604401610446565b604080516060810182528781526020810189905280820185905290517f20cf0a370000000000000000000000000000000000000000000000000000000081525f9173__$fc5a2451f3e054f75c2faf9b3818033d8b$__916320cf0a3791610b6591600401611c77565b602060405180830381865af4158015610b80573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610ba49190611be0565b9050610baf8161159e565b50604080518a8152602081018a905290810183905263ffffffff82166060820152909650339073ffffffffffffffffffffffffffffffffffffffff8b16907f998b38b7b2fffd964a5d4fa6c5fb226c95978632298d5ffe7915dc6dc85613c09060800160405180910390a3505050505f5f5d509392505050565b5f818103610c3857505f919050565b60345463ffffffff165f5b6020811015610ca9578360148363ffffffff1660208110610c6657610c66611c9e565b015403610c77575060019392505050565b63ffffffff821615610c9357610c8e600183611ccb565b610c9f565b610c9f60016020611ccb565b9150600101610c43565b505f9392505050565b5f80828103610cc557505f928392509050565b60345463ffffffff165f5b602063ffffffff82161015610d3e578460148363ffffffff1660208110610cf957610cf9611c9e565b015403610d0c5760019590945092505050565b63ffffffff821615610d2857610d23600183611ccb565b610d34565b610d3460016020611ccb565b9150600101610cd0565b505f9485945092505050565b5f5c8015610d84576040517fab143c0600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60015f5d825f03610dce57604080517ff05eb60800000000000000000000000000000000000000000000000000000000815260048101859052908601356024820152604401610446565b610ddd88888888888888610e3d565b5f5f5d5050505050505050565b6034545f9060149063ffffffff1660208110610e0857610e08611c9e565b0154905090565b610e3a60017f0100000000000000000000000000000000000000000000000000000000000000611c64565b81565b7f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff1615801590610eb857503373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614155b15610ef1576040517f76c6c93a000000000000000000000000000000000000000000000000000000008152336004820152602401610446565b73ffffffffffffffffffffffffffffffffffffffff8316610f56576040517f17858bbe00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff84166004820152602401610446565b815f03610fd757606084013573ffffffffffffffffffffffffffffffffffffffff841614610fd2576040517f4a3579800000000000000000000000000000000000000000000000000000000081526060850135600482015273ffffffffffffffffffffffffffffffffffffffff84166024820152604401610446565b611096565b73ffffffffffffffffffffffffffffffffffffffff811661103c576040517fcb9339d500000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff82166004820152602401610446565b5f611048848484610667565b905060608501358114611094576040517f99207a470000000000000000000000000000000000000000000000000000000081526060860135600482015260248101829052604401610446565b505b83356110a181610c29565b6110da576040517f8730d7c800000000000000000000000000000000000000000000000000000000815260048101829052602401610446565b60208501356110e88161191c565b60a08601355f9081526036602052604090205473ffffffffffffffffffffffffffffffffffffffff168061114e576040517f6bc099b400000000000000000000000000000000000000000000000000000000815260a08801356004820152602401610446565b6040870135801580611189575061118660017f0100000000000000000000000000000000000000000000000000000000000000611c64565b81115b156111c3576040517f3728b83d00000000000000000000000000000000000000000000000000000000815260048101829052602401610446565b808610611206576040517ff05eb6080000000000000000000000000000000000000000000000000000000081526004810187905260248101829052604401610446565b6040517ff398789b00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000169063f398789b9061127e908e908e908e908e90600401611ce7565b602060405180830381865afa158015611299573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906112bd9190611d36565b6112f3576040517f09bde33900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6080880135801561130a576113078161159e565b50505b6113bd83896113198a86611c64565b60405173ffffffffffffffffffffffffffffffffffffffff909216602483015260448201526064015b604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe08184030181529190526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fa9059cbb000000000000000000000000000000000000000000000000000000001790526114b6565b60408051838152602081018390523381830152905173ffffffffffffffffffffffffffffffffffffffff85811692908b169187917f0784c55c1f305dc20c595009b550dc99e0e6c8f570579a7188b093c06ef896cc919081900360600190a486156114a85760405173ffffffffffffffffffffffffffffffffffffffff8716602482015260448101889052611456908490606401611342565b8573ffffffffffffffffffffffffffffffffffffffff16847f9e0d461fb6d8d68b607b23bc7152fb4f1996f4d05a3e8217fa8a77492c543f208960405161149f91815260200190565b60405180910390a35b505050505050505050505050565b5f5f8373ffffffffffffffffffffffffffffffffffffffff16836040516114dd9190611d55565b5f604051808303815f865af19150503d805f8114611516576040519150601f19603f3d011682016040523d82523d5f602084013e61151b565b606091505b509150915081158061154957508051158015906115495750808060200190518101906115479190611d36565b155b15611598576040517f39f1c8d900000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff85166004820152602401610446565b50505050565b5f807f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000183106115fc576040517fc53e726b00000000000000000000000000000000000000000000000000000000815260048101849052602401610446565b603454640100000000900463ffffffff1691507ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff000008201611668576040517fb48f2cf800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b8263ffffffff83165f5b816001166001036117355773__$75f79a42d9bcbdbb69ad79ebd80f556f39$__63561558fe60405180604001604052805f85601481106116b4576116b4611c9e565b01548152602001868152506040518263ffffffff1660e01b81526004016116db9190611bb0565b602060405180830381865af41580156116f6573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061171a9190611be0565b925060019190911c908061172d81611d6b565b915050611672565b601481101561175457825f826014811061175157611751611c9e565b01555b811561181e5760019190911c908061176b81611d6b565b915050816001166001036118195773__$75f79a42d9bcbdbb69ad79ebd80f556f39$__63561558fe60405180604001604052805f85601481106117b0576117b0611c9e565b01548152602001868152506040518263ffffffff1660e01b81526004016117d79190611bb0565b602060405180830381865af41580156117f2573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906118169190611be0565b92505b611754565b60345492935083925f9060209061183c9063ffffffff166001611da2565b6118469190611dbe565b603480547fffffffffffffffffffffffffffffffffffffffffffffffffffffffff000000001663ffffffff831690811790915590915085906014906020811061189157611891611c9e565b015561189e866001611da2565b603480547fffffffffffffffffffffffffffffffffffffffffffffffff00000000ffffffff1664010000000063ffffffff938416021790556040805191881682526020820187905288917fc156f42017957acfca3b7f6906dff8ed1d1a889f2c552e34074c3ad51becaeb9910160405180910390a250505050915091565b5f8181526035602052604090205460ff1615611967576040517f3c4f911100000000000000000000000000000000000000000000000000000000815260048101829052602401610446565b5f8181526035602052604080822080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff001660011790555182917f2d8b76eb247945151bd870d531c84c5420f53e3cb9c0ab3b350f46bb0936209691a250565b803573ffffffffffffffffffffffffffffffffffffffff811681146119ea575f5ffd5b919050565b5f602082840312156119ff575f5ffd5b611a08826119c7565b9392505050565b8060408101831015611a1f575f5ffd5b92915050565b8060808101831015611a1f575f5ffd5b8060c08101831015611a1f575f5ffd5b5f5f5f5f5f6101e08688031215611a5a575f5ffd5b611a648787611a0f565b9450611a738760408801611a25565b9350611a828760c08801611a0f565b9250611a92876101008801611a35565b9150611aa16101c087016119c7565b90509295509295909350565b5f5f5f60608486031215611abf575f5ffd5b611ac8846119c7565b925060208401359150611add604085016119c7565b90509250925092565b5f60208284031215611af6575f5ffd5b5035919050565b5f5f5f60608486031215611b0f575f5ffd5b611b18846119c7565b95602085013595506040909401359392505050565b5f5f5f5f5f5f5f610220888a031215611b44575f5ffd5b611b4e8989611a0f565b9650611b5d8960408a01611a25565b9550611b6c8960c08a01611a0f565b9450611b7c896101008a01611a35565b9350611b8b6101c089016119c7565b92506101e08801359150611ba261020089016119c7565b905092959891949750929550565b6040810181835f5b6002811015611bd7578151835260209283019290910190600101611bb8565b50505092915050565b5f60208284031215611bf0575f5ffd5b5051919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b5f82611c3257611c32611bf7565b500690565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b81810381811115611a1f57611a1f611c37565b6060810181835f5b6003811015611bd7578151835260209283019290910190600101611c7f565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b63ffffffff8281168282160390811115611a1f57611a1f611c37565b6101c08101604086833760408201855f5b6002811015611d195760408284376040928301929190910190600101611cf8565b50505060408460c084013760c08361010084013795945050505050565b5f60208284031215611d46575f5ffd5b81518015158114611a08575f5ffd5b5f82518060208501845e5f920191825250919050565b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff8203611d9b57611d9b611c37565b5060010190565b63ffffffff8181168382160190811115611a1f57611a1f611c37565b5f63ffffffff831680611dd357611dd3611bf7565b8063ffffffff8416069150509291505056",
	Deps: []*bind.MetaData{
		&PoseidonT3MetaData,
		&PoseidonT4MetaData,
	},
}

// CommitRevealVault is an auto generated Go binding around an Ethereum contract.
type CommitRevealVault struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *CommitRevealVault) GetABI() abi.ABI {
	return c.abi
}

// NewCommitRevealVault creates a new instance of CommitRevealVault.
func NewCommitRevealVault() *CommitRevealVault {
	parsed, err := CommitRevealVaultMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &CommitRevealVault{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *CommitRevealVault) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address verifier_, address operator_) returns()
func (commitRevealVault *CommitRevealVault) PackConstructor(verifier_ common.Address, operator_ common.Address) []byte {
	enc, err := commitRevealVault.abi.Pack("", verifier_, operator_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDEPTH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x98366e35.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DEPTH() view returns(uint32)
func (commitRevealVault *CommitRevealVault) PackDEPTH() []byte {
	enc, err := commitRevealVault.abi.Pack("DEPTH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDEPTH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x98366e35.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DEPTH() view returns(uint32)
func (commitRevealVault *CommitRevealVault) TryPackDEPTH() ([]byte, error) {
	return commitRevealVault.abi.Pack("DEPTH")
}

// UnpackDEPTH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x98366e35.
//
// Solidity: function DEPTH() view returns(uint32)
func (commitRevealVault *CommitRevealVault) UnpackDEPTH(data []byte) (uint32, error) {
	out, err := commitRevealVault.abi.Unpack("DEPTH", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// PackMAXAMOUNT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd40dc870.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_AMOUNT() view returns(uint256)
func (commitRevealVault *CommitRevealVault) PackMAXAMOUNT() []byte {
	enc, err := commitRevealVault.abi.Pack("MAX_AMOUNT")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXAMOUNT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd40dc870.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_AMOUNT() view returns(uint256)
func (commitRevealVault *CommitRevealVault) TryPackMAXAMOUNT() ([]byte, error) {
	return commitRevealVault.abi.Pack("MAX_AMOUNT")
}

// UnpackMAXAMOUNT is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd40dc870.
//
// Solidity: function MAX_AMOUNT() view returns(uint256)
func (commitRevealVault *CommitRevealVault) UnpackMAXAMOUNT(data []byte) (*big.Int, error) {
	out, err := commitRevealVault.abi.Unpack("MAX_AMOUNT", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackROOTHISTORYSIZE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcd87a3b4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function ROOT_HISTORY_SIZE() view returns(uint32)
func (commitRevealVault *CommitRevealVault) PackROOTHISTORYSIZE() []byte {
	enc, err := commitRevealVault.abi.Pack("ROOT_HISTORY_SIZE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackROOTHISTORYSIZE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcd87a3b4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function ROOT_HISTORY_SIZE() view returns(uint32)
func (commitRevealVault *CommitRevealVault) TryPackROOTHISTORYSIZE() ([]byte, error) {
	return commitRevealVault.abi.Pack("ROOT_HISTORY_SIZE")
}

// UnpackROOTHISTORYSIZE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xcd87a3b4.
//
// Solidity: function ROOT_HISTORY_SIZE() view returns(uint32)
func (commitRevealVault *CommitRevealVault) UnpackROOTHISTORYSIZE(data []byte) (uint32, error) {
	out, err := commitRevealVault.abi.Unpack("ROOT_HISTORY_SIZE", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// PackCommit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x64fc31b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function commit(address token, uint256 amount, bytes32 commitment) returns(uint32 leafIndex)
func (commitRevealVault *CommitRevealVault) PackCommit(token common.Address, amount *big.Int, commitment [32]byte) []byte {
	enc, err := commitRevealVault.abi.Pack("commit", token, amount, commitment)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCommit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x64fc31b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function commit(address token, uint256 amount, bytes32 commitment) returns(uint32 leafIndex)
func (commitRevealVault *CommitRevealVault) TryPackCommit(token common.Address, amount *big.Int, commitment [32]byte) ([]byte, error) {
	return commitRevealVault.abi.Pack("commit", token, amount, commitment)
}

// UnpackCommit is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x64fc31b3.
//
// Solidity: function commit(address token, uint256 amount, bytes32 commitment) returns(uint32 leafIndex)
func (commitRevealVault *CommitRevealVault) UnpackCommit(data []byte) (uint32, error) {
	out, err := commitRevealVault.abi.Unpack("commit", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// PackCommitmentTree is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x45b2a6a1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function commitmentTree() view returns(address)
func (commitRevealVault *CommitRevealVault) PackCommitmentTree() []byte {
	enc, err := commitRevealVault.abi.Pack("commitmentTree")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCommitmentTree is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x45b2a6a1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function commitmentTree() view returns(address)
func (commitRevealVault *CommitRevealVault) TryPackCommitmentTree() ([]byte, error) {
	return commitRevealVault.abi.Pack("commitmentTree")
}

// UnpackCommitmentTree is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x45b2a6a1.
//
// Solidity: function commitmentTree() view returns(address)
func (commitRevealVault *CommitRevealVault) UnpackCommitmentTree(data []byte) (common.Address, error) {
	out, err := commitRevealVault.abi.Unpack("commitmentTree", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCommitted is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb5ee95d3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function committed(bytes32 ) view returns(bool)
func (commitRevealVault *CommitRevealVault) PackCommitted(arg0 [32]byte) []byte {
	enc, err := commitRevealVault.abi.Pack("committed", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCommitted is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb5ee95d3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function committed(bytes32 ) view returns(bool)
func (commitRevealVault *CommitRevealVault) TryPackCommitted(arg0 [32]byte) ([]byte, error) {
	return commitRevealVault.abi.Pack("committed", arg0)
}

// UnpackCommitted is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb5ee95d3.
//
// Solidity: function committed(bytes32 ) view returns(bool)
func (commitRevealVault *CommitRevealVault) UnpackCommitted(data []byte) (bool, error) {
	out, err := commitRevealVault.abi.Unpack("committed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackCurrentRootIndex is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x90eeb02b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function currentRootIndex() view returns(uint32)
func (commitRevealVault *CommitRevealVault) PackCurrentRootIndex() []byte {
	enc, err := commitRevealVault.abi.Pack("currentRootIndex")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCurrentRootIndex is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x90eeb02b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function currentRootIndex() view returns(uint32)
func (commitRevealVault *CommitRevealVault) TryPackCurrentRootIndex() ([]byte, error) {
	return commitRevealVault.abi.Pack("currentRootIndex")
}

// UnpackCurrentRootIndex is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x90eeb02b.
//
// Solidity: function currentRootIndex() view returns(uint32)
func (commitRevealVault *CommitRevealVault) UnpackCurrentRootIndex(data []byte) (uint32, error) {
	out, err := commitRevealVault.abi.Unpack("currentRootIndex", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// PackFeeBinding is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x159518d7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function feeBinding(address recipient, uint256 fee, address feeReceiver) pure returns(uint256)
func (commitRevealVault *CommitRevealVault) PackFeeBinding(recipient common.Address, fee *big.Int, feeReceiver common.Address) []byte {
	enc, err := commitRevealVault.abi.Pack("feeBinding", recipient, fee, feeReceiver)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFeeBinding is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x159518d7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function feeBinding(address recipient, uint256 fee, address feeReceiver) pure returns(uint256)
func (commitRevealVault *CommitRevealVault) TryPackFeeBinding(recipient common.Address, fee *big.Int, feeReceiver common.Address) ([]byte, error) {
	return commitRevealVault.abi.Pack("feeBinding", recipient, fee, feeReceiver)
}

// UnpackFeeBinding is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x159518d7.
//
// Solidity: function feeBinding(address recipient, uint256 fee, address feeReceiver) pure returns(uint256)
func (commitRevealVault *CommitRevealVault) UnpackFeeBinding(data []byte) (*big.Int, error) {
	out, err := commitRevealVault.abi.Unpack("feeBinding", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetLastRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba70f757.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getLastRoot() view returns(bytes32)
func (commitRevealVault *CommitRevealVault) PackGetLastRoot() []byte {
	enc, err := commitRevealVault.abi.Pack("getLastRoot")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetLastRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba70f757.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getLastRoot() view returns(bytes32)
func (commitRevealVault *CommitRevealVault) TryPackGetLastRoot() ([]byte, error) {
	return commitRevealVault.abi.Pack("getLastRoot")
}

// UnpackGetLastRoot is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xba70f757.
//
// Solidity: function getLastRoot() view returns(bytes32)
func (commitRevealVault *CommitRevealVault) UnpackGetLastRoot(data []byte) ([32]byte, error) {
	out, err := commitRevealVault.abi.Unpack("getLastRoot", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackIsKnownRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6d9833e3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isKnownRoot(bytes32 root) view returns(bool)
func (commitRevealVault *CommitRevealVault) PackIsKnownRoot(root [32]byte) []byte {
	enc, err := commitRevealVault.abi.Pack("isKnownRoot", root)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsKnownRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6d9833e3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isKnownRoot(bytes32 root) view returns(bool)
func (commitRevealVault *CommitRevealVault) TryPackIsKnownRoot(root [32]byte) ([]byte, error) {
	return commitRevealVault.abi.Pack("isKnownRoot", root)
}

// UnpackIsKnownRoot is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6d9833e3.
//
// Solidity: function isKnownRoot(bytes32 root) view returns(bool)
func (commitRevealVault *CommitRevealVault) UnpackIsKnownRoot(data []byte) (bool, error) {
	out, err := commitRevealVault.abi.Unpack("isKnownRoot", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsSpent is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe5285dcc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isSpent(bytes32 nullifier) view returns(bool)
func (commitRevealVault *CommitRevealVault) PackIsSpent(nullifier [32]byte) []byte {
	enc, err := commitRevealVault.abi.Pack("isSpent", nullifier)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsSpent is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe5285dcc.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isSpent(bytes32 nullifier) view returns(bool)
func (commitRevealVault *CommitRevealVault) TryPackIsSpent(nullifier [32]byte) ([]byte, error) {
	return commitRevealVault.abi.Pack("isSpent", nullifier)
}

// UnpackIsSpent is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe5285dcc.
//
// Solidity: function isSpent(bytes32 nullifier) view returns(bool)
func (commitRevealVault *CommitRevealVault) UnpackIsSpent(data []byte) (bool, error) {
	out, err := commitRevealVault.abi.Unpack("isSpent", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackNextIndex is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfc7e9c6f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nextIndex() view returns(uint32)
func (commitRevealVault *CommitRevealVault) PackNextIndex() []byte {
	enc, err := commitRevealVault.abi.Pack("nextIndex")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNextIndex is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfc7e9c6f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nextIndex() view returns(uint32)
func (commitRevealVault *CommitRevealVault) TryPackNextIndex() ([]byte, error) {
	return commitRevealVault.abi.Pack("nextIndex")
}

// UnpackNextIndex is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfc7e9c6f.
//
// Solidity: function nextIndex() view returns(uint32)
func (commitRevealVault *CommitRevealVault) UnpackNextIndex(data []byte) (uint32, error) {
	out, err := commitRevealVault.abi.Unpack("nextIndex", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// PackNullifierRegistry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb870676c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nullifierRegistry() view returns(address)
func (commitRevealVault *CommitRevealVault) PackNullifierRegistry() []byte {
	enc, err := commitRevealVault.abi.Pack("nullifierRegistry")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNullifierRegistry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb870676c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nullifierRegistry() view returns(address)
func (commitRevealVault *CommitRevealVault) TryPackNullifierRegistry() ([]byte, error) {
	return commitRevealVault.abi.Pack("nullifierRegistry")
}

// UnpackNullifierRegistry is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb870676c.
//
// Solidity: function nullifierRegistry() view returns(address)
func (commitRevealVault *CommitRevealVault) UnpackNullifierRegistry(data []byte) (common.Address, error) {
	out, err := commitRevealVault.abi.Unpack("nullifierRegistry", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x570ca735.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function operator() view returns(address)
func (commitRevealVault *CommitRevealVault) PackOperator() []byte {
	enc, err := commitRevealVault.abi.Pack("operator")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x570ca735.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function operator() view returns(address)
func (commitRevealVault *CommitRevealVault) TryPackOperator() ([]byte, error) {
	return commitRevealVault.abi.Pack("operator")
}

// UnpackOperator is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x570ca735.
//
// Solidity: function operator() view returns(address)
func (commitRevealVault *CommitRevealVault) UnpackOperator(data []byte) (common.Address, error) {
	out, err := commitRevealVault.abi.Unpack("operator", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (commitRevealVault *CommitRevealVault) PackOwner() []byte {
	enc, err := commitRevealVault.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (commitRevealVault *CommitRevealVault) TryPackOwner() ([]byte, error) {
	return commitRevealVault.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (commitRevealVault *CommitRevealVault) UnpackOwner(data []byte) (common.Address, error) {
	out, err := commitRevealVault.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRegisterToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x09824a80.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function registerToken(address token) returns(uint256 tokenId)
func (commitRevealVault *CommitRevealVault) PackRegisterToken(token common.Address) []byte {
	enc, err := commitRevealVault.abi.Pack("registerToken", token)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRegisterToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x09824a80.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function registerToken(address token) returns(uint256 tokenId)
func (commitRevealVault *CommitRevealVault) TryPackRegisterToken(token common.Address) ([]byte, error) {
	return commitRevealVault.abi.Pack("registerToken", token)
}

// UnpackRegisterToken is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x09824a80.
//
// Solidity: function registerToken(address token) returns(uint256 tokenId)
func (commitRevealVault *CommitRevealVault) UnpackRegisterToken(data []byte) (*big.Int, error) {
	out, err := commitRevealVault.abi.Unpack("registerToken", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackReveal is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x14590546.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reveal(uint256[2] pA, uint256[2][2] pB, uint256[2] pC, uint256[6] pubSignals, address recipient) returns()
func (commitRevealVault *CommitRevealVault) PackReveal(pA [2]*big.Int, pB [2][2]*big.Int, pC [2]*big.Int, pubSignals [6]*big.Int, recipient common.Address) []byte {
	enc, err := commitRevealVault.abi.Pack("reveal", pA, pB, pC, pubSignals, recipient)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReveal is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x14590546.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reveal(uint256[2] pA, uint256[2][2] pB, uint256[2] pC, uint256[6] pubSignals, address recipient) returns()
func (commitRevealVault *CommitRevealVault) TryPackReveal(pA [2]*big.Int, pB [2][2]*big.Int, pC [2]*big.Int, pubSignals [6]*big.Int, recipient common.Address) ([]byte, error) {
	return commitRevealVault.abi.Pack("reveal", pA, pB, pC, pubSignals, recipient)
}

// PackRevealWithFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7e8a5077.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function revealWithFee(uint256[2] pA, uint256[2][2] pB, uint256[2] pC, uint256[6] pubSignals, address recipient, uint256 fee, address feeReceiver) returns()
func (commitRevealVault *CommitRevealVault) PackRevealWithFee(pA [2]*big.Int, pB [2][2]*big.Int, pC [2]*big.Int, pubSignals [6]*big.Int, recipient common.Address, fee *big.Int, feeReceiver common.Address) []byte {
	enc, err := commitRevealVault.abi.Pack("revealWithFee", pA, pB, pC, pubSignals, recipient, fee, feeReceiver)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRevealWithFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7e8a5077.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function revealWithFee(uint256[2] pA, uint256[2][2] pB, uint256[2] pC, uint256[6] pubSignals, address recipient, uint256 fee, address feeReceiver) returns()
func (commitRevealVault *CommitRevealVault) TryPackRevealWithFee(pA [2]*big.Int, pB [2][2]*big.Int, pC [2]*big.Int, pubSignals [6]*big.Int, recipient common.Address, fee *big.Int, feeReceiver common.Address) ([]byte, error) {
	return commitRevealVault.abi.Pack("revealWithFee", pA, pB, pC, pubSignals, recipient, fee, feeReceiver)
}

// PackRootAge is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6e822dd0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rootAge(bytes32 root) view returns(bool known, uint32 age)
func (commitRevealVault *CommitRevealVault) PackRootAge(root [32]byte) []byte {
	enc, err := commitRevealVault.abi.Pack("rootAge", root)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRootAge is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6e822dd0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rootAge(bytes32 root) view returns(bool known, uint32 age)
func (commitRevealVault *CommitRevealVault) TryPackRootAge(root [32]byte) ([]byte, error) {
	return commitRevealVault.abi.Pack("rootAge", root)
}

// RootAgeOutput serves as a container for the return parameters of contract
// method RootAge.
type RootAgeOutput struct {
	Known bool
	Age   uint32
}

// UnpackRootAge is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6e822dd0.
//
// Solidity: function rootAge(bytes32 root) view returns(bool known, uint32 age)
func (commitRevealVault *CommitRevealVault) UnpackRootAge(data []byte) (RootAgeOutput, error) {
	out, err := commitRevealVault.abi.Unpack("rootAge", data)
	outstruct := new(RootAgeOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Known = *abi.ConvertType(out[0], new(bool)).(*bool)
	outstruct.Age = *abi.ConvertType(out[1], new(uint32)).(*uint32)
	return *outstruct, nil
}

// PackTokenIdOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x773c02d4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokenIdOf(address ) view returns(uint256)
func (commitRevealVault *CommitRevealVault) PackTokenIdOf(arg0 common.Address) []byte {
	enc, err := commitRevealVault.abi.Pack("tokenIdOf", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokenIdOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x773c02d4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokenIdOf(address ) view returns(uint256)
func (commitRevealVault *CommitRevealVault) TryPackTokenIdOf(arg0 common.Address) ([]byte, error) {
	return commitRevealVault.abi.Pack("tokenIdOf", arg0)
}

// UnpackTokenIdOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x773c02d4.
//
// Solidity: function tokenIdOf(address ) view returns(uint256)
func (commitRevealVault *CommitRevealVault) UnpackTokenIdOf(data []byte) (*big.Int, error) {
	out, err := commitRevealVault.abi.Unpack("tokenIdOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTokenOfId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3deb57d6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokenOfId(uint256 ) view returns(address)
func (commitRevealVault *CommitRevealVault) PackTokenOfId(arg0 *big.Int) []byte {
	enc, err := commitRevealVault.abi.Pack("tokenOfId", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokenOfId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3deb57d6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokenOfId(uint256 ) view returns(address)
func (commitRevealVault *CommitRevealVault) TryPackTokenOfId(arg0 *big.Int) ([]byte, error) {
	return commitRevealVault.abi.Pack("tokenOfId", arg0)
}

// UnpackTokenOfId is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3deb57d6.
//
// Solidity: function tokenOfId(uint256 ) view returns(address)
func (commitRevealVault *CommitRevealVault) UnpackTokenOfId(data []byte) (common.Address, error) {
	out, err := commitRevealVault.abi.Unpack("tokenOfId", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackVerifier is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2b7ac3f3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function verifier() view returns(address)
func (commitRevealVault *CommitRevealVault) PackVerifier() []byte {
	enc, err := commitRevealVault.abi.Pack("verifier")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVerifier is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2b7ac3f3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function verifier() view returns(address)
func (commitRevealVault *CommitRevealVault) TryPackVerifier() ([]byte, error) {
	return commitRevealVault.abi.Pack("verifier")
}

// UnpackVerifier is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2b7ac3f3.
//
// Solidity: function verifier() view returns(address)
func (commitRevealVault *CommitRevealVault) UnpackVerifier(data []byte) (common.Address, error) {
	out, err := commitRevealVault.abi.Unpack("verifier", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// CommitRevealVaultCommitmentInserted represents a CommitmentInserted event raised by the CommitRevealVault contract.
type CommitRevealVaultCommitmentInserted struct {
	Commitment [32]byte
	LeafIndex  uint32
	Root       [32]byte
	Raw        *types.Log // Blockchain specific contextual infos
}

const CommitRevealVaultCommitmentInsertedEventName = "CommitmentInserted"

// ContractEventName returns the user-defined event name.
func (CommitRevealVaultCommitmentInserted) ContractEventName() string {
	return CommitRevealVaultCommitmentInsertedEventName
}

// UnpackCommitmentInsertedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event CommitmentInserted(bytes32 indexed commitment, uint32 leafIndex, bytes32 root)
func (commitRevealVault *CommitRevealVault) UnpackCommitmentInsertedEvent(log *types.Log) (*CommitRevealVaultCommitmentInserted, error) {
	event := "CommitmentInserted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != commitRevealVault.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CommitRevealVaultCommitmentInserted)
	if len(log.Data) > 0 {
		if err := commitRevealVault.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range commitRevealVault.abi.Events[event].Inputs {
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

// CommitRevealVaultCommitted represents a Committed event raised by the CommitRevealVault contract.
type CommitRevealVaultCommitted struct {
	Token      common.Address
	Sender     common.Address
	Amount     *big.Int
	Commitment [32]byte
	Leaf       [32]byte
	LeafIndex  uint32
	Raw        *types.Log // Blockchain specific contextual infos
}

const CommitRevealVaultCommittedEventName = "Committed"

// ContractEventName returns the user-defined event name.
func (CommitRevealVaultCommitted) ContractEventName() string {
	return CommitRevealVaultCommittedEventName
}

// UnpackCommittedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Committed(address indexed token, address indexed sender, uint256 amount, bytes32 commitment, bytes32 leaf, uint32 leafIndex)
func (commitRevealVault *CommitRevealVault) UnpackCommittedEvent(log *types.Log) (*CommitRevealVaultCommitted, error) {
	event := "Committed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != commitRevealVault.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CommitRevealVaultCommitted)
	if len(log.Data) > 0 {
		if err := commitRevealVault.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range commitRevealVault.abi.Events[event].Inputs {
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

// CommitRevealVaultNullifierSpent represents a NullifierSpent event raised by the CommitRevealVault contract.
type CommitRevealVaultNullifierSpent struct {
	Nullifier [32]byte
	Raw       *types.Log // Blockchain specific contextual infos
}

const CommitRevealVaultNullifierSpentEventName = "NullifierSpent"

// ContractEventName returns the user-defined event name.
func (CommitRevealVaultNullifierSpent) ContractEventName() string {
	return CommitRevealVaultNullifierSpentEventName
}

// UnpackNullifierSpentEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event NullifierSpent(bytes32 indexed nullifier)
func (commitRevealVault *CommitRevealVault) UnpackNullifierSpentEvent(log *types.Log) (*CommitRevealVaultNullifierSpent, error) {
	event := "NullifierSpent"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != commitRevealVault.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CommitRevealVaultNullifierSpent)
	if len(log.Data) > 0 {
		if err := commitRevealVault.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range commitRevealVault.abi.Events[event].Inputs {
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

// CommitRevealVaultRevealFeePaid represents a RevealFeePaid event raised by the CommitRevealVault contract.
type CommitRevealVaultRevealFeePaid struct {
	Nullifier   [32]byte
	FeeReceiver common.Address
	Fee         *big.Int
	Raw         *types.Log // Blockchain specific contextual infos
}

const CommitRevealVaultRevealFeePaidEventName = "RevealFeePaid"

// ContractEventName returns the user-defined event name.
func (CommitRevealVaultRevealFeePaid) ContractEventName() string {
	return CommitRevealVaultRevealFeePaidEventName
}

// UnpackRevealFeePaidEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RevealFeePaid(bytes32 indexed nullifier, address indexed feeReceiver, uint256 fee)
func (commitRevealVault *CommitRevealVault) UnpackRevealFeePaidEvent(log *types.Log) (*CommitRevealVaultRevealFeePaid, error) {
	event := "RevealFeePaid"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != commitRevealVault.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CommitRevealVaultRevealFeePaid)
	if len(log.Data) > 0 {
		if err := commitRevealVault.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range commitRevealVault.abi.Events[event].Inputs {
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

// CommitRevealVaultRevealed represents a Revealed event raised by the CommitRevealVault contract.
type CommitRevealVaultRevealed struct {
	Nullifier        [32]byte
	Recipient        common.Address
	Token            common.Address
	Amount           *big.Int
	ChangeCommitment [32]byte
	Caller           common.Address
	Raw              *types.Log // Blockchain specific contextual infos
}

const CommitRevealVaultRevealedEventName = "Revealed"

// ContractEventName returns the user-defined event name.
func (CommitRevealVaultRevealed) ContractEventName() string {
	return CommitRevealVaultRevealedEventName
}

// UnpackRevealedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Revealed(bytes32 indexed nullifier, address indexed recipient, address indexed token, uint256 amount, bytes32 changeCommitment, address caller)
func (commitRevealVault *CommitRevealVault) UnpackRevealedEvent(log *types.Log) (*CommitRevealVaultRevealed, error) {
	event := "Revealed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != commitRevealVault.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CommitRevealVaultRevealed)
	if len(log.Data) > 0 {
		if err := commitRevealVault.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range commitRevealVault.abi.Events[event].Inputs {
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

// CommitRevealVaultTokenRegistered represents a TokenRegistered event raised by the CommitRevealVault contract.
type CommitRevealVaultTokenRegistered struct {
	Token   common.Address
	TokenId *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const CommitRevealVaultTokenRegisteredEventName = "TokenRegistered"

// ContractEventName returns the user-defined event name.
func (CommitRevealVaultTokenRegistered) ContractEventName() string {
	return CommitRevealVaultTokenRegisteredEventName
}

// UnpackTokenRegisteredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event TokenRegistered(address indexed token, uint256 tokenId)
func (commitRevealVault *CommitRevealVault) UnpackTokenRegisteredEvent(log *types.Log) (*CommitRevealVaultTokenRegistered, error) {
	event := "TokenRegistered"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != commitRevealVault.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CommitRevealVaultTokenRegistered)
	if len(log.Data) > 0 {
		if err := commitRevealVault.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range commitRevealVault.abi.Events[event].Inputs {
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
func (commitRevealVault *CommitRevealVault) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["CommitmentAlreadyUsed"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackCommitmentAlreadyUsedError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["FeeBindingMismatch"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackFeeBindingMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["InvalidAmount"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackInvalidAmountError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["InvalidCommitment"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackInvalidCommitmentError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["InvalidFee"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackInvalidFeeError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["InvalidFeeReceiver"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackInvalidFeeReceiverError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["InvalidProof"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackInvalidProofError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["InvalidRecipient"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackInvalidRecipientError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["LeafNotInField"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackLeafNotInFieldError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["NotOperator"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackNotOperatorError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackNotOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["NullifierAlreadySpent"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackNullifierAlreadySpentError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["RecipientMismatch"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackRecipientMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["Reentrancy"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackReentrancyError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["TokenAlreadyRegistered"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackTokenAlreadyRegisteredError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["TokenNotRegistered"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackTokenNotRegisteredError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["TransferFailed"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["TransferShortfall"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackTransferShortfallError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["TreeFull"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackTreeFullError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["UnknownRoot"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackUnknownRootError(raw[4:])
	}
	if bytes.Equal(raw[:4], commitRevealVault.abi.Errors["UnknownTokenId"].ID.Bytes()[:4]) {
		return commitRevealVault.UnpackUnknownTokenIdError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// CommitRevealVaultCommitmentAlreadyUsed represents a CommitmentAlreadyUsed error raised by the CommitRevealVault contract.
type CommitRevealVaultCommitmentAlreadyUsed struct {
	Commitment [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error CommitmentAlreadyUsed(bytes32 commitment)
func CommitRevealVaultCommitmentAlreadyUsedErrorID() common.Hash {
	return common.HexToHash("0x30c56f31d97213f065b5be7b458d2b69ed389d647e74ba43e5216ba78bbe2cdb")
}

// UnpackCommitmentAlreadyUsedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error CommitmentAlreadyUsed(bytes32 commitment)
func (commitRevealVault *CommitRevealVault) UnpackCommitmentAlreadyUsedError(raw []byte) (*CommitRevealVaultCommitmentAlreadyUsed, error) {
	out := new(CommitRevealVaultCommitmentAlreadyUsed)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "CommitmentAlreadyUsed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultFeeBindingMismatch represents a FeeBindingMismatch error raised by the CommitRevealVault contract.
type CommitRevealVaultFeeBindingMismatch struct {
	Signal  *big.Int
	Binding *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FeeBindingMismatch(uint256 signal, uint256 binding)
func CommitRevealVaultFeeBindingMismatchErrorID() common.Hash {
	return common.HexToHash("0x99207a4772168dce36759161e1c27750ee36fc5465d080bad6af0817f68d61f6")
}

// UnpackFeeBindingMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FeeBindingMismatch(uint256 signal, uint256 binding)
func (commitRevealVault *CommitRevealVault) UnpackFeeBindingMismatchError(raw []byte) (*CommitRevealVaultFeeBindingMismatch, error) {
	out := new(CommitRevealVaultFeeBindingMismatch)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "FeeBindingMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultInvalidAmount represents a InvalidAmount error raised by the CommitRevealVault contract.
type CommitRevealVaultInvalidAmount struct {
	Amount *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidAmount(uint256 amount)
func CommitRevealVaultInvalidAmountErrorID() common.Hash {
	return common.HexToHash("0x3728b83da61d63401ac13ad617e59d729e6cb5ed67c24fa9dc4e9b626307fd6e")
}

// UnpackInvalidAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidAmount(uint256 amount)
func (commitRevealVault *CommitRevealVault) UnpackInvalidAmountError(raw []byte) (*CommitRevealVaultInvalidAmount, error) {
	out := new(CommitRevealVaultInvalidAmount)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "InvalidAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultInvalidCommitment represents a InvalidCommitment error raised by the CommitRevealVault contract.
type CommitRevealVaultInvalidCommitment struct {
	Commitment [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidCommitment(bytes32 commitment)
func CommitRevealVaultInvalidCommitmentErrorID() common.Hash {
	return common.HexToHash("0x537fbfab3dd427d9352b2479b77a7abd292451f570ffa496d1639dc23deb1ca4")
}

// UnpackInvalidCommitmentError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidCommitment(bytes32 commitment)
func (commitRevealVault *CommitRevealVault) UnpackInvalidCommitmentError(raw []byte) (*CommitRevealVaultInvalidCommitment, error) {
	out := new(CommitRevealVaultInvalidCommitment)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "InvalidCommitment", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultInvalidFee represents a InvalidFee error raised by the CommitRevealVault contract.
type CommitRevealVaultInvalidFee struct {
	Fee    *big.Int
	Amount *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidFee(uint256 fee, uint256 amount)
func CommitRevealVaultInvalidFeeErrorID() common.Hash {
	return common.HexToHash("0xf05eb6084323a643696383c2ac7880b1e539be4d172853643dce339af5e37796")
}

// UnpackInvalidFeeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidFee(uint256 fee, uint256 amount)
func (commitRevealVault *CommitRevealVault) UnpackInvalidFeeError(raw []byte) (*CommitRevealVaultInvalidFee, error) {
	out := new(CommitRevealVaultInvalidFee)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "InvalidFee", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultInvalidFeeReceiver represents a InvalidFeeReceiver error raised by the CommitRevealVault contract.
type CommitRevealVaultInvalidFeeReceiver struct {
	FeeReceiver common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidFeeReceiver(address feeReceiver)
func CommitRevealVaultInvalidFeeReceiverErrorID() common.Hash {
	return common.HexToHash("0xcb9339d52d6439ab53c61e947fab873ae1d39de167aa945b8308c6df3907562d")
}

// UnpackInvalidFeeReceiverError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidFeeReceiver(address feeReceiver)
func (commitRevealVault *CommitRevealVault) UnpackInvalidFeeReceiverError(raw []byte) (*CommitRevealVaultInvalidFeeReceiver, error) {
	out := new(CommitRevealVaultInvalidFeeReceiver)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "InvalidFeeReceiver", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultInvalidProof represents a InvalidProof error raised by the CommitRevealVault contract.
type CommitRevealVaultInvalidProof struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidProof()
func CommitRevealVaultInvalidProofErrorID() common.Hash {
	return common.HexToHash("0x09bde339c6b182be216ee7ef8ccff6338c6ef7993445216112ae575c5438fd27")
}

// UnpackInvalidProofError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidProof()
func (commitRevealVault *CommitRevealVault) UnpackInvalidProofError(raw []byte) (*CommitRevealVaultInvalidProof, error) {
	out := new(CommitRevealVaultInvalidProof)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "InvalidProof", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultInvalidRecipient represents a InvalidRecipient error raised by the CommitRevealVault contract.
type CommitRevealVaultInvalidRecipient struct {
	Recipient common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidRecipient(address recipient)
func CommitRevealVaultInvalidRecipientErrorID() common.Hash {
	return common.HexToHash("0x17858bbe33f2abed3758965a9f02dee0a7e83a84b7b813e2a23810c33c0858ea")
}

// UnpackInvalidRecipientError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidRecipient(address recipient)
func (commitRevealVault *CommitRevealVault) UnpackInvalidRecipientError(raw []byte) (*CommitRevealVaultInvalidRecipient, error) {
	out := new(CommitRevealVaultInvalidRecipient)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "InvalidRecipient", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultLeafNotInField represents a LeafNotInField error raised by the CommitRevealVault contract.
type CommitRevealVaultLeafNotInField struct {
	Leaf [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error LeafNotInField(bytes32 leaf)
func CommitRevealVaultLeafNotInFieldErrorID() common.Hash {
	return common.HexToHash("0xc53e726b83f265f63f33a370af14ec01ef7b1001bc2f088980a3a9ff90c92b06")
}

// UnpackLeafNotInFieldError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error LeafNotInField(bytes32 leaf)
func (commitRevealVault *CommitRevealVault) UnpackLeafNotInFieldError(raw []byte) (*CommitRevealVaultLeafNotInField, error) {
	out := new(CommitRevealVaultLeafNotInField)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "LeafNotInField", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultNotOperator represents a NotOperator error raised by the CommitRevealVault contract.
type CommitRevealVaultNotOperator struct {
	Caller common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOperator(address caller)
func CommitRevealVaultNotOperatorErrorID() common.Hash {
	return common.HexToHash("0x76c6c93a6423c7e2cef5f93921b1d4d1a5ffb795cd7cfed2df95566b7c7f7c40")
}

// UnpackNotOperatorError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOperator(address caller)
func (commitRevealVault *CommitRevealVault) UnpackNotOperatorError(raw []byte) (*CommitRevealVaultNotOperator, error) {
	out := new(CommitRevealVaultNotOperator)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "NotOperator", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultNotOwner represents a NotOwner error raised by the CommitRevealVault contract.
type CommitRevealVaultNotOwner struct {
	Caller common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner(address caller)
func CommitRevealVaultNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x245aecd3fabbd17d6c3c92dc7f0ab916ea8cbf6fc1862c8b56893090ac3fff4c")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner(address caller)
func (commitRevealVault *CommitRevealVault) UnpackNotOwnerError(raw []byte) (*CommitRevealVaultNotOwner, error) {
	out := new(CommitRevealVaultNotOwner)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultNullifierAlreadySpent represents a NullifierAlreadySpent error raised by the CommitRevealVault contract.
type CommitRevealVaultNullifierAlreadySpent struct {
	Nullifier [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NullifierAlreadySpent(bytes32 nullifier)
func CommitRevealVaultNullifierAlreadySpentErrorID() common.Hash {
	return common.HexToHash("0x3c4f911111a6d4cb2dc8aa73589d2040af71f333de6bb9b67825789431742031")
}

// UnpackNullifierAlreadySpentError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NullifierAlreadySpent(bytes32 nullifier)
func (commitRevealVault *CommitRevealVault) UnpackNullifierAlreadySpentError(raw []byte) (*CommitRevealVaultNullifierAlreadySpent, error) {
	out := new(CommitRevealVaultNullifierAlreadySpent)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "NullifierAlreadySpent", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultRecipientMismatch represents a RecipientMismatch error raised by the CommitRevealVault contract.
type CommitRevealVaultRecipientMismatch struct {
	Signal    *big.Int
	Recipient common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error RecipientMismatch(uint256 signal, address recipient)
func CommitRevealVaultRecipientMismatchErrorID() common.Hash {
	return common.HexToHash("0x4a35798050ee0b2d9ce6258f0407bb2e8830b0fdd7a7be3870b6f82c9ee141f1")
}

// UnpackRecipientMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error RecipientMismatch(uint256 signal, address recipient)
func (commitRevealVault *CommitRevealVault) UnpackRecipientMismatchError(raw []byte) (*CommitRevealVaultRecipientMismatch, error) {
	out := new(CommitRevealVaultRecipientMismatch)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "RecipientMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultReentrancy represents a Reentrancy error raised by the CommitRevealVault contract.
type CommitRevealVaultReentrancy struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Reentrancy()
func CommitRevealVaultReentrancyErrorID() common.Hash {
	return common.HexToHash("0xab143c06c9772d69bbbc9f2fe74acd02f810e93b099f3d1dac8448ac9ae35991")
}

// UnpackReentrancyError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Reentrancy()
func (commitRevealVault *CommitRevealVault) UnpackReentrancyError(raw []byte) (*CommitRevealVaultReentrancy, error) {
	out := new(CommitRevealVaultReentrancy)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "Reentrancy", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultTokenAlreadyRegistered represents a TokenAlreadyRegistered error raised by the CommitRevealVault contract.
type CommitRevealVaultTokenAlreadyRegistered struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenAlreadyRegistered(address token)
func CommitRevealVaultTokenAlreadyRegisteredErrorID() common.Hash {
	return common.HexToHash("0x4f4b634e4a3ec4a90b84a519bc5240b982a8d9414f434c3ed598822d3c63b6d7")
}

// UnpackTokenAlreadyRegisteredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenAlreadyRegistered(address token)
func (commitRevealVault *CommitRevealVault) UnpackTokenAlreadyRegisteredError(raw []byte) (*CommitRevealVaultTokenAlreadyRegistered, error) {
	out := new(CommitRevealVaultTokenAlreadyRegistered)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "TokenAlreadyRegistered", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultTokenNotRegistered represents a TokenNotRegistered error raised by the CommitRevealVault contract.
type CommitRevealVaultTokenNotRegistered struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenNotRegistered(address token)
func CommitRevealVaultTokenNotRegisteredErrorID() common.Hash {
	return common.HexToHash("0xddef98d7d3588b501c2e5e284f10c0ec2d39464d4628e1f36c50bbc18d4a7008")
}

// UnpackTokenNotRegisteredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenNotRegistered(address token)
func (commitRevealVault *CommitRevealVault) UnpackTokenNotRegisteredError(raw []byte) (*CommitRevealVaultTokenNotRegistered, error) {
	out := new(CommitRevealVaultTokenNotRegistered)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "TokenNotRegistered", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultTransferFailed represents a TransferFailed error raised by the CommitRevealVault contract.
type CommitRevealVaultTransferFailed struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TransferFailed(address token)
func CommitRevealVaultTransferFailedErrorID() common.Hash {
	return common.HexToHash("0x39f1c8d9a08940175dbc82f15840b953aa855264e371e68f3e5d5cb38c445fa0")
}

// UnpackTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TransferFailed(address token)
func (commitRevealVault *CommitRevealVault) UnpackTransferFailedError(raw []byte) (*CommitRevealVaultTransferFailed, error) {
	out := new(CommitRevealVaultTransferFailed)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "TransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultTransferShortfall represents a TransferShortfall error raised by the CommitRevealVault contract.
type CommitRevealVaultTransferShortfall struct {
	Expected *big.Int
	Received *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TransferShortfall(uint256 expected, uint256 received)
func CommitRevealVaultTransferShortfallErrorID() common.Hash {
	return common.HexToHash("0xaea7b7c04c93d58a8227f091c480b259c14bdbdf958a933c1fc9a3a2d7265654")
}

// UnpackTransferShortfallError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TransferShortfall(uint256 expected, uint256 received)
func (commitRevealVault *CommitRevealVault) UnpackTransferShortfallError(raw []byte) (*CommitRevealVaultTransferShortfall, error) {
	out := new(CommitRevealVaultTransferShortfall)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "TransferShortfall", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultTreeFull represents a TreeFull error raised by the CommitRevealVault contract.
type CommitRevealVaultTreeFull struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TreeFull()
func CommitRevealVaultTreeFullErrorID() common.Hash {
	return common.HexToHash("0xb48f2cf87f681f6e5e1953ff9a9b61fc72b38e92ba42ee8900d78f5e0dfa0e8a")
}

// UnpackTreeFullError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TreeFull()
func (commitRevealVault *CommitRevealVault) UnpackTreeFullError(raw []byte) (*CommitRevealVaultTreeFull, error) {
	out := new(CommitRevealVaultTreeFull)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "TreeFull", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultUnknownRoot represents a UnknownRoot error raised by the CommitRevealVault contract.
type CommitRevealVaultUnknownRoot struct {
	Root [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error UnknownRoot(bytes32 root)
func CommitRevealVaultUnknownRootErrorID() common.Hash {
	return common.HexToHash("0x8730d7c85bb68b0daa2a2b20c86a8b1024267282f2c9f868b0bc69623a781190")
}

// UnpackUnknownRootError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error UnknownRoot(bytes32 root)
func (commitRevealVault *CommitRevealVault) UnpackUnknownRootError(raw []byte) (*CommitRevealVaultUnknownRoot, error) {
	out := new(CommitRevealVaultUnknownRoot)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "UnknownRoot", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CommitRevealVaultUnknownTokenId represents a UnknownTokenId error raised by the CommitRevealVault contract.
type CommitRevealVaultUnknownTokenId struct {
	TokenId *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error UnknownTokenId(uint256 tokenId)
func CommitRevealVaultUnknownTokenIdErrorID() common.Hash {
	return common.HexToHash("0x6bc099b4c6c07b731e9ccc70319a2f97ac0d188fa5af3ebef6e00a14c3f8ece8")
}

// UnpackUnknownTokenIdError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error UnknownTokenId(uint256 tokenId)
func (commitRevealVault *CommitRevealVault) UnpackUnknownTokenIdError(raw []byte) (*CommitRevealVaultUnknownTokenId, error) {
	out := new(CommitRevealVaultUnknownTokenId)
	if err := commitRevealVault.abi.UnpackIntoInterface(out, "UnknownTokenId", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Groth16VerifierMetaData contains all meta data concerning the Groth16Verifier contract.
var Groth16VerifierMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint256[2]\",\"name\":\"alpha\",\"type\":\"uint256[2]\"},{\"internalType\":\"uint256[2][2]\",\"name\":\"beta\",\"type\":\"uint256[2][2]\"},{\"internalType\":\"uint256[2][2]\",\"name\":\"gamma\",\"type\":\"uint256[2][2]\"},{\"internalType\":\"uint256[2][2]\",\"name\":\"delta\",\"type\":\"uint256[2][2]\"},{\"internalType\":\"uint256[2][7]\",\"name\":\"ic\",\"type\":\"uint256[2][7]\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"N_PUBLIC\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256[2]\",\"name\":\"pA\",\"type\":\"uint256[2]\"},{\"internalType\":\"uint256[2][2]\",\"name\":\"pB\",\"type\":\"uint256[2][2]\"},{\"internalType\":\"uint256[2]\",\"name\":\"pC\",\"type\":\"uint256[2]\"},{\"internalType\":\"uint256[6]\",\"name\":\"pubSignals\",\"type\":\"uint256[6]\"}],\"name\":\"verifyProof\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "705df20ac9bb7617c5475f7a36dc7ae7fc",
	Bin: "0x610400604052348015610010575f5ffd5b50604051610ce2380380610ce283398101604081905261002f91610224565b845160209586015160a09081526080918252855180519088015196880151805190890151610120526101005260e09690965260c09586528451805190880151958801518051908901516101a05261018052610160959095526101409490945282518051908701519387015180519088015161022052610200526101e0939093526101c0929092528051805190860151828701518051908801516102a0526102805261026052610240526040810151805190860151606083015180519088015161032052610300526102e0526102c05290810151805190850151928201518051908601516103a052610380526103609290925261034091909152015180519101516103e0526103c0526102df565b604051601f8201601f191681016001600160401b038111828210171561017057634e487b7160e01b5f52604160045260245ffd5b604052919050565b5f82601f830112610187575f5ffd5b610191604061013c565b8060408401858111156101a2575f5ffd5b845b818110156101bc5780518452602093840193016101a4565b509095945050505050565b5f82601f8301126101d6575f5ffd5b5f60406101e28161013c565b91508160808501868111156101f5575f5ffd5b855b81811015610218576102098882610178565b835260209092019183016101f7565b50929695505050505050565b5f5f5f5f5f6103808688031215610239575f5ffd5b6102438787610178565b945061025287604088016101c7565b93506102618760c088016101c7565b92506102718761014088016101c7565b91505f876101df880112610283575f5ffd5b505f8061029060e061013c565b90508091506103808801898111156102a6575f5ffd5b6101c089015b818110156102ce576102be8b82610178565b84526020909301926040016102ac565b505080925050509295509295909350565b60805160a05160c05160e05161010051610120516101405161016051610180516101a0516101c0516101e05161020051610220516102405161026051610280516102a0516102c0516102e05161030051610320516103405161036051610380516103a0516103c0516103e0516108e06104025f395f61048101525f61046001525f61042c01525f61040b01525f6103d701525f6103b601525f61038201525f61036101525f61032d01525f61030c01525f6102d301525f6102b201525f61027901525f61025601525f6106df01525f61070601525f61072d01525f61075401525f61063101525f61065801525f61067f01525f6106a601525f61058301525f6105aa01525f6105d101525f6105f801525f61053701525f61055d01526108e05ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c806349839b6814610038578063f398789b14610053575b5f5ffd5b610040600681565b6040519081526020015b60405180910390f35b610066610061366004610819565b610076565b604051901515815260200161004a565b5f805b60068110156100d0577f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018382600681106100b5576100b561087b565b6020020135106100c8575f915050610792565b600101610079565b507f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47853510158061012557507f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47602086013510155b8061015157507f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47833510155b8061018057507f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47602084013510155b1561018c57505f610792565b7f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd4784351015806101e057507f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47602085013510155b8061020f57507f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47604085013510155b8061023e57507f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47606085013510155b1561024a57505f610792565b604080516080810182527f000000000000000000000000000000000000000000000000000000000000000081527f000000000000000000000000000000000000000000000000000000000000000060208201525f91810182905260608101829052906102ff827f00000000000000000000000000000000000000000000000000000000000000007f000000000000000000000000000000000000000000000000000000000000000087855b602002013561079a565b80156103545750610354827f00000000000000000000000000000000000000000000000000000000000000007f00000000000000000000000000000000000000000000000000000000000000008760016102f5565b80156103a957506103a9827f00000000000000000000000000000000000000000000000000000000000000007f00000000000000000000000000000000000000000000000000000000000000008760026102f5565b80156103fe57506103fe827f00000000000000000000000000000000000000000000000000000000000000007f00000000000000000000000000000000000000000000000000000000000000008760036102f5565b80156104535750610453827f00000000000000000000000000000000000000000000000000000000000000007f00000000000000000000000000000000000000000000000000000000000000008760046102f5565b80156104a857506104a8827f00000000000000000000000000000000000000000000000000000000000000007f00000000000000000000000000000000000000000000000000000000000000008760056102f5565b9050806104b9575f92505050610792565b6104c16107e4565b8735602089013515610500576104fb60208a01357f30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd476108a8565b610502565b5f5b60208084019190915290825260608089013560a08401526040808a0135608085015289830135918401919091528835908301527f000000000000000000000000000000000000000000000000000000000000000060e08301527f000000000000000000000000000000000000000000000000000000000000000060c08301527f00000000000000000000000000000000000000000000000000000000000000006101608301527f00000000000000000000000000000000000000000000000000000000000000006101408301527f00000000000000000000000000000000000000000000000000000000000000006101208301527f00000000000000000000000000000000000000000000000000000000000000006101008301528351848201516101a08401526101808301527f00000000000000000000000000000000000000000000000000000000000000006102208301527f00000000000000000000000000000000000000000000000000000000000000006102008301527f00000000000000000000000000000000000000000000000000000000000000006101e08301527f00000000000000000000000000000000000000000000000000000000000000006101c08301528681013561026083015286356102408301527f00000000000000000000000000000000000000000000000000000000000000006102e08301527f00000000000000000000000000000000000000000000000000000000000000006102c08301527f00000000000000000000000000000000000000000000000000000000000000006102a08301527f00000000000000000000000000000000000000000000000000000000000000006102808301525f90826103008160085afa915160011490911693505050505b949350505050565b5f815f036107aa57506001610792565b604051848152836020820152826040820152604080870160608360075afa91505080156107925760408560808760065afa95945050505050565b6040518061030001604052806018906020820280368337509192915050565b8060408101831015610813575f5ffd5b92915050565b5f5f5f5f6101c0858703121561082d575f5ffd5b6108378686610803565b935060c0850186811115610849575f5ffd5b6040860193506108598782610803565b925050856101c08601111561086c575f5ffd5b50919490935090916101000190565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b81810381811115610813577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd",
}

// Groth16Verifier is an auto generated Go binding around an Ethereum contract.
type Groth16Verifier struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Groth16Verifier) GetABI() abi.ABI {
	return c.abi
}

// NewGroth16Verifier creates a new instance of Groth16Verifier.
func NewGroth16Verifier() *Groth16Verifier {
	parsed, err := Groth16VerifierMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Groth16Verifier{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Groth16Verifier) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(uint256[2] alpha, uint256[2][2] beta, uint256[2][2] gamma, uint256[2][2] delta, uint256[2][7] ic) returns()
func (groth16Verifier *Groth16Verifier) PackConstructor(alpha [2]*big.Int, beta [2][2]*big.Int, gamma [2][2]*big.Int, delta [2][2]*big.Int, ic [7][2]*big.Int) []byte {
	enc, err := groth16Verifier.abi.Pack("", alpha, beta, gamma, delta, ic)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackNPUBLIC is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x49839b68.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function N_PUBLIC() view returns(uint256)
func (groth16Verifier *Groth16Verifier) PackNPUBLIC() []byte {
	enc, err := groth16Verifier.abi.Pack("N_PUBLIC")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNPUBLIC is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x49839b68.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function N_PUBLIC() view returns(uint256)
func (groth16Verifier *Groth16Verifier) TryPackNPUBLIC() ([]byte, error) {
	return groth16Verifier.abi.Pack("N_PUBLIC")
}

// UnpackNPUBLIC is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x49839b68.
//
// Solidity: function N_PUBLIC() view returns(uint256)
func (groth16Verifier *Groth16Verifier) UnpackNPUBLIC(data []byte) (*big.Int, error) {
	out, err := groth16Verifier.abi.Unpack("N_PUBLIC", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackVerifyProof is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf398789b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function verifyProof(uint256[2] pA, uint256[2][2] pB, uint256[2] pC, uint256[6] pubSignals) view returns(bool)
func (groth16Verifier *Groth16Verifier) PackVerifyProof(pA [2]*big.Int, pB [2][2]*big.Int, pC [2]*big.Int, pubSignals [6]*big.Int) []byte {
	enc, err := groth16Verifier.abi.Pack("verifyProof", pA, pB, pC, pubSignals)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVerifyProof is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf398789b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function verifyProof(uint256[2] pA, uint256[2][2] pB, uint256[2] pC, uint256[6] pubSignals) view returns(bool)
func (groth16Verifier *Groth16Verifier) TryPackVerifyProof(pA [2]*big.Int, pB [2][2]*big.Int, pC [2]*big.Int, pubSignals [6]*big.Int) ([]byte, error) {
	return groth16Verifier.abi.Pack("verifyProof", pA, pB, pC, pubSignals)
}

// UnpackVerifyProof is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf398789b.
//
// Solidity: function verifyProof(uint256[2] pA, uint256[2][2] pB, uint256[2] pC, uint256[6] pubSignals) view returns(bool)
func (groth16Verifier *Groth16Verifier) UnpackVerifyProof(data []byte) (bool, error) {
	out, err := groth16Verifier.abi.Unpack("verifyProof", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// LegacyTokenMetaData contains all meta data concerning the LegacyToken contract.
var LegacyTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"name_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"symbol_\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"supply\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "761b27323de41d3d646619221e8e65ea12",
	Bin: "0x6080604052348015600e575f5ffd5b50604051610354380380610354833981016040819052602b916085565b5f8381556001839055600282905533808252600360209081526040808420859055518481529192917fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a350505060af565b5f5f5f606084860312156096575f5ffd5b5050815160208301516040909301519094929350919050565b610298806100bc5f395ff3fe608060405234801561000f575f5ffd5b506004361061006f575f3560e01c806370a082311161004d57806370a08231146100b157806395d89b41146100d0578063a9059cbb146100d9575f5ffd5b806306fdde031461007357806318160ddd1461008e578063313ce56714610097575b5f5ffd5b61007b5f5481565b6040519081526020015b60405180910390f35b61007b60025481565b61009f601281565b60405160ff9091168152602001610085565b61007b6100bf366004610218565b60036020525f908152604090205481565b61007b60015481565b6100ec6100e7366004610238565b6100fc565b6040519015158152602001610085565b335f9081526003602052604081205482811015610153576040517fcf479181000000000000000000000000000000000000000000000000000000008152600481018290526024810184905260440160405180910390fd5b335f90815260036020526040808220858403905573ffffffffffffffffffffffffffffffffffffffff8616825281208054859290610192908490610260565b909155505060405183815273ffffffffffffffffffffffffffffffffffffffff85169033907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a360019150505b92915050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610213575f5ffd5b919050565b5f60208284031215610228575f5ffd5b610231826101f0565b9392505050565b5f5f60408385031215610249575f5ffd5b610252836101f0565b946020939093013593505050565b808201808211156101ea577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd",
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

// LoadEmitterMetaData contains all meta data concerning the LoadEmitter contract.
var LoadEmitterMetaData = bind.MetaData{
	ABI: "[{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"commitment\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"leafIndex\",\"type\":\"uint32\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"}],\"name\":\"CommitmentInserted\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"uint32\",\"name\":\"n\",\"type\":\"uint32\"}],\"name\":\"emitMany\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"next\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "4ee17818e8fad28f20e97b893cebfee4e9",
	Bin: "0x6080604052348015600e575f5ffd5b506101d88061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c80634c8fe52614610038578063c4db049014610060575b5f5ffd5b5f546100479063ffffffff1681565b60405163ffffffff909116815260200160405180910390f35b61007361006e366004610165565b610075565b005b5f805463ffffffff16905b8263ffffffff168163ffffffff16101561012d576040805163ffffffff8416602082015201604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0818403018152828252805160209182012063ffffffff861680855291840191909152917fc156f42017957acfca3b7f6906dff8ed1d1a889f2c552e34074c3ad51becaeb9910160405180910390a2816101228161018f565b925050600101610080565b505f80547fffffffffffffffffffffffffffffffffffffffffffffffffffffffff000000001663ffffffff9290921691909117905550565b5f60208284031215610175575f5ffd5b813563ffffffff81168114610188575f5ffd5b9392505050565b5f63ffffffff821663ffffffff81036101cf577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b6001019291505056",
}

// LoadEmitter is an auto generated Go binding around an Ethereum contract.
type LoadEmitter struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *LoadEmitter) GetABI() abi.ABI {
	return c.abi
}

// NewLoadEmitter creates a new instance of LoadEmitter.
func NewLoadEmitter() *LoadEmitter {
	parsed, err := LoadEmitterMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &LoadEmitter{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *LoadEmitter) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackEmitMany is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc4db0490.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function emitMany(uint32 n) returns()
func (loadEmitter *LoadEmitter) PackEmitMany(n uint32) []byte {
	enc, err := loadEmitter.abi.Pack("emitMany", n)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEmitMany is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc4db0490.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function emitMany(uint32 n) returns()
func (loadEmitter *LoadEmitter) TryPackEmitMany(n uint32) ([]byte, error) {
	return loadEmitter.abi.Pack("emitMany", n)
}

// PackNext is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4c8fe526.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function next() view returns(uint32)
func (loadEmitter *LoadEmitter) PackNext() []byte {
	enc, err := loadEmitter.abi.Pack("next")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNext is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4c8fe526.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function next() view returns(uint32)
func (loadEmitter *LoadEmitter) TryPackNext() ([]byte, error) {
	return loadEmitter.abi.Pack("next")
}

// UnpackNext is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4c8fe526.
//
// Solidity: function next() view returns(uint32)
func (loadEmitter *LoadEmitter) UnpackNext(data []byte) (uint32, error) {
	out, err := loadEmitter.abi.Unpack("next", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// LoadEmitterCommitmentInserted represents a CommitmentInserted event raised by the LoadEmitter contract.
type LoadEmitterCommitmentInserted struct {
	Commitment [32]byte
	LeafIndex  uint32
	Root       [32]byte
	Raw        *types.Log // Blockchain specific contextual infos
}

const LoadEmitterCommitmentInsertedEventName = "CommitmentInserted"

// ContractEventName returns the user-defined event name.
func (LoadEmitterCommitmentInserted) ContractEventName() string {
	return LoadEmitterCommitmentInsertedEventName
}

// UnpackCommitmentInsertedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event CommitmentInserted(bytes32 indexed commitment, uint32 leafIndex, bytes32 root)
func (loadEmitter *LoadEmitter) UnpackCommitmentInsertedEvent(log *types.Log) (*LoadEmitterCommitmentInserted, error) {
	event := "CommitmentInserted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != loadEmitter.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(LoadEmitterCommitmentInserted)
	if len(log.Data) > 0 {
		if err := loadEmitter.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range loadEmitter.abi.Events[event].Inputs {
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

// PoseidonT3MetaData contains all meta data concerning the PoseidonT3 contract.
var PoseidonT3MetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint256[2]\",\"name\":\"\",\"type\":\"uint256[2]\"}],\"name\":\"hash\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	ID:  "75f79a42d9bcbdbb69ad79ebd80f556f39",
	Bin: "0x615be2610034600b8282823980515f1a607314602857634e487b7160e01b5f525f60045260245ffd5b305f52607381538281f3fe7300000000000000000000000000000000000000003014608060405260043610610034575f3560e01c8063561558fe14610038575b5f5ffd5b61004b610046366004615b66565b61005d565b60405190815260200160405180910390f35b5f7f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2b90bba00fca0589f617e7dcbfe82e0df706ab640ceb247b791a93b74e36736d7f101071f0032379b697315876690f053d148d4e109f5fb065c8aacc55a0f89bfa7f19a3fc0a56702bf417ba7fee3802593fa644470307043f7773279cd71d25d5e07ef1445235f2148c5986587169fc1bcd887b08d4d00868df5696fff40956e8648460805106017f08dff3487e8ac99e1f29a058d0fa80b930c728730b7ab36ce879f3890ecf73f58560a05106018582830986838883840909925086828309905086828883840909915086868309877f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e08509017f5151bcc773d05d360fc9c923795441a9618605f30e31f2b8f087d1575b9c613b01905086858309877f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe238509017f547424ff6c2e186923faa2cf5794c8cd2b5d3e8f151620ffda4a15b70cc05b3f0187858409887f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee29118609017f23dc61092dc247151d38da17703c1ccb157f035575fe333d62fda4d2a5ae1bf5018883800989848b83840909935089838409905089838b83840909925089828309905089828b838409099150898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f28813dcaebaeaa828a376df87af4a63bc8b7bf27ad49c6298ef7b387bf28526d019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f2727673b2ccbc903f181bf38e1c1d40d2033865200c352bc150928adddf9cb78019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f234ec45ca27727c2e74abd2b2a1494cd6efbd43e340587d6b8fb9e31e65cc63201945089818209935089818b86870909905089868709935089868b86870909955089858609935089858b868709099450898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f15b52534031ae18f7f862cb2cf7cf760ab10a8150a337b1ccd99ff6e8797d428019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f0dc8fad6d9e4b35f5ed9a3d186b79ce38e0e8a8d1b58b132d701d4eecf68d1f6019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f1bcd95ffc211fbca600f705fad3fb567ea4eb378f62e1fec97805518a47e4d9c01915089848509905089848b83840909935089838409905089838b83840909925089828309905089828b838409099150898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f10520b0ab721cadfe9eff81b016fc34dc76da36c2578937817cb978d069de559019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f1f6d48149b8e7f7d9b257d8ed5fbbaf42932498075fed0ace88a9eb81f5627f6019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f1d9655f652309014d29e00ef35a2089bfff8dc1c816f0dc9ca34bdb5460c870501945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f04df5a56ff95bcafb051f7b1cd43a99ba731ff67e47032058fe3d4185697cc7d019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f0672d995f8fff640151b3d290cedaf148690a10a8c8424a7f6ec282b6e4be828019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f099952b414884454b21200d7ffafdd5f0c9a9dcc06f2708e9fc1d8209b5c75b901915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f052cba2255dfd00c7c483143ba8d469448e43586a9b4cd9183fd0e843a6b9fa6019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f0b8badee690adb8eb0bd74712b7999af82de55707251ad7716077cb93c464ddc019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f119b1590f13307af5a1ee651020c07c749c15d60683a8050b963d0a8e4b2bdd101945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f03150b7cd6d5d17b2529d36be0f67b832c4acfc884ef4ee5ce15be0bfb4a8d09019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f2cc6182c5e14546e3cf1951f173912355374efb83d80898abe69cb317c9ea565019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017e5032551e6378c450cfe129a404b3764218cadedac14e2b92d2cd73111bf0f901915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f233237e3289baa34bb147e972ebcb9516469c399fcc069fb88f9da2cc28276b5019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f05c8f4f4ebd4a6e3c980d31674bfbe6323037f21b34ae5a4e80c2d4c24d60280019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f0a7b1db13042d396ba05d818a319f25252bcf35ef3aeed91ee1f09b2590fc65b01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f2a73b71f9b210cf5b14296572c9d32dbf156e2b086ff47dc5df542365a404ec0019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1ac9b0417abcc9a1935107e9ffc91dc3ec18f2c4dbe7f22976a760bb5c50c460019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f12c0339ae08374823fabb076707ef479269f3e4d6cb104349015ee046dc93fc001915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f0b7475b102a165ad7f5b18db4e1e704f52900aa3253baac68246682e56e9a28e019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f037c2849e191ca3edb1c5e49f6e8b8917c843e379366f2ea32ab3aa88d7f8448019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f05a6811f8556f014e92674661e217e9bd5206c5c93a07dc145fdb176a716346f01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f29a795e7d98028946e947b75d54e9f044076e87a7b2883b47b675ef5f38bd66e019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f20439a0c84b322eb45a3857afc18f5826e8c7382c8a1585c507be199981fd22f019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f2e0ba8d94d9ecf4a94ec2050c7371ff1bb50f27799a84b6d4a2a6f2a0982c88701915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f143fd115ce08fb27ca38eb7cce822b4517822cd2109048d2e6d0ddcca17d71c8019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f0c64cbecb1c734b857968dbbdcf813cdf8611659323dbcbfc84323623be9caf1019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f028a305847c683f646fca925c163ff5ae74f348d62c2b670f1426cef9403da5301945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f2e4ef510ff0b6fda5fa940ab4c4380f26a6bcb64d89427b824d6755b5db9e30c019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017e81c95bc43384e663d79270c956ce3b8925b4f6d033b078b96384f50579400e019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f2ed5f0c91cbd9749187e2fade687e05ee2491b349c039a0bba8a9f4023a0bb3801915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f30509991f88da3504bbf374ed5aae2f03448a22c76234c8c990f01f33a735206019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f1c3f20fd55409a53221b7c4d49a356b9f0a1119fb2067b41a7529094424ec6ad019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f10b4e7f3ab5df003049514459b6e18eec46bb2213e8e131e170887b47ddcb96c01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f2a1982979c3ff7f43ddd543d891c2abddd80f804c077d775039aa3502e43adef019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1c74ee64f15e1db6feddbead56d6d55dba431ebc396c9af95cad0f1315bd5c91019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f07533ec850ba7f98eab9303cace01b4b9e4f2e8b82708cfa9c2fe45a0ae146a001915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f21576b438e500449a151e4eeaf17b154285c68f42d42c1808a11abf3764c0750019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f2f17c0559b8fe79608ad5ca193d62f10bce8384c815f0906743d6930836d4a9e019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f2d477e3862d07708a79e8aae946170bc9775a4201318474ae665b0b1b7e2730e01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f162f5243967064c390e095577984f291afba2266c38f5abcd89be0f5b2747eab019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f2b4cb233ede9ba48264ecd2c8ae50d1ad7a8596a87f29f8a7777a70092393311019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f2c8fbcb2dd8573dc1dbaf8f4622854776db2eece6d85c4cf4254e7c35e03b07a01915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f1d6f347725e4816af2ff453f0cd56b199e1b61e9f601e9ade5e88db870949da9019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f204b0c397f4ebe71ebc2d8b3df5b913df9e6ac02b68d31324cd49af5c4565529019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f0c4cb9dc3c4fd8174f1149b3c63c3c2f9ecb827cd7dc25534ff8fb75bc79c50201945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f174ad61a1448c899a25416474f4930301e5c49475279e0639a616ddc45bc7b54019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1a96177bcf4d8d89f759df4ec2f3cde2eaaa28c177cc0fa13a9816d49a38d2ef019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f066d04b24331d71cd0ef8054bc60c4ff05202c126a233c1a8242ace360b8a30a01915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f2a4c4fc6ec0b0cf52195782871c6dd3b381cc65f72e02ad527037a62aa1bd804019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f13ab2d136ccf37d447e9f2e14a7cedc95e727f8446f6d9d7e55afc01219fd649019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f1121552fca26061619d24d843dc82769c1b04fcec26f55194c2e3e869acc6a9a01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017eef653322b13d6c889bc81715c37d77a6cd267d595c4a8909a5546c7c97cff1019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f0e25483e45a665208b261d8ba74051e6400c776d652595d9845aca35d8a397d3019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f29f536dcb9dd7682245264659e15d88e395ac3d4dde92d8c46448db979eeba8901915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f2a56ef9f2c53febadfda33575dbdbd885a124e2780bbea170e456baace0fa5be019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f1c8361c78eb5cf5decfb7a2d17b5c409f2ae2999a46762e8ee416240a8cb9af1019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f151aff5f38b20a0fc0473089aaf0206b83e8e68a764507bfd3d0ab4be74319c501945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f04c6187e41ed881dc1b239c88f7f9d43a9f52fc8c8b6cdd1e76e47615b51f100019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f13b37bd80f4d27fb10d84331f6fb6d534b81c61ed15776449e801b7ddc9c2967019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f01a5c536273c2d9df578bfbd32c17b7a2ce3664c2a52032c9321ceb1c4e8a8e401915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f2ab3561834ca73835ad05f5d7acb950b4a9a2c666b9726da832239065b7c3b02019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f1d4d8ec291e720db200fe6d686c0d613acaf6af4e95d3bf69f7ed516a597b646019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f041294d2cc484d228f5784fe7919fd2bb925351240a04b711514c9c80b65af1d01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f154ac98e01708c611c4fa715991f004898f57939d126e392042971dd90e81fc6019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f0b339d8acca7d4f83eedd84093aef51050b3684c88f8b0b04524563bc6ea4da4019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f0955e49e6610c94254a4f84cfbab344598f0e71eaff4a7dd81ed95b50839c82e01915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f06746a6156eba54426b9e22206f15abca9a6f41e6f535c6f3525401ea0654626019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f0f18f5a0ecd1423c496f3820c549c27838e5790e2bd0a196ac917c7ff32077fb019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f04f6eeca1751f7308ac59eff5beb261e4bb563583ede7bc92a738223d6f76e1301945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f2b56973364c4c4f5c1a3ec4da3cdce038811eb116fb3e45bc1768d26fc0b3758019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f123769dd49d5b054dcd76b89804b1bcb8e1392b385716a5d83feb65d437f29ef019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f2147b424fc48c80a88ee52b91169aacea989f6446471150994257b2fb01c63e901915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f0fdc1f58548b85701a6c5505ea332a29647e6f34ad4243c2ea54ad897cebe54d019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f12373a8251fea004df68abcf0f7786d4bceff28c5dbbe0c3944f685cc0a0b1f2019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f21e4f4ea5f35f85bad7ea52ff742c9e8a642756b6af44203dd8a1f35c1a9003501945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f16243916d69d2ca3dfb4722224d4c462b57366492f45e90d8a81934f1bc3b147019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1efbe46dd7a578b4f66f9adbc88b4378abc21566e1a0453ca13a4159cac04ac2019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f07ea5e8537cf5dd08886020e23a7f387d468d5525be66f853b672cc96a88969a01915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f05a8c4f9968b8aa3b7b478a30f9a5b63650f19a75e7ce11ca9fe16c0b76c00bc019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f20f057712cc21654fbfe59bd345e8dac3f7818c701b9c7882d9d57b72a32e83f019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f04a12ededa9dfd689672f8c67fee31636dcd8e88d01d49019bd90b33eb33db6901945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f27e88d8c15f37dcee44f1e5425a51decbd136ce5091a6767e49ec9544ccd101a019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f2feed17b84285ed9b8a5c8c5e95a41f66e096619a7703223176c41ee433de4d1019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f1ed7cc76edf45c7c404241420f729cf394e5942911312a0d6972b8bd53aff2b801915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f15742e99b9bfa323157ff8c586f5660eac6783476144cdcadf2874be45466b1a019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f1aac285387f65e82c895fc6887ddf40577107454c6ec0317284f033f27d0c785019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f25851c3c845d4790f9ddadbdb6057357832e2e7a49775f71ec75a96554d67c7701945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f15a5821565cc2ec2ce78457db197edf353b7ebba2c5523370ddccc3d9f146a67019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f2411d57a4813b9980efa7e31a1db5966dcf64f36044277502f15485f28c71727019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017e2e6f8d6520cd4713e335b8c0b6d2e647e9a98e12f4cd2558828b5ef6cb4c9b01915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f2ff7bc8f4380cde997da00b616b0fcd1af8f0e91e2fe1ed7398834609e0315d2019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017eb9831b948525595ee02724471bcd182e9521f6b7bb68f1e93be4febb0d3cbe019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f0a2f53768b8ebf6a86913b0e57c04e011ca408648a4743a87d77adbf0c9c351201945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017e248156142fd0373a479f91ff239e960f599ff7e94be69b7f2a290305e1198d019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f171d5620b87bfb1328cf8c02ab3f0c9a397196aa6a542c2350eb512a2b2bcda9019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f170a4f55536f7dc970087c7c10d6fad760c952172dd54dd99d1045e4ec34a80801915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f29aba33f799fe66c2ef3134aea04336ecc37e38c1cd211ba482eca17e2dbfae1019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f1e9bc179a4fdd758fdd1bb1945088d47e70d114a03f6a0e8b5ba650369e64973019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f1dd269799b660fad58f7f4892dfb0b5afeaad869a9c4b44f9c9e1c43bdaf8f0901945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f22cdbc8b70117ad1401181d02e15459e7ccd426fe869c7c95d1dd2cb0f24af38019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f0ef042e454771c533a9f57a55c503fcefd3150f52ed94a7cd5ba93b9c7dacefd019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f11609e06ad6c8fe2f287f3036037e8851318e8b08a0359a03b304ffca62e828401915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f1166d9e554616dba9e753eea427c17b7fecd58c076dfe42708b08f5b783aa9af019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f2de52989431a859593413026354413db177fbf4cd2ac0b56f855a888357ee466019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f3006eb4ffc7a85819a6da492f3a8ac1df51aee5b17b8e89d74bf01cf5f71e9ad01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f2af41fbb61ba8a80fdcf6fff9e3f6f422993fe8f0a4639f962344c8225145086019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f119e684de476155fe5a6b41a8ebc85db8718ab27889e85e781b214bace4827c3019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f1835b786e2e8925e188bea59ae363537b51248c23828f047cff784b97b3fd80001915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f28201a34c594dfa34d794996c6433a20d152bac2a7905c926c40e285ab32eeb6019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f083efd7a27d1751094e80fefaf78b000864c82eb571187724a761f88c22cc4e7019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f0b6f88a3577199526158e61ceea27be811c16df7774dd8519e079564f61fd13b01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f0ec868e6d15e51d9644f66e1d6471a94589511ca00d29e1014390e6ee4254f5b019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f2af33e3f866771271ac0c9b3ed2e1142ecd3e74b939cd40d00d937ab84c98591019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f0b520211f904b5e7d09b5d961c6ace7734568c547dd6858b364ce5e47951f17801915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f0b2d722d0919a1aad8db58f10062a92ea0c56ac4270e822cca228620188a1d40019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f1f790d4d7f8cf094d980ceb37c2453e957b54a9991ca38bbe0061d1ed6e562d4019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f0171eb95dfbf7d1eaea97cd385f780150885c16235a2a6a8da92ceb01e50423301945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f0c2d0e3b5fd57549329bf6885da66b9b790b40defd2c8650762305381b168873019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1162fb28689c27154e5a8228b4e72b377cbcafa589e283c35d3803054407a18d019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f2f1459b65dee441b64ad386a91e8310f282c5a92a89e19921623ef8249711bc001915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f1e6ff3216b688c3d996d74367d5cd4c1bc489d46754eb712c243f70d1b53cfbb019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f01ca8be73832b8d0681487d27d157802d741a6f36cdc2a0576881f9326478875019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f1f7735706ffe9fc586f976d5bdf223dc680286080b10cea00b9b5de315f9650e01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f2522b60f4ea3307640a0c2dce041fba921ac10a3d5f096ef4745ca838285f019019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f23f0bee001b1029d5255075ddc957f833418cad4f52b6c3f8ce16c235572575b019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f2bc1ae8b8ddbb81fcaac2d44555ed5685d142633e9df905f66d9401093082d5901915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f0f9406b8296564a37304507b8dba3ed162371273a07b1fc98011fcd6ad72205f019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f2360a8eb0cc7defa67b72998de90714e17e75b174a52ee4acb126c8cd995f0a8019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f15871a5cddead976804c803cbaef255eb4815a5e96df8b006dcbbc2767f8894801945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f193a56766998ee9e0a8652dd2f3b1da0362f4f54f72379544f957ccdeefb420f019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f2a394a43934f86982f9be56ff4fab1703b2e63c8ad334834e4309805e777ae0f019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f1859954cfeb8695f3e8b635dcb345192892cd11223443ba7b4166e8876c0d14201915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f04e1181763050e58013444dbcb99f1902b11bc25d90bbdca408d3819f4fed32b019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f0fdb253dee83869d40c335ea64de8c5bb10eb82db08b5e8b1f5e5552bfd05f23019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f058cbe8a9a5027bdaa4efb623adead6275f08686f1c08984a9d7c5bae9b4f1c001945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f1382edce9971e186497eadb1aeb1f52b23b4b83bef023ab0d15228b4cceca59a019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f03464990f045c6ee0819ca51fd11b0be7f61b8eb99f14b77e1e6634601d9e8b5019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f23f7bfc8720dc296fff33b41f98ff83c6fcab4605db2eb5aaa5bc137aeb70a5801915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f0a59a158e3eec2117e6e94e7f0e9decf18c3ffd5e1531a9219636158bbaf62f2019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f06ec54c80381c052b58bf23b312ffd3ce2c4eba065420af8f4c23ed0075fd07b019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f118872dc832e0eb5476b56648e867ec8b09340f7a7bcb1b4962f0ff9ed1f9d0101945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f13d69fa127d834165ad5c7cba7ad59ed52e0b0f0e42d7fea95e1906b520921b1019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f169a177f63ea681270b1c6877a73d21bde143942fb71dc55fd8a49f19f10c77b019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f04ef51591c6ead97ef42f287adce40d93abeb032b922f66ffb7e9a5a7450544d01915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f256e175a1dc079390ecd7ca703fb2e3b19ec61805d4f03ced5f45ee6dd0f69ec019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f30102d28636abd5fe5f2af412ff6004f75cc360d3205dd2da002813d3e2ceeb2019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f10998e42dfcd3bbf1c0714bc73eb1bf40443a3fa99bef4a31fd31be182fcc79201945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f193edd8e9fcf3d7625fa7d24b598a1d89f3362eaf4d582efecad76f879e36860019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f18168afd34f2d915d0368ce80b7b3347d1c7a561ce611425f2664d7aa51f0b5d019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f29383c01ebd3b6ab0c017656ebe658b6a328ec77bc33626e29e2e95b33ea611101915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f10646d2f2603de39a1f4ae5e7771a64a702db6e86fb76ab600bf573f9010c711019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f0beb5e07d1b27145f575f1395a55bf132f90c25b40da7b3864d0242dcb1117fb019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f16d685252078c133dc0d3ecad62b5c8830f95bb2e54b59abdffbf018d96fa33601945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f0a6abd1d833938f33c74154e0404b4b40a555bbbec21ddfafd672dd62047f01a019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1a679f5d36eb7b5c8ea12a4c2dedc8feb12dffeec450317270a6f19b34cf1860019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f0980fb233bd456c23974d50e0ebfde4726a423eada4e8f6ffbc7592e3f1b93d601915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f161b42232e61b84cbf1810af93a38fc0cece3d5628c9282003ebacb5c312c72b019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f0ada10a90c7f0520950f7d47a60d5e6a493f09787f1564e5d09203db47de1a0b019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f1a730d372310ba82320345a29ac4238ed3f07a8a2b4e121bb50ddb9af407f45101945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f2c8120f268ef054f817064c369dda7ea908377feaba5c4dffbda10ef58e8c556019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1c7c8824f758753fa57c00789c684217b930e95313bcb73e6e7b8649a4968f70019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f2cd9ed31f5f8691c8e39e4077a74faa0f400ad8b491eb3f7b47b27fa3fd1cf7701915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f23ff4f9d46813457cf60d92f57618399a5e022ac321ca550854ae23918a22eea019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f09945a5d147a4f66ceece6405dddd9d0af5a2c5103529407dff1ea58f180426d019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f188d9c528025d4c2b67660c6b771b90f7c7da6eaa29d3f268a6dd223ec6fc63001945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f3050e37996596b7f81f68311431d8734dba7d926d3633595e0c0d8ddf4f0f47f019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f15af1169396830a91600ca8102c35c426ceae5461e3f95d89d829518d30afd78019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f1da6d09885432ea9a06d9f37f873d985dae933e351466b2904284da3320d8acc01915089848509905089848b838409099350898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f2796ea90d269af29f5f8acf33921124e4e4fad3dbe658945e546ee411ddaa9cb019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f202d7dd1da0f6b4b0325c8b3307742f01e15612ec8e9304a7cb0319e01d32d60019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f096d6790d05bb759156a952ba263d672a2d7f9c788f4c831a29dace4c0f8be5f01945089818209935089818b868709099050898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f054efa1f65b0fce283808965275d877b438da23ce5b13e1963798cb1447d25a4019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f1b162f83d917e93edb3308c29802deb9d8aa690113b2e14864ccf6e18e4165f1019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f21e5241e12564dd6fd9f1cdd2a0de39eedfefc1466cc568ec5ceb745a0506edc01915089848509905089848b83840909935089838409905089838b83840909925089828309905089828b838409099150898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f1cfb5662e8cf5ac9226a80ee17b36abecb73ab5f87e161927b4349e10e4bdf08019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f0f21177e302a771bbae6d8d1ecb373b62c99af346220ac0129c53f666eb24100019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f1671522374606992affb0dd7f71b12bec4236aede6290546bcef7e1f515c232001945089818209935089818b86870909905089868709935089868b86870909955089858609935089858b868709099450898986098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e088098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b840901017f0fa3ec5b9488259c2eb4cf24501bfad9be2ec9e42c5cc8ccd419d2a692cad870019350898886098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2388098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771840901017f193c0e04e0bd298357cb266c1506080ed36edce85c648cc085e8c57b1ab54bba019250898786098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291188098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7840901017f102adf8ef74735a27e9128306dcbc3c99f6f7291cd406578ce14ea2adaba68f801915089848509905089848b83840909935089838409905089838b83840909925089828309905089828b838409099150898983098a7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e085098b7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b870901017f0fe0af7858e49859e2a54d6f1ad945b1316aa24bfbdd23ae40a6d0cb70c3eab1019050898883098a7f2e2419f9ec02ec394c9871c832963dc1b89d743c8c7b964029b2311687b1fe2385098b7f2969f27eed31a480b9c36c764379dbca2cc8fdd1415c3dded62940bcde0bd771870901017f216f6717bbc7dedb08536a2220843f4e2da5f1daa9ebdefde8a5ea7344798d22019550898783098a7f176cc029695ad02582a70eff08a6fd99d057e12e58e7d7b6b16cdfabc8ee291185098b7f143021ec686a3f330d5f9e654638065ce6cd79e28c5b3753326244ee65a1b1a7870901017f1da55cc900f0d21f4a3e694391918a1b3c23b2ac773c6b3ef88e2e422832516101945089818209935089818b86870909905089868709935089868b86870909955089858609935089858b868709099450898a8a87098b7f16ed41e13bb9c0c66ae119424fddbcbc9314dc9fdbdeea55d6c64543dc4903e089098c7f109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b85090101065f5260205ff35b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b5f60408284031215615b76575f5ffd5b82601f830112615b84575f5ffd5b6040516040810181811067ffffffffffffffff82111715615ba757615ba7615b39565b8060405250806040840185811115615bbd575f5ffd5b845b81811015615bd7578035835260209283019201615bbf565b50919594505050505056",
}

// PoseidonT3 is an auto generated Go binding around an Ethereum contract.
type PoseidonT3 struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *PoseidonT3) GetABI() abi.ABI {
	return c.abi
}

// NewPoseidonT3 creates a new instance of PoseidonT3.
func NewPoseidonT3() *PoseidonT3 {
	parsed, err := PoseidonT3MetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &PoseidonT3{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *PoseidonT3) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x561558fe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hash(uint256[2] ) pure returns(uint256)
func (poseidonT3 *PoseidonT3) PackHash(arg0 [2]*big.Int) []byte {
	enc, err := poseidonT3.abi.Pack("hash", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x561558fe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function hash(uint256[2] ) pure returns(uint256)
func (poseidonT3 *PoseidonT3) TryPackHash(arg0 [2]*big.Int) ([]byte, error) {
	return poseidonT3.abi.Pack("hash", arg0)
}

// UnpackHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x561558fe.
//
// Solidity: function hash(uint256[2] ) pure returns(uint256)
func (poseidonT3 *PoseidonT3) UnpackHash(data []byte) (*big.Int, error) {
	out, err := poseidonT3.abi.Unpack("hash", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PoseidonT4MetaData contains all meta data concerning the PoseidonT4 contract.
var PoseidonT4MetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint256[3]\",\"name\":\"\",\"type\":\"uint256[3]\"}],\"name\":\"hash\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	ID:  "fc5a2451f3e054f75c2faf9b3818033d8b",
	Bin: "0x61378f610034600b8282823980515f1a607314602857634e487b7160e01b5f525f60045260245ffd5b305f52607381538281f3fe7300000000000000000000000000000000000000003014608060405260043610610034575f3560e01c806320cf0a3714610038575b5f5ffd5b61004b610046366004613715565b61005d565b60405190815260200160405180910390f35b5f610b82565b805f5101826020510184608051018660a051017f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018485097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001857f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001838409099450507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f1d359d245f286c12d50d663bae733f978af08cdbd63017c57b3a75646ff382c183097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f023db68784e3f0cc0b85618826a9b3505129c16479973b0a84a4529e66b09c6285097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f277686494f7644bbc4a9b194e10724eb967f1dc58718e59e3cedc821b2a7ae1987097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f236d13393ef85cc48a351dd786dd7a1de5e39942296127fd87947223ae5108ad8909010101065f527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f0d745fd00dd167fb86772133640f02ce945004a7bc2c59e8790f725c5d84f0af83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f1a5ad71bbbecd8a97dc49cfdbae303ad24d5c4741eab8b7568a9ff8253a1eb6f85097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f083abff5e10051f078e2827d092e1ae808b4dd3e15ccc3706f38ce4157b6770e87097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2a75a171563b807db525be259699ab28fe9bc7fb1f70943ff049bc970e841a0c8909010101066020527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f03f3e6fab791f16628168e4b14dbaeb657035ee3da6b2ca83f0c2491e0b403eb83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f0fa86f0f27e4d3dd7f3367ce86f684f1f2e4386d3e5b9f38fa283c6aa723b60885097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2e18c8570d20bf5df800739a53da75d906ece318cd224ab6b3a2be979e2d7eab87097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2070679e798782ef592a52ca9cef820d497ad2eecbaa7e42f366b3e521c4ed428909010101066080527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807ec15fc3a1d5733dd835eae0823e377f8ba4a8b627627cc2bb661c25d20fb52a83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f014fcd5eb0be6d5beeafc4944034cf321c068ef930f10be2207ed58d2a34cdd685097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f23810bf82877fc19bff7eefeae3faf4bb8104c32ba4cd701596a15623d01476e87097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2f545e578202c9732488540e41f783b68ff0613fd79375f8ba8b3d30958e767789090101010660a0525050505050505050565b805f5101826020510184608051018660a051017f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018485097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001857f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018384090994507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000184850990507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001847f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018384090993507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000183840990507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001837f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018384090992507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000182830990507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001827f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001838409099150507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f1d359d245f286c12d50d663bae733f978af08cdbd63017c57b3a75646ff382c183097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f023db68784e3f0cc0b85618826a9b3505129c16479973b0a84a4529e66b09c6285097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f277686494f7644bbc4a9b194e10724eb967f1dc58718e59e3cedc821b2a7ae1987097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f236d13393ef85cc48a351dd786dd7a1de5e39942296127fd87947223ae5108ad8909010101065f527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f0d745fd00dd167fb86772133640f02ce945004a7bc2c59e8790f725c5d84f0af83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f1a5ad71bbbecd8a97dc49cfdbae303ad24d5c4741eab8b7568a9ff8253a1eb6f85097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f083abff5e10051f078e2827d092e1ae808b4dd3e15ccc3706f38ce4157b6770e87097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2a75a171563b807db525be259699ab28fe9bc7fb1f70943ff049bc970e841a0c8909010101066020527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f03f3e6fab791f16628168e4b14dbaeb657035ee3da6b2ca83f0c2491e0b403eb83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f0fa86f0f27e4d3dd7f3367ce86f684f1f2e4386d3e5b9f38fa283c6aa723b60885097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2e18c8570d20bf5df800739a53da75d906ece318cd224ab6b3a2be979e2d7eab87097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2070679e798782ef592a52ca9cef820d497ad2eecbaa7e42f366b3e521c4ed428909010101066080527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807ec15fc3a1d5733dd835eae0823e377f8ba4a8b627627cc2bb661c25d20fb52a83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f014fcd5eb0be6d5beeafc4944034cf321c068ef930f10be2207ed58d2a34cdd685097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f23810bf82877fc19bff7eefeae3faf4bb8104c32ba4cd701596a15623d01476e87097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2f545e578202c9732488540e41f783b68ff0613fd79375f8ba8b3d30958e767789090101010660a0525050505050505050565b5f7f265ddfe127dd51bd7239347b758f0a1320eb2cc7450acc1dad47f80c8dcf34d67f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000160805106017f199750ec472f1809e0f66a545e1e51624108ac845015c2aa3dfc36bab497d8aa7f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000160a05106017f157ff3fe65ac7208110f06a5f74302b14d743ea25067f0ffd032f787c7f1cdf87f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000160c05106017f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000183840993507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001837f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018687090992507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000182830993507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001827f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018687090991507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000181820993507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001817f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018687090990507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f1d359d245f286c12d50d663bae733f978af08cdbd63017c57b3a75646ff382c183097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f023db68784e3f0cc0b85618826a9b3505129c16479973b0a84a4529e66b09c6285097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f277686494f7644bbc4a9b194e10724eb967f1dc58718e59e3cedc821b2a7ae1987097f211184aac7468125da9b5527788aed6331caa8335774fe66f16acc6c66c456d7010101065f527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f0d745fd00dd167fb86772133640f02ce945004a7bc2c59e8790f725c5d84f0af83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f1a5ad71bbbecd8a97dc49cfdbae303ad24d5c4741eab8b7568a9ff8253a1eb6f85097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f083abff5e10051f078e2827d092e1ae808b4dd3e15ccc3706f38ce4157b6770e87097f19764435729b98150ca53b559b7b1bdd91692d645e831f4a30d30d510792687a010101066020527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f03f3e6fab791f16628168e4b14dbaeb657035ee3da6b2ca83f0c2491e0b403eb83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f0fa86f0f27e4d3dd7f3367ce86f684f1f2e4386d3e5b9f38fa283c6aa723b60885097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f2e18c8570d20bf5df800739a53da75d906ece318cd224ab6b3a2be979e2d7eab87097f21f642c132b82c867835f1753eecedd4679085e8c78f6a0ae4a8cd81e9834bdf010101066080527f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807ec15fc3a1d5733dd835eae0823e377f8ba4a8b627627cc2bb661c25d20fb52a83097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f014fcd5eb0be6d5beeafc4944034cf321c068ef930f10be2207ed58d2a34cdd685097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f23810bf82877fc19bff7eefeae3faf4bb8104c32ba4cd701596a15623d01476e87097f26bc2b5c607af61196105d955bd3d9b2cf795edcf9e39d1e508c542ca85d6be30101010660a0525050506112067f13da07dc64d428369873e97160234641f8beb56fdd05e5f3563fa39d9c22df4e7f251ad47cb15c4f1105f109ae5e944f1ba9d9e7806d667ffec6fe723002e0b9967f0e35fb89981890520d4aef2b6d6506c3cb2f0b6973c24fa82731345ffa2d1f1e7f2e49c43c4569dd9c5fd35ac45fca33f10b15c590692f8beefe18f4896ac9490261054c565b6112927f04dba94a7b0ce9e221acad41472b6bbe3aec507f5eb3d33f463672264c9f789b7f0ed69e5e383a688f209d9a561daa79612f3f78d0467ad45485df07093f3675497f011f16b1c63a854f01992e3956f42d8b04eb650c6d535eb0203dec74befdca067f0c009b84e650e6d23dc00c7dccef7483a553939689d350cd46e7b89055fd473861054c565b61131e7f0a1ca941f057037526ea200f489be8d4c37c85bbcce6a2aeec91bd69414324477f28bf7459c9b2f4c6d8e7d06a4ee3a47f7745d4271038e5157a32fdf7ede0d6a17f259a666f129eea198f8a1c502fdb38fa39b1f075569564b6e54a485d1182323f7f0a3f2637d840f3a16eb094271c9d237b6036757d4bb50bf7ce732ff1d4fa28e861054c565b6113aa7f1cb55cad7bd133de18a64c5c47b9c97cbe4d8b7bf9e095864471537e6a4ae2c57f26e1ba52ad9285d97dd3ab52f8e840085e8fa83ff1e8f1877b074867cd2dee757f123106a93cd17578d426e8128ac9d90aa9e8a00708e296e084dd57e69caaf8117f0c6f8f958be0e93053d7fd4fc54512855535ed1539f051dcb43a26fd926361cf610063565b6114367f2539de1785b735999fb4dac35ee17ed0ef995d05ab2fc5faeaa69ae87bcec0a57f2b1e809ac1d10ab29ad5f20d03a57dfebadfe5903f58bafed7c508dd2287ae8c7f011003e32f6d9c66f5852f05474a4def0cda294a0eb4e9b9b12b9bb4512e55747f1dcd73e46acd8f8e0e2c7ce04bde7f6d2a53043d5060a41c7143f08e6e9055d0610063565b6114c27f179190e5d0e22179e46f8282872abc88db6e2fdc0dee99e69768bd98c5d06bfb7f1eae0ad8ab68b2f06a0ee36eeb0d0c058529097d91096b756d8fdc2fb5a60d857f192089c4974f68e95408148f7c0632edbb09e6a6ad1a1c2f3f0305f5d03b527b7f0c246c5a2ef8ee0126497f222b3e0a0ef4e1c3d41c86d46e43982cb11d77951d610063565b61154e7f10ba3a0e01df92e87f301c4b716d8a394d67f4bf42a75c10922910a78f6b5b877f064760623c25c8cf753d238055b444532be13557451c087de09efd454b23fd597f225d394e42207599403efd0c2464a90d52652645882aac35b10e590e6e691e087f29bb9e2c9076732576e9a81c7ac4b83214528f7db00f31bf6cafe794a9b3cd1c610063565b6115da7f2ec93189bd1ab4f69117d0fe980c80ff8785c2961829f701bb74ac1f303b17db7f1d7cb39bafb8c744e148787a2e70230f9d4e917d5713bb050487b5aa7d74070b7f1b94cd61b051b04dd39755ff93821a73ccd6cb11d2491d8aa7f921014de252fb7f0e070bf53f8451b24f9c6e96b0c2a801cb511bc0c242eb9d361b77693f21471c610063565b6116667f20fc411a114d13992c2705aa034e3f315d78608a0f7de4ccf7a72e494855ad0d7f0761d33c66614aaa570e7f1e8244ca1120243f92fa59e4f900c567bf41f5a59b7f062100eb485db06269655cf186a68532985275428450359adc99cec6960711b87f2db366bfdd36d277a692bb825b86275beac404a19ae07a9082ea46bd83517926610063565b6116f27f26c0c8fe09eb30b7e27a74dc33492347e5bdff409aa3610254413d3fad795ce57f22734b4c5c3f9493606c4ba9012499bf0f14d13bfcfcccaa16102a29cc2f69e07f23b1822d278ed632a494e58f6df6f5ed038b186d8474155ad87e7dff62b37f4b7f25b5c004a4bdfcb5add9ec4e9ab219ba102c67e8b3effb5fc3a30f317250bc5a610063565b61177e7f1a306d439d463b0816fc6fd64cc939318b45eb759ddde4aa106d15d9bd9baaaa7f248d97d7f76283d63bec30e7a5876c11c06fca9b275c671c5e33d95bb7e8d7297f12b6595bdb329b6fb043ba78bb28c3bec2c0a6de46d8c5ad6067c4ebfd4250da7f070dd0ccb6bd7bbae88eac03fa1fbb26196be3083a809829bbd626df348ccad9610063565b6118097f2a6cf5e9aa03d4336349ad6fb8ed2269c7bef54b8822cc76d08495c12efde1877f04d5ee4c3aa78f7d80fde60d716480d3593f74d4f653ae83f4103246db2e8d657e94975717f9a8a8bb35152f24d43294071ce320c829f388bc852183e1e2ce7e7f28a8f8372e3c38daced7c00421cb4621f4f1b54ddc27821b0d62d3d6ec7c56cf610063565b6118947f159f81ada0771799ec38fca2d4bf65ebb13d3a74f3298db36272c5ca65e92d9a7eb7258ded52bbda2248404d55ee5044798afc3a209193073f7954d4d63b0b647f03fd9ac865a4b2a6d5e7009785817249bff08a7e0726fcb4e1c11d39d199f0b07f2304d31eaab960ba9274da43e19ddeb7f792180808fd6e43baae48d7efcba3f3610063565b6119207f0832e5753ceb0ff6402543b1109229c165dc2d73bef715e3f1c6e07c168bb1737f2b1b045def3a166cec6ce768d079ba74b18c844e570e1f826575c1068c94c33f7f1e65f838515e5ff0196b49aa41a2d2568df739bc176b08ec95a79ed82932e30d7f1ef90e67437fbc8550237a75bc28e3bb9000130ea25f0c5471e144cf4264431f610063565b6119ac7f22ead100e8e482674decdab17066c5a26bb1515355d5461a3dc06cc85327cea97f0493630b7c670b6deb7c84d414e7ce79049f0ec098c3c7c50768bbe29214a53a7f0e2427d38bd46a60dd640b8e362cad967370ebb777bedff40f6a0be27e7ed7057f02f614e9cedfb3dc6b762ae0a37d41bab1b841c2e8b6451bc5a8e3c390b6ad16610063565b611a387f2f569b8a9a4424c9278e1db7311e889f54ccbf10661bab7fcd18e7c7a7d835057f2fa2a871c15a387cc50f68f6f3c3455b23c00995f05078f672a9864074d412e57f1e32752ada8836ef5837a6cde8ff13dbb599c336349e4c584b4fdc0a0cf6f9d07f25b3e56e655b42cdaae2626ed2554d48583f1ae35626d04de5084e0b6d2a6f16610063565b611ac47f0ef915f0ac120b876abccceb344a1d36bad3f3c5ab91a8ddcbec2e060d8befac7f02fcca2934e046bc623adead873579865d03781ae090ad4a8579d2e7a68003557f227808de93906d5d420246157f2e42b191fe8c90adfe118178ddc723a53190257f044cb455110a8fdd531ade530234c518a7df93f7332ffd2144165374b246b43d610063565b611b507f25721c4fc15a3f2853b57c338fa538d85f8fbba6c6b9c6090611889b797b9c5f7f1fffb9ec1992d66ba1e77a7b93209af6f8fa76d48acb664796174b5326a31a5c7f0a76225dc04170ae3306c85abab59e608c7f497c20156d4d36c668555decc6e57f1797130f4b7a3e1777eb757bc6f287f6ab0fb85f6be63b09f3b16ef2b1405d38610063565b611bdc7f21ca859468a746b6aaa79474a37dab49f1ca5a28c748bc7157e1b3345bb0f9597f2106feea546224ea12ef7f39987a46c85c1bc3dc29bdbd7a92cd60acb4d391ce7f13abe3f5239915d39f7e13c2c24970b6df8cf86ce00a22002bc15866e52b5a967f0c817fd42d5f7a41215e3d07ba197216adb4c3790705da95eb63b982bfcaf75a610063565b611c687f09d3dca9173ed2faceea125157683d18924cadad3f655a60b72f5864961f14557f0558531a4e25470c6157794ca36d0e9647dbfcfe350d64838f5b1a8a2de0d4bf7f0f0e34a64b70a626e464d846674c4c8816c4fb267fe44fe6ea28678cb09490a47f05ccd6255c1e6f0c5cf1f0df934194c62911d14d0321662a8f1a48999e34185b610063565b611cf47f176563472456aaa746b694c60e1823611ef39039b2edc7ff391e6f2293d2c4047f1daf345a58006b736499c583cb76c316d6f78ed6a6dffc82111e11a63fe412df7f2bf07216e2aff0a223a487b1a7094e07e79e7bcc9798c648ee3347dd5329d34b7f0328cbd54e8c0913493f866ed03d218bf23f92d68aaec48617d4c722e5bd4335610063565b611d807f2debff156e276bb5742c3373f2635b48b8e923d301f372f8e550cfd4034212c77f14bce3549cc3db7428126b4c3a15ae0ff8148c89f13fb35d35734eb5d4ad0def7f226c9b1af95babcf17b2b1f57c7310179c1803dec5ae8f0a1779ed36c817ae2a7f2ef1e0fad9f08e87a3bb5e47d7e33538ca964d2b7d1083d4fb0225035bd3f8db610063565b611e0c7f0b61811a9210be78b05974587486d58bddc8f51bfdfebbb87afe8b7aa7d3199c7f03152169d4f3d06ec33a79bfac91a02c99aa0200db66d5aa7b835265f9c9c8f37f0c225b7bcd04bf9c34b911262fdc9c1b91bf79a10c0184d89c317c53d7161c297f2d4083cf5a87f5b6fc2395b22e356b6441afe1b6b29c47add7d0432d1d4760c7610063565b611e977e780af2ca1cad6465a2171250fdfc32d6fc241d3214177f3d553ef3631821857f0376b4fae08cb03d3500afec1a1f56acb8e0fde75a2106d7002f59c5611d4daa7f1a44bf0937c722d1376672b69f6c9655ba7ee386fda1112c0757143d1bfa91467f203e000cad298daaf7eba6a5c5921878b8ae48acf7048f16046d637a533b6f78610063565b611f227f222c01175718386f2e2e82eb122789e352e105a3b8fa852613bc534433ee428c7e544b8338791518b2c7645a50392798b21f75bb60e3596170067d00141cac167f10dc6e9c006ea38b04b1e03b4bd9490c0d03f98929ca1d7fb56821fd19d3b6e87f10774d9ab80c25bdeb808bedfd72a8d9b75dbe18d5221c87e9d857079bdc31d5610063565b611fae7f04a533f236c422d1ff900a368949b0022c7a2ae092f308d82b1dcbbf51f5000d7f06041bdac48205ac87adb87c20a478a71c9950c12a80bc0a55a8e83eaaf047467f062752f86eebe11a009c937e468c335b04554574c2990196508e01fa5860186b7f2840d045e9bc22b259cfb8811b1e0f45b77f7bdb7f7e2b46151a1430f608e3c5610063565b61203a7f14abdec8db9c6dc970291ee638690209b65080781ef9fd13d84c7a726b5f13647f0b0d219346b8574525b1a270e0b4cba5d56c928e3e2c2bd0a1ecaed015aaf6ae7f011c2683ae91eb4dfbc13d6357e8599a9279d1648ff2c95d2f79905bb13920f17f13e31d7a67232fd811d6a955b3d4f25dfe066d1e7dc33df04bde50a2b2d05b2a610063565b6120c67f2567a658a81ffb444f240088fa5524c69a9e53eeab6b7f8c41c3479dcf8c644a7f16eb59494a9776cf57866214dbd1473f3f0738a325638d8ba36535e011d582597f278543721f96d1307b6943f9804e7fe56401deb2ef99c4d12704882e7278b6077f1a0b70b4b26fdc28fcd32aa3d266478801eb12202ef47ced988d0376610be106610063565b6121527f02db50480a07be0eb2c2e13ed6ef4074c0182d9b668b8e08ffe67692500420257f16bd7d22ff858e5e0882c2c999558d77e7673ad5f1915f9feb679a8115f014cf7f15c091233e60efe0d4bbfce2b36415006a4f017f9a85388ce206b91f99f2c9847f29aa1d7c151e9ad0a7ab39f1abd9cf77ab78e0215a5715a6b882ade840bb13d8610063565b6121de7f1498a307e68900065f5e8276f62aef1c37414b84494e1577ad1a6d64341b78ec7f0184bef721888187f645b6fee3667f3c91da214414d89ba5cd301f22b0de89907f1dda05ebc30170bc98cbf2a5ee3b50e8b5f70bc424d39fa4104d37f1cbcf7a427f05e4a220e6a3bc9f7b6806ec9d6cdba186330ef2bf7adb4c13ba866343b73119610063565b61226a7f0f53dafd535a9f4473dc266b6fccc6841bbd336963f254c152f89e785f729bbf7f2f77d77786d979b23ba4ce4a4c1b3bd0a41132cd467a86ab29b913b6cf3149d07f09d317cc670251943f6f5862a30d2ea9e83056ce4907bfbbcb1ff31ce5bb96507f25f40f82b31dacc4f4939800b9d2c3eacef737b8fab1f864fe33548ad46bd49d610063565b6122f67f24a6073f91addc33a49a1fa306df008801c5ec569609034d2fc50f7f0f4d00567f1ce1580a3452ecf302878c8976b82be96676dd114d1dc8d25527405762f835297f2a902c8980c17faae368d385d52d16be41af95c84eaea3cf893e65d6ce4a8f627f25c1fd72e223045265c3a099e17526fa0e6976e1c00baf16de96de85deef2fa2610063565b6123827f2754114281286546b75f09f115fc751b4778303d0405c1b4cc7df0d8e9f639257f06342da370cc0d8c49b77594f6b027c480615d50be36243a99591bc9924ed6f57f23dffae3c423fa7a93468dbccfb029855974be4d0a7b29946796e5b6cd70f15d7f25e52dbd6124530d9fc27fe306d71d4583e07ca554b5d1577f256c68b0be2b74610063565b61240e7f17662f7456789739f81cd3974827a887d92a5e05bdf3fe6b9fbccca4524aaebd7f13ccf689d67a3ec9f22cb7cd0ac3a327d377ac5cd0146f048debfd098d3ec7be7f265fe062766d08fab4c78d0d9ef3cabe366f3be0a821061679b4b3d2d77d5f3e7f15c19e8534c5c1a8862c2bc1d119eddeabf214153833d7bdb59ee197f8187cf5610063565b61249a7f2ddb2e376f54d64a563840480df993feb4173203c2bd94ad0e602077aef9a03e7f2bc07ea2bfad68e8dc724f5fef2b37c2d34f761935ffd3b739ceec4668f37e887f18137478382aadba441eb97fe27901989c06738165215319939eb17b01fa975c7f21b29c76329b31c8ef18631e515f7f2f82ca6a5cca70cee4e809fd624be7ad5d610063565b6125267f11fe5b18fbbea1a86e06930cb89f7d4a26e186a65945e96574247fddb720f8f57f0b8442bfe9e4a1b4428673b6bd3eea6f9f445697058f134aae908d0279a29f0c7f0d4de47e1aba34269d0c620904f01a56b33fc4b450c0db50bb7f87734c9a1fe57f277eb50f2baa706106b41cb24c602609e8a20f8d72f613708adb25373596c3f7610063565b6125b27f30185c48b7b2f1d53d4120801b047d087493bce64d4d24aedce2f4836bb84ad47f221b63d66f0b45f9d40c54053a28a06b1d0a4ce41d364797a1a7e0c96529f4217f0b2ca6a999fe6887e0704dad58d03465a96bc9e37d1091f61bc9f9c62bbeb8247f224026f6dfaf71e24d25d8f6d9f90021df5b774dcad4d883170e4ad89c33a0d6610063565b61263e7f1444e8f592bdbfd8025d91ab4982dd425f51682d31472b05e81c43c0f9434b317f0977545836866fa204ca1d853ec0909e3d140770c80ac67dc930c69748d5d4bc7f2716683b32c755fd1bf8235ea162b1f388e1e0090d06162e8e6dfbe4328f3e3b7f23f5d372a3f0e3cba989e223056227d3533356f0faa48f27f8267318632a61f0610063565b6126ca7f1db1db8aa45283f31168fa66694cf2808d2189b87c8c8143d56c871907b39b877f174b54d9907d8f5c6afd672a738f42737ec338f3a0964c629f7474dd44c5c8d77f22a5c2fa860d11fe34ee47a5cd9f869800f48f4febe29ad6df69816fb1a914d27f26e04b65e9ca8270beb74a1c5cb8fee8be3ffbfe583f7012a00f874e7718fbe3610063565b6127567f2b30d53ed1759bfb8503da66c92cf4077abe82795dc272b377df57d77c8755267f29c25a22fe2164604552aaea377f448d587ab977fc8227787bd2dc0f36bcf41e7f0b73f613993229f59f01c1cec8760e9936ead9edc8f2814889330a2f2bade4577f1530bf0f46527e889030b8c7b7dfde126f65faf8cce0ab66387341d813d1bfd1610063565b6127e27f0a99b3e178db2e2e432f5cd5bef8fe4483bf5cbf70ed407c08aae24b830ad7257f1ec9daea860971ecdda8ed4f346fa967ac9bc59278277393c68f09fa03b8b95f7f2520e18300afda3f61a40a0b8837293a55ad01071028d4841ffa9ac7063641137f12f6d703b5702aab7b7b7e69359d53a2756c08c85ede7227cf5f0a2916787cd2610063565b61286e7f1049a6c65ff019f0d28770072798e8b7909432bd0c129813a9f179ba627f7d6a7f2737f8ce1d5a67b349590ddbfbd709ed9af54a2a3f2719d33801c9c17bdd9c9e7f08c9c65a4f955e8952d571b191bb0adb49bd8290963203b35d48aab38f8fc3a37f07cda9e63db6e39f086b89b601c2bbe407ee0abac3c817a1317abad7c5778492610063565b6128fa7f265a5eccd8b92975e33ad9f75bf3426d424a4c6a7794ee3f08c1d100378e545e7f2ec5f2f1928fe932e56c789b8f6bbcb3e8be4057cbd8dbd18a1b352f5cef42ff7f2ff2b6fd22df49d2440b2eaeeefa8c02a6f478cfcf11f1b2a4f7473483885d197f18b4fe968732c462c0ea5a9beb27cecbde8868944fdf64ee60a5122361daeddb610063565b6129867f01a75666f6241f6825d01cc6dcb1622d4886ea583e87299e6aa2fc716fdb6cf57f2c30d5f33bb32c5c22b9979a605bf64d508b705221e6a686330c9625c2afe0b87f094c97d8c194c42e88018004cbbf2bc5fdb51955d8b2d66b76dd98a2dbf604177f2405eaa4c0bde1129d6242bb5ada0e68778e656cfcb366bf20517da1dfd4279c610063565b612a127f2cf4051e6cab48301a8b2e3bca6099d756bbdf485afa1f549d395bbcbd8064617f27aa8d3e25380c0b1b172d79c6f22eee99231ef5dc69d8dc13a4b5095d0287727f154ade9ca36e268dfeb38461425bb0d8c31219d8fa0dfc75ecd21bf69aa0cc747f0a3290e8398113ea4d12ac091e87be7c6d359ab9a66979fcf47bf2e87d382fcb610063565b612a9e7f0dc8a2146110c0b375432902999223d5aa1ef6e78e1e5ebcbc1d9ba41dc1c7377f1b362e72a5f847f84d03fd291c3c471ed1c14a15b221680acf11a3f02e46aa957f298beb64f812d25d8b4d9620347ab02332dc4cef113ae60d17a8d7a4c91f83bc7f301e70f729f3c94b1d3f517ddff9f2015131feab8afa5eebb0843d7f84b23e71610063565b612b2a7f01001cf512ac241d47ebe2239219bc6a173a8bbcb8a5b987b4eac1f533315b6b7f1b5b2946f7c28975f0512ff8e6ca362f8826edd7ea9c29f382ba8a2a0892fd5d7f0a87391fb1cd8cdf6096b64a82f9e95f0fe46f143b702d74545bb314881098ee7f0a48663b34ce5e1c05dc93092cb69778cb21729a72ddc03a08afa1eb922ff279610063565b612bb67f2d9b10c2f2e7ac1afddccffd94a563028bf29b646d020830919f9d5ca1cefe597f19d43ee0c6081c052c9c0df6161eaac1aec356cf435888e79f27f22ff03fa25d7f23c0039a3fab4ad3c2d7cc688164f39e761d5355c05444d99be763a97793a9c47f2fd977c70f645db4f704fa7d7693da727ac093d3fb5f5febc72beb17d8358a32610063565b612c427f0f97ae3033ffa01608aafb26ae13cd393ee0e4ec041ba644a3d3ab546e98c9c87f19d2cc5ca549d1d40cebcd37f3ea54f31161ac3993acf3101d2c2bc30eac1eb07f0abc392fe85eda855820592445094022811ee8676ed6f0c3044dfb54a7c10b357f2457ca6c2f2aa30ec47e4aff5a66f5ce2799283e166fc81cdae2f2b9f83e4267610063565b612cce7f2e47e15ea4a47ff1a6a853aaf3a644ca38d5b085ac1042fdc4a705a7ce089f4d7f0a1bb075aa37ff0cfe6c8531e55e1770eaba808c8fdb6dbf46f8cab58d9ef1af7f240faf28f11499b916f085f73bc4f22eef8344e576f8ad3d1827820366d5e07b7f16dbc78fd28b7fb8260e404cf1d427a7fa15537ea4e168e88a166496e88cfeca610063565b612d5a7f242acd3eb3a2f72baf7c7076dd165adf89f9339c7b971921d9e70863451dd8d17f089cb1b032238f5e4914788e3e3c7ead4fc368020b3ed38221deab1051c377027f18b42d7ffdd2ea4faf235902f057a2740cacccd027233001ed10f96538f0916f7f166e5bf073378348860ca4a9c09d39e1673ab059935f4df35fb14528375772b6610063565b612de67f0529898dc0649907e1d4d5e284b8d1075198c55cad66e8a9bf40f92938e2e9617f1e8e40ac853b7d42f00f2e383982d024f098b9f8fd455953a2fd380c4df7f6b27f17340e71d96f466d61f3058ce092c67d2891fb2bb318613f780c275fe1116c6b7f174fbb104a4ee302bf47f2bd82fce896eac9a068283f326474af860457245c3b610063565b612e717eccf13e0cb6f9d81d52951bea990bd5b6c07c5d98e66ff71db6e74d5b87d1587f292643e3ba2026affcb8c5279313bd51a733c93353e9d9c79cb723136526508e7f12c7553698c4bf6f3ceb250ae00c58c2a9f9291efbde4c8421bef44741752ec67f2162754db0baa030bf7de5bb797364dce8c77aa017ee1d7bf65f21c4d4e5df8f610063565b612efd7f1b8fd9ff39714e075df124f887bf40b383143374fd2080ba0c0a6b6e8fa5b3e87f0f356841b3f556fce5dbe4680457691c2919e2af53008184d03ee1195d72449e7f14c61c836d55d3df742bdf11c60efa186778e3de0f024c0f13fe53f8d8764e1f7f185d1e20e23b0917dd654128cf2f3aaab6723873cb30fc22b0f86c15ab645b4b610063565b612f897f29a3110463a5aae76c3d152875981d0c1daf2dcd65519ef5ca8929851da8c0087f05d797f1ab3647237c14f9d1df032bc9ff9fe1a0ecd377972ce5fd5a0c0146047f2e6c5e898f5547770e5462ad932fcdd2373fc43820ca2b16b0861421e79155c87f0e86a8c2009c140ca3f873924e2aaa14fc3c8ae04e9df0b3e9103418796f6024610063565b6130157f1e6aac1c6d3dd3157956257d3d234ef18c91e82589a78169fbb4a8770977dc2f7f1c793ef0dcc51123654ff26d8d863feeae29e8c572eca912d80c8ae36e40fe9b7f1ed0fb06699ba249b2a30621c05eb12ca29cb91aa082c8bfcce9c522889b47dc7f2974da7bc074322273c3a4b91c05354cdc71640a8bbd1f864b732f8163883314610063565b6130a07f0b0d7e69c651910bbef3e68d417e9fa0fbd57f596c8f29831eff8c0174cdb06d7e6e5979da7e7ef53a825aa6fddc3abfc76f200b3740b8b232ef481f5d06297b7f191033d6d85ceaa6fc7a9a23a6fd9996642d772045ece51335d49306728af96c7f1a20ada7576234eee6273dd6fa98b25ed037748080a47d948fcda33256fb6bf5610063565b61312c7f0136df457c80588dd687fb2f3be18691705b87ec5a4cfdc168d31084256b67dc7f16af29695157aba9b8bbe3afeb245feee5a929d9f928b9b81de6dadc78c32aae7f12c1ea892cc31e0d9af8b796d9645872f7f77442d62fd4c8085b2f150f72472a7f25caf5b0c1b93bc516435ec084e2ecd44ac46dbbb033c5112c4b20a25c9cdf9d610063565b6131b87f13f9b9a41274129479c5e6138c6c8ee36a670e6bc68c7a49642b645807bfc8247f11aeeb527dc8ce44b4d14aaddca3cfe2f77a1e40fc6da97c249830de1edfde547f03d62fbf82fd1d4313f8e650f587ec06816c28b700bdc50f7e232bd9b5ca9b767f1639a28c5b4c81166aea984fba6e71479e07b1efbc74434db95a285060e7b089610063565b6132447f2cf0a09a55ca93af8abd068f06a7287fb08b193b608582a27379ce35da915dec7f2bedb66e1ad5a1d571e16e2953f48731f66463c2eb54a245444d1c0a3a25707e7f1b39a00cbc81e427de4bdec58febe8d8b5971752067a612b39fc46a68c5d4db47f0e4772fa3d75179dc8484cd26c7c1f635ddeeed7a939440c506cae8b7ebcd15b61054c565b6132d07f1aa9d3fe4c644910f76b92b3e13b30d500dae5354e79508c3c49c8aa99e0258b7f2d933ff19217a5545013b12873452bebcc5f9969033f15ec642fb464bd6073687f065610c6f4f92491f423d3071eb83539f7c0d49c1387062e630d7fd283dc33947f2d1bd78fa90e77aa88830cabfef2f8d27d1a512050ba7db0753c8fb863efb38761054c565b61335b7eb4567186bc3f7c62a7b56acf4f76207a1f43c2d30d0fe4a627dcdd9bd790787f0c7c382443c6aa787c8718d86747c7f74693ae25b1e55df13f7c3c1dd735db0f7f2b7d524c5172cbbb15db4e00668a8c449f67a2605d9ec03802e3fa136ad0b8fb7f027ef04869e482b1c748638c59111c6b27095fa773e1aca078cea1f1c8450bdd61054c565b7f1e41fc29b825454fe6d61737fe08b47fb07fe739e4c1e61d0337490883db4fd55f51017f12507cd556b7bbcc72ee6dafc616584421e1af872d8c0e89002ae8d3ba0653b6602051017f13d437083553006bcef312e5e6f52a5d97eb36617ef36fe4d77d3e97f71cb5db608051017f163ec73251f85443687222487dda9a65467d90b22f0b38664686077c6a4486d560a051017f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000184850994507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001847f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018788090993507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000183840994507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001837f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018788090992507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000182830994507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001827f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018788090991507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f000000181820994507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001817f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000018788090990507f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001807f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f1d359d245f286c12d50d663bae733f978af08cdbd63017c57b3a75646ff382c184097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f023db68784e3f0cc0b85618826a9b3505129c16479973b0a84a4529e66b09c6286097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f277686494f7644bbc4a9b194e10724eb967f1dc58718e59e3cedc821b2a7ae1988097f30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f00000017f236d13393ef85cc48a351dd786dd7a1de5e39942296127fd87947223ae5108ad8a0901010106065f5260205ff35b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b5f60608284031215613725575f5ffd5b82601f830112613733575f5ffd5b6040516060810181811067ffffffffffffffff82111715613756576137566136e8565b60405280606084018581111561376a575f5ffd5b845b8181101561378457803583526020928301920161376c565b50919594505050505056",
}

// PoseidonT4 is an auto generated Go binding around an Ethereum contract.
type PoseidonT4 struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *PoseidonT4) GetABI() abi.ABI {
	return c.abi
}

// NewPoseidonT4 creates a new instance of PoseidonT4.
func NewPoseidonT4() *PoseidonT4 {
	parsed, err := PoseidonT4MetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &PoseidonT4{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *PoseidonT4) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x20cf0a37.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hash(uint256[3] ) pure returns(uint256)
func (poseidonT4 *PoseidonT4) PackHash(arg0 [3]*big.Int) []byte {
	enc, err := poseidonT4.abi.Pack("hash", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x20cf0a37.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function hash(uint256[3] ) pure returns(uint256)
func (poseidonT4 *PoseidonT4) TryPackHash(arg0 [3]*big.Int) ([]byte, error) {
	return poseidonT4.abi.Pack("hash", arg0)
}

// UnpackHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x20cf0a37.
//
// Solidity: function hash(uint256[3] ) pure returns(uint256)
func (poseidonT4 *PoseidonT4) UnpackHash(data []byte) (*big.Int, error) {
	out, err := poseidonT4.abi.Unpack("hash", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// ReentrantTokenMetaData contains all meta data concerning the ReentrantToken contract.
var ReentrantTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"vault\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"commitment\",\"type\":\"bytes32\"}],\"name\":\"arm\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reentered\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reentryCommitment\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reentryError\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"target\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "ae767d76e56cc974777b4bd1e5237f8e5f",
	Bin: "0x6080604052348015600e575f5ffd5b506106298061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061009f575f3560e01c806370a0823111610072578063ca6ddc2f11610058578063ca6ddc2f1461013e578063d4b839921461017c578063e55df474146101c1575f5ffd5b806370a082311461010c578063a9059cbb1461012b575f5ffd5b806323b872dd146100a35780633f09775e146100cb57806340c10f19146100e0578063492be422146100f5575b5f5ffd5b6100b66100b13660046104c5565b61021a565b60405190151581526020015b60405180910390f35b6003546100b690640100000000900460ff1681565b6100f36100ee3660046104ff565b6103d3565b005b6100fe60025481565b6040519081526020016100c2565b6100fe61011a366004610527565b5f6020819052908152604090205481565b6100b66101393660046104ff565b610410565b60035461014b9060e01b81565b6040517fffffffff0000000000000000000000000000000000000000000000000000000090911681526020016100c2565b60015461019c9073ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020016100c2565b6100f36101cf3660046104ff565b600180547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff9390931692909217909155600255565b6001545f9073ffffffffffffffffffffffffffffffffffffffff1680156103bd57600180547fffffffffffffffffffffffff0000000000000000000000000000000000000000168155600380547fffffffffffffffffffffffffffffffffffffffffffffffffffffff00ffffffff166401000000001790556002546040517f64fc31b30000000000000000000000000000000000000000000000000000000081523060048201526024810192909252604482015273ffffffffffffffffffffffffffffffffffffffff8216906364fc31b3906064016020604051808303815f875af1925050508015610347575060408051601f3d9081017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe016820190925261034491810190610547565b60015b6103bb573d808015610374576040519150601f19603f3d011682016040523d82523d5f602084013e610379565b606091505b506103838161056a565b600380547fffffffffffffffffffffffffffffffffffffffffffffffffffffffff000000001660e09290921c919091179055506103bd565b505b6103c8858585610426565b506001949350505050565b73ffffffffffffffffffffffffffffffffffffffff82165f9081526020819052604081208054839290610407908490610603565b90915550505050565b5f61041c338484610426565b5060015b92915050565b73ffffffffffffffffffffffffffffffffffffffff83165f908152602081905260408120805483929061045a908490610616565b909155505073ffffffffffffffffffffffffffffffffffffffff82165f9081526020819052604081208054839290610493908490610603565b9091555050505050565b803573ffffffffffffffffffffffffffffffffffffffff811681146104c0575f5ffd5b919050565b5f5f5f606084860312156104d7575f5ffd5b6104e08461049d565b92506104ee6020850161049d565b929592945050506040919091013590565b5f5f60408385031215610510575f5ffd5b6105198361049d565b946020939093013593505050565b5f60208284031215610537575f5ffd5b6105408261049d565b9392505050565b5f60208284031215610557575f5ffd5b815163ffffffff81168114610540575f5ffd5b805160208201517fffffffff000000000000000000000000000000000000000000000000000000008116919060048210156105cf577fffffffff00000000000000000000000000000000000000000000000000000000808360040360031b1b82161692505b5050919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b80820180821115610420576104206105d6565b81810381811115610420576104206105d656",
}

// ReentrantToken is an auto generated Go binding around an Ethereum contract.
type ReentrantToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ReentrantToken) GetABI() abi.ABI {
	return c.abi
}

// NewReentrantToken creates a new instance of ReentrantToken.
func NewReentrantToken() *ReentrantToken {
	parsed, err := ReentrantTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ReentrantToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ReentrantToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackArm is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe55df474.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function arm(address vault, bytes32 commitment) returns()
func (reentrantToken *ReentrantToken) PackArm(vault common.Address, commitment [32]byte) []byte {
	enc, err := reentrantToken.abi.Pack("arm", vault, commitment)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackArm is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe55df474.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function arm(address vault, bytes32 commitment) returns()
func (reentrantToken *ReentrantToken) TryPackArm(vault common.Address, commitment [32]byte) ([]byte, error) {
	return reentrantToken.abi.Pack("arm", vault, commitment)
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (reentrantToken *ReentrantToken) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := reentrantToken.abi.Pack("balanceOf", arg0)
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
func (reentrantToken *ReentrantToken) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return reentrantToken.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (reentrantToken *ReentrantToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := reentrantToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (reentrantToken *ReentrantToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := reentrantToken.abi.Pack("mint", to, amount)
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
func (reentrantToken *ReentrantToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return reentrantToken.abi.Pack("mint", to, amount)
}

// PackReentered is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f09775e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reentered() view returns(bool)
func (reentrantToken *ReentrantToken) PackReentered() []byte {
	enc, err := reentrantToken.abi.Pack("reentered")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReentered is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f09775e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reentered() view returns(bool)
func (reentrantToken *ReentrantToken) TryPackReentered() ([]byte, error) {
	return reentrantToken.abi.Pack("reentered")
}

// UnpackReentered is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3f09775e.
//
// Solidity: function reentered() view returns(bool)
func (reentrantToken *ReentrantToken) UnpackReentered(data []byte) (bool, error) {
	out, err := reentrantToken.abi.Unpack("reentered", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackReentryCommitment is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x492be422.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reentryCommitment() view returns(bytes32)
func (reentrantToken *ReentrantToken) PackReentryCommitment() []byte {
	enc, err := reentrantToken.abi.Pack("reentryCommitment")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReentryCommitment is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x492be422.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reentryCommitment() view returns(bytes32)
func (reentrantToken *ReentrantToken) TryPackReentryCommitment() ([]byte, error) {
	return reentrantToken.abi.Pack("reentryCommitment")
}

// UnpackReentryCommitment is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x492be422.
//
// Solidity: function reentryCommitment() view returns(bytes32)
func (reentrantToken *ReentrantToken) UnpackReentryCommitment(data []byte) ([32]byte, error) {
	out, err := reentrantToken.abi.Unpack("reentryCommitment", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackReentryError is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xca6ddc2f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reentryError() view returns(bytes4)
func (reentrantToken *ReentrantToken) PackReentryError() []byte {
	enc, err := reentrantToken.abi.Pack("reentryError")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReentryError is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xca6ddc2f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reentryError() view returns(bytes4)
func (reentrantToken *ReentrantToken) TryPackReentryError() ([]byte, error) {
	return reentrantToken.abi.Pack("reentryError")
}

// UnpackReentryError is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xca6ddc2f.
//
// Solidity: function reentryError() view returns(bytes4)
func (reentrantToken *ReentrantToken) UnpackReentryError(data []byte) ([4]byte, error) {
	out, err := reentrantToken.abi.Unpack("reentryError", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackTarget is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd4b83992.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function target() view returns(address)
func (reentrantToken *ReentrantToken) PackTarget() []byte {
	enc, err := reentrantToken.abi.Pack("target")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTarget is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd4b83992.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function target() view returns(address)
func (reentrantToken *ReentrantToken) TryPackTarget() ([]byte, error) {
	return reentrantToken.abi.Pack("target")
}

// UnpackTarget is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd4b83992.
//
// Solidity: function target() view returns(address)
func (reentrantToken *ReentrantToken) UnpackTarget(data []byte) (common.Address, error) {
	out, err := reentrantToken.abi.Unpack("target", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (reentrantToken *ReentrantToken) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := reentrantToken.abi.Pack("transfer", to, amount)
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
func (reentrantToken *ReentrantToken) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return reentrantToken.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (reentrantToken *ReentrantToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := reentrantToken.abi.Unpack("transfer", data)
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
func (reentrantToken *ReentrantToken) PackTransferFrom(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := reentrantToken.abi.Pack("transferFrom", from, to, amount)
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
func (reentrantToken *ReentrantToken) TryPackTransferFrom(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return reentrantToken.abi.Pack("transferFrom", from, to, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (reentrantToken *ReentrantToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := reentrantToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// TokenFactoryMetaData contains all meta data concerning the TokenFactory contract.
var TokenFactoryMetaData = bind.MetaData{
	ABI: "[{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"indexed\":false,\"internalType\":\"string\",\"name\":\"symbol\",\"type\":\"string\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"decimals\",\"type\":\"uint8\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"minter\",\"type\":\"address\"}],\"name\":\"TokenCreated\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol\",\"type\":\"string\"},{\"internalType\":\"uint8\",\"name\":\"decimals\",\"type\":\"uint8\"}],\"name\":\"createToken\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"tokenCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"tokens\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "41d25a2a89d8a90b39711bcb2b7f15d947",
	Bin: "0x6080604052348015600e575f5ffd5b50610f8f8061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80634f64b2be146100435780639f181b5e14610080578063e8a0aed314610090575b5f5ffd5b6100566100513660046101dd565b6100a3565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020015b60405180910390f35b5f54604051908152602001610077565b61005661009e366004610239565b6100d7565b5f81815481106100b1575f80fd5b5f9182526020909120015473ffffffffffffffffffffffffffffffffffffffff16905081565b5f8585858585336040516100ea906101d0565b6100f996959493929190610308565b604051809103905ff080158015610112573d5f5f3e3d5ffd5b505f80546001810182559080527f290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e5630180547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff831690811790915560405191925033917f8fb1ffd0ab3f6379154037519ff749b01e1fa060a331f5394175f393c3db596b906101bf908a908a908a908a908a90610361565b60405180910390a395945050505050565b610bf18061039e83390190565b5f602082840312156101ed575f5ffd5b5035919050565b5f5f83601f840112610204575f5ffd5b50813567ffffffffffffffff81111561021b575f5ffd5b602083019150836020828501011115610232575f5ffd5b9250929050565b5f5f5f5f5f6060868803121561024d575f5ffd5b853567ffffffffffffffff811115610263575f5ffd5b61026f888289016101f4565b909650945050602086013567ffffffffffffffff81111561028e575f5ffd5b61029a888289016101f4565b909450925050604086013560ff811681146102b3575f5ffd5b809150509295509295909350565b81835281816020850137505f602082840101525f60207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f840116840101905092915050565b608081525f61031b60808301888a6102c1565b828103602084015261032e8187896102c1565b91505060ff8416604083015273ffffffffffffffffffffffffffffffffffffffff83166060830152979650505050505050565b606081525f6103746060830187896102c1565b82810360208401526103878186886102c1565b91505060ff83166040830152969550505050505056fe60c060405234801561000f575f5ffd5b50604051610bf1380380610bf183398101604081905261002e91610100565b5f6100398582610229565b5060016100468482610229565b5060ff9091166080526001600160a01b031660a052506102e79050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610086575f5ffd5b81516001600160401b0381111561009f5761009f610063565b604051601f8201601f19908116603f011681016001600160401b03811182821017156100cd576100cd610063565b6040528181528382016020018510156100e4575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f5f5f60808587031215610113575f5ffd5b84516001600160401b03811115610128575f5ffd5b61013487828801610077565b602087015190955090506001600160401b03811115610151575f5ffd5b61015d87828801610077565b935050604085015160ff81168114610173575f5ffd5b60608601519092506001600160a01b038116811461018f575f5ffd5b939692955090935050565b600181811c908216806101ae57607f821691505b6020821081036101cc57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f821115610224578282111561022457805f5260205f20601f840160051c60208510156101fd57505f5b90810190601f840160051c035f5b81811015610220575f8382015560010161020b565b5050505b505050565b81516001600160401b0381111561024257610242610063565b61025681610250845461019a565b846101d2565b6020601f821160018114610288575f83156102715750848201515b5f19600385901b1c1916600184901b1784556102e0565b5f84815260208120601f198516915b828110156102b75787850151825560209485019460019092019101610297565b50848210156102d457868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b60805160a0516108e361030e5f395f818160eb015261043e01525f61018401526108e35ff3fe608060405234801561000f575f5ffd5b50600436106100c4575f3560e01c8063313ce5671161007d57806395d89b411161005857806395d89b41146101ec578063a9059cbb146101f4578063dd62ed3e14610207575f5ffd5b8063313ce5671461017f57806340c10f19146101b857806370a08231146101cd575f5ffd5b8063095ea7b3116100ad578063095ea7b31461013257806318160ddd1461015557806323b872dd1461016c575f5ffd5b806306fdde03146100c857806307546172146100e6575b5f5ffd5b6100d0610231565b6040516100dd9190610711565b60405180910390f35b61010d7f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020016100dd565b61014561014036600461078c565b6102bc565b60405190151581526020016100dd565b61015e60025481565b6040519081526020016100dd565b61014561017a3660046107b4565b610335565b6101a67f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff90911681526020016100dd565b6101cb6101c636600461078c565b610426565b005b61015e6101db3660046107ee565b60036020525f908152604090205481565b6100d0610582565b61014561020236600461078c565b61058f565b61015e61021536600461080e565b600460209081525f928352604080842090915290825290205481565b5f805461023d9061083f565b80601f01602080910402602001604051908101604052809291908181526020018280546102699061083f565b80156102b45780601f1061028b576101008083540402835291602001916102b4565b820191905f5260205f20905b81548152906001019060200180831161029757829003601f168201915b505050505081565b335f81815260046020908152604080832073ffffffffffffffffffffffffffffffffffffffff8716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906103239086815260200190565b60405180910390a35060015b92915050565b73ffffffffffffffffffffffffffffffffffffffff83165f9081526004602090815260408083203384529091528120547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff811461041057828110156103d5576040517f2a1b2dd800000000000000000000000000000000000000000000000000000000815260048101829052602481018490526044015b60405180910390fd5b6103df83826108bd565b73ffffffffffffffffffffffffffffffffffffffff86165f9081526004602090815260408083203384529091529020555b61041b8585856105a4565b506001949350505050565b3373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614610495576040517ff8d2906c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82166104e2576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b8060025f8282546104f391906108d0565b909155505073ffffffffffffffffffffffffffffffffffffffff82165f908152600360205260408120805483929061052c9084906108d0565b909155505060405181815273ffffffffffffffffffffffffffffffffffffffff8316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b6001805461023d9061083f565b5f61059b3384846105a4565b50600192915050565b73ffffffffffffffffffffffffffffffffffffffff82166105f1576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff83165f908152600360205260409020548181101561065a576040517fcf47918100000000000000000000000000000000000000000000000000000000815260048101829052602481018390526044016103cc565b73ffffffffffffffffffffffffffffffffffffffff8085165f9081526003602052604080822085850390559185168152908120805484929061069d9084906108d0565b925050819055508273ffffffffffffffffffffffffffffffffffffffff168473ffffffffffffffffffffffffffffffffffffffff167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8460405161070391815260200190565b60405180910390a350505050565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505092915050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610787575f5ffd5b919050565b5f5f6040838503121561079d575f5ffd5b6107a683610764565b946020939093013593505050565b5f5f5f606084860312156107c6575f5ffd5b6107cf84610764565b92506107dd60208501610764565b929592945050506040919091013590565b5f602082840312156107fe575f5ffd5b61080782610764565b9392505050565b5f5f6040838503121561081f575f5ffd5b61082883610764565b915061083660208401610764565b90509250929050565b600181811c9082168061085357607f821691505b60208210810361088a577f4e487b71000000000000000000000000000000000000000000000000000000005f52602260045260245ffd5b50919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b8181038181111561032f5761032f610890565b8082018082111561032f5761032f61089056",
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
	Bin: "0x60c060405234801561000f575f5ffd5b50604051610bf1380380610bf183398101604081905261002e91610100565b5f6100398582610229565b5060016100468482610229565b5060ff9091166080526001600160a01b031660a052506102e79050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610086575f5ffd5b81516001600160401b0381111561009f5761009f610063565b604051601f8201601f19908116603f011681016001600160401b03811182821017156100cd576100cd610063565b6040528181528382016020018510156100e4575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f5f5f60808587031215610113575f5ffd5b84516001600160401b03811115610128575f5ffd5b61013487828801610077565b602087015190955090506001600160401b03811115610151575f5ffd5b61015d87828801610077565b935050604085015160ff81168114610173575f5ffd5b60608601519092506001600160a01b038116811461018f575f5ffd5b939692955090935050565b600181811c908216806101ae57607f821691505b6020821081036101cc57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f821115610224578282111561022457805f5260205f20601f840160051c60208510156101fd57505f5b90810190601f840160051c035f5b81811015610220575f8382015560010161020b565b5050505b505050565b81516001600160401b0381111561024257610242610063565b61025681610250845461019a565b846101d2565b6020601f821160018114610288575f83156102715750848201515b5f19600385901b1c1916600184901b1784556102e0565b5f84815260208120601f198516915b828110156102b75787850151825560209485019460019092019101610297565b50848210156102d457868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b60805160a0516108e361030e5f395f818160eb015261043e01525f61018401526108e35ff3fe608060405234801561000f575f5ffd5b50600436106100c4575f3560e01c8063313ce5671161007d57806395d89b411161005857806395d89b41146101ec578063a9059cbb146101f4578063dd62ed3e14610207575f5ffd5b8063313ce5671461017f57806340c10f19146101b857806370a08231146101cd575f5ffd5b8063095ea7b3116100ad578063095ea7b31461013257806318160ddd1461015557806323b872dd1461016c575f5ffd5b806306fdde03146100c857806307546172146100e6575b5f5ffd5b6100d0610231565b6040516100dd9190610711565b60405180910390f35b61010d7f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020016100dd565b61014561014036600461078c565b6102bc565b60405190151581526020016100dd565b61015e60025481565b6040519081526020016100dd565b61014561017a3660046107b4565b610335565b6101a67f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff90911681526020016100dd565b6101cb6101c636600461078c565b610426565b005b61015e6101db3660046107ee565b60036020525f908152604090205481565b6100d0610582565b61014561020236600461078c565b61058f565b61015e61021536600461080e565b600460209081525f928352604080842090915290825290205481565b5f805461023d9061083f565b80601f01602080910402602001604051908101604052809291908181526020018280546102699061083f565b80156102b45780601f1061028b576101008083540402835291602001916102b4565b820191905f5260205f20905b81548152906001019060200180831161029757829003601f168201915b505050505081565b335f81815260046020908152604080832073ffffffffffffffffffffffffffffffffffffffff8716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906103239086815260200190565b60405180910390a35060015b92915050565b73ffffffffffffffffffffffffffffffffffffffff83165f9081526004602090815260408083203384529091528120547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff811461041057828110156103d5576040517f2a1b2dd800000000000000000000000000000000000000000000000000000000815260048101829052602481018490526044015b60405180910390fd5b6103df83826108bd565b73ffffffffffffffffffffffffffffffffffffffff86165f9081526004602090815260408083203384529091529020555b61041b8585856105a4565b506001949350505050565b3373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614610495576040517ff8d2906c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82166104e2576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b8060025f8282546104f391906108d0565b909155505073ffffffffffffffffffffffffffffffffffffffff82165f908152600360205260408120805483929061052c9084906108d0565b909155505060405181815273ffffffffffffffffffffffffffffffffffffffff8316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b6001805461023d9061083f565b5f61059b3384846105a4565b50600192915050565b73ffffffffffffffffffffffffffffffffffffffff82166105f1576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff83165f908152600360205260409020548181101561065a576040517fcf47918100000000000000000000000000000000000000000000000000000000815260048101829052602481018390526044016103cc565b73ffffffffffffffffffffffffffffffffffffffff8085165f9081526003602052604080822085850390559185168152908120805484929061069d9084906108d0565b925050819055508273ffffffffffffffffffffffffffffffffffffffff168473ffffffffffffffffffffffffffffffffffffffff167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8460405161070391815260200190565b60405180910390a350505050565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505092915050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610787575f5ffd5b919050565b5f5f6040838503121561079d575f5ffd5b6107a683610764565b946020939093013593505050565b5f5f5f606084860312156107c6575f5ffd5b6107cf84610764565b92506107dd60208501610764565b929592945050506040919091013590565b5f602082840312156107fe575f5ffd5b61080782610764565b9392505050565b5f5f6040838503121561081f575f5ffd5b61082883610764565b915061083660208401610764565b90509250929050565b600181811c9082168061085357607f821691505b60208210810361088a577f4e487b71000000000000000000000000000000000000000000000000000000005f52602260045260245ffd5b50919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b8181038181111561032f5761032f610890565b8082018082111561032f5761032f61089056",
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
