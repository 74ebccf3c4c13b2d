package relayer

import (
	"github.com/ethereum/go-ethereum/common"
	"gopkg.in/yaml.v3"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
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

// apiVersion is the relayer's API version, openapi/relayer.yaml's info.version: a client refuses a
// relayer of another major.
var apiVersion = func() string {
	var doc struct {
		Info struct{ Version string } `yaml:"info"`
	}
	if err := yaml.Unmarshal(openapi.RelayerYAML, &doc); err != nil || doc.Info.Version == "" {
		panic("openapi/relayer.yaml has no info.version")
	}
	return doc.Info.Version
}()

// toStatus is GET /status's body: amounts in wei as decimal strings, a time in Unix seconds (0:
// not read yet).
func toStatus(st standing) relayerapi.RelayerStatus {
	out := relayerapi.RelayerStatus{ChainId: int64(st.chainID), Vault: st.vault.Hex(), Version: buildversion.String(), ApiVersion: apiVersion,
		Ready: st.notReady == "", Paused: st.paused, InFlight: st.inFlight, Funding: relayerapi.StatusFunding{Modes: st.modes}}
	if st.notReady != "" {
		out.NotReady = &st.notReady
	}
	if st.operator != nil {
		from := st.operator.Hex()
		out.Operator = &from
	}
	if !st.readAt.IsZero() {
		out.UpdatedAt = st.readAt.Unix()
	}
	if f := st.fees; f != nil {
		fees := &relayerapi.StatusFees{Quote: relayerapi.StatusFeesQuoteQuote, FeeReceiver: f.receiver.Hex(), MarginBps: f.marginBps,
			FeePerGas: "0", Tokens: make([]relayerapi.TokenFee, len(f.tokens))}
		if f.feePerGas != nil {
			fees.FeePerGas = f.feePerGas.String()
		}
		for i, t := range f.tokens {
			fees.Tokens[i] = relayerapi.TokenFee{Token: t.Token.Hex(), Price: t.Price, Whole: t.Whole.String(), Partial: t.Partial.String()}
		}
		out.Funding.Fees = fees
	}
	if rw := st.runway; rw != nil {
		out.Runway = &relayerapi.Runway{Reveals: int64(rw.reveals), Balance: rw.balance.String(), GasPerReveal: int64(rw.gas), FeePerGas: rw.feePerGas.String()}
		if rw.spendReveals != nil {
			n := int64(*rw.spendReveals)
			out.Runway.SpendLimitReveals = &n
		}
	}
	return out
}
