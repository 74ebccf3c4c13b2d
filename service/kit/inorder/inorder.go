// Package inorder runs work off the caller's goroutine but in the order it was given: the
// webhook of a transition (a pause, then a resume) is recorded after the one before it, while
// the caller, which may hold a lock, does not wait for a database.
package inorder

import "sync"

// Queue runs the functions given to Go one at a time, oldest first, on a goroutine of its own
// while any wait. Its zero value is ready.
type Queue struct {
	mu      sync.Mutex
	waiting []func()
	running bool
}

// Go queues f to run after every function given before it, and returns at once.
func (q *Queue) Go(f func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.waiting = append(q.waiting, f)
	if !q.running {
		q.running = true
		go q.run()
	}
}

func (q *Queue) run() {
	for {
		q.mu.Lock()
		if len(q.waiting) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		f := q.waiting[0]
		q.waiting = q.waiting[1:]
		q.mu.Unlock()
		f()
	}
}
