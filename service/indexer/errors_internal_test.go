package indexer

import "testing"

// Every reason the domain code can return has its row in api.go's table: a client error, or a
// 503 for streams the indexer has no room for.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := UnknownEvent; r < reasonsEnd; r++ {
		if m, ok := reasons[r]; !ok || m.Code == "" || m.Status < 400 || (m.Status >= 500 && r != StreamsFull) {
			t.Errorf("reason %d: no answer", r)
		}
	}
}
