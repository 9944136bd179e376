EXAMPLES += bin/examples/connect4/random bin/examples/connect4/alphabeta

bin/examples/connect4/random: examples/connect4/random.c
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $<

bin/examples/connect4/alphabeta: examples/connect4/alphabeta.rs
	@mkdir -p $(@D)
	rustc -O -o $@ $<
