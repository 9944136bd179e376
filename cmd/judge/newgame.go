package main

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"text/template"
)

//go:embed templates/game/*.tmpl
var gameTemplates embed.FS

// gameLang is how new-game writes a game's referee in one language:
// template file under templates/game → the file it becomes.
type gameLang struct {
	files map[string]string
	build string // how to build the referee, "" if nothing to build; %s is DIR
}

var gameLangs = map[string]gameLang{
	"go": {
		files: map[string]string{"game.toml.tmpl": "game.toml", "main.go.tmpl": "main.go", "step_wasip1.go.tmpl": "step_wasip1.go", "go.mod.tmpl": "go.mod"},
		build: "cd %s && GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o referee.wasm .",
	},
	"python": {files: map[string]string{"game.toml.tmpl": "game.toml", "referee.py.tmpl": "referee.py"}},
}

func (m *Main) newGame(ctx context.Context, args []string) error {
	fs := m.newFlags("new-game", "--lang go|python DIR",
		"Writes a game into DIR to start from: game.toml (its parameters, queries, commands,\n"+
			"how it is played and drawn) and a referee in Go or Python that holds its rules. The\n"+
			"game written is complete and small (take 1 to 3 stones from a pile; whoever takes the\n"+
			"last wins); comments mark each place to change. It then prints how to build, check\n"+
			"and play it.")
	lang := fs.String("lang", "", "the referee's language: go (built for WebAssembly) or python")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	name := strings.ToLower(*lang)
	if a, ok := langAliases[name]; ok {
		name = a
	}
	l, ok := gameLangs[name]
	if !ok {
		return fmt.Errorf("%w: --lang %q: want go or python", errUsage, *lang)
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: give one directory, got %d", errUsage, len(pos))
	}
	dir := pos[0]
	files, err := renderGame(gameName(dir), name, dir)
	if err != nil {
		return err
	}
	if err := writeNewFiles(dir, files); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "wrote %s: the game %s, its referee in %s\n\n", dir, gameName(dir), name)
	line := func(label, cmd string) { fmt.Fprintf(m.Stdout, "%-11s %s\n", label, cmd) }
	if l.build != "" {
		line("Build it:", fmt.Sprintf(l.build, dir))
	}
	line("Check it:", "judge game check "+dir)
	line("Play it:", "judge play --game "+dir)
	line("A bot:", "judge new-bot --game "+dir+" --lang python mybot")
	return nil
}

// gameName is the name a new game in dir takes: the folder's name, in the
// letters game names have ([a-z0-9-]).
func gameName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(filepath.Clean(dir))) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	if n := strings.Trim(b.String(), "-"); n != "" {
		return n
	}
	return "mygame"
}

// renderGame makes the files of a new game: name → contents.
func renderGame(name, lang, dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	for tmpl, file := range gameLangs[lang].files {
		src, err := fs.ReadFile(gameTemplates, "templates/game/"+tmpl)
		if err != nil {
			return nil, fmt.Errorf("new game in %s: %w", lang, err)
		}
		t, err := template.New(tmpl).Delims("<%", "%>").Parse(string(src))
		if err != nil {
			return nil, fmt.Errorf("new game in %s: %w", lang, err)
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, map[string]string{"Name": name, "Lang": lang, "Dir": dir}); err != nil {
			return nil, fmt.Errorf("new game in %s: %w", lang, err)
		}
		files[file] = buf.Bytes()
	}
	return files, nil
}
