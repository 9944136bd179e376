EXAMPLES += $(call needs,$(CC),gcc,bin/examples/battleship/random) bin/examples/battleship/hunter

bin/examples/battleship/random: examples/battleship/random.c
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $<

bin/examples/battleship/hunter: $(wildcard examples/battleship/hunter/*.go)
	@mkdir -p $(@D)
	$(GO) build -o $@ ./examples/battleship/hunter
