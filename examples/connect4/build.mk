EXAMPLES += $(call needs,$(CC),gcc,bin/examples/connect4/random) $(call needs,$(RUSTC),rustc,bin/examples/connect4/alphabeta)

bin/examples/connect4/random: examples/connect4/random.c
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $<

bin/examples/connect4/alphabeta: examples/connect4/alphabeta.rs
	@mkdir -p $(@D)
	$(or $(RUSTC),rustc) -O -o $@ $<
