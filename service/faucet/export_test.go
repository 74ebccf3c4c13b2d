package faucet

import "context"

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

// Reconcile runs one reconciliation pass of s's faucet, as its reconciler does, and returns how
// many claims it left undecided.
func Reconcile(s *Service) (undecided int) { return s.Faucet.reconcile(context.Background()) }
