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

// A constructor's deferred CloseOnError gives back what it opened when it fails, and nothing
// when it succeeds.
func TestCloseOnError(t *testing.T) {
	open := func(fail bool) (closed bool, err error) {
		var s Stack
		s.Push(func() { closed = true })
		func() {
			defer s.CloseOnError(&err)
			if fail {
				err = errors.New("a later step failed")
			}
		}()
		return closed, err
	}
	if closed, _ := open(true); !closed {
		t.Fatal("a failed constructor left its stack open")
	}
	if closed, _ := open(false); closed {
		t.Fatal("a constructor that succeeded closed its stack")
	}
}
