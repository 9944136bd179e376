package splixjava_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/judge/splixjava"
)

// BenchmarkFirstTurn measures the first turn of a Java player
// (testdata/surveyor against the looper, Splix 24×24, 2 players, 3
// turns): its wall-clock and CPU time, which include the JVM's start,
// with the build's class-data-sharing archive and without it (the class
// path the build's classes, as before the archive), one match of each
// back to back in every iteration. Metrics: the medians of each, and of
// the iterations' ratios of the time with the archive to the time
// without ("cds/none-wall", "cds/none-cpu").
func BenchmarkFirstTurn(b *testing.B) {
	root, langs, cache := javaSetUp(b)
	ctx := context.Background()
	shared, _, err := langs.SplixJavaSpec(ctx, splixjava.Prefix+filepath.Join(root, "judge/splixjava/testdata/surveyor"), cache, 256<<20)
	if err != nil {
		b.Fatal(err)
	}
	plain := shared
	plain.Argv = nil
	for _, a := range shared.Argv {
		switch {
		case strings.HasPrefix(a, "-XX:SharedArchiveFile="):
			continue
		case strings.HasSuffix(a, "/out/host.jar"):
			a = filepath.Dir(a)
		}
		plain.Argv = append(plain.Argv, a)
	}
	if slices.Equal(plain.Argv, shared.Argv) {
		b.Fatalf("no archive in %q", shared.Argv)
	}
	v, err := catalog.Lookup("splix-small")
	if err != nil {
		b.Fatal(err)
	}
	params, err := v.Resolve(games.Params{"size": 24, "turns": 3, "players": 2})
	if err != nil {
		b.Fatal(err)
	}
	looper := judgetest.Spec(b, "looper", "examples/splix/looper")
	first := func(spec procbot.Spec, seed uint64) (wall, cpu float64) {
		res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: seed, Limits: judge.DefaultTurnLimits,
			Entrants: []judge.Entrant{procbot.Bot{Spec: spec, Options: judgetest.Proc(procbot.Options{})}, procbot.Bot{Spec: looper, Options: judgetest.Proc(procbot.Options{})}}})
		if err != nil {
			b.Fatal(err)
		}
		if p := res.Players[0]; p.Status != judge.OK {
			b.Fatalf("%s: %s %q", p.Name, p.Status, p.Reason)
		}
		m := res.Replay.Turns[0].Moves[0]
		return float64(m.WallUS) / 1000, float64(m.CPUUS) / 1000
	}
	var with, without [][2]float64
	for i := 0; i < b.N; i++ {
		w, c := first(plain, uint64(i))
		without = append(without, [2]float64{w, c})
		w, c = first(shared, uint64(i))
		with = append(with, [2]float64{w, c})
	}
	median := func(f func(i int) float64) float64 {
		var r []float64
		for i := 0; i < b.N; i++ {
			r = append(r, f(i))
		}
		slices.Sort(r)
		return r[len(r)/2]
	}
	for k, name := range []string{"wall", "cpu"} {
		b.ReportMetric(median(func(i int) float64 { return without[i][k] }), "none-"+name+"-ms")
		b.ReportMetric(median(func(i int) float64 { return with[i][k] }), "cds-"+name+"-ms")
		b.ReportMetric(median(func(i int) float64 { return with[i][k] / without[i][k] }), "cds/none-"+name)
	}
}
