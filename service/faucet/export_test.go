package faucet

// HoldChecks takes every slot of s's proof-of-work checks, as checks under way would, until
// release: a claim then waits its turn and is refused busy.
func HoldChecks(s *Service) (release func()) {
	c := s.Faucet.powChecks
	for range cap(c.slots) {
		c.slots <- struct{}{}
	}
	return func() {
		for range cap(c.slots) {
			<-c.slots
		}
	}
}
