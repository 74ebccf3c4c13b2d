package indexer

import "testing"

// Every reason Events can return has its row in api.go's table, a client error.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := UnknownEvent; r <= CursorReorged; r++ {
		if m, ok := reasons[r]; !ok || m.Code == "" || m.Status < 400 || m.Status >= 500 {
			t.Errorf("reason %d: no client-error answer", r)
		}
	}
}
