// Package energy reads a node's energy around a measured region, as seed 000's
// HCL_WATTSUP_START and HCL_WATTSUP_STOP do around its parallel region (Alg. 4).
//
// A Source starts a Reading before the region and stops it after, returning the
// joules used in between. Three sources exist: the Linux powercap RAPL counters
// (RAPL, read before and after, wrap-around handled), `perf stat`'s
// power/energy-pkg/ event (Perf, a system-wide perf stat started before and
// interrupted after), and a user meter command that prints a cumulative energy
// counter in joules (Meter, run before and after). Detect picks one from the
// --energy flag of `schedopt measure`.
package energy
