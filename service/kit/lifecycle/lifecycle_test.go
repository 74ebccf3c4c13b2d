package lifecycle

import (
	"errors"
	"slices"
	"testing"
)

// Close gives everything back newest first, once.
func TestCloseNewestFirstOnce(t *testing.T) {
	var s Stack
	var got []string
	s.Push(func() { got = append(got, "client") })
	s.PushErr(func() error { got = append(got, "store"); return errors.New("ignored") })
	s.Push(func() { got = append(got, "lease") })
	s.Close()
	s.Close()
	if want := []string{"lease", "store", "client"}; !slices.Equal(got, want) {
		t.Fatalf("closed %v, want %v", got, want)
	}
}
