// Package plugintest builds the example plugin games for tests: their Go
// referees compiled to WebAssembly into a copy of their folder.
package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Root is the module's root folder.
func Root(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Connect4 copies examples/games/connect4 to a new folder, builds its
// referee.wasm there, a reactor (GOOS=wasip1 GOARCH=wasm go build
// -buildmode=c-shared), and returns the folder. With native, it also
// builds the referee as a program, referee.
func Connect4(t testing.TB, native bool) string {
	t.Helper()
	src := filepath.Join(Root(t), "examples", "games", "connect4")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(src, "game.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "game.toml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	Build(t, src, filepath.Join(dir, "referee.wasm"), "wasip1", "wasm", Reactor)
	if native {
		Build(t, src, filepath.Join(dir, "referee"), runtime.GOOS, runtime.GOARCH)
	}
	return dir
}

// Reactor is the flag that builds a Go referee for wasip1 as a reactor
// (it exports referee_step), as docs/games.md says to; without it, it is
// a WASI command.
const Reactor = "-buildmode=c-shared"

// Build builds the Go main package in src to out for goos/goarch, with
// the go build flags given.
func Build(t testing.TB, src, out, goos, goarch string, flags ...string) {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", out, ".")...)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s for %s/%s: %v\n%s", src, goos, goarch, err, b)
	}
}

// Othello copies examples/games/othello twice, into new folders: wasm,
// its Go referee (go/) built to WebAssembly as game.toml says, and
// process, its game.toml run by referee.py (command = ["python3",
// "referee.py"]).
func Othello(t testing.TB) (wasm, process string) {
	t.Helper()
	src := filepath.Join(Root(t), "examples", "games", "othello")
	data, py := bothReferees(t, src)
	wasm, process = folder(t), folder(t)
	write(t, filepath.Join(wasm, "game.toml"), data)
	Build(t, filepath.Join(src, "go"), filepath.Join(wasm, "referee.wasm"), "wasip1", "wasm", Reactor)
	write(t, filepath.Join(process, "game.toml"),
		[]byte(strings.Replace(string(data), "\n"+wasmLine+"\n", "\n"+`command = ["python3", "referee.py"]`+"\n", 1)))
	write(t, filepath.Join(process, "referee.py"), py)
	return wasm, process
}

// folder is a new folder others may read: a sandboxed referee runs as
// nobody when the tests run as root.
func folder(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for p := dir; p != os.TempDir() && p != "/" && p != "."; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Connect4Python copies examples/games/connect4 to a new folder with its
// Python referee as the game's (command = ["python3", "referee.py"]).
func Connect4Python(t testing.TB) string {
	t.Helper()
	src := filepath.Join(Root(t), "examples", "games", "connect4")
	data, py := bothReferees(t, src)
	dir := folder(t)
	write(t, filepath.Join(dir, "game.toml"),
		[]byte(strings.Replace(string(data), "\n"+wasmLine+"\n", "\n"+`command = ["python3", "referee.py"]`+"\n", 1)))
	write(t, filepath.Join(dir, "referee.py"), py)
	return dir
}

// wasmLine is the line of an example game.toml that names its wasm
// referee, which a copy replaces to run its Python one.
const wasmLine = `wasm = "referee.wasm"`

// bothReferees reads the game.toml of the example game in src, which
// names its wasm referee (wasm = "referee.wasm"), and its Python one.
func bothReferees(t testing.TB, src string) (gameTOML, refereePy []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(src, "game.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\n"+wasmLine+"\n") {
		t.Fatalf("%s/game.toml has no line %s", src, wasmLine)
	}
	py, err := os.ReadFile(filepath.Join(src, "referee.py"))
	if err != nil {
		t.Fatal(err)
	}
	return data, py
}
