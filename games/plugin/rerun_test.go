package plugin_test

import (
	"testing"

	"judge/games/plugin"
	"judge/games/plugin/plugintest"
	"judge/judge"
	"judge/judge/judgetest"
)

// TestRerunKeepsOrders: judge debug's rerun of a plugin game asks
// whether lines are the protocol's (Protocol) in the middle of a turn;
// the referee's orders of the seat, started afresh for that look, still
// hold the turn's commands at #END.
func TestRerunKeepsOrders(t *testing.T) {
	g, err := plugin.Load(plugintest.Connect4(t, false), plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	random := judgetest.Spec(t, "random", "examples/connect4/random.c")
	res := judgetest.PlayGame(t, g, 1, nil, random, random)
	r, err := judge.NewRerun(g, res.Replay, 0)
	if err != nil {
		t.Fatal(err)
	}
	move := res.Replay.Turns[0].Moves[0].Move[0]
	if s, err := r.Line(move); err != nil || s.Kind != judge.LineCommand || s.Note != "" {
		t.Fatalf("%s: %+v %v", move, s, err)
	}
	if !r.Protocol("DropDisc 1") || r.Protocol("Hello there") {
		t.Errorf("Protocol: DropDisc is a command, Hello is not")
	}
	s, err := r.Line("#END")
	if err != nil || s.Kind != judge.LineEnd || s.Note != "" {
		t.Errorf("#END after %s: %+v %v; want the recorded move, no note", move, s, err)
	}
}
