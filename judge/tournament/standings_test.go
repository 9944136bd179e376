package tournament

import (
	"encoding/csv"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"judge/judge"
)

// hostileNames are bot names and reasons a bot controls: escape
// sequences, pipes and newlines that would break a Markdown table, and
// cells a spreadsheet would run as formulas.
var hostileNames = []string{
	"plain",
	"evil\x1b]0;title\x07",
	"clip\x1b]52;c;cHduZWQ=\x1b\\",
	"pipe | and\nnewline\r",
	"=HYPERLINK(\"http://x\")",
	"+1", "-1", "@SUM(A1)",
	"c1\u009b2J bidi\u202e",
	"bad\xffutf8",
	"`ticks```",
}

// FuzzStandingsText: whatever the names and reasons, standings.md and
// standings.csv hold no control character but newlines and tabs (those
// of a compile error, in a code block), every Markdown table row has its
// 10 cells, every CSV row its 18 fields with the name escaped and
// defused, and standings.json keeps the names exactly.
func FuzzStandingsText(f *testing.F) {
	for i, a := range hostileNames {
		f.Add(a, hostileNames[(i+1)%len(hostileNames)], hostileNames[(i+2)%len(hostileNames)])
	}
	f.Fuzz(func(t *testing.T, a, b, reason string) {
		if a == b {
			return
		}
		h := &Header{Game: "tictactoe", Format: RoundRobin, Seed: 1}
		recs := []*MatchRecord{{ID: "r001", Round: 1, Winner: 0, Players: []judge.PlayerResult{
			{Name: a, Status: judge.OK, Score: 1}, {Name: b, Status: judge.Crash, Reason: reason}}}}
		st := ComputeStandings(h, []string{a, b}, []Excluded{{Name: reason, Error: reason}}, recs, 1)

		md := st.Markdown()
		csvOut := string(st.CSV())
		for name, text := range map[string]string{"standings.md": md, "standings.csv": csvOut} {
			if !utf8.ValidString(text) {
				t.Fatalf("%s is not UTF-8: %q", name, text)
			}
			for _, r := range text {
				if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
					t.Fatalf("%s holds %U:\n%q", name, r, text)
				}
			}
		}
		cell := regexp.MustCompile(`(^|[^\\])\|`)
		rows := 0
		table := md[strings.Index(md, "|--"):]
		table = table[strings.Index(table, "\n")+1 : strings.Index(table, "\n\n")+1]
		for _, l := range strings.Split(strings.TrimSuffix(table, "\n"), "\n") {
			{
				rows++
				if n := len(cell.FindAllString(l, -1)); n != 11 {
					t.Errorf("table row with %d cell borders, want 11: %q", n, l)
				}
			}
		}
		if rows != 2 {
			t.Errorf("%d table rows, want 2:\n%s", rows, md)
		}
		lines, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
		if err != nil || len(lines) != 3 {
			t.Fatalf("CSV: %v, %d rows:\n%s", err, len(lines), csvOut)
		}
		for _, l := range lines[1:] {
			if len(l) != 18 {
				t.Fatalf("CSV row of %d fields", len(l))
			}
			for _, c := range []string{l[1], l[17]} {
				if c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
					t.Errorf("CSV cell %q would be a formula", c)
				}
			}
			if l[1] != csvText(a) && l[1] != csvText(b) {
				t.Errorf("CSV name %q is neither %q nor %q escaped", l[1], a, b)
			}
		}
		var back Standings
		j, _ := json.Marshal(st)
		if err := json.Unmarshal(j, &back); err != nil {
			t.Fatal(err)
		}
		for _, r := range back.Standings {
			// JSON holds text, not bytes: exact for UTF-8 names.
			if utf8.ValidString(a) && utf8.ValidString(b) && r.Name != a && r.Name != b {
				t.Errorf("standings.json changed the name %q", r.Name)
			}
		}
	})
}
