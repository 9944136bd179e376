package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"judge/games/catalog"
)

//go:embed templates/*.tmpl
var botTemplates embed.FS

// starterLang is how new-bot writes a starter bot in one language.
type starterLang struct {
	tmpl  string            // template file under templates/
	file  string            // the bot's source file in DIR
	extra map[string]string // other files: name → contents
	build string            // how to build it by hand, "" if nothing to build; %s is DIR
	run   string            // how to run it once built; %s is DIR
}

var starterLangs = map[string]starterLang{
	"c":      {tmpl: "c.tmpl", file: "bot.c", build: "gcc -O2 -o %[1]s/bot %[1]s/bot.c -lm", run: "%s/bot"},
	"cpp":    {tmpl: "cpp.tmpl", file: "bot.cpp", build: "g++ -O2 -std=gnu++20 -o %[1]s/bot %[1]s/bot.cpp", run: "%s/bot"},
	"go":     {tmpl: "go.tmpl", file: "main.go", extra: map[string]string{"go.mod": "module bot\n\ngo 1.21\n"}, build: "go build -C %[1]s -o bot .", run: "%s/bot"},
	"rust":   {tmpl: "rust.tmpl", file: "bot.rs", build: "rustc -O --edition 2021 -o %[1]s/bot %[1]s/bot.rs", run: "%s/bot"},
	"java":   {tmpl: "java.tmpl", file: "Bot.java", build: "javac -d %[1]s %[1]s/Bot.java", run: `"java -cp %s Bot"`},
	"python": {tmpl: "python.tmpl", file: "bot.py", run: `"python3 %s/bot.py"`},
}

// langAliases are other names of the languages.
var langAliases = map[string]string{"c++": "cpp", "cxx": "cpp", "golang": "go", "rs": "rust", "py": "python", "python3": "python"}

// starterGames are the games new-bot knows: the game's name (not the
// variant's) → its title and guide.
var starterGames = map[string]string{
	"gomoku":     "tic-tac-toe and gomoku",
	"connect4":   "Connect Four",
	"battleship": "Battleship",
	"splix":      "Splix",
}

func starterLangNames() []string {
	var out []string
	for k := range starterLangs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (m *Main) newBot(ctx context.Context, args []string) error {
	fs := m.newFlags("new-bot", "--game NAME --lang LANG [DIR]",
		"Writes a starter bot into DIR (default GAME-LANG): a program that plays legal\n"+
			"moves, asks every query the game answers and reads the answers, and shows where\n"+
			"to put a strategy. LANG is one of "+strings.Join(starterLangNames(), ", ")+".\n"+
			"It then prints how to build it and play it.")
	var (
		game = fs.String("game", "", "game (see 'judge games')")
		lang = fs.String("lang", "", "language: "+strings.Join(starterLangNames(), ", "))
	)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *game == "" || *lang == "" {
		return fmt.Errorf("%w: give --game and --lang", errUsage)
	}
	if len(pos) > 1 {
		return fmt.Errorf("%w: one directory at most, got %d", errUsage, len(pos))
	}
	v, err := catalog.Lookup(*game)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	title, ok := starterGames[v.Game.Name()]
	if !ok {
		return fmt.Errorf("%w: no starter bot for %s yet", errUsage, v.Name)
	}
	name := strings.ToLower(*lang)
	if a, ok := langAliases[name]; ok {
		name = a
	}
	l, ok := starterLangs[name]
	if !ok {
		return fmt.Errorf("%w: --lang %q: want one of %s", errUsage, *lang, strings.Join(starterLangNames(), ", "))
	}
	dir := v.Name + "-" + name
	if len(pos) == 1 {
		dir = pos[0]
	}
	files, err := renderStarter(v.Name, v.Game.Name(), title, name, dir)
	if err != nil {
		return err
	}
	for f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return fmt.Errorf("%s already exists: give another directory", filepath.Join(dir, f))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for f, b := range files {
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(m.Stdout, "wrote %s: a %s starter bot for %s\n\n", filepath.Join(dir, l.file), name, v.Name)
	fmt.Fprint(m.Stdout, howTo(v.Name, v.Game.Name(), l, dir))
	if _, err := exec.LookPath("judge"); err != nil {
		fmt.Fprintln(m.Stdout, notOnPath)
	}
	return nil
}

// notOnPath is what judge new-bot adds when the commands it prints,
// "judge …", would not be found.
const notOnPath = "(judge is not on your PATH: 'make install' in the judge's checkout puts it in ~/.local/bin;\n" +
	"or write the program's path for judge, such as bin/judge)"

// howTo says how to build, play and test a starter bot in dir.
func howTo(variant, game string, l starterLang, dir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Play it:   judge match --game %s %s %s   (builds it for you)\n", variant, dir, dir)
	fmt.Fprintf(&b, "Judge it:  judge tournament --game %s %s OTHER_BOT...\n", variant, dir)
	fmt.Fprintf(&b, "Better?    judge sprt --game %s OLD_VERSION %s\n", variant, dir)
	run := strings.Trim(fmt.Sprintf(l.run, dir), `"`)
	if l.build != "" {
		fmt.Fprintf(&b, "By hand:   %s, then run %s\n", fmt.Sprintf(l.build, dir), run)
	} else {
		fmt.Fprintf(&b, "By hand:   run %s\n", run)
	}
	fmt.Fprintf(&b, "The rules: docs/protocol/%s.md\n", game)
	return b.String()
}

// renderStarter makes the files of a starter bot: name → contents.
func renderStarter(variant, game, title, lang, dir string) (map[string][]byte, error) {
	l := starterLangs[lang]
	src, err := fs.ReadFile(botTemplates, "templates/"+l.tmpl)
	if err != nil {
		return nil, fmt.Errorf("starter for %s: %w", lang, err)
	}
	funcs := template.FuncMap{
		// prefix puts p before every line of s: a comment block.
		"prefix": func(p, s string) string {
			return p + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+p)
		},
	}
	t, err := template.New(l.tmpl).Delims("<%", "%>").Funcs(funcs).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("starter for %s: %w", lang, err)
	}
	how := howTo(variant, game, l, dir)
	var buf bytes.Buffer
	err = t.Execute(&buf, map[string]string{
		"Variant": variant, "Game": game, "Title": title, "Guide": game, "File": l.file,
		"HowTo": how,
	})
	if err != nil {
		return nil, fmt.Errorf("starter for %s: %w", lang, err)
	}
	if bytes.Contains(buf.Bytes(), []byte("<no value>")) {
		return nil, errors.New("starter template: a value is missing")
	}
	files := map[string][]byte{l.file: buf.Bytes()}
	for f, s := range l.extra {
		files[f] = []byte(s)
	}
	return files, nil
}
