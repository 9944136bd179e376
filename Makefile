# judge: run game-playing bots against each other.
#
#   make demo    build everything and play the example bots against each other
#   make test    run the tests (vet, race detector, real bots)
#   make bench   run the benchmarks (docs/benchmarks.md)
#
# Every tool the targets need is installed here, idempotently, from Debian's
# packages: C/C++/Java/Rust/Python toolchains for the example and test bots.

GO      ?= go
CC      ?= gcc
CXX     ?= g++
BIN     := bin
EXAMPLES :=

# Each example directory adds its build rules and appends to EXAMPLES.
include $(wildcard examples/*/build.mk)

GO_SOURCES := $(shell find . -name '*.go' -not -path './bin/*' 2>/dev/null) go.mod go.sum

.PHONY: all build examples demo test bench tools vet fuzz clean

all: build

build: tools $(BIN)/judge examples

$(BIN)/judge: $(GO_SOURCES)
	@mkdir -p $(@D)
	$(GO) build -o $@ ./cmd/judge

examples: $(EXAMPLES)

# tools installs what is missing, and only that. Debian package names.
TOOLS := gcc:gcc g++:g++ python3:python3 javac:default-jdk-headless rustc:rustc
tools:
	@command -v $(GO) >/dev/null || { echo "make: Go is needed: https://go.dev/doc/install"; exit 1; }
	@missing=""; for t in $(TOOLS); do \
		cmd=$${t%%:*}; pkg=$${t#*:}; \
		command -v $$cmd >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

test: tools vet
	$(GO) test -race -count=1 -timeout 20m ./...

# Benchmarks: figures are ratios against a baseline measured in the same run.
bench: build
	$(GO) test -run '^$$' -bench . -benchtime 3x -count 1 -timeout 30m ./...

# A few minutes of fuzzing of every parser (not part of make test).
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "$$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

DEMO_OUT ?= results/demo
demo: build
	@mkdir -p $(DEMO_OUT)
	$(BIN)/judge match --game tictactoe --seed 1 --replay $(DEMO_OUT)/tictactoe.json $(BIN)/examples/gomoku/random "python3 examples/gomoku/random.py"
	$(BIN)/judge match --game gomoku --seed 1 --replay $(DEMO_OUT)/gomoku.json $(BIN)/examples/gomoku/strong $(BIN)/examples/gomoku/random
	$(BIN)/judge replay $(DEMO_OUT)/tictactoe.json

clean:
	rm -rf $(BIN) results
