package registry

import (
	"errors"
	"testing"

	"github.com/seed018cc74c/vaultd/service/platform"
)

// Every reason the domain code can return has its row in api.go's table.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	for r := TokenNotFound; r <= IconTooLarge; r++ {
		if m, ok := reasons[r]; !ok || m.code == "" || m.status < 400 {
			t.Errorf("reason %d: no HTTP answer", r)
		}
	}
	var e *platform.Error
	if !errors.As(httpError(iconTooLarge(10)), &e) || e.Status != 413 || e.Code != platform.CodePayloadTooLarge {
		t.Fatalf("IconTooLarge answered %#v", e)
	}
	if !errors.As(httpError(&TokenError{Reason: 99}), &e) || e.Code != platform.CodeInternal {
		t.Fatalf("an unmapped reason answered %#v", e)
	}
}
