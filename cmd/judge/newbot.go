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
	"regexp"
	"sort"
	"strings"
	"text/template"

	"judge/games"
	"judge/games/catalog"
)

//go:embed templates/*.tmpl templates/generic/*.tmpl
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
			"For a game that gives no code of its own in LANG, the bot asks the game's\n"+
			"one-line queries and plays the game's example move every turn.\n"+
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
		return err // a game that cannot be used, not a wrong command line (exit 1)
	}
	name := strings.ToLower(*lang)
	if a, ok := langAliases[name]; ok {
		name = a
	}
	l, ok := starterLangs[name]
	if !ok {
		return fmt.Errorf("%w: --lang %q: want one of %s", errUsage, *lang, strings.Join(starterLangNames(), ", "))
	}
	st, ok := v.Game.(games.Starter)
	if !ok {
		return fmt.Errorf("no starter bot for %s yet: the game gives none (games.Starter)", v.Name)
	}
	dir := v.Name + "-" + name
	if len(pos) == 1 {
		dir = pos[0]
	}
	// The commands the starter names give a plugin game as its folder,
	// as it was given: the judge finds it by that.
	variant := v.Name
	if v.Dir != "" {
		variant = *game
	}
	files, err := renderStarter(variant, v.Game.Name(), st.Starter(), name, dir)
	if err != nil {
		return err
	}
	if err := writeNewFiles(dir, files); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "wrote %s: a %s starter bot for %s\n\n", filepath.Join(dir, l.file), name, v.Name)
	fmt.Fprint(m.Stdout, howTo(variant, v.Game.Name(), l, dir))
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

// snakeName matches a function's name in braces in StarterSpec.Calls.
var snakeName = regexp.MustCompile(`\{([a-z][a-z0-9_]*)\}`)

// strategyCalls says which functions of a starter bot in lang hold its
// strategy (calls, as a game's StarterSpec.Calls says it), by their names
// in that language (chooseMove in Go and Java, choose_move elsewhere).
func strategyCalls(calls, lang string) string {
	return snakeName.ReplaceAllStringFunc(calls, func(m string) string {
		snake := m[1 : len(m)-1]
		if lang != "go" && lang != "java" {
			return snake
		}
		parts := strings.Split(snake, "_")
		for i := 1; i < len(parts); i++ {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
		return strings.Join(parts, "")
	})
}

// renderStarter makes the files of a starter bot: name → contents. The
// game's part of the bot (spec.Code) goes into the language's template.
func renderStarter(variant, game string, spec games.StarterSpec, lang, dir string) (map[string][]byte, error) {
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
	code, does, calls := spec.Code[lang], "plays legal moves, at random", spec.Calls
	if code == "" {
		if code, err = genericCode(spec, lang); err != nil {
			return nil, fmt.Errorf("no %s starter bot for %s: %w", lang, variant, err)
		}
		does, calls = "asks the game's queries and plays an example move", "calls {choose_move}: put your strategy there."
	}
	code = "\n\n" + strings.TrimRight(code, " \t\r\n")
	err = t.Execute(&buf, map[string]any{
		"Variant": variant, "Game": game, "Title": spec.Title, "File": l.file, "Does": does,
		"HowTo": how, "Calls": strategyCalls(calls, lang),
		"Code": code, "AskList": strings.Contains(code, "askList("),
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

// plainText is what a starter writes into its source as it is, in a
// string or a comment of any language: printable ASCII with no quote, no
// backslash, no end of a comment.
var plainText = regexp.MustCompile(`^[ !#-\[\]-~]*$`)

// genericCode is the game's part of a starter bot in lang for a game
// that has none of its own: it asks the game's queries (spec.Queries,
// each answered in one line) and plays spec.Example every turn.
func genericCode(spec games.StarterSpec, lang string) (string, error) {
	if len(spec.Queries) == 0 || len(spec.Example) == 0 {
		return "", errors.New("the game names no queries or no example move for a starter")
	}
	for _, w := range append(append([]string{spec.Title, spec.Move}, spec.Queries...), spec.Example...) {
		if !plainText.MatchString(w) || strings.Contains(w, "*/") {
			return "", fmt.Errorf("%q cannot be written into a program (printable ASCII, no quotes, no backslashes)", w)
		}
	}
	name := "templates/generic/" + starterLangs[lang].tmpl
	src, err := fs.ReadFile(botTemplates, name)
	if err != nil {
		return "", err
	}
	quote := func(w string) string { return `"` + w + `"` }
	funcs := template.FuncMap{
		"quote": quote,
		// list is the words quoted, separated by commas.
		"list": func(ws []string) string {
			q := make([]string, len(ws))
			for i, w := range ws {
				q[i] = quote(w)
			}
			return strings.Join(q, ", ")
		},
	}
	t, err := template.New(name).Delims("<%", "%>").Funcs(funcs).Parse(string(src))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, spec); err != nil {
		return "", err
	}
	return b.String(), nil
}

// writeNewFiles writes files (names relative to dir) into dir, made if
// need be; it writes none when one of them exists already.
func writeNewFiles(dir string, files map[string][]byte) error {
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
	return nil
}
