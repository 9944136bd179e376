# Plugin games (docs/games.md): each Go referee compiled to WebAssembly
# beside its game.toml. referee.wasm is a build product (.gitignore); the
# tests build their own copy.
EXAMPLES += examples/games/connect4/referee.wasm

examples/games/connect4/referee.wasm: $(wildcard examples/games/connect4/*.go)
	cd $(@D) && GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 $(GO) build -buildmode=c-shared -o referee.wasm .
