EXAMPLES += $(call needs,$(CC),gcc,bin/examples/othello/greedy) examples/games/othello/referee.wasm

bin/examples/othello/greedy: examples/othello/greedy.c
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $<

# The Othello plugin's referee, built for WebAssembly beside its game.toml.
examples/games/othello/referee.wasm: $(wildcard examples/games/othello/go/*.go)
	GOOS=wasip1 GOARCH=wasm $(GO) build -buildmode=c-shared -o $@ ./examples/games/othello/go
