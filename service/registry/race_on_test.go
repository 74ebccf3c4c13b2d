//go:build race

package registry_test

// raceEnabled: the race detector adds allocations of its own (TestListAllocatesLittle).
const raceEnabled = true
