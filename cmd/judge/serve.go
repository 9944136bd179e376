package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge/serve"
)

func (m *Main) serve(ctx context.Context, args []string) error {
	fs := m.newFlags("serve", "[flags] DIR",
		"Shows the tournament in DIR (the --out of 'judge tournament') in a web browser:\n"+
			"its standings, failures and progress, updated as matches finish, and a viewer\n"+
			"for every finished match. It serves only what is under DIR, and listens on\n"+
			"the loopback address unless told otherwise. It runs until interrupted.")
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	open := fs.Bool("open", false, "open the page in a web browser (xdg-open)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one tournament directory, got %d arguments", errUsage, len(pos))
	}
	if st, err := os.Stat(pos[0]); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", pos[0])
	}
	s, err := serve.New(pos[0], func(name string) (games.Game, error) {
		v, err := catalog.Lookup(name)
		return v.Game, err
	})
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(m.Stdout, "serving %s at %s (interrupt to stop)\n", pos[0], url)
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		// Requests end with the command: the event streams too.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if *open {
		if err := openURL(url); err != nil {
			fmt.Fprintf(m.Stderr, "judge serve: %v\n", err)
		}
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
