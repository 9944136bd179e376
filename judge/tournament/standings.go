package tournament

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"judge/judge"
	"judge/judge/ratings"
	"judge/judge/standings"
)

// Standings are the table of a tournament. standings.json is this value:
// a contract for other tools.
type Standings struct {
	Game      string               `json:"game"`
	Format    Format               `json:"format"`
	Seed      uint64               `json:"seed"`
	Matches   int                  `json:"matches"`   // matches played and recorded
	Scheduled int                  `json:"scheduled"` // matches in the schedule (of this shard)
	ScoreKind string               `json:"score_kind"`
	RatingFit string               `json:"rating_model"`
	Prior     bool                 `json:"rating_prior"`                // the ratings needed the prior (see docs/tournaments.md)
	PriorNote string               `json:"rating_prior_note,omitempty"` // why
	Standings []standings.Standing `json:"standings"`
	Excluded  []Excluded           `json:"excluded,omitempty"`
	// RefereeErrors are the matches a plugin game's referee ended by
	// failing (status referee-error): no bot's fault, counted in no row.
	RefereeErrors []RefereeError `json:"referee_errors,omitempty"`
	// Skipped are the files of the bots directory not taken as bots, and
	// why: a teacher reading the standings sees who is missing.
	Skipped []Excluded `json:"skipped,omitempty"`
	// Replayed are the bots that had changed since their matches were
	// recorded, and how many of their matches this run played again.
	Replayed []Replayed `json:"replayed,omitempty"`
}

// RefereeError is a match the game's referee ended by failing.
type RefereeError struct {
	Match  string `json:"match"`
	Reason string `json:"reason"`
}

// refereeFailed is the referee's fault that ended the match of r, or
// "" when none did.
func refereeFailed(r *MatchRecord) (string, bool) {
	for _, p := range r.Players {
		if p.Status == judge.RefereeError {
			return p.Reason, true
		}
	}
	return "", false
}

// Replayed is a changed bot and how many of its matches were played
// again.
type Replayed struct {
	Bot     string `json:"bot"`
	Matches int    `json:"matches"`
}

// sortRecords puts match records in schedule order: the order of
// "most recent", the same however the matches were run or merged.
func sortRecords(recs []*MatchRecord) {
	sort.Slice(recs, func(i, j int) bool {
		a, b := recs[i], recs[j]
		if a.Round != b.Round {
			return a.Round < b.Round
		}
		if a.Index != b.Index {
			return a.Index < b.Index
		}
		return a.ID < b.ID
	})
}

// multiplayer reports whether the tournament's scores are averages (any
// match with more than two players) rather than points.
func multiplayer(h *Header, recs []*MatchRecord) bool {
	if h.Format == Groups && h.GroupSize > 2 {
		return true
	}
	for _, r := range recs {
		if len(r.Players) > 2 {
			return true
		}
	}
	return false
}

