package claims

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
	"github.com/schedopt/schedopt/certify"
)

func TestScratchOne(t *testing.T) {
	for _, i := range []int{28, 273} {
		c := GenerateAt(1, i, GenConfig{})
		c.Model.WriteLP(os.Stdout)
		opts := backends.Options{Threads: 1, TimeLimit: 10 * time.Second}
		for _, pol := range []certify.Policy{{Off: true}, {Second: lpsolve.New()}} {
			res, err := certify.Solve(context.Background(), highs.New(), c.Model, opts, pol)
			t.Logf("%d highs: %v %s %.12g %q %v %+v", i, err, res.Status, res.Objective, res.Message, res.Values, res.Certificate)
		}
		for _, pol := range []certify.Policy{{Off: true}, {Second: highs.New()}} {
			res, err := certify.Solve(context.Background(), lpsolve.New(), c.Model, opts, pol)
			t.Logf("%d lpsolve: %v %s %.12g %q %v %+v", i, err, res.Status, res.Objective, res.Message, res.Values, res.Certificate)
		}
	}
}
