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
#   make cgroup2-check  as root: a throwaway Debian 12 VM (QEMU) with cgroup v2
#                only and kernel 6.1 runs the tests of the sandbox and of the
#                process player, judge doctor and a tournament at level full,
#                as root and as a normal user, each in a delegated scope
#   make vet     go vet, staticcheck, gofmt and go mod tidy, the builds for
#                macOS and Windows (make cross-vet), the Kubernetes manifests
#                (configs/kubecheck), the scripts and the AppArmor profile,
#                all at once
#   make install put judge in ~/.local/bin (PREFIX=/usr/local: /usr/local/bin);
#                as root, with its AppArmor profile where there is AppArmor
#
# Every tool the targets need is installed here, idempotently, from Debian's
# packages: C/C++/Java/Rust/Python toolchains for the example and test bots,
# and Chromium for the tests of the replay viewer and of judge serve. That
# takes root, or sudo without a password; without either, make says what an
# administrator would install, and builds and plays what it can.

GO      ?= go
CC      ?= gcc
CXX     ?= g++
BIN     := bin
EXAMPLES :=
LEFT_OUT :=

# rustc: the first that runs of the one on PATH and Debian's, or none.
# rustup's rustc does not run for a user who cannot reach its toolchains
# (another user's, in a home this one cannot read).
ifndef RUSTC
RUSTC := $(firstword $(foreach r,rustc /usr/bin/rustc,$(shell $(r) --version >/dev/null 2>&1 && echo $(r))))
endif

# $(call needs,COMMAND,PACKAGE,TARGETS) is TARGETS where COMMAND is
# installed, and nothing where it is not: `make examples` then says which
# were left out, and the Debian package that has COMMAND.
needs = $(if $(and $(1),$(shell command -v $(firstword $(1)) 2>/dev/null)),$(3),$(eval LEFT_OUT += $(3:=:$(or $(firstword $(1)),$(2)):$(2))))