// ComputeStandings builds the table from the match records of the named
// entrants; records naming other bots are left out.
func ComputeStandings(h *Header, names []string, excluded []Excluded, recs []*MatchRecord, scheduled int) *Standings {
	recs = append([]*MatchRecord(nil), recs...)
	sortRecords(recs)
	idx := make(map[string]int, len(names))
	rows := make([]standings.Standing, len(names))
	for i, n := range names {
		idx[n] = i
		rows[i].Name = n
	}
	multi := multiplayer(h, recs)
	var games []ratings.Game
	var refErrs []RefereeError
	used := 0
	for _, r := range recs {
		if why, ok := refereeFailed(r); ok {
			refErrs = append(refErrs, RefereeError{Match: r.ID, Reason: why})
			continue
		}
		g := ratings.Game{}
		ok := true
		for _, p := range r.Players {
			i, known := idx[p.Name]
			if !known {
				ok = false
				break
			}
			g.Players = append(g.Players, i)
			g.Scores = append(g.Scores, p.Score)
		}
		if !ok {
			continue
		}
		used++
		games = append(games, g)
		for seat, p := range r.Players {
			row := &rows[g.Players[seat]]
			row.Count(seat, r.Winner, g.Scores)
			row.AvgScore += p.Score
			row.Failures.Add(p.Status, r.ID, p.Reason)
		}
	}
	fit := ratings.FitRatings(len(names), games)
	for i := range rows {
		row := &rows[i]
		if row.Played > 0 {
			row.AvgScore /= float64(row.Played)
		}
		row.Score = row.Points
		if multi {
			row.Score = row.AvgScore
		}
		if i < len(fit.Ratings) {
			row.Rating = round2(fit.Ratings[i].Elo)
			row.RatingLow = round2(fit.Ratings[i].Low)
			row.RatingHigh = round2(fit.Ratings[i].High)
		}
		row.AvgScore = round4(row.AvgScore)
		row.Score = round4(row.Score)
	}
	// Ranked by points (the average score for multiplayer games, as the
	// Splix runner ranks), then by rating, then by name.
	sort.SliceStable(rows, func(a, b int) bool {
		if rows[a].Score != rows[b].Score {
			return rows[a].Score > rows[b].Score
		}
		if rows[a].Rating != rows[b].Rating {
			return rows[a].Rating > rows[b].Rating
		}
		return rows[a].Name < rows[b].Name
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	s := &Standings{
		Game: h.Game, Format: h.Format, Seed: h.Seed,
		Matches: used, Scheduled: scheduled,
		ScoreKind: "points", RatingFit: "bradley-terry",
		Prior:     fit.Prior,
		PriorNote: priorNote(fit, names),
		Standings: rows,
		Excluded:  excluded,

		RefereeErrors: refErrs,
	}
	if multi {
		s.ScoreKind, s.RatingFit = "average", "plackett-luce"
	}
	return s
}

// priorNote says why fit needed its prior, naming the bots.
func priorNote(fit ratings.Fit, names []string) string {
	if !fit.Prior {
		return ""
	}
	var parts []string
	for _, c := range []struct {
		bots []int
		what string
	}{{fit.Unbeaten, "won every game"}, {fit.Winless, "lost every game"}, {fit.Unplayed, "played none"}} {
		for _, i := range c.bots {
			if i < len(names) {
				parts = append(parts, names[i]+" "+c.what)
			}
		}
	}
	if len(parts) == 0 {
		return "some bots won every game against the others, or never played them"
	}
	return strings.Join(parts, "; ")
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// StandingsFiles are the files Standings.Write writes into dir.
func StandingsFiles(dir string) []string {
	return []string{filepath.Join(dir, "standings.json"), filepath.Join(dir, "standings.csv"), filepath.Join(dir, "standings.md")}
}

// WriteError is the error of Standings.Write when some files could not be
// written: which were, and why each other was not.
type WriteError struct {
	Written []string
	Err     error // every failure, joined
}

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// Write writes standings.json, standings.csv and standings.md into dir,
// each atomically. It tries every one: its error, a *WriteError, says
// which were written and why each other was not.
func (s *Standings) Write(dir string) error {
	j, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"standings.json": append(j, '\n'),
		"standings.csv":  s.CSV(),
		"standings.md":   []byte(s.Markdown()),
	}
	var (
		written []string
		errs    []error
	)
	for _, path := range StandingsFiles(dir) {
		name := filepath.Base(path)
		if err := judge.WriteFileSync(path, files[name], judge.SyncRename); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		written = append(written, path)
	}
	if len(errs) > 0 {
		return &WriteError{Written: written, Err: errors.Join(errs...)}
	}
	return nil
}

// CSV is the table as CSV, one row per bot.
func (s *Standings) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"rank", "name", "played", "wins", "draws", "losses", "score", "rating", "rating_low", "rating_high",
		"failures", "timeout", "crash", "illegal", "protocol", "output", "memory", "last_failure"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	d := strconv.Itoa
	for _, r := range s.Standings {
		_ = w.Write([]string{d(r.Rank), csvText(r.Name), d(r.Played), d(r.Wins), d(r.Draws), d(r.Losses), f(r.Score),
			f(r.Rating), f(r.RatingLow), f(r.RatingHigh),
			d(r.Failures.Total), d(r.Failures.Timeout), d(r.Failures.Crash), d(r.Failures.Illegal),
			d(r.Failures.Protocol), d(r.Failures.Output), d(r.Failures.Memory), csvText(r.Failures.Last)})
	}
	w.Flush()
	return b.Bytes()
}

// Markdown is the table and the failures in Markdown.
func (s *Standings) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — %s, seed %d\n\n", s.Game, s.Format, s.Seed)
	fmt.Fprintf(&b, "%d of %d matches played. Score: %s. Rating: %s (Elo scale, 95%% interval).\n\n",
		s.Matches, s.Scheduled, scoreDoc(s.ScoreKind), s.RatingFit)
	b.WriteString("| # | bot | played | W | D | L | score | rating | 95% interval | failures |\n")
	b.WriteString("|--:|:--|--:|--:|--:|--:|--:|--:|:--|:--|\n")
	above := s.RatedAbove()
	for i, r := range s.Standings {
		fmt.Fprintf(&b, "| %d | %s | %d | %d | %d | %d | %s | %s | %.0f – %.0f | %s |\n",
			r.Rank, mdEscape(r.Name), r.Played, r.Wins, r.Draws, r.Losses, fmtScore(r.Score),
			strings.ReplaceAll(fmtRating(r.Rating, above[i]), "*", `\*`), r.RatingLow, r.RatingHigh, failureCounts(r.Failures))
	}
	if note := s.rankNote(above); note != "" {
		b.WriteString("\n" + strings.ReplaceAll(note, "*", `\*`) + "\n")
	}
	var failed []standings.Standing
	for _, r := range s.Standings {
		if r.Failures.Last != "" {
			failed = append(failed, r)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n## Failures\n\n")
		for _, r := range failed {
			fmt.Fprintf(&b, "- **%s**: %s; last: %s\n", mdEscape(r.Name), failureCounts(r.Failures), mdEscape(r.Failures.Last))
		}
	}
	if len(s.RefereeErrors) > 0 {
		b.WriteString("\n## Referee errors (not counted)\n\n")
		for _, e := range s.RefereeErrors {
			fmt.Fprintf(&b, "- %s: %s\n", mdEscape(e.Match), mdEscape(e.Reason))
		}
	}
	if len(s.Excluded) > 0 {
		b.WriteString("\n## Left out\n\n")
		for _, e := range s.Excluded {
			fence := mdFence(e.Error)
			fmt.Fprintf(&b, "- **%s**:\n\n%s\n%s\n%s\n", mdEscape(e.Name), fence, judge.Printable(e.Error), fence)
		}
	}
	if len(s.Skipped) > 0 {
		b.WriteString("\n## Not taken as bots\n\n")
		for _, e := range s.Skipped {
			fmt.Fprintf(&b, "- `%s`: %s\n", strings.ReplaceAll(judge.PrintableLine(e.Name), "`", "'"), mdEscape(judge.PrintableLine(e.Error)))
		}
	}
	if len(s.Replayed) > 0 {
		b.WriteString("\n## Played again\n\n")
		for _, r := range s.Replayed {
			fmt.Fprintf(&b, "- replayed %d matches of **%s** (changed)\n", r.Matches, mdEscape(r.Bot))
		}
	}
	return b.String()
}

func scoreDoc(kind string) string {
	if kind == "average" {
		return "average score per game"
	}
	return "1 per win, ½ per draw"
}

// mdEscape makes text from a bot (a name, a reason) fit a Markdown table's
// cell or a list item on one line: escaped (judge.PrintableLine), with its
// pipes escaped too.
func mdEscape(s string) string { return strings.ReplaceAll(judge.PrintableLine(s), "|", `\|`) }

// mdFence is a Markdown code fence that text cannot close: longer than
// any run of backticks in it.
func mdFence(text string) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// csvText makes text from a bot (a name, a reason) fit a CSV cell: escaped
// (judge.PrintableLine), and not read as a formula by a spreadsheet: a
// cell that starts with =, +, -, or @ starts with ' instead.
func csvText(s string) string {
	s = judge.PrintableLine(s)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		s = "'" + s
	}
	return s
}

