package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"judge/judge/judgetest"
)

// hostileStderr is what the hostile bots write on stderr, in their names
// and in their lines: a window title, a clipboard write (OSC 52), colours,
// a C1 control sequence introducer (encoded, and a bare byte), a bidi
// override, a carriage return, a bell.
const hostileStderr = `"\x1b]0;PWNED\x07\x1b]52;c;cHduZWQ=\x07\x1b[31mred\x1b[0m \u009b2J \u202eevil\rover\x07"`

// hostileBots writes the bots of the escape tests into dir: crash.py
// writes escape sequences on stderr and exits on its first turn; lie.py
// writes them as a protocol line. The crasher's file name holds them too
// (a bot's name is its file's), and a third bot's name starts like a
// spreadsheet formula.
func hostileBots(t *testing.T, dir string) (crash, lie, formula string) {
	t.Helper()
	crashSrc := "import sys\n" +
		"sys.stderr.write(" + hostileStderr + ")\n" +
		"sys.stderr.flush()\n" +
		"sys.stderr.buffer.write(b'\\x9b6n bare C1\\n')\n" +
		"sys.stderr.flush()\n" +
		"print('Params')\ninput()\nsys.exit(3)\n"
	lieSrc := "import sys\n" +
		"print('Params')\ninput()\n" +
		"sys.stdout.write(" + hostileStderr + " + '\\n')\n" +
		"sys.stdout.flush()\n" +
		"input()\n"
	random, err := os.ReadFile(filepath.Join(judgetest.Root(t), "examples/gomoku/random_bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	crash = filepath.Join(dir, "evil\x1b]0;NAME\x07\x1b[2J.py")
	lie = filepath.Join(dir, "lie.py")
	formula = filepath.Join(dir, "=HYPERLINK(1).py")
	for path, src := range map[string][]byte{crash: []byte(crashSrc), lie: []byte(lieSrc), formula: random} {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return crash, lie, formula
}

// assertPrintable fails if text holds a character a terminal acts on:
// a C0 control but newline and tab, DEL, a C1 control, a bidi control, or
// bytes that are not UTF-8.
func assertPrintable(t *testing.T, what, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		t.Errorf("%s is not UTF-8: %q", what, text)
	}
	for i, r := range text {
		bad := r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if bad {
			t.Errorf("%s holds %U at byte %d: %q", what, r, i, text[max(0, i-40):min(len(text), i+40)])
			return
		}
	}
}

// TestEscapesDoNotReachTheOperator: what bots write (stderr, protocol
// lines, names) reaches the terminal, replays played back, standings.md
// and standings.csv escaped, and standings.json exact.
func TestEscapesDoNotReachTheOperator(t *testing.T) {
	judgetest.NeedTools(t, "python3")
	dir := openTempDir(t)
	crash, lie, formula := hostileBots(t, dir)
	py := func(p string) string { return "python3 '" + p + "'" }

	// judge match: the crash's reason quotes its stderr.
	r1, r2 := filepath.Join(dir, "crash.json"), filepath.Join(dir, "lie.json")
	code, out, errs := run(t, "match", "--game", "tictactoe", "--seed", "1", "--replay", r1, py(crash), py(formula))
	if code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	assertPrintable(t, "judge match's output", out+errs)
	for _, want := range []string{`evil\x1b]0;NAME\x07\x1b[2J`, `crash`, `stderr: \x1b]0;PWNED\x07\x1b]52;c;cHduZWQ=\x07\x1b[31mred\x1b[0m \u009b2J \u202eevil\rover\x07`, `?6n bare C1`} {
		if !strings.Contains(out, want) {
			t.Errorf("judge match's output does not show %s:\n%s", want, out)
		}
	}
	code, out, errs = run(t, "match", "--game", "tictactoe", "--seed", "1", "--trace", "--replay", r2, py(lie), py(formula))
	if code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	assertPrintable(t, "judge match's output", out+errs)

	// judge replay, with the transcripts.
	for _, r := range []string{r1, r2} {
		code, out, errs := run(t, "replay", "--trace", r)
		if code != 0 {
			t.Fatalf("replay %s: exit %d: %s", r, code, errs)
		}
		assertPrintable(t, "judge replay's output", out+errs)
		if r == r2 && !strings.Contains(out, `bot> \x1b]0;PWNED\x07`) {
			t.Errorf("judge replay --trace does not show the line escaped:\n%s", out)
		}
	}

	// judge tournament: its output and the standings.
	res := filepath.Join(dir, "out")
	code, out, errs = run(t, "tournament", "--game", "tictactoe", "--seed", "2", "--jobs", "2", "--out", res,
		py(crash), py(lie), py(formula))
	if code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errs)
	}
	assertPrintable(t, "judge tournament's output", out+errs)
	if !strings.Contains(out, "last failure") || !strings.Contains(out, `\x1b]52;c;`) {
		t.Errorf("the standings printed do not show the last failure escaped:\n%s", out)
	}
	for _, name := range []string{"standings.md", "standings.csv"} {
		b, err := os.ReadFile(filepath.Join(res, name))
		if err != nil {
			t.Fatal(err)
		}
		assertPrintable(t, name, string(b))
		if !strings.Contains(string(b), `evil\x1b]0;NAME\x07\x1b[2J`) {
			t.Errorf("%s does not name the bot, escaped:\n%s", name, b)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(res, "standings.csv"))
	if !strings.Contains(string(csv), ",'=HYPERLINK(1),") || strings.Contains(string(csv), ",=HYPERLINK") {
		t.Errorf("standings.csv: a name that starts with = is not defused:\n%s", csv)
	}
	var st struct{ Standings []struct{ Name string } }
	b, _ := os.ReadFile(filepath.Join(res, "standings.json"))
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	exact := false
	for _, s := range st.Standings {
		exact = exact || s.Name == "evil\x1b]0;NAME\x07\x1b[2J"
	}
	if !exact {
		t.Errorf("standings.json does not keep the name exactly: %+v", st.Standings)
	}
}

// FuzzReplay: whatever a replay file holds, judge replay neither panics
// nor prints a control character.
func FuzzReplay(f *testing.F) {
	good := `{"version":1,"game":"tictactoe","params":{"n":3,"k":3},"seed":1,"bots":[{"name":"a\u001b]0;x\u0007"},{"name":"b"}],` +
		`"turns":[{"turn":1,"moves":[{"seat":0,"move":["PlaceSymbol 0 0"],"status":"ok"}]},` +
		`{"turn":2,"moves":[{"seat":1,"move":null,"status":"crash\u001b[2J","reason":"x\u009by"}]}],` +
		`"outcome":{"winner":0,"reason":"seat 1 \u0007","players":[{"name":"a","status":"ok","score":1},{"name":"b\r","status":"crash","score":0}]}}`
	f.Add([]byte(good))
	f.Add([]byte(strings.Replace(good, `"bots":[{"name":"a\u001b]0;x\u0007"},{"name":"b"}]`, `"bots":[]`, 1)))
	f.Add([]byte(strings.Replace(good, `"bots":[{"name":"a\u001b]0;x\u0007"},{"name":"b"}]`, `"bots":[{"name":"a"}]`, 1)))
	f.Add([]byte(strings.Replace(good, `"winner":0`, `"winner":5`, 1)))
	f.Add([]byte(`{"version":1,"game":"tictactoe","bots":null,"turns":null}`))
	f.Add([]byte(`{"version":1,"game":"splix-small","params":{"players":3},"bots":[{},{}]}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "r.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := run(t, "replay", "--trace", path)
		if code != 0 && code != 1 {
			t.Errorf("exit %d: %s", code, errs)
		}
		assertPrintable(t, "judge replay's output", out+errs)
	})
}

// TestReplayWithoutBots: a replay whose bots do not fill the game's seats
// is an error that says so.
func TestReplayWithoutBots(t *testing.T) {
	for bots, want := range map[string]string{`[]`: "0 bots for the game's 2 seats", `[{"name":"a"}]`: "1 bots for the game's 2 seats"} {
		path := filepath.Join(t.TempDir(), "r.json")
		os.WriteFile(path, []byte(`{"version":1,"game":"tictactoe","seed":1,"bots":`+bots+`,`+
			`"turns":[{"turn":1,"moves":[{"seat":0,"move":["PlaceSymbol 0 0"],"status":"ok"}]}],"outcome":{"winner":-1}}`), 0o644)
		code, _, errs := run(t, "replay", path)
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("bots %s: exit %d, %q; want 1 and %q", bots, code, errs, want)
		}
	}
}
