package highs

// Mirrors of the highs_c_api.h constants the binding uses. They are Go constants
// because the header's constants are objects, not macros, and referencing them from
// Go through cgo does not link reliably across HiGHS versions.

// kHighsStatus values returned by most API calls.
const (
	statusError   = -1
	statusOK      = 0
	statusWarning = 1
)

// kHighsVarType values.
const (
	varTypeContinuous     = 0
	varTypeInteger        = 1
	varTypeSemiContinuous = 2
	varTypeSemiInteger    = 3
)

// kHighsMatrixFormat values.
const matrixFormatRowwise = 2

// kHighsSolutionStatus values.
const (
	solutionStatusNone       = 0
	solutionStatusInfeasible = 1
	solutionStatusFeasible   = 2
)

// kHighsModelStatus values (MemoryLimit 18 exists only in C++).
const (
	modelNotset                = 0
	modelLoadError             = 1
	modelModelError            = 2
	modelPresolveError         = 3
	modelSolveError            = 4
	modelPostsolveError        = 5
	modelEmpty                 = 6
	modelOptimal               = 7
	modelInfeasible            = 8
	modelUnboundedOrInfeasible = 9
	modelUnbounded             = 10
	modelObjectiveBound        = 11
	modelObjectiveTarget       = 12
	modelTimeLimit             = 13
	modelIterationLimit        = 14
	modelUnknown               = 15
	modelSolutionLimit         = 16
	modelInterrupt             = 17
	modelMemoryLimit           = 18
)

// modelStatusNames are HiGHS's own names of the model statuses, for Result.Message.
var modelStatusNames = [...]string{
	"Not Set", "Load error", "Model error", "Presolve error", "Solve error",
	"Postsolve error", "Empty", "Optimal", "Infeasible", "Primal infeasible or unbounded",
	"Unbounded", "Bound on objective reached", "Target for objective reached",
	"Time limit reached", "Iteration limit reached", "Unknown", "Solution limit reached",
	"Interrupted by user", "Memory limit reached",
}

func modelStatusName(s int) string {
	if s >= 0 && s < len(modelStatusNames) {
		return modelStatusNames[s]
	}
	return "model status " + itoa(s)
}
