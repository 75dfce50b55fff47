# schedopt: `make run` sets up the machine, builds, and runs the default sweep;
# `make test` sets up the machine and runs the checks CI runs.

GO    ?= go
OUT   ?= out
BIN   := bin/schedopt
SPEC  ?= bench/specs/default.json
SCALE ?= 1
# staticcheck, pinned: `go run` builds this exact version from the Go module proxy (and
# caches it), so every machine and CI check with the same rules.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: run test slurm-test race setup build vet staticcheck clean help

help:
	@echo "make run    set up, build, solve the bundled instances with HiGHS, lp_solve, CBC and"
	@echo "            the exact oracles, print the summary and write report and plots to $(OUT)/"
	@echo "make test   set up, then go vet ./..., staticcheck ./... and go test ./..., then make race"
	@echo "            and make slurm-test"
	@echo "make race   the dlt-multi branch-and-bound's parallel searches under the race detector"
	@echo "make staticcheck  run the pinned staticcheck ($(STATICCHECK)) on every package"
	@echo "make slurm-test  start a private single-node Slurm (scripts/slurm-local.sh), run sweeps"
	@echo "            through it as job arrays (cluster/slurm, tag slurm), stop the daemons"

setup:
	@bash scripts/setup.sh

build: setup
	$(GO) build -o $(BIN) ./cmd/schedopt

run: build
	@mkdir -p $(OUT)
	@rm -f $(OUT)/default.jsonl
	$(BIN) bench $(SPEC) --time-scale $(SCALE) -o $(OUT)/default.jsonl --report $(OUT)
	@bash scripts/figures.sh $(BIN) $(OUT)
	@echo "report: $(OUT)/report.html, $(OUT)/report.md  (CSV: $(OUT)/report.csv, plots: $(OUT)/*.png, $(OUT)/*.svg)"

vet: setup
	$(GO) vet ./...

staticcheck: setup
	$(GO) run $(STATICCHECK) ./...

test: setup
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) test ./...
	$(MAKE) --no-print-directory race
	$(MAKE) --no-print-directory slurm-test

# The searches that solve node LPs on several goroutines, under the race detector: a
# data race between sibling node LPs of the dlt-multi branch-and-bound (a shared
# array of stored cuts) went unseen by the plain tests for several sessions.
race: setup
	$(GO) test -race -count=1 -run 'TestSolveMatchesTheEnumeration|TestEnergySolveMatchesTheEnumeration|TestThreadsGiveTheSameOptimum|TestParallelSearchStopsPromptly' ./exact/dltbb/

# The Slurm integration test runs against real slurmctld and slurmd daemons: started
# here on private ports and state (scripts/slurm-local.sh), stopped by their pid files
# whatever the test's outcome.
slurm-test: build
	@trap 'bash scripts/slurm-local.sh stop' EXIT; \
	bash scripts/slurm-local.sh start && \
	eval "$$(bash scripts/slurm-local.sh env)" && \
	SCHEDOPT_BIN=$(CURDIR)/$(BIN) timeout -s KILL 600 \
	  $(GO) test -p 1 -count=1 -tags slurm -run Integration -v ./cluster/slurm/

clean:
	rm -rf bin $(OUT)
