EXAMPLES += $(call needs,$(CC),gcc,bin/examples/gomoku/random) bin/examples/gomoku/strong

bin/examples/gomoku/random: examples/gomoku/random.c
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $<

bin/examples/gomoku/strong: $(wildcard examples/gomoku/strong/*.go)
	@mkdir -p $(@D)
	$(GO) build -o $@ ./examples/gomoku/strong

EXAMPLES += $(call needs,javac,default-jdk-headless,bin/examples/gomoku/RandomBot.class)

bin/examples/gomoku/RandomBot.class: examples/gomoku/RandomBot.java
	@mkdir -p $(@D)
	javac -d $(@D) $<
