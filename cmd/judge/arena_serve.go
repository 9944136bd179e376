package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"time"

	"golang.org/x/sync/errgroup"

	"judge/judge/arena"
	"judge/judge/arena/web"
)

// The arena server's timeouts: a client that is slow to send its
// request's headers, or its whole request (an upload of at most 1 MiB by
// default: 2 minutes is 9 KB a second), or that keeps an idle connection
// open, is cut off, so that slow clients cannot hold connections open.
const (
	arenaHeaderTimeout = 10 * time.Second
	arenaReadTimeout   = 2 * time.Minute
	arenaIdleTimeout   = 2 * time.Minute
)

func (m *Main) arenaServe(ctx context.Context, args []string) error {
	fs := m.newFlags("arena serve", "DIR [flags]",
		"Runs the arena in DIR: its web page and API (uploads with an entrant's token, the\n"+
			"standings, the matches and their replays), the builds of new submissions, their\n"+
			"test matches and the ladder, until interrupted. Killed at any moment, it loses no\n"+
			"submission and no finished match; run it again to go on. It listens on the loopback\n"+
			"address unless --addr and --public say otherwise.")
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	jobs := fs.Int("jobs", 1, "matches at once")
	public := fs.Bool("public", false, "allow an --addr beyond the loopback address (0.0.0.0:8080): whoever can reach it can upload with a token and see the standings and replays")
	var hosts listFlag
	fs.Var(&hosts, "host", "a name the server also answers to, such as a proxy's in front of it (repeatable)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one arena directory, got %d arguments", errUsage, len(pos))
	}
	if *jobs < 1 || *jobs > 256 {
		return fmt.Errorf("%w: --jobs %d: want 1 to 256", errUsage, *jobs)
	}
	beyond, err := beyondLoopback(ctx, *addr)
	if err != nil {
		return fmt.Errorf("%w: --addr %s: %v", errUsage, *addr, err)
	}
	if beyond && !*public {
		return fmt.Errorf("%w: --addr %s listens beyond the loopback address; add --public to mean it, "+
			"or give a loopback address such as 127.0.0.1:8080", errUsage, *addr)
	}
	a, err := arena.Open(ctx, pos[0])
	if err != nil {
		return err
	}
	defer a.Close()
	a.SetLog(m.Stderr)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	if ap, err := netip.ParseAddrPort(ln.Addr().String()); (err != nil || !ap.Addr().IsLoopback()) && !*public {
		return fmt.Errorf("%w: --addr %s listens on %s, beyond the loopback address; add --public to mean it", errUsage, *addr, ln.Addr())
	}
	srv := &http.Server{
		Handler:           web.Handler(a, web.Options{Public: *public, AllowedHosts: hosts}),
		ReadHeaderTimeout: arenaHeaderTimeout,
		ReadTimeout:       arenaReadTimeout,
		IdleTimeout:       arenaIdleTimeout,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	fmt.Fprintf(m.Stdout, "arena %s at http://%s/ (interrupt to stop)\n", pos[0], ln.Addr())
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.Run(gctx, *jobs) })
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	g.Go(func() error {
		<-gctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	})
	return g.Wait()
}
