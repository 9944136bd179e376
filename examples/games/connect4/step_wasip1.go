package main

// refereeStep answers one request: the judge calls it for each when the
// referee is built as a reactor (GOOS=wasip1 GOARCH=wasm go build
// -buildmode=c-shared), with the request on stdin (docs/games.md).
//
//go:wasmexport referee_step
func refereeStep() { step() }
