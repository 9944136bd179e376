package games

import (
	"io/fs"
	"path"
	"strings"
)

// Starter is implemented by games that `judge new-bot` writes starter
// bots for.
type Starter interface {
	Starter() StarterSpec
}

// StarterSpec is what a starter bot of a game needs to be written.
type StarterSpec struct {
	// Title names the game in the starter's first line: "Connect Four".
	Title string
	// Queries are the queries a starter asks every turn, as it writes
	// them, each answered in one line: "CurrentTurn", "SymbolAt 1 1".
	Queries []string
	// Move is one line saying what a legal move is, as a command:
	// "DropDisc c, c a column that is not full".
	Move string
	// Example is the commands of a legal first move with the game's
	// default parameters: what a starter written from Queries alone (for
	// a language the game has no Code in) plays.
	Example []string
	// Calls says which functions of the starter hold its strategy, their
	// names in braces and snake case ("calls {choose_move}: put your
	// strategy there."); each language writes a name its own way. It
	// may be "" for a game with no Code: new-bot's starter written from
	// Queries has one such function, choose_move.
	Calls string
	// Code is the game's part of a starter bot, by language (c, cpp, go,
	// java, python, rust): the source that reads the queries into a
	// state, holds the strategy's functions and plays a turn. new-bot
	// writes it into the language's frame (the random generator, the
	// helpers that ask queries, the loop over turns).
	Code map[string]string
}

// StarterCode reads a game's parts of starter bots from the files
// starter/LANG.txt of fsys (a game's embedded files): LANG → the source.
func StarterCode(fsys fs.FS) map[string]string {
	names, _ := fs.Glob(fsys, "starter/*.txt")
	out := make(map[string]string, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			continue
		}
		out[strings.TrimSuffix(path.Base(n), ".txt")] = string(b)
	}
	return out
}
