package tournament

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadLive: read from the directory of a finished tournament, the
// live standings are the ones the tournament wrote, and the schedule's
// size is known; a torn last line is counted, not fatal; an empty
// directory has no tournament yet.
func TestReadLive(t *testing.T) {
	_, args := botDir(t)
	out := tempDir(t)
	o := options(t, out, filepath.Join(tempDir(t), "cache"), args)
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ReadLive(os.DirFS(out))
	if err != nil {
		t.Fatal(err)
	}
	if l.Header == nil || l.Header.Game != "tictactoe" {
		t.Fatalf("header %+v", l.Header)
	}
	if l.Scheduled != st.Scheduled || len(l.Matches) != st.Matches || l.Damaged != 0 {
		t.Errorf("scheduled %d, %d matches, %d damaged; the tournament says %d of %d", l.Scheduled, len(l.Matches), l.Damaged, st.Matches, st.Scheduled)
	}
	if !reflect.DeepEqual(l.Standings, st) {
		t.Errorf("live standings\n%+v\nwant\n%+v", l.Standings, st)
	}
	f, err := os.OpenFile(filepath.Join(out, LogName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"crc":"0000`)
	f.Close()
	if l, err = ReadLive(os.DirFS(out)); err != nil || l.Damaged != 1 || len(l.Matches) != st.Matches {
		t.Errorf("with a torn line: %d damaged, %d matches, %v", l.Damaged, len(l.Matches), err)
	}
	if l, err := ReadLive(os.DirFS(t.TempDir())); err != nil || l.Header != nil {
		t.Errorf("an empty directory: %+v, %v", l, err)
	}
}
