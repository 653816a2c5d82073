# kj — the two commands: `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go
BIN := bin/kj

.PHONY: run demo test services lint bench build webapp deps test-go test-web test-e2e load k6

## run: install npm deps, build the web app, serve on the embedded store (:8080)
run: webapp
	$(GO) run . serve

## demo: load demo content into the empty ./data store (kj seed --demo), then run
demo: webapp
	$(GO) run . seed --demo
	$(GO) run . serve

## build: the kj binary with the web app embedded
build: webapp
	$(GO) build -o $(BIN) .

deps: node_modules/.package-lock.json

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

webapp: deps
	npm run build

## test: Go (race), web unit tests, browser smoke test; needs PostgreSQL, Redis, NATS
test: services test-go test-web test-e2e

test-go:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 20m ./...

test-web: deps
	npm test

test-e2e: build
	KJ_BIN=$(CURDIR)/$(BIN) npm run test:sdk
	./scripts/chromium.sh
	KJ_BIN=$(CURDIR)/$(BIN) npm run e2e

## services: make sure PostgreSQL, Redis and NATS are up on loopback
services:
	./scripts/services.sh

## lint: gofmt, go vet, staticcheck, tsc --noEmit, eslint
lint: deps
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
	npm run typecheck
	npm run lint

## bench: the Go benchmarks of W7 (actor core), W4L (ledger writer), W4/W5 (rounds) on PostgreSQL,
## -count runs each (BENCH_COUNT for W7, BENCH_DB_COUNT for the PostgreSQL ones), compared by
## benchstat with the previous run (loadtest/results/bench.txt)
BENCH_COUNT ?= 5
BENCH_DB_COUNT ?= 3
BENCHSTAT := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench: services
	@mkdir -p loadtest/results
	$(GO) test -run '^$$' -bench 'W7' -benchmem -count $(BENCH_COUNT) ./actors/ | tee loadtest/results/bench.new.txt
	$(GO) test -run '^$$' -bench 'LedgerWriter' -benchtime 400000x -count $(BENCH_DB_COUNT) -timeout 60m ./actors/ledger/ | tee -a loadtest/results/bench.new.txt
	$(GO) test -run '^$$' -bench 'W4|W5' -benchtime 1x -count $(BENCH_DB_COUNT) -timeout 60m ./actors/window/ | tee -a loadtest/results/bench.new.txt
	@if [ -f loadtest/results/bench.txt ]; then \
		$(GO) run $(BENCHSTAT) loadtest/results/bench.txt loadtest/results/bench.new.txt; \
	else \
		$(GO) run $(BENCHSTAT) loadtest/results/bench.new.txt; \
	fi
	mv loadtest/results/bench.new.txt loadtest/results/bench.txt

## load: one workload of PERFORMANCE.md end to end (make load W=W2 [RUNS=3]); writes loadtest/results/W2.{json,png}
W ?= W6
RUNS ?= 1
load: services
	$(GO) run ./loadtest/cmd/kjload -workload $(W) -runs $(RUNS)

## k6: build k6 v1.8.1 into ./bin and run the k6 scripts (login storm, chat, bet burst) against a kj it starts
K6 := bin/k6
$(K6):
	GOBIN=$(CURDIR)/bin $(GO) install go.k6.io/k6@v1.8.1

k6: services $(K6)
	$(GO) run ./loadtest/cmd/kjload k6 -k6 $(K6) loadtest/k6/login.js loadtest/k6/chat.js loadtest/k6/bet.js