# Each example directory adds its build rules and appends to EXAMPLES.
include $(wildcard examples/*/build.mk)

GO_SOURCES := $(shell find . -name '*.go' -not -path './bin/*' 2>/dev/null) go.mod go.sum

.PHONY: all build examples demo test bench bench-tools tools vet cross-vet fuzz clean scale-check container-check install

all: build

# The examples are built by a new make, which sees the toolchains that
# tools has just installed.
build: tools $(BIN)/judge
	@$(MAKE) --no-print-directory examples

# The judge is built without cgo, statically linked: its binary is also
# every sandbox's init, started again for each one, and a static program
# starts without the dynamic loader and the C library's own start (about
# 1 ms here). Nothing in it needs cgo (os/user and net have Go versions).
$(BIN)/judge: $(GO_SOURCES)
	@mkdir -p $(@D)
	CGO_ENABLED=0 $(GO) build -o $@ ./cmd/judge

# install: the judge alone, into $(PREFIX)/bin (default ~/.local/bin), built
# with its revision stamped for judge --version. It says when that
# directory is not on PATH. As root, on a system with AppArmor
# (/etc/apparmor.d), it also installs configs/apparmor/judge naming the
# judge's path, as /etc/apparmor.d/judge, and loads it: Ubuntu 23.10 and
# later give user namespaces only to programs with a profile that allows
# them (docs/sandbox.md). For every user: sudo make install PREFIX=/usr/local
PREFIX ?= $(HOME)/.local
APPARMOR_D ?= /etc/apparmor.d
install:
	@mkdir -p $(DESTDIR)$(PREFIX)/bin
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -o $(DESTDIR)$(PREFIX)/bin/judge ./cmd/judge
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "make: $(PREFIX)/bin is not on PATH: add it, e.g. export PATH=\"$(PREFIX)/bin:\$$PATH\" in ~/.profile";; esac
	@$(DESTDIR)$(PREFIX)/bin/judge --version
	@if [ "$$(id -u)" = 0 ] && [ -d $(APPARMOR_D) ]; then \
		path=$$(cd $(DESTDIR)$(PREFIX)/bin && pwd -P)/judge; path=$${path#$(DESTDIR)}; \
		mkdir -p $(DESTDIR)$(APPARMOR_D); \
		sed 's|^profile judge /[^ ]* flags|profile judge '"$$path"' flags|' configs/apparmor/judge >$(DESTDIR)$(APPARMOR_D)/judge; \
		echo "make: AppArmor profile for $$path (user namespaces): $(DESTDIR)$(APPARMOR_D)/judge"; \
		case "$$path" in "$$HOME"/*) home=y;; *) home=;; esac; \
		if [ -n "$$home" ] || [ -n "$$(find "$${path%/*}" -maxdepth 0 -perm /022)" ]; then \
			echo "make: warning: $$path is in a home directory or one others may write: install the judge where only root writes and every user reads (PREFIX=/usr/local) for its profile to mean anything"; fi; \
		if [ -z "$(DESTDIR)" ] && command -v apparmor_parser >/dev/null && [ -d /sys/kernel/security/apparmor ]; then \
			apparmor_parser -r $(APPARMOR_D)/judge && echo "make: loaded (apparmor_parser -r $(APPARMOR_D)/judge)"; \
		fi; \
	fi

examples: $(EXAMPLES)
	@for x in $(LEFT_OUT); do p=$${x##*:}; x=$${x%:*}; \
		echo "make: not built: $${x%:*}, for want of $${x##*:} (Debian package $$p)"; done

# tools installs what is missing, and only that. Debian package names.
# Bots run as nobody when the judge runs as root: a rustc that only root
# can run (rustup's in /root) is not enough, and Debian's is installed
# beside it.
# As root, or with sudo that asks no password; otherwise it says what is
# missing and goes on: the targets use what there is.
TOOLS := gcc:gcc g++:g++ python3:python3 javac:default-jdk-headless rustc:rustc chromium:chromium php:php-cli ruby:ruby clojure:clojure \
	apparmor_parser:apparmor
tools:
	@command -v $(GO) >/dev/null || { echo "make: Go is needed: https://go.dev/doc/install"; exit 1; }
	@missing=""; for t in $(TOOLS); do \
		cmd=$${t%%:*}; pkg=$${t#*:}; [ $$cmd != rustc ] || cmd="$(RUSTC)"; \
		[ -n "$$cmd" ] && command -v $$cmd >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ "$$(id -u)" = 0 ] && [ -n "$(RUSTC)" ] && [ ! -x /usr/bin/rustc ] && \
		! runuser -u nobody -- env PATH=/usr/local/bin:/usr/bin:/bin rustc --version >/dev/null 2>&1; then \
		missing="$$missing rustc"; \
	fi; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; \
		elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; \
		else echo "make: not installed (that takes root, or sudo without a password):$$missing; an administrator can run: apt-get install$$missing"; exit 0; fi; \
		echo "installing:$$missing"; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# bench-tools: what benchmarks measure the judge against (bubblewrap:
# BenchmarkStartPeers), installed as tools installs.
bench-tools:
	@$(MAKE) --no-print-directory tools TOOLS="bwrap:bubblewrap"

# staticcheck, from the Go module proxy, into bin/tools (a version that
# knows the Go of go.mod).
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BIN)/tools/staticcheck

$(STATICCHECK):
	@mkdir -p $(@D)
	GOBIN=$(CURDIR)/$(@D) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# vet: every check below, at once (make -j): the three systems' compiles
# overlap, and all of them share Go's build cache, so a second run only
# looks. VET_JOBS=1 runs them one after another; each output is printed
# whole when its check ends.
VET_JOBS ?= 4
VET := vet-linux vet-kubecheck vet-tidy vet-fmt vet-scripts vet-apparmor cross-vet
vet: $(STATICCHECK)
	@$(MAKE) --no-print-directory -j$(VET_JOBS) --output-sync=target $(VET)

vet-linux: $(STATICCHECK)
	$(GO) vet ./...
	$(STATICCHECK) ./...

# configs/kubecheck, a module of its own: vet, staticcheck and its tests,
# which check the Kubernetes manifests (docs/scale-out.md).
vet-kubecheck: $(STATICCHECK)
	cd configs/kubecheck && $(GO) vet ./... && $(CURDIR)/$(STATICCHECK) ./... && $(GO) test -count=1 ./...

# go.mod and go.sum as go mod tidy leaves them, for both modules.
vet-tidy:
	$(GO) mod tidy -diff
	cd configs/kubecheck && $(GO) mod tidy -diff

vet-fmt:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# The shell scripts parse, and put their temporary directories under TMPDIR.
vet-scripts:
	@for f in $$(git ls-files '*.sh' 2>/dev/null || find . -name '*.sh'); do bash -n $$f || exit 1; done
	configs/tmpdir-check.sh

# The AppArmor profile, parsed (not loaded) by apparmor_parser where it
# is installed (Debian's apparmor; make tools installs it), and whole by
# AppArmor 4's parser where that one is older: parser4.sh fetches it, as
# root, from Debian 13's packages into bin/tools/apparmor4.
vet-apparmor:
	@configs/apparmor/parser4.sh $(BIN)/tools/apparmor4
	APPARMOR4=$(BIN)/tools/apparmor4 configs/apparmor/check.sh configs/apparmor/judge

# The judge builds for macOS and Windows, where bots run at sandbox level
# none (README.md, "Where it runs"): cmd/judge is built for each, go vet
# checks every package and its tests there, and the tests are compiled
# for macOS (after its go vet, which compiles what they need).
CROSS := darwin/amd64 darwin/arm64 windows/amd64
CROSS_VET := $(subst /,-,$(CROSS:%=vet-%))
cross-vet: $(CROSS_VET) vet-darwin-tests

$(CROSS_VET): vet-%:
	@echo "GOOS=$(word 1,$(subst -, ,$*)) GOARCH=$(word 2,$(subst -, ,$*)): go build ./cmd/judge, go vet ./..."
	@GOOS=$(word 1,$(subst -, ,$*)) GOARCH=$(word 2,$(subst -, ,$*)) $(GO) build -o /dev/null ./cmd/judge
	@GOOS=$(word 1,$(subst -, ,$*)) GOARCH=$(word 2,$(subst -, ,$*)) $(GO) vet ./...

vet-darwin-tests: vet-darwin-arm64
	@echo "GOOS=darwin GOARCH=arm64: go test ./..., built and not run (-exec true)"
	@GOOS=darwin GOARCH=arm64 $(GO) test -exec true ./... >/dev/null

.PHONY: $(VET) $(CROSS_VET) vet-darwin-tests

test: tools vet
	$(GO) test -race -count=1 -timeout 20m ./...

# Benchmarks: figures are ratios against a baseline measured in the same run.
bench: build bench-tools
	$(GO) test -run '^$$' -bench . -benchtime 3x -count 1 -timeout 30m ./...

# The Slurm path end to end on this machine (docs/scale-out.md). Needs root;
# not part of make test.
scale-check:
	configs/scale-check.sh

# The Containerfile built and used on this machine (docs/scale-out.md).
# Needs root; not part of make test.
container-check:
	configs/container-check.sh

# The Containerfile's image built and pushed to IMAGE (REGISTRY/judge),
# and named by its digest in the Kubernetes manifests (docs/scale-out.md).
.PHONY: k8s-image
k8s-image:
	IMAGE=$(IMAGE) configs/k8s-image.sh

# The sandbox on cgroup v2 only and Debian 12's kernel, in a VM
# (docs/sandbox.md). Needs root; not part of make test.
.PHONY: cgroup2-check
cgroup2-check:
	configs/cgroup2-check.sh

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
# A bot whose program was not built, or whose interpreter is not installed,
# is left out, and a game with fewer than two bots is skipped, saying so.
DEMO_OUT ?= results/demo
J := $(BIN)/judge

# $(call demo-bot,COMMAND[,FILES]) is COMMAND, quoted, where its program
# and FILES are there, and else "-MISSING:COMMAND", which demo-play leaves out.
demo-bot = "$(addsuffix :,$(addprefix -,$(firstword $(foreach n,$(firstword $(1)) $(2),\
	$(if $(shell { [ -e $(n) ] || command -v $(n); } >/dev/null 2>&1 && echo y),,$(n))))))$(1)"

# $(call demo-play,ARGS,BOTS): judge tournament ARGS with the BOTS there.
define demo-play
set --; for b in $(2); do case "$$b" in \
	-*) n=$${b%%:*}; n=$${n#-}; b=$${b#*:}; case $$n in "$$b") n="not built";; */*) n="$$n was not built";; \
		*) n="$$n is not installed";; esac; echo "left out: $$b ($$n)";; \
	*) set -- "$$@" "$$b";; esac; done; \
