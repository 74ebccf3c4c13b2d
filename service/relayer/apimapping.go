package relayer

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// The kit's values as the relayer's document shapes them: amounts in wei as decimal strings,
// what is unknown left out.

func toSponsor(s funding.Account) relayerapi.Sponsor {
	out := relayerapi.Sponsor{Id: s.ID, Name: s.Name, CreatedAt: s.CreatedAt.UTC(), Revoked: s.Revoked(), Credited: s.Credited.String(),
		Debited: s.Debited.String(), Reserved: s.Reserved.String(), Balance: s.Balance().String(), Available: s.Available().String(),
		RevealsPaid: s.RevealsPaid}
	if s.Signer != (common.Address{}) {
		signer := s.Signer.Hex()
		out.VoucherSigner = &signer
	}
	if s.Revoked() {
		at := s.RevokedAt.UTC()
		out.RevokedAt = &at
	}
	return out
}
