package relayer

import (
	"math"
	"time"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// The kit's values as the relayer's document shapes them: amounts in wei as decimal strings,
// what is unknown left out.

func toPauseState(st pause.State) relayerapi.PauseState {
	return relayerapi.PauseState{Replica: st.Replica, Paused: st.Paused, Since: st.Since}
}

func toWallet(w gate.Wallet) relayerapi.Wallet {
	out := relayerapi.Wallet{Address: w.Address.Hex(), Balance: edge.Decimal(w.Balance), Reserved: w.Reserved.String(),
		MinBalance: w.Min.String(), GateOpen: w.Open,
		Nonce: relayerapi.WalletNonce{Next: int64(w.Nonce.Next), Mined: edge.Int64(w.Nonce.Mined), Pending: edge.Int64(w.Nonce.Pending)}}
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

func toTransactions(ls []txmgr.Listed) []relayerapi.Transaction {
	out := make([]relayerapi.Transaction, len(ls))
	for i, l := range ls {
		t := relayerapi.Transaction{Nonce: int64(l.Nonce), State: relayerapi.TransactionState(l.State), Purpose: l.Purpose,
			Versions: make([]relayerapi.TransactionVersion, len(l.Versions)), MinedHash: edge.Omitted(l.MinedHash),
			BlockNumber: edge.Int64(l.BlockNumber), Reason: edge.Omitted(l.Reason), UpdatedAt: l.UpdatedAt}
		for j, v := range l.Versions {
			t.Versions[j] = relayerapi.TransactionVersion{Hash: v.Hash, MaxFeePerGas: edge.Decimal(v.MaxFeePerGas), MaxPriorityFeePerGas: edge.Decimal(v.MaxPriorityFeePerGas)}
		}
		out[i] = t
	}
	return out
}

func toSponsor(s sponsor) relayerapi.Sponsor {
	out := relayerapi.Sponsor{Id: s.id, Name: s.name, CreatedAt: s.createdAt.UTC(), Revoked: s.revoked(), Credited: s.credited.String(),
		Debited: s.debited.String(), Reserved: s.reserved.String(), Balance: s.balance().String(), Available: s.available().String(),
		RevealsPaid: s.revealsPaid, VoucherSigner: edge.Omitted(signerText(s.signer))}
	if s.revoked() {
		at := s.revokedAt.UTC()
		out.RevokedAt = &at
	}
	return out
}
