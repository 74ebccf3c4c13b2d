package faucet

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/faucet/pow"
)

// The kit's values as the faucet's document shapes them: amounts in wei as decimal strings,
// what is unknown left out.

// toAPI is a claim as the API shows it.
func toAPI(c Claim) faucetapi.Claim {
	out := faucetapi.Claim{Address: c.Address.Hex(), Status: faucetapi.ClaimStatus(c.Status)}
	if c.Status == StatusNone {
		return out
	}
	if c.Amount != nil {
		amount := c.Amount.String()
		out.Amount = &amount
	}
	if h := c.TxHash(); h != (common.Hash{}) {
		hash := h.Hex()
		out.TxHash = &hash
	}
	if c.Status == StatusConfirmed {
		block := int64(c.Block)
		out.BlockNumber = &block
	}
	if c.Reason != "" {
		reason := c.Reason
		out.Reason = &reason
	}
	if !c.CreatedAt.IsZero() {
		created, updated := c.CreatedAt.UTC(), c.UpdatedAt.UTC()
		out.CreatedAt, out.UpdatedAt = &created, &updated
	}
	return out
}

// toChallenge is a proof-of-work challenge as GET /api/faucet/challenge answers it.
func toChallenge(c pow.Challenge) faucetapi.Challenge {
	return faucetapi.Challenge{Challenge: c.Token(), Address: c.Address.Hex(), Salt: hexutil.Encode(c.ID[:]), Algorithm: faucetapi.Argon2id,
		Work: int64(c.Work), MemoryKiB: int32(c.MemoryKiB), Passes: int32(c.Passes), ExpiresAt: c.Expires.UTC()}
}
