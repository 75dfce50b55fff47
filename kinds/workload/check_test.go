package workload

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/solve"
)

// A schedule the evaluator cannot evaluate still gives a result that encodes.
func TestRejectedEvaluatorCheckEncodes(t *testing.T) {
	res := solve.Result{Kind: "workload", Status: solve.StatusError, Check: solve.Check{Evaluator: func() *solve.EvaluatorCheck {
		c := rejected(errors.New("sizes do not sum to n"))
		return &c
	}()}}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("a rejected schedule's result cannot be encoded: %v", err)
	}
	if !strings.Contains(string(b), `"ok":false`) || !strings.Contains(string(b), "sizes do not sum") {
		t.Errorf("encoded %s lacks the verdict", b)
	}
}
