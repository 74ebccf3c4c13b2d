// Package profiling serves net/http/pprof for a measurement, and only in a binary built with
// `-tags pprof` (.ci/registry-vs-bare with PROFILE set): in a binary built as shipped it is
// empty. With the tag and PPROF_ADDR set to a loopback address (127.0.0.1:6060), the profiles
// are served there, on a listener of their own, never on the service's public or admin port;
// an address that is not loopback stops the process. Commands import it for its effect.
package profiling
