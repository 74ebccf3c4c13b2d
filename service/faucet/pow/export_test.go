package pow

import "time"

// SetClock replaces the issuer's clock, so the tests can let a challenge expire.
func (i *Issuer) SetClock(now func() time.Time) { i.now = now }
