package tournament

import (
	"context"
	"slices"
	"sync"
	"testing"

	"judge/judge"
	"judge/judge/play"
)

// readied is an entrant that records that it was readied ahead.
type readied struct {
	judge.Entrant
	name string
	mu   *sync.Mutex
	got  *[]string
}

func (r readied) Prewarm(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.got = append(*r.got, r.name)
	return nil
}

// TestPrewarmOrder: prewarm readies as many bots as it is told, those
// that can play, the test bot first (named by its name or its argument).
func TestPrewarmOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	var all []*play.Contestant
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		c := &play.Contestant{Bot: play.Bot{Name: name, Arg: name + ".c"}, Entrant: readied{name: name, mu: &mu, got: &got}}
		if name == "b" {
			c.Err, c.Entrant = context.Canceled, nil // cannot play
		}
		all = append(all, c)
	}
	for _, tc := range []struct {
		n       int
		testBot string
		want    []string
	}{
		{2, "", []string{"a", "c"}},
		{2, "e", []string{"a", "e"}},
		{1, "e.c", []string{"e"}},
		{9, "", []string{"a", "c", "d", "e"}},
	} {
		got = nil
		prewarm(context.Background(), all, tc.n, tc.testBot)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("prewarm(%d, %q) readied %q; want %q", tc.n, tc.testBot, got, tc.want)
		}
	}
}
