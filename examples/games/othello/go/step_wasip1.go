package main

// refereeStep answers one request: the judge calls it for each when the
// referee is built as a reactor (GOOS=wasip1 GOARCH=wasm go build
// -buildmode=c-shared), the request on stdin, the answer on stdout.
//
//go:wasmexport referee_step
func refereeStep() { step() }
