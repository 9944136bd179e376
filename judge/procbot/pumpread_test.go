package procbot

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// pumpPipe is a pumpReader over a pipe, and the pipe's write end.
func pumpPipe(t *testing.T) (*pumpReader, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr := newPumpReader(r)
	t.Cleanup(func() {
		w.Close()
		r.Close()
		pr.close()
	})
	return pr, w
}

// The reader off Linux: what is written arrives, in pieces as small as
// the reader asks; a read past its deadline fails, and reads what came
// meanwhile on its last look; the end of the output is io.EOF.
func TestPumpReaderDeadlines(t *testing.T) {
	t.Parallel()
	r, w := pumpPipe(t)
	r.setDeadline(time.Now().Add(time.Minute), false)
	if _, err := w.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 4)
	if n, err := r.Read(p); err != nil || string(p[:n]) != "hell" {
		t.Fatalf("read %q, %v; want \"hell\"", p[:n], err)
	}
	if n, err := r.Read(p); err != nil || string(p[:n]) != "o\n" {
		t.Fatalf("read %q, %v; want \"o\\n\"", p[:n], err)
	}

	r.setDeadline(time.Now().Add(10*time.Millisecond), false)
	if n, err := r.Read(p); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read with nothing written: %q, %v; want the deadline exceeded", p[:n], err)
	}

	// Written once the deadline has passed: the last look finds it, and
	// tells how late it looked.
	var late []time.Duration
	r.late = func(d time.Duration) { late = append(late, d) }
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	var got []byte
	for len(got) == 0 {
		n, err := r.Read(p)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatal(err)
		}
		got = append(got, p[:n]...)
	}
	if string(got) != "x" || len(late) != 1 {
		t.Fatalf("last look read %q and was told late %d times; want \"x\" once", got, len(late))
	}

	// An extended deadline lets the read wait for what comes.
	extended := 0
	r.extend = func() (time.Time, bool) {
		extended++
		return time.Now().Add(time.Minute), extended == 1
	}
	go func() { _, _ = w.Write([]byte("later")) }()
	if n, err := r.Read(p); err != nil || string(p[:n]) != "late" {
		t.Fatalf("read after an extension: %q, %v; want \"late\"", p[:n], err)
	}
	if n, err := r.Read(p); err != nil || string(p[:n]) != "r" {
		t.Fatalf("read %q, %v; want \"r\"", p[:n], err)
	}
	w.Close()
	if n, err := r.Read(p); !errors.Is(err, io.EOF) {
		t.Fatalf("read at the end: %q, %v; want io.EOF", p[:n], err)
	}
}

// A waiting read is woken by cancel, and by a closed stdin once the bot
// had exitWait to end.
func TestPumpReaderWakes(t *testing.T) {
	t.Parallel()
	r, _ := pumpPipe(t)
	r.setDeadline(time.Now().Add(time.Hour), false)
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 8))
		done <- err
	}()
	r.inClosed()
	if err := <-done; !errors.Is(err, errInClosed) {
		t.Fatalf("read of a bot whose stdin is closed: %v; want errInClosed", err)
	}

	c, _ := pumpPipe(t)
	c.setDeadline(time.Now().Add(time.Hour), false)
	go func() {
		_, err := c.Read(make([]byte, 8))
		done <- err
	}()
	c.cancel()
	if err := <-done; !errors.Is(err, errCanceled) {
		t.Fatalf("canceled read: %v; want errCanceled", err)
	}
}
