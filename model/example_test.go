package model_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/schedopt/schedopt/model"
)

// Two jobs share one machine: job 1 takes 3 time units, job 2 takes 2, and a binary
// decides which goes first. The makespan is the maximum of the completion times, as an
// epigraph (exact because it is minimised), and the disjunction is written with
// Implies, whose big-M comes from the bounds of the start times.
func Example() {
	m := model.New("two jobs")
	s1 := m.AddContinuous(0, 10, "start[1]")
	s2 := m.AddContinuous(0, 10, "start[2]")
	first := m.AddBinary("job1_first")

	var e model.Expr
	// job1_first = 1  ⇒  s1 + 3 <= s2
	e.Add(s1, 1).Add(s2, -1)
	if _, err := m.Implies(first, true, e, model.LE, -3, "order12"); err != nil {
		fmt.Println(err)
		return
	}
	// job1_first = 0  ⇒  s2 + 2 <= s1
	e.Reset()
	e.Add(s2, 1).Add(s1, -1)
	if _, err := m.Implies(first, false, e, model.LE, -2, "order21"); err != nil {
		fmt.Println(err)
		return
	}
	c1 := model.Term(s1, 1)
	c1.AddConst(3)
	c2 := model.Term(s2, 1)
	c2.AddConst(2)
	cmax, err := m.Epigraph([]model.Expr{c1, c2}, "makespan")
	if err != nil {
		fmt.Println(err)
		return
	}
	m.SetObjective(model.Minimize, model.Term(cmax, 1))
	if err := m.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	if err := m.WriteLP(os.Stdout); err != nil {
		fmt.Println(err)
	}

	// The schedule job 1 at 0, job 2 at 3 is feasible with makespan 5.
	rep, _ := m.Verify([]float64{0, 3, 1, 5})
	fmt.Println("feasible:", rep.Feasible(), "objective:", rep.Objective)
	// Output:
	// \ Model two_jobs
	// Minimize
	//  obj: + 0 start_1_ + 0 start_2_ + 0 job1_first + 1 makespan
	// Subject To
	//  order12_le: + 1 start_1_ - 1 start_2_ + 13 job1_first <= 10
	//  order21_le: - 1 start_1_ + 1 start_2_ - 12 job1_first <= -2
	//  makespan_ge0: - 1 start_1_ + 1 makespan >= 3
	//  makespan_ge1: - 1 start_2_ + 1 makespan >= 2
	// Bounds
	//  0 <= start_1_ <= 10
	//  0 <= start_2_ <= 10
	//  makespan >= 3
	// Binary
	//  job1_first
	// End
	// feasible: true objective: 5
}

// LPLexer hands a reader the tokens of an LP file exactly as ReadLP reads them; package
// ratcheck re-reads the numbers in exact arithmetic this way.
func ExampleLPLexer() {
	lex := model.NewLPLexer(strings.NewReader("Maximize\n obj: 2.5 x \\ a comment\nSubject To\n c: x <= 4\nEnd\n"))
	for t := lex.Next(); t.Kind != model.LPEOF; t = lex.Next() {
		switch t.Kind {
		case model.LPKeyword:
			fmt.Printf("line %d: section %q (objective %v, max %v)\n", t.Line, t.Text, t.Section == model.LPObjective, t.Max)
		case model.LPOp:
			fmt.Printf("line %d: operator %v\n", t.Line, t.Op)
		default:
			fmt.Printf("line %d: %q\n", t.Line, t.Text)
		}
	}
	if err := lex.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// line 1: section "Maximize" (objective true, max true)
	// line 2: "obj"
	// line 2: ":"
	// line 2: "2.5"
	// line 2: "x"
	// line 3: section "Subject To" (objective false, max false)
	// line 4: "c"
	// line 4: ":"
	// line 4: "x"
	// line 4: operator <=
	// line 4: "4"
	// line 5: section "End" (objective false, max false)
}
