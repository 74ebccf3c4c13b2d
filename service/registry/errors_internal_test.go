package registry

import "testing"

// Every reason the domain code can return has its row in api.go's table.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := TokenNotFound; r <= IconTooLarge; r++ {
		if m, ok := reasons[r]; !ok || m.Code == "" || m.Status < 400 {
			t.Errorf("reason %d: no HTTP answer", r)
		}
	}
}
