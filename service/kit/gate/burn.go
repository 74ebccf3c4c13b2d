package gate

import (
	"math"
	"math/big"
	"time"
)

// Burn rate: what the wallet spent over the last burnWindow (increases, a funding, are not
// spending), from samples kept at most one per burnStep; no estimate before minSpan of history.
const (
	burnWindow = time.Hour
	burnStep   = 5 * time.Second
	minSpan    = time.Minute
)

// burnRate follows how fast a wallet is spent, to say when it will be empty.
type burnRate struct {
	last    *big.Int   // the previous balance read
	spent   *big.Int   // wei spent since the first read: the sum of every decrease
	samples []burnMark // oldest first, one per burnStep at most, within burnWindow
}

type burnMark struct {
	at    time.Time
	spent *big.Int
}

// observe records a balance read at now and returns the seconds until the wallet is empty at
// the rate it was spent over the window: +Inf while nothing was spent or the history is short.
func (b *burnRate) observe(now time.Time, balance *big.Int) float64 {
	if b.spent == nil {
		b.spent = new(big.Int)
	}
	if b.last != nil && balance.Cmp(b.last) < 0 {
		b.spent.Add(b.spent, new(big.Int).Sub(b.last, balance))
	}
	b.last = new(big.Int).Set(balance)
	if n := len(b.samples); n == 0 || now.Sub(b.samples[n-1].at) >= burnStep {
		b.samples = append(b.samples, burnMark{at: now, spent: new(big.Int).Set(b.spent)})
	} else {
		b.samples[n-1].spent.Set(b.spent) // within the step: the newest mark moves
	}
	i := 0
	for i < len(b.samples)-1 && now.Sub(b.samples[i+1].at) >= burnWindow {
		i++ // keep one mark at or before the window's start
	}
	b.samples = b.samples[i:]
	first := b.samples[0]
	span := now.Sub(first.at)
	spent := new(big.Int).Sub(b.spent, first.spent)
	if span < minSpan || spent.Sign() == 0 {
		return math.Inf(1)
	}
	perSecond, _ := new(big.Rat).SetFrac(spent, big.NewInt(int64(span/time.Millisecond))).Float64()
	perSecond *= 1000
	left, _ := new(big.Rat).SetInt(balance).Float64()
	return left / perSecond
}
