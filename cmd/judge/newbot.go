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
		game = fs.String("game", "", "game (see 'judge games'), or a plugin game's folder")
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

// howTo says where a starter bot's rules are, and how to play, watch,
// debug, judge and build the bot in dir.
func howTo(variant, game string, l starterLang, dir string) string {
	run := strings.Trim(fmt.Sprintf(l.run, dir), `"`)
	var b strings.Builder
	line := func(label, cmd, why string) {
		fmt.Fprintf(&b, "%-11s %s", label, cmd)
		if why != "" {
			fmt.Fprintf(&b, "   (%s)", why)
		}
		b.WriteByte('\n')
	}
	line("The rules:", "judge help protocol "+variant, "every query and command, from this program")
	line("Try it:", fmt.Sprintf("judge play --game %s %s", variant, dir), "you against it; --web in a browser")
	line("Play it:", fmt.Sprintf("judge match --game %s --replay r.json --trace %s %s", variant, dir, dir), "builds it for you")
	line("Watch it:", "judge view r.json", "writes r.html: the game turn by turn, what each bot read and wrote")
	line("Why?", "judge explain r.json", "how the game ended, and whose fault")
	line("Debug it:", "judge debug r.json --seat S --turn N -- "+run, "seat S's turn N played again by your bot, built by hand")
	line("Judge it:", fmt.Sprintf("judge tournament --game %s %s OTHER_BOT...", variant, dir), "")
	line("Better?", fmt.Sprintf("judge sprt --game %s OLD_VERSION %s", variant, dir), "")
	if l.build != "" {
		line("By hand:", fmt.Sprintf("%s, then run %s", fmt.Sprintf(l.build, dir), run), "")
	} else {
		line("By hand:", "run "+run, "")
	}
	return b.String()
}

// strategyCalls says which functions of a starter bot in lang hold its
// strategy, by their names in that language (chooseMove in Go and Java,
// choose_move elsewhere).
func strategyCalls(game, lang string) string {
	name := func(snake string) string {
		if lang != "go" && lang != "java" {
			return snake
		}
		parts := strings.Split(snake, "_")
		for i := 1; i < len(parts); i++ {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
		return strings.Join(parts, "")
	}
	if game == "battleship" {
		return "calls " + name("place_fleet") + " on the first turn (put your placement there)\n" +
			"and " + name("choose_shot") + " on every other (put your strategy there)."
	}
	return "calls " + name("choose_move") + ": put your strategy there."
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
		"Variant": variant, "Game": game, "Title": title, "File": l.file,
		"HowTo": how, "Calls": strategyCalls(game, lang),
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
