package main

// refereeStep serves one request when built as a reactor.
//
//go:wasmexport referee_step
func refereeStep() { step() }
