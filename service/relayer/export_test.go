package relayer

import (
	"context"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
)

// SetLearnedGasLimit sets the gas limit the relayer has learned for reveals without change, as
// if an earlier estimate had given it (tests only).
func (s *Service) SetLearnedGasLimit(limit uint64) {
	s.Relayer.gas.mu.Lock()
	defer s.Relayer.gas.mu.Unlock()
	s.Relayer.gas.max = limit
}

// LearnedGasLimit is the learned limit now (tests only).
func (s *Service) LearnedGasLimit() uint64 { return s.Relayer.gas.limit() }

// Reveal runs a reveal request as POST /reveal hands it to the relayer, under the document's
// validation (tests only).
func (s *Service) Reveal(ctx context.Context, req relayerapi.RevealRequest) (relayerapi.RevealResult, error) {
	return s.Relayer.revealWire(ctx, req)
}
