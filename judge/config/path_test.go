package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPaths: a file's paths resolve from its folder; absolute paths, URLs,
// programs on PATH and options are unchanged.
func TestPaths(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "configs")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "here.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(sub, "t.toml")
	for _, c := range []struct{ in, path, bot string }{
		{"", "", ""},
		{"../results/t", dir + "/results/t", dir + "/results/t"},
		{"out", sub + "/out", "out"}, // a bot's word without a slash is a path only where it names a file
		{"/abs/x", "/abs/x", "/abs/x"},
		{"here.py", sub + "/here.py", sub + "/here.py"},
		{"python3 ../bots/a.py", "", "python3 " + dir + "/bots/a.py"},
		{"python3 here.py --level 3", "", "python3 " + sub + "/here.py --level 3"},
		{"java -cp ../bin Bot", "", "java -cp " + dir + "/bin Bot"},
		{"splix-java:../bots/x.java", "", "splix-java:" + dir + "/bots/x.java"},
		{"ruby-contest:p.rb", "", "ruby-contest:p.rb"},
		{"http://127.0.0.1:8080/bot.php", "", "http://127.0.0.1:8080/bot.php"},
		{"python3 'my bot.py'", "", "python3 'my bot.py'"},
		{"looper", "", "looper"},
	} {
		if c.path != "" || c.in == "" {
			if got := Path(file, c.in); got != c.path {
				t.Errorf("Path(%q) = %q, want %q", c.in, got, c.path)
			}
		}
		if got := BotPath(file, c.in); got != c.bot {
			t.Errorf("BotPath(%q) = %q, want %q", c.in, got, c.bot)
		}
	}
	// A file given by a relative path gives relative paths, and a program
	// in its folder keeps a slash: it is not looked up on PATH.
	if got := Path("t.toml", "bot"); got != "./bot" {
		t.Errorf(`Path("t.toml", "bot") = %q, want "./bot"`, got)
	}
	if got := Path("configs/t.toml", "../results/x"); got != "results/x" {
		t.Errorf(`Path("configs/t.toml", "../results/x") = %q, want "results/x"`, got)
	}
}
