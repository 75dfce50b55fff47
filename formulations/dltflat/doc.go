// Package dltflat formulates the single-installment star with limited flat memory of
// seed 004 §2.2.2 (from Drozdowski & Wolniewicz 2003) as the LP (2.5)-(2.9): a fixed
// communication order, every machine started, memory sizes B_i as upper bounds on the
// chunks, and the schedule length C_max minimised.
package dltflat
