package registry

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/erc20"
)

// Error codes of the registry beyond the edge's.
const (
	CodeTokenNotFound  = "TOKEN_NOT_FOUND"
	CodeNotAContract   = "NOT_A_CONTRACT"
	CodeNotAToken      = "NOT_A_TOKEN"
	CodeIconDimensions = "ICON_DIMENSIONS"
	CodeTokenListEmpty = "TOKEN_LIST_EMPTY"
)

// readMetadata reads a token's name, symbol and decimals from the chain (erc20.Read): NOT_A_CONTRACT
// when there is no code, NOT_A_TOKEN when the contract does not answer as an ERC20 does, and
// CHAIN_UNAVAILABLE when the node cannot be reached.
func readMetadata(ctx context.Context, c *chain.Client, addr common.Address) (erc20.Metadata, error) {
	md, err := erc20.Read(ctx, c, addr)
	var notToken *erc20.NotTokenError
	switch {
	case errors.As(err, &notToken) && notToken.Missing == "":
		return md, refuse(NotAContract, "%s", notToken.Error())
	case errors.As(err, &notToken):
		return md, refuse(NotAToken, "%s", notToken.Error())
	case err != nil:
		return md, &TokenError{Reason: ChainUnavailable, Message: "the chain is unavailable, try again later", Cause: err}
	}
	return md, nil
}
