package web_test

import (
	"strings"
	"testing"

	"judge/games/plugin/plugintest"
	"judge/judge/arena"
	"judge/judge/arena/web"
)

// An arena of a plugin game says the game's name, not its folder, and
// serves its guide: here the one made from its game.toml.
func TestPluginGuide(t *testing.T) {
	game := plugintest.Connect4(t, false)
	ta := newArena(t, arena.Config{Game: game, References: []string{}}, web.Options{})
	var a struct{ Game, Rules, Guide string }
	ta.get(t, "", "/api/arena").json(t, &a)
	if a.Game != "connect4-plugin" || a.Rules != "connect4-plugin" || a.Guide != "/rules" {
		t.Errorf("/api/arena: %+v", a)
	}
	r := ta.get(t, "", "/rules")
	if r.code != 200 || !strings.HasPrefix(string(r.body), "# connect4-plugin") || !strings.Contains(string(r.body), "DropDisc") || strings.Contains(string(r.body), game) {
		t.Errorf("/rules: %d %.200s", r.code, r.body)
	}
}
