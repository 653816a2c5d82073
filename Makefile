# kj — the two commands: `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go
BIN := bin/kj

.PHONY: run demo test services lint bench build webapp deps test-go test-web test-e2e

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

## bench: Go benchmarks of the engine's hot paths (PostgreSQL for the ledger)
bench: services
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./... | tee bench.txt
