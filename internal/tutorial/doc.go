// Package tutorial holds the code of docs/tutorial-kind.md: a toy kind,
// "toy-makespan", added end to end (domain, formulation, kind) in the subpackages
// makespan, formulation and toykind. The tutorial quotes these files, and
// TestTutorialQuotesTheCode keeps the quotes equal to them (go test
// ./internal/tutorial -update rewrites the document's code blocks from the files).
// The kind is not registered in kinds/builtin: it is a teaching example.
package tutorial
