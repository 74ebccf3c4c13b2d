package relayer

import (
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/edge"
)

// The kit's values as the relayer's document shapes them: amounts in wei as decimal strings,
// what is unknown left out.

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
