package bench

import (
	"context"
	"fmt"
	"sync"

	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/ratcheck"
)

// ExactCheckCache is how many model files RatCheck keeps read at once; a sweep
// interleaves its jobs, so a set larger than this is read again now and then.
const ExactCheckCache = 16

// RatCheck returns a PointChecker that checks points in exact rational arithmetic
// against the coefficients as written in the file (package ratcheck, at its default
// tolerances, those of the MIPLIB solution checker), and in float64 at the same
// tolerances, so that points the float check passes and the exact one rejects are
// counted. Files are read as ro says (the reading of SC bounds inside integer
// markers), once, and cached (up to ExactCheckCache of them); it is safe for
// concurrent use.
func RatCheck(ro benchfile.Options) PointChecker {
	c := &ratCache{models: map[string]*ratEntry{}, sc: ro.SCInInteger}
	return c.check
}

type ratEntry struct {
	once sync.Once
	m    *ratcheck.Model
	err  error
}

type ratCache struct {
	sc     model.SCReading
	mu     sync.Mutex
	models map[string]*ratEntry
	order  []string
}

func (c *ratCache) model(path string) (*ratcheck.Model, error) {
	c.mu.Lock()
	e := c.models[path]
	if e == nil {
		e = &ratEntry{}
		c.models[path] = e
		c.order = append(c.order, path)
		if len(c.order) > ExactCheckCache {
			delete(c.models, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.mu.Unlock()
	e.once.Do(func() { e.m, e.err = ratcheck.ReadFileWith(path, c.sc) })
	return e.m, e.err
}

func (c *ratCache) check(ctx context.Context, path string, names []string, x []float64) (*PointCheck, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, err := c.model(path)
	if err != nil {
		return nil, err
	}
	rep := m.Check(names, x, ratcheck.Tolerances{})
	pc := &PointCheck{
		MaxAbsViolation: rep.MaxAbsViolation, MaxRelViolation: rep.MaxRelViolation,
		Feasible: rep.Feasible, FloatFeasible: m.CheckFloat(names, x, ratcheck.Tolerances{}).Feasible,
	}
	if rep.Objective != nil {
		pc.Objective = rep.Objective.FloatString(12)
	}
	if len(rep.Worst) > 0 && !rep.Feasible {
		w := rep.Worst[0]
		pc.Worst = fmt.Sprintf("%s %s violated by %g (relative %g)", w.Kind, w.Name, w.Abs, w.Rel)
	}
	return pc, nil
}
