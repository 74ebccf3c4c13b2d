package relayer

// SetLearnedGasLimit sets the gas limit the relayer has learned for reveals without change, as
// if an earlier estimate had given it (tests only).
func (s *Service) SetLearnedGasLimit(limit uint64) {
	s.Relayer.gas.mu.Lock()
	defer s.Relayer.gas.mu.Unlock()
	s.Relayer.gas.max = limit
}

// LearnedGasLimit is the learned limit now (tests only).
func (s *Service) LearnedGasLimit() uint64 { return s.Relayer.gas.limit() }
