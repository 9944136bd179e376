package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge/serve"
	"judge/judge/tournament"
)

func (m *Main) serve(ctx context.Context, args []string) error {
	fs := m.newFlags("serve", "[flags] DIR",
		"Shows the tournament in DIR (the --out of 'judge tournament') in a web browser:\n"+
			"its standings (click a column to sort), head-to-head table, failures with their\n"+
			"replays and progress, updated as matches finish, a page per bot with its\n"+
			"matches, and a viewer for every finished match. A DIR that holds tournaments in\n"+
			"its folders (results/demo with tictactoe/, connect4/) lists them, each linked to\n"+
			"its page. An empty DIR waits for a tournament's results log; another that holds\n"+
			"none is refused. It serves results only: the replays, the standings and the\n"+
			"pages made of them, never the bots' sources in DIR/cache.\n"+
			"It listens on the loopback address unless --addr and --public say otherwise, and\n"+
			"answers only requests addressed to where it listens. It runs until interrupted.")
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	public := fs.Bool("public", false, "allow an --addr beyond the loopback address (0.0.0.0:8080): whoever can reach it sees the results")
	open := fs.Bool("open", false, "open the page in a web browser (xdg-open; open on macOS, explorer on Windows)")
	var dirs []string
	fs.Func("game", "a plugin game's folder, whose replays the viewer draws (repeatable)", func(s string) error { dirs = append(dirs, s); return nil })
	configFile := fs.String("config", "", "a match or tournament configuration: the plugin games of its games/ folder and games_path")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := addPluginGames(*configFile, dirs); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one tournament directory (or folder of them), got %d arguments", errUsage, len(pos))
	}
	beyond, err := beyondLoopback(ctx, *addr)
	if err != nil {
		return fmt.Errorf("%w: --addr %s: %v", errUsage, *addr, err)
	}
	if beyond && !*public {
		return fmt.Errorf("%w: --addr %s listens beyond the loopback address, where anyone who can reach this machine "+
			"would see the tournament's replays and standings (the bots' names, reasons and stderr tails); add --public to mean it, "+
			"or give a loopback address such as 127.0.0.1:8080", errUsage, *addr)
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
	what := ""
	switch s.Kind() {
	case serve.KindNeither:
		return fmt.Errorf("%s is neither a tournament (no %s in it) nor a folder of tournaments (none in its folders, "+
			"%d deep at most): give the --out directory of 'judge tournament', or a folder that holds some", pos[0], tournament.LogName, serve.Depth)
	case serve.KindFolder:
		n := len(s.Tournaments())
		what = fmt.Sprintf(", a folder of %d tournament%s,", n, map[bool]string{true: "", false: "s"}[n == 1])
	case serve.KindWaiting:
		what = " (no tournament yet: the page waits for its results log)"
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	if err := s.Listening(*addr, ln.Addr()); err != nil {
		return err
	}
	if ap, err := netip.ParseAddrPort(ln.Addr().String()); err != nil || !ap.Addr().IsLoopback() {
		if !*public {
			return fmt.Errorf("%w: --addr %s listens on %s, beyond the loopback address; add --public to mean it", errUsage, *addr, ln.Addr())
		}
		fmt.Fprintf(m.Stderr, "judge serve: warning: listening on %s, beyond the loopback address: anyone who can reach this machine "+
			"on that port sees the tournament's replays and standings (the bots' names, reasons and stderr tails)\n", ln.Addr())
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(m.Stdout, "serving %s%s at %s (interrupt to stop)\n", pos[0], what, url)
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

// beyondLoopback reports whether a listening address reaches beyond the
// loopback interface: no host (every address), an address that is not a
// loopback one, or a name that resolves to one.
func beyondLoopback(ctx context.Context, addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if host == "" {
		return true, nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return !ip.Unmap().IsLoopback(), nil
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return false, err
	}
	for _, ip := range ips {
		if !ip.Unmap().IsLoopback() {
			return true, nil
		}
	}
	return false, nil
}
