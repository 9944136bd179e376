// Package protocol holds the bot authors' guides, one per game (the
// Markdown files beside this one), for the programs that show them: an
// arena's page links its game's.
package protocol

import "embed"

//go:embed *.md
var guides embed.FS

// Guide is the guide of game, by the name the game gives itself
// (games.Game.Name: gomoku, not tictactoe); false when it has none.
func Guide(game string) ([]byte, bool) {
	b, err := guides.ReadFile(game + ".md")
	return b, err == nil
}
