package inorder_test

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/inorder"
)

// Functions given one after another run in that order, however long each takes.
func TestFunctionsRunInTheOrderGiven(t *testing.T) {
	t.Parallel()
	var q inorder.Queue
	var mu sync.Mutex
	var ran []int
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		q.Go(func() {
			defer wg.Done()
			time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond)
			mu.Lock()
			ran = append(ran, i)
			mu.Unlock()
		})
	}
	wg.Wait()
	want := make([]int, 50)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(ran, want) {
		t.Fatalf("ran in the order %v", ran)
	}
}
