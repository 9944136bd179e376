EXAMPLES += bin/examples/splix/looper

bin/examples/splix/looper: $(wildcard examples/splix/looper/*.go)
	@mkdir -p $(@D)
	$(GO) build -o $@ ./examples/splix/looper