// RatedAbove reports, for each row, whether its rating is higher than
// that of a bot ranked above it. The rank is by score (points, or the
// average score in multiplayer games, as the Splix runner ranks); the
// rating is fitted from who finished ahead of whom in each game, so the
// two can disagree: a bot with a high average from a few big games may
// finish behind another more often.
func (s *Standings) RatedAbove() []bool {
	above := make([]bool, len(s.Standings))
	low := math.Inf(1)
	for i, r := range s.Standings {
		above[i] = r.Rating > low
		low = math.Min(low, r.Rating)
	}
	return above
}

// fmtRating is a rating for people, marked * when it is higher than
// that of a bot ranked above it (RatedAbove).
func fmtRating(r float64, above bool) string {
	if above {
		return fmt.Sprintf("%.0f*", r)
	}
	return fmt.Sprintf("%.0f", r)
}

// rankNote explains the ratings marked *, or is "".
func (s *Standings) rankNote(above []bool) string {
	if !slices.Contains(above, true) {
		return ""
	}
	by := "points"
	if s.ScoreKind == "average" {
		by = "average score (as the Splix runner ranks)"
	}
	return fmt.Sprintf("* rated above a bot ranked higher: the rank is by %s, the rating by who finished ahead of whom in each game (%s); they weigh games differently and can disagree, above all within overlapping intervals", by, s.RatingFit)
}

