package dlt

// Ch4System is the homogeneous star of chapter 4 (§4.2.1, Table A.1): m identical
// workers with unlimited flat memory, computing rate A and communication rate C
// [s/unit], startup S [s], load V, idle-power reduction factor K (idle power is the
// active power divided by K), processor active power PC and network active power PN
// [W].
type Ch4System struct {
	M      int
	A, C   float64
	S, V   float64
	K      float64
	PC, PN float64
}

// Ch4Energy is the energy of a chapter 4 schedule and its parts (4.12)-(4.15).
type Ch4Energy struct {
	EI  float64 // idle energy of all m+1 processors and the network for the whole T (4.13)
	ERN float64 // network energy above idle during startups and transfers (4.14)
	ERC float64 // processor energy above idle: originator while distributing, workers while receiving and computing (4.15)
	E   float64 // total (4.12), (4.16)
}

// EnergyCh4 returns the energy (4.12)-(4.16) of the chapter 4 model for a schedule of
// length T (from (4.9)) in which every worker is started, receives its chunk and
// computes without idling in between, and all finish at T:
//
//	E^I  = T((m+1)P^C + P^N)/k                                   (4.13)
//	E^RN = P^N (k−1)/k · (mS + CV)                                (4.14)
//	E^RC = P^C (k−1)/k · (mS + CV + Σ_i (S + (C+a)α_i))
//	     = P^C (k−1)/k · (2mS + 2CV + aV)                         (4.15)
//
// It depends on the chunk sizes only through Σα_i = V.
func EnergyCh4(s Ch4System, T float64) Ch4Energy {
	m := float64(s.M)
	var e Ch4Energy
	e.EI = T * ((m+1)*s.PC + s.PN) / s.K
	busy := m*s.S + s.C*s.V
	e.ERN = s.PN * (s.K - 1) / s.K * busy
	e.ERC = s.PC * (s.K - 1) / s.K * (2*m*s.S + 2*s.C*s.V + s.A*s.V)
	e.E = e.EI + e.ERN + e.ERC
	return e
}

// The inversions (4.17)-(4.21) of §4.2.2 solve E = (4.16) for one parameter, the
// others fixed, to draw isoenergy lines analytically. T is the schedule length (4.9),
// which does not depend on k, P^C or P^N; z1, z2 are (4.10)-(4.11), which do not depend
// on V or S. The field of s being solved for is ignored.

// InvertK is (4.17): the idle-power reduction factor k that gives energy E.
func (s Ch4System) InvertK(E, T float64) float64 {
	m := float64(s.M)
	busy := (s.PN + 2*s.PC) * (m*s.S + s.C*s.V)
	return (T*((m+1)*s.PC+s.PN) - busy - s.PC*s.A*s.V) / (E - busy - s.PC*s.A*s.V)
}

// InvertPC is (4.18): the processor active power P^C that gives energy E.
func (s Ch4System) InvertPC(E, T float64) float64 {
	m := float64(s.M)
	return (E*s.K - s.PN*((s.K-1)*(m*s.S+s.C*s.V)+T)) /
		((m+1)*T + (s.K-1)*(2*m*s.S+(2*s.C+s.A)*s.V))
}

// InvertPN is (4.19): the network active power P^N that gives energy E.
func (s Ch4System) InvertPN(E, T float64) float64 {
	m := float64(s.M)
	return (E*s.K - s.PC*((m+1)*T+(s.K-1)*(2*m*s.S+(2*s.C+s.A)*s.V))) /
		(T + (s.K-1)*(m*s.S+s.C*s.V))
}

// InvertV is (4.20): the load V that gives energy E, with T = S·z1 + V·z2.
func (s Ch4System) InvertV(E, z1, z2 float64) float64 {
	m := float64(s.M)
	p := (m+1)*s.PC + s.PN
	return (E*s.K - s.S*z1*p - (s.K-1)*m*s.S*(s.PN+2*s.PC)) /
		(z2*p + (s.K-1)*(s.PN*s.C+(2*s.C+s.A)*s.PC))
}

// InvertS is (4.21): the startup time S that gives energy E, with T = S·z1 + V·z2.
func (s Ch4System) InvertS(E, z1, z2 float64) float64 {
	m := float64(s.M)
	p := (m+1)*s.PC + s.PN
	return (E*s.K - s.V*z2*p - (s.K-1)*s.V*(s.PN*s.C+s.PC*(2*s.C+s.A))) /
		(z1*p + m*(s.K-1)*(s.PN+2*s.PC))
}
