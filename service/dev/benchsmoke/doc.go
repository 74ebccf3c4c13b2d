// Package benchsmoke runs each measurement of service/dev (chaosbench, faucetbench, floodbench,
// gasbench, indexerbench, revealbench) on a small run, so that a change that breaks a bench's
// machinery fails the tests rather than the next person measuring. The figures are the
// commands' (cmd/*bench), on a quiet machine; here only what each promises is asserted.
//
// The six live in one test binary rather than beside each bench: each links the whole stack (a
// dev chain, the services, the prover), and one link instead of six saves the test command about
// half a minute of CPU. Its TestMain serves the child processes two of the benches start by
// running their own binary again (floodbench's faucet, indexerbench's indexer).
package benchsmoke