// fmtScore writes a score for people: at most two decimals (standings.json
// keeps every digit).
func fmtScore(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }

// failureCounts is "2 timeout, 1 crash", or "-".
func failureCounts(f standings.Failures) string {
	var parts []string
	for _, c := range []struct {
		n    int
		name string
	}{{f.Timeout, "timeout"}, {f.Crash, "crash"}, {f.Illegal, "illegal"}, {f.Protocol, "protocol"}, {f.Output, "output"}, {f.Memory, "memory"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// Print writes the table for a terminal.
func (s *Standings) Print(w io.Writer) {
	width := 4
	for _, r := range s.Standings {
		width = max(width, len(judge.PrintableLine(r.Name)))
	}
	scoreHead := "points"
	if s.ScoreKind == "average" {
		scoreHead = "avg"
	}
	fmt.Fprintf(w, "%3s  %-*s %6s %5s %5s %5s %8s %8s  %-13s  %s\n", "#", width, "bot", "played", "W", "D", "L", scoreHead, "rating", "95% interval", "failures")
	above := s.RatedAbove()
	for i, r := range s.Standings {
		fmt.Fprintf(w, "%3d  %-*s %6d %5d %5d %5d %8s %8s  %-13s  %s\n", r.Rank, width, judge.PrintableLine(r.Name), r.Played, r.Wins, r.Draws, r.Losses,
			fmtScore(r.Score), fmtRating(r.Rating, above[i]), fmt.Sprintf("%.0f–%.0f", r.RatingLow, r.RatingHigh), failureCounts(r.Failures))
	}
	if note := s.rankNote(above); note != "" {
		fmt.Fprintln(w, "  "+note)
	}
	for _, r := range s.Standings {
		if r.Failures.Last != "" {
			fmt.Fprintf(w, "  %s, last failure: %s\n", judge.PrintableLine(r.Name), judge.Printable(r.Failures.Last))
		}
	}
	for _, e := range s.Excluded {
		fmt.Fprintf(w, "  %s left out: %s\n", judge.PrintableLine(e.Name), firstLines(judge.Printable(e.Error), 6))
	}
	for _, e := range s.Skipped {
		fmt.Fprintf(w, "  %s is not taken as a bot: %s\n", judge.PrintableLine(e.Name), judge.PrintableLine(e.Error))
	}
	for _, r := range s.Replayed {
		fmt.Fprintf(w, "replayed %d matches of %s (changed)\n", r.Matches, judge.PrintableLine(r.Bot))
	}
	fmt.Fprintf(w, "%d of %d matches played; score: %s; rating: %s, Elo scale", s.Matches, s.Scheduled, scoreDoc(s.ScoreKind), s.RatingFit)
	if s.Prior {
		fmt.Fprintf(w, " (with a weak prior: %s)", judge.PrintableLine(s.PriorNote))
	}
	fmt.Fprintln(w)
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n    ")
}
