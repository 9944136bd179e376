package judge_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// TestImportRules keeps the shape of the program: games are pure rules
// (no I/O, clocks, processes or global randomness), the sandbox knows
// nothing of games or of the judge, and nothing imports the command.
func TestImportRules(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps=false", "-json", "./...")
	cmd.Dir = judgetest.Root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		ImportPath string
		Imports    []string
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []pkg
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 5 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	pure := []string{"os", "os/exec", "net", "net/http", "time", "math/rand", "syscall", "io/ioutil", "golang.org/x/sys/unix", "judge/judge", "judge/sandbox"}
	for _, p := range pkgs {
		var banned []string
		switch {
		case p.ImportPath == "judge/games/gametest" || p.ImportPath == "judge/games/catalog":
			banned = []string{"os/exec", "net", "judge/judge", "judge/sandbox"}
		case p.ImportPath == "judge/games" || strings.HasPrefix(p.ImportPath, "judge/games/"):
			banned = pure
		case strings.HasPrefix(p.ImportPath, "judge/sandbox"):
			banned = []string{"judge/games", "judge/judge"}
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "judge/cmd") {
				t.Errorf("%s imports %s", p.ImportPath, imp)
			}
			for _, b := range banned {
				if imp == b || strings.HasPrefix(imp, b+"/") && b != "os" && b != "net" && b != "math/rand" {
					t.Errorf("%s imports %s", p.ImportPath, imp)
				}
			}
		}
	}
}
