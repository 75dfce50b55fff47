# schedopt: `make run` sets up the machine, builds, and runs the default sweep;
# `make test` sets up the machine and runs the checks CI runs.

GO    ?= go
OUT   ?= out
BIN   := bin/schedopt
SPEC  ?= bench/specs/default.json
SCALE ?= 1

.PHONY: run test setup build vet clean help

help:
	@echo "make run    set up, build, solve the bundled instances with HiGHS, lp_solve and the"
	@echo "            exact oracles, print the summary and write report and plots to $(OUT)/"
	@echo "make test   set up, then go vet ./... and go test ./..."

setup:
	@bash scripts/setup.sh

build: setup
	$(GO) build -o $(BIN) ./cmd/schedopt

run: build
	@mkdir -p $(OUT)
	@rm -f $(OUT)/default.jsonl
	$(BIN) bench $(SPEC) --time-scale $(SCALE) -o $(OUT)/default.jsonl --report $(OUT)
	@bash scripts/figures.sh $(BIN) $(OUT)
	@echo "report: $(OUT)/report.md  (CSV: $(OUT)/report.csv, plots: $(OUT)/*.png, $(OUT)/*.svg)"

vet: setup
	$(GO) vet ./...

test: setup
	$(GO) vet ./...
	$(GO) test ./...

clean:
	rm -rf bin $(OUT)
