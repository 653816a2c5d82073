# kj — the two commands: `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go
BIN := bin/kj
# The module's own packages: `./...` would also walk into node_modules, where
# some npm packages ship Go sources (flatted does) that are not ours to test.
GO_PKGS = $(shell $(GO) list ./... | grep -v -e '/node_modules/' -e '/dist/')

.PHONY: run demo test test-quick services lint audit bench build webapp deps test-go test-web test-e2e load k6 cluster cluster-check fuzz faults

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
## (test-go includes the fault suite, TestF1Faults: see `make faults`)
test: services test-go test-web test-e2e

## test-quick: the quick tier, for a change in progress (about a minute on 2 cores): Go
## tests with -short on the embedded store and in-process services (no PostgreSQL, Redis,
## NATS, haproxy or browser; the tests that need one are left out by testenv.Needs). The web
## unit tests are `npm test` (about two minutes more, most of it jsdom's set-up per file).
## It is not the gate: `make test` runs everything and fails on a missing service.
test-quick:
	$(GO) test -short -count=1 -timeout 5m $(GO_PKGS)

test-go:
	$(GO) vet $(GO_PKGS)
	$(GO) test -race -count=1 -timeout 20m $(GO_PKGS)
	$(MAKE) fuzz FUZZTIME=3s

## fuzz: every fuzz target (frame decoder, JSON bodies, uploads) for FUZZTIME each
FUZZTIME ?= 1m
FUZZ_TARGETS := ./actors/chat:FuzzDecodeRequest ./httpapi:FuzzRegisterJSON ./httpapi:FuzzAccountLoginJSON ./httpapi:FuzzChatUpload
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} ($${t%%:*}) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) "$${t%%:*}" || exit 1; \
	done

test-web: deps
	npm test

test-e2e: build
	KJ_BIN=$(CURDIR)/$(BIN) npm run test:sdk
	./scripts/chromium.sh
	KJ_BIN=$(CURDIR)/$(BIN) npm run e2e
	$(MAKE) --no-print-directory cluster-check

## faults: the fault suite alone (about a minute): two kj nodes on a PostgreSQL, Redis and NATS
## of its own (spare ports, temporary directories), each service killed and restarted under
## chat, bet and sign-in traffic; FAULTS_FULL=1 runs loadtest F1 at full scale and writes
## loadtest/results/F1.json
faults: services
ifeq ($(FAULTS_FULL),1)
	$(GO) run ./loadtest/cmd/kjload -workload F1
else
	$(GO) test -count=1 -run '^TestF1Faults$$' -v ./loadtest/
endif

## services: make sure PostgreSQL, Redis and NATS are up on loopback
services:
	./scripts/services.sh

## cluster: N kj nodes (default 3) behind HAProxy with Prometheus, on loopback; Ctrl-C stops it
N ?= 3
cluster: services build
	N=$(N) ./scripts/cluster.sh

## cluster-check: a fresh 3-node cluster on spare ports, the browser flow of webapp/e2e/cluster through HAProxy, then stop
cluster-check: services build
	PORT=18080 NODE_PORT=18081 PROM_PORT=19090 STATS_PORT=18404 METRICS_PORT=19181 N=3 ./scripts/cluster.sh --check

## lint: gofmt, go vet, staticcheck, tsc --noEmit, eslint, promtool check rules and its rule tests
lint: deps
	./scripts/promtool.sh check rules deploy/prometheus/alerts.yml
	./scripts/promtool.sh test rules deploy/prometheus/alerts_test.yml
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet $(GO_PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(GO_PKGS)
	npm run typecheck
	npm run lint

## audit: known vulnerabilities in what we ship — govulncheck (Go) and npm audit (production
## packages); both read public vulnerability databases, so this needs their hosts, which an
## offline build machine does not reach (kept out of lint for that reason)
audit: deps
	$(GO) run golang.org/x/vuln/cmd/govulncheck@v1.1.4 $(GO_PKGS)
	npm audit --omit=dev

## bench: the Go benchmarks of W7 (actor core), W4L (ledger writer), W2W (chat writer), W2S (send path), W4/W5 (rounds) on PostgreSQL,
## -count runs each (BENCH_COUNT for W7, BENCH_DB_COUNT for the PostgreSQL ones), compared by
## benchstat with the previous run (loadtest/results/bench.txt)
BENCH_COUNT ?= 5
BENCH_DB_COUNT ?= 3
BENCHSTAT := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench: services
	@mkdir -p loadtest/results
	$(GO) test -run '^$$' -bench 'W7' -benchmem -count $(BENCH_COUNT) ./actors/ | tee loadtest/results/bench.new.txt
	$(GO) test -run '^$$' -bench 'LedgerWriter' -benchtime 400000x -count $(BENCH_DB_COUNT) -timeout 60m ./actors/ledger/ | tee -a loadtest/results/bench.new.txt
	$(GO) test -run '^$$' -bench 'ChatWriter' -benchmem -benchtime 200000x -count $(BENCH_DB_COUNT) -timeout 60m ./actors/chat/ | tee -a loadtest/results/bench.new.txt
	$(GO) test -run '^$$' -bench 'SendPath' -benchmem -benchtime 20000x -count $(BENCH_DB_COUNT) -timeout 60m ./actors/chat/ | tee -a loadtest/results/bench.new.txt
	$(GO) test -run '^$$' -bench 'W4|W5' -benchtime 1x -count $(BENCH_DB_COUNT) -timeout 60m ./actors/window/ | tee -a loadtest/results/bench.new.txt
	@if [ -f loadtest/results/bench.txt ]; then \
		$(GO) run $(BENCHSTAT) loadtest/results/bench.txt loadtest/results/bench.new.txt; \
	else \
		$(GO) run $(BENCHSTAT) loadtest/results/bench.new.txt; \
	fi
	mv loadtest/results/bench.new.txt loadtest/results/bench.txt

## load: one workload of docs/PERFORMANCE.md end to end (make load W=W2 [RUNS=3]); writes loadtest/results/W2.{json,png}
## PEER=centrifugo (W1, W3) also runs the workload against Centrifugo v6.9.1, built with go install into bin/peer
## PEER=centrifugo-pg (W2): the same binary on its PostgreSQL broker, durable, with use_notify on and off
## FLOOR=1 (W2): also the chat floor, the plainest durable relay (loadtest/cmd/floorchat), on the same PostgreSQL
W ?= W6
RUNS ?= 1
PEER ?=
FLOOR ?=
load: services
	$(GO) run ./loadtest/cmd/kjload -workload $(W) -runs $(RUNS) $(if $(PEER),-peer $(PEER)) $(if $(FLOOR),-floor)

## k6: build k6 v1.8.1 into ./bin and run the k6 scripts (login storm, chat, bet burst) against a kj it starts
K6 := bin/k6
$(K6):
	GOBIN=$(CURDIR)/bin $(GO) install go.k6.io/k6@v1.8.1

k6: services $(K6)
	$(GO) run ./loadtest/cmd/kjload k6 -k6 $(K6) loadtest/k6/login.js loadtest/k6/chat.js loadtest/k6/bet.js
