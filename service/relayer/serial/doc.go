// Package serial holds the relayer's black-box tests that need their process to themselves: the
// goroutine-leak tests, the bursts whose reveals are verified all at once, a test with a 1 s RPC
// timeout and one whose short lease must not lapse before it cuts a replica off. They run one at
// a time (the bursts beside one another), each saying why; TestConcurrentReveals, in parallel,
// keeps them company for the bursts' proofs. The rest of the relayer's tests run in parallel in
// service/relayer: two packages, so that go test runs the two at once.
package serial