if [ $$# -lt 2 ]; then echo "skipped: it needs two bots"; else \
	printf '%s' "$(J) tournament $(1)"; printf ' "%s"' "$$@"; echo; \
	$(J) tournament $(1) "$$@"; fi
endef

demo-tictactoe = $(call demo-bot,$(BIN)/examples/gomoku/random) $(call demo-bot,$(BIN)/examples/gomoku/strong) \
	$(call demo-bot,python3 examples/gomoku/random_bot.py) \
	$(call demo-bot,java -cp $(BIN)/examples/gomoku RandomBot,$(BIN)/examples/gomoku/RandomBot.class)
demo-gomoku = $(call demo-bot,$(BIN)/examples/gomoku/random) $(call demo-bot,$(BIN)/examples/gomoku/strong) \
	$(call demo-bot,python3 examples/gomoku/random_bot.py)
demo-connect4 = $(call demo-bot,$(BIN)/examples/connect4/random) $(call demo-bot,$(BIN)/examples/connect4/alphabeta) \
	$(call demo-bot,python3 examples/connect4/random_bot.py)
demo-battleship = $(call demo-bot,$(BIN)/examples/battleship/random) $(call demo-bot,$(BIN)/examples/battleship/hunter) \
	$(call demo-bot,python3 examples/battleship/random_bot.py)
demo-othello = $(call demo-bot,$(BIN)/examples/othello/greedy) $(call demo-bot,python3 examples/othello/random_bot.py)
demo-splix = $(call demo-bot,$(BIN)/examples/splix/looper) $(call demo-bot,./$(BIN)/examples/splix/looper) \
	$(call demo-bot,python3 examples/splix/random_bot.py)

demo: build
	@rm -rf $(DEMO_OUT) && mkdir -p $(DEMO_OUT)
	@echo; echo "== the sandbox on this machine"; $(J) doctor
	@echo; echo "== tic-tac-toe: a round robin, 2 rounds, bots in C, Go, Python and Java"
	@$(call demo-play,--game tictactoe --rounds 2 --seed 1 --out $(DEMO_OUT)/tictactoe,$(demo-tictactoe))
	@echo; echo "== gomoku 15x15: a round robin"
	@$(call demo-play,--game gomoku --rounds 1 --seed 1 --out $(DEMO_OUT)/gomoku,$(demo-gomoku))
	@echo; echo "== connect four: a round robin, 2 rounds"
	@$(call demo-play,--game connect4 --rounds 2 --seed 1 --out $(DEMO_OUT)/connect4,$(demo-connect4))
	@echo; echo "== connect four as a plugin game (examples/games/connect4, its referee in WebAssembly): the same bots"
	@$(call demo-play,--game examples/games/connect4 --rounds 1 --seed 1 --out $(DEMO_OUT)/connect4-plugin,$(demo-connect4))
	@echo; echo "== othello, a game that is only a folder (examples/games/othello, its referee in WebAssembly): 2 rounds"
	@$(call demo-play,--game examples/games/othello --rounds 2 --seed 1 --out $(DEMO_OUT)/othello,$(demo-othello))
	@echo; echo "== battleship: a round robin, 2 rounds"
	@$(call demo-play,--game battleship --rounds 2 --seed 1 --out $(DEMO_OUT)/battleship,$(demo-battleship))
	@echo; echo "== splix: 3 players at once, random groups, 9 games"
	@$(call demo-play,--game splix-small --games 9 --seed 1 --out $(DEMO_OUT)/splix,$(demo-splix))
	@r=$$(ls $(DEMO_OUT)/tictactoe/replays/*.json 2>/dev/null | tail -1); [ -z "$$r" ] || { \
		echo; echo "== the last tic-tac-toe match, replayed"; echo "$(J) replay $$r"; $(J) replay $$r; }
	@r=$$(ls $(DEMO_OUT)/splix/replays/*.json 2>/dev/null | tail -1); [ -z "$$r" ] || { \
		echo; echo "== the last splix match, as a web page to open in a browser"; echo "$(J) view $$r"; $(J) view $$r; }
	@echo; echo "standings and replays are in $(DEMO_OUT)/; 'bin/judge serve $(DEMO_OUT)' shows them all in a browser"

clean:
	rm -rf $(BIN) results
