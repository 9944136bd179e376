# judge: run game-playing bots against each other.
#
#   make demo    build everything and play the example bots against each other
#   make test    run the tests (vet, race detector, real bots)
#   make bench   run the benchmarks (docs/benchmarks.md)
#   make scale-check  as root: a throwaway one-node Slurm cluster runs a sharded
#                tournament with configs/slurm-tournament.sh, a task killed and
#                requeued, another resubmitted with nothing re-exported; the merge
#                must equal one run, and a cancelled array's merge must end
#   make container-check  as root: builds the Containerfile's image with podman
#                from Debian and the Go module proxy alone, and plays a sharded
#                tournament in it, a container per shard; the merge must equal
#                one run
#   make vet     go vet, staticcheck and gofmt
#
# Every tool the targets need is installed here, idempotently, from Debian's
# packages: C/C++/Java/Rust/Python toolchains for the example and test bots,
# and Chromium for the tests of the replay viewer and of judge serve.

GO      ?= go
CC      ?= gcc
CXX     ?= g++
BIN     := bin
EXAMPLES :=

# Each example directory adds its build rules and appends to EXAMPLES.
include $(wildcard examples/*/build.mk)

GO_SOURCES := $(shell find . -name '*.go' -not -path './bin/*' 2>/dev/null) go.mod go.sum

.PHONY: all build examples demo test bench tools vet fuzz clean scale-check container-check

all: build

build: tools $(BIN)/judge examples

$(BIN)/judge: $(GO_SOURCES)
	@mkdir -p $(@D)
	$(GO) build -o $@ ./cmd/judge

examples: $(EXAMPLES)

# tools installs what is missing, and only that. Debian package names.
TOOLS := gcc:gcc g++:g++ python3:python3 javac:default-jdk-headless rustc:rustc chromium:chromium php:php-cli ruby:ruby clojure:clojure
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

# staticcheck, from the Go module proxy, into bin/tools (a version that
# knows the Go of go.mod).
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BIN)/tools/staticcheck

$(STATICCHECK):
	@mkdir -p $(@D)
	GOBIN=$(CURDIR)/$(@D) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

vet: $(STATICCHECK)
	$(GO) vet ./...
	$(STATICCHECK) ./...
	cd configs/kubecheck && $(GO) vet ./... && $(CURDIR)/$(STATICCHECK) ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

test: tools vet
	$(GO) test -race -count=1 -timeout 20m ./...
	cd configs/kubecheck && $(GO) test -count=1 ./...

# Benchmarks: figures are ratios against a baseline measured in the same run.
bench: build
	$(GO) test -run '^$$' -bench . -benchtime 3x -count 1 -timeout 30m ./...

# The Slurm path end to end on this machine (docs/scale-out.md). Needs root;
# not part of make test.
scale-check:
	configs/scale-check.sh

# The Containerfile built and used on this machine (docs/scale-out.md).
# Needs root; not part of make test.
container-check:
	configs/container-check.sh

# A few minutes of fuzzing of every parser and reader of untrusted files
# (not part of make test, which runs their seed corpus). Temporary files
# go to /dev/shm where there is one: the results log's fuzzer fsyncs.
FUZZTIME ?= 30s
fuzz:
	@tmp=/dev/shm; [ -d $$tmp ] || tmp=$${TMPDIR:-/tmp}; \
	for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "$$pkg $$f"; TMPDIR=$$tmp $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

# The demo: a tournament per game between the example bots, each ending in
# a standings table, with every match's replay in $(DEMO_OUT)/GAME/replays.
DEMO_OUT ?= results/demo
J := $(BIN)/judge
demo: build
	@rm -rf $(DEMO_OUT) && mkdir -p $(DEMO_OUT)
	@echo; echo "== the sandbox on this machine"; $(J) doctor
	@echo; echo "== tic-tac-toe: a round robin, 2 rounds, bots in C, Go, Python and Java"
	$(J) tournament --game tictactoe --rounds 2 --seed 1 --out $(DEMO_OUT)/tictactoe \
		$(BIN)/examples/gomoku/random $(BIN)/examples/gomoku/strong "python3 examples/gomoku/random_bot.py" \
		"java -XX:MaxRAM={memory_mb}m -XX:MaxRAMPercentage=40 -Xss{stack_mb}m -cp $(BIN)/examples/gomoku RandomBot"
	@echo; echo "== gomoku 15x15: a round robin"
	$(J) tournament --game gomoku --rounds 1 --seed 1 --out $(DEMO_OUT)/gomoku \
		$(BIN)/examples/gomoku/random $(BIN)/examples/gomoku/strong "python3 examples/gomoku/random_bot.py"
	@echo; echo "== connect four: a round robin, 2 rounds"
	$(J) tournament --game connect4 --rounds 2 --seed 1 --out $(DEMO_OUT)/connect4 \
		$(BIN)/examples/connect4/random $(BIN)/examples/connect4/alphabeta "python3 examples/connect4/random_bot.py"
	@echo; echo "== battleship: a round robin, 2 rounds"
	$(J) tournament --game battleship --rounds 2 --seed 1 --out $(DEMO_OUT)/battleship \
		$(BIN)/examples/battleship/random $(BIN)/examples/battleship/hunter "python3 examples/battleship/random_bot.py"
	@echo; echo "== splix: 3 players at once, random groups, 9 games"
	$(J) tournament --game splix-small --games 9 --seed 1 --out $(DEMO_OUT)/splix \
		$(BIN)/examples/splix/looper ./$(BIN)/examples/splix/looper "python3 examples/splix/random_bot.py"
	@echo; echo "== the last tic-tac-toe match, replayed"
	$(J) replay $$(ls $(DEMO_OUT)/tictactoe/replays/*.json | tail -1)
	@echo; echo "== the last splix match, as a web page to open in a browser"
	$(J) view $$(ls $(DEMO_OUT)/splix/replays/*.json | tail -1)
	@echo; echo "standings and replays are in $(DEMO_OUT)/; 'bin/judge serve $(DEMO_OUT)/splix' shows a tournament in a browser"

clean:
	rm -rf $(BIN) results
