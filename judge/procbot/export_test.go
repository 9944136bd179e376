package procbot

import "judge/sandbox"

// ProcessOf is the sandboxed process of a player, for the tests.
func ProcessOf(p *Player) *sandbox.Process { return p.proc }
