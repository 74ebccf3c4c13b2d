package card

import (
	"errors"
	"testing"
)

// The log index's lag is told apart by go-ethereum's own words (seen in CI: a tree read right
// after a block was sealed); other failures are not asked again.
func TestLogIndexLags(t *testing.T) {
	lag := errors.New("failed to retrieve log value pointer after last block 74: failed to retrieve log value pointer of block 75: not found")
	if !logIndexLags(lag) {
		t.Error("the log index's lag is not recognised")
	}
	if logIndexLags(errors.New("connection refused")) {
		t.Error("another failure is taken for the log index's lag")
	}
}
