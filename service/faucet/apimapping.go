package faucet

import (
	"math"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/faucet/pow"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// The kit's values as the faucet's document shapes them: amounts in wei as decimal strings,
// what is unknown left out.

func toPauseState(st pause.State) faucetapi.PauseState {
	return faucetapi.PauseState{Replica: st.Replica, Paused: st.Paused, Since: st.Since}
}

func toWallet(w gate.Wallet) faucetapi.Wallet {
	out := faucetapi.Wallet{Address: w.Address.Hex(), Balance: edge.Decimal(w.Balance), Reserved: w.Reserved.String(),
		MinBalance: w.Min.String(), GateOpen: w.Open,
		Nonce: faucetapi.WalletNonce{Next: int64(w.Nonce.Next), Mined: edge.Int64(w.Nonce.Mined), Pending: edge.Int64(w.Nonce.Pending)}}
	if w.Budget.Limit != nil {
		window := int64(w.Budget.Window / time.Second)
		out.SpendLimit, out.SpendWindowSeconds, out.Spent = edge.Decimal(w.Budget.Limit), &window, edge.Decimal(w.Spent)
	}
	if !math.IsInf(w.TimeToEmpty, 1) {
		empty := int64(w.TimeToEmpty)
		out.TimeToEmptySeconds = &empty
	}
	return out
}

func toTransactions(ls []txmgr.Listed) []faucetapi.Transaction {
	out := make([]faucetapi.Transaction, len(ls))
	for i, l := range ls {
		t := faucetapi.Transaction{Nonce: int64(l.Nonce), State: faucetapi.TransactionState(l.State), Purpose: l.Purpose,
			Versions: make([]faucetapi.TransactionVersion, len(l.Versions)), MinedHash: edge.Omitted(l.MinedHash),
			BlockNumber: edge.Int64(l.BlockNumber), Reason: edge.Omitted(l.Reason), UpdatedAt: l.UpdatedAt}
		for j, v := range l.Versions {
			t.Versions[j] = faucetapi.TransactionVersion{Hash: v.Hash, MaxFeePerGas: edge.Decimal(v.MaxFeePerGas), MaxPriorityFeePerGas: edge.Decimal(v.MaxPriorityFeePerGas)}
		}
		out[i] = t
	}
	return out
}

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
