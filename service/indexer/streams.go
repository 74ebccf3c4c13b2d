package indexer

import (
	"fmt"
	"sync"
	"time"
)

// streamSlots caps the event streams open at once: per client (its ratelimit.ClientKey) and in
// all, so that one address cannot hold every connection (300 streams from one address were all
// accepted) and the total stays within what the store's readers serve.
type streamSlots struct {
	perClient, total int
	metrics          *metrics

	mu     sync.Mutex
	open   map[string]int
	opened int
}

func newStreamSlots(perClient, total int, m *metrics) *streamSlots {
	return &streamSlots{perClient: perClient, total: total, metrics: m, open: map[string]int{}}
}

// take holds a slot for client until release, or answers 429 (the client's slots are taken) or
// 503 (every slot is).
func (s *streamSlots) take(client string) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.open[client] >= s.perClient:
		s.metrics.rateLimited.WithLabelValues("streams_per_ip").Inc()
		return nil, &QueryError{Reason: StreamsPerClient, Retry: 5 * time.Second,
			Message: fmt.Sprintf("this client IP has %d streams open, as many as it may (STREAMS_PER_IP); close one first", s.perClient)}
	case s.opened >= s.total:
		s.metrics.rateLimited.WithLabelValues("streams").Inc()
		return nil, &QueryError{Reason: StreamsFull, Retry: 5 * time.Second,
			Message: "the indexer serves as many streams as it may (MAX_STREAMS); try again later"}
	}
	s.open[client]++
	s.opened++
	s.metrics.streams.Set(float64(s.opened))
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.open[client]--; s.open[client] == 0 {
				delete(s.open, client)
			}
			s.opened--
			s.metrics.streams.Set(float64(s.opened))
		})
	}, nil
}
