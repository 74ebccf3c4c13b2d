package indexer

import (
	"errors"
	"net/http"
	"testing"

	"github.com/seed018cc74c/vaultd/service/platform"
)

// Every reason Events can return has its row in api.go's table.
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	for r := UnknownEvent; r <= CursorReorged; r++ {
		if m, ok := reasons[r]; !ok || m.code == "" || m.status < 400 || m.status >= 500 {
			t.Errorf("reason %d: no client-error answer", r)
		}
	}
	var e *platform.Error
	if !errors.As(httpError(&QueryError{Reason: CursorReorged, Message: "m"}), &e) || e.Status != http.StatusConflict || e.Code != CodeCursorReorged {
		t.Fatalf("CursorReorged answered %#v", e)
	}
	if !errors.As(httpError(&QueryError{Reason: 99}), &e) || e.Code != platform.CodeInternal {
		t.Fatalf("an unmapped reason answered %#v", e)
	}
}
