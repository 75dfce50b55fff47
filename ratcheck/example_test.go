package ratcheck_test

import (
	"fmt"

	"github.com/schedopt/schedopt/ratcheck"
)

// A row 0.7·x <= 0.69999899999999999999 at x = 1: in float64 the violation is
// 0.99999999992e-6 and passes the 1e-6 tolerance; in the numbers as written it is
// 1.00000000000001e-6 and fails.
func Example() {
	file := []byte(`NAME EX
ROWS
 N obj
 L r
COLUMNS
    x obj 1 r 0.7
RHS
    rhs r 0.69999899999999999999
ENDATA
`)
	m, err := ratcheck.ReadMPS(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	exact := m.Check([]string{"x"}, []float64{1}, ratcheck.Tolerances{})
	float := m.CheckFloat([]string{"x"}, []float64{1}, ratcheck.Tolerances{})
	fmt.Println("exact:", exact.Feasible, exact.Worst[0].Name, exact.Worst[0].Kind)
	fmt.Println("float:", float.Feasible)
	fmt.Println("objective:", exact.Objective.RatString())
	// Output:
	// exact: false r row
	// float: true
	// objective: 1
}
