// Package lifecycle is how a service gives back what it took: each resource opened (a chain
// client, a store, a Redis client, a lease) is pushed on a Stack as it is opened, and one Close
// gives them all back, newest first, on every path: the constructor's failures (so none leaks
// when a later step fails) and the service's own Close.
package lifecycle

import "sync"

// Stack is what to close, in the order it was opened. The zero value is empty and ready.
type Stack struct {
	mu  sync.Mutex
	fns []func()
}

// Push adds a close function; it runs before everything pushed earlier.
func (s *Stack) Push(close func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fns = append(s.fns, close)
}

// PushErr is Push for a close function that returns an error (it is dropped: there is nothing
// to do about a failed close at shutdown).
func (s *Stack) PushErr(close func() error) { s.Push(func() { _ = close() }) }

// Close runs every close function, newest first, once; a second Close does nothing.
func (s *Stack) Close() {
	s.mu.Lock()
	fns := s.fns
	s.fns = nil
	s.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

// CloseOnError closes the stack if *err is set when it runs: a constructor defers it, so that
// whatever it opened before a later step failed is given back.
//
//	opened := &lifecycle.Stack{}
//	defer opened.CloseOnError(&err)
func (s *Stack) CloseOnError(err *error) {
	if *err != nil {
		s.Close()
	}
}
