package httpbot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Policy says where web bots may be reached: networks and host names. A
// Bot with a Policy connects only to an address it allows, checked on
// every connection, after the host name is resolved: a name that
// resolves elsewhere later (DNS rebinding) is refused all the same.
//
// An address of the machine's own networks (loopback, link-local,
// private, shared, unspecified, multicast, reserved: see special) is
// allowed only by a listed network that lies within such a range
// (127.0.0.1/32, 10.0.0.0/24), never by a wider one (0.0.0.0/0) nor by a
// listed host name that resolves to it.
//
// The zero Policy allows nothing; a nil *Policy (the command line's
// web bots) allows everything.
type Policy struct {
	nets    []netip.Prefix
	names   []string // lower case, without a final dot
	domains []string // "*.example.org" as ".example.org"
	entries []string // as given, in order

	once sync.Once
	tr   *http.Transport
}

// ParsePolicy reads a policy's entries, each one or several separated by
// commas: a network (10.0.0.0/24, 2001:db8::/32), an address (a network
// of one: 127.0.0.1, ::1), a host name (bots.example.org, localhost) or
// all the names under a domain (*.example.org). No entries make the
// Policy that allows nothing.
func ParsePolicy(entries ...string) (*Policy, error) {
	p := &Policy{}
	for _, list := range entries {
		for e := range strings.SplitSeq(list, ",") {
			e = strings.TrimSpace(e)
			if err := p.add(e); err != nil {
				return nil, fmt.Errorf("web bots' networks and hosts: %q: %w", e, err)
			}
			p.entries = append(p.entries, e)
		}
	}
	return p, nil
}

func (p *Policy) add(e string) error {
	if a, err := netip.ParseAddr(e); err == nil {
		if a.Zone() != "" {
			return errors.New("an address with a zone")
		}
		a = a.Unmap()
		p.nets = append(p.nets, netip.PrefixFrom(a, a.BitLen()))
		return nil
	}
	switch {
	case e == "":
		return errors.New("an empty entry")
	case strings.Contains(e, "://"):
		return errors.New("a host name or a network, not a URL (no port: a web bot's URL gives its port)")
	case strings.Contains(e, "/"):
		n, err := netip.ParsePrefix(e)
		if err != nil {
			return errors.New("not a network such as 10.0.0.0/24 or 2001:db8::/32")
		}
		p.nets = append(p.nets, unmapPrefix(n.Masked()))
		return nil
	case strings.Contains(e, ":"):
		return errors.New("not an address, a network or a host name (no port: a web bot's URL gives its port)")
	}
	name := strings.ToLower(strings.TrimSuffix(e, "."))
	if rest, ok := strings.CutPrefix(name, "*."); ok {
		if err := checkHostName(rest); err != nil {
			return err
		}
		p.domains = append(p.domains, "."+rest)
		return nil
	}
	if err := checkHostName(name); err != nil {
		return err
	}
	p.names = append(p.names, name)
	return nil
}

// unmapPrefix is an IPv4-mapped IPv6 network (::ffff:10.0.0.0/104) as the
// IPv4 network it is.
func unmapPrefix(n netip.Prefix) netip.Prefix {
	if n.Addr().Is4In6() && n.Bits() >= 96 {
		return netip.PrefixFrom(n.Addr().Unmap(), n.Bits()-96)
	}
	return n
}

// Entries are the policy's entries as given.
func (p *Policy) Entries() []string { return append([]string(nil), p.entries...) }

// Empty reports whether p allows nothing.
func (p *Policy) Empty() bool { return p != nil && len(p.entries) == 0 }

// special are the ranges of addresses that a listed network must lie
// within to allow them: the machine's own and its networks', and those
// that reach them through a translation.
var special = func() []specialNet {
	var out []specialNet
	for _, s := range [][2]string{
		{"0.0.0.0/8", "this network (0.0.0.0 is this machine)"},
		{"10.0.0.0/8", "private"},
		{"100.64.0.0/10", "shared (carrier-grade NAT)"},
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local"},
		{"172.16.0.0/12", "private"},
		{"192.0.0.0/24", "IETF protocol assignments"},
		{"192.168.0.0/16", "private"},
		{"198.18.0.0/15", "benchmarking"},
		{"224.0.0.0/4", "multicast"},
		{"240.0.0.0/4", "reserved and broadcast"},
		{"::/128", "unspecified (this machine)"},
		{"::1/128", "loopback"},
		{"64:ff9b::/96", "NAT64"},
		{"64:ff9b:1::/48", "local NAT64"},
		{"2001::/32", "Teredo"},
		{"2002::/16", "6to4"},
		{"fc00::/7", "unique local"},
		{"fe80::/10", "link-local"},
		{"fec0::/10", "site-local"},
		{"ff00::/8", "multicast"},
	} {
		out = append(out, specialNet{netip.MustParsePrefix(s[0]), s[1]})
	}
	return out
}()

type specialNet struct {
	net  netip.Prefix
	what string
}

// specialRange is the special range that holds a, if any.
func specialRange(a netip.Addr) (specialNet, bool) {
	for _, s := range special {
		if s.net.Contains(a) {
			return s, true
		}
	}
	return specialNet{}, false
}

// within reports whether network n lies within range r.
func within(n, r netip.Prefix) bool { return n.Bits() >= r.Bits() && r.Contains(n.Addr()) }

// listsName reports whether p lists host name host (any case, with or
// without a final dot).
func (p *Policy) listsName(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, n := range p.names {
		if n == host {
			return true
		}
	}
	for _, d := range p.domains {
		if strings.HasSuffix(host, d) {
			return true
		}
	}
	return false
}

// RefusedError is a connection or a URL a Policy does not allow.
type RefusedError struct{ Why string }

func (e *RefusedError) Error() string { return e.Why }

// allowAddr says whether p lets a web bot connect to address a, reached
// through a listed host name (named) or given as an address.
func (p *Policy) allowAddr(a netip.Addr, named bool) error {
	a = a.WithZone("").Unmap()
	r, isSpecial := specialRange(a)
	for _, n := range p.nets {
		if n.Contains(a) && (!isSpecial || within(n, r.net)) {
			return nil
		}
	}
	switch {
	case isSpecial:
		return &RefusedError{fmt.Sprintf("%s is in %s (%s): web bots may be there only where a network within it is listed, such as %s",
			a, r.net, r.what, netip.PrefixFrom(a, a.BitLen()))}
	case named:
		return nil
	}
	return &RefusedError{fmt.Sprintf("%s is not in the networks web bots may reach", a)}
}

// Check says whether p lets a web bot be given as b: its host is a
// listed name, or an address p allows; no user name or password in it
// (a URL is shown with the bot's matches).
func (p *Policy) Check(b Bot) error {
	if p == nil {
		return nil
	}
	u, err := url.Parse(b.URL)
	if err != nil {
		return fmt.Errorf("web bot %q: not a URL", b.URL)
	}
	if u.User != nil {
		return fmt.Errorf("web bot %q: a user name or password in a URL would be shown to everybody with the bot's matches", b.URL)
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return fmt.Errorf("web bot %q: an IPv6 address with a zone", b.URL)
		}
		if err := p.allowAddr(a, false); err != nil {
			return fmt.Errorf("web bot %q: %w", b.URL, err)
		}
		return nil
	}
	if !p.listsName(host) {
		return fmt.Errorf("web bot %q: %s is not a host web bots may be at", b.URL, host)
	}
	return nil
}

// client is c, or a client of its own, that connects only where p
// allows: through p's transport, never through a proxy; with a nil p,
// c as it is.
func (p *Policy) client(c *http.Client) http.Client {
	out := http.Client{}
	if c != nil {
		out = *c
	}
	if p != nil {
		out.Transport = p.transport()
	}
	return out
}

// transport is p's transport, one for every bot of p so that their
// connections are kept and reused: its dials check the address each
// connects to.
func (p *Policy) transport() *http.Transport {
	p.once.Do(func() {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil
		t.DialContext = p.dial
		t.DialTLSContext = nil
		p.tr = t
	})
	return p.tr
}

// dial connects to addr ("host:port") if p allows the address that the
// host resolves to: each address tried is checked just before its
// connection.
func (p *Policy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	named := false
	if _, err := netip.ParseAddr(host); err != nil {
		if !p.listsName(host) {
			return nil, &RefusedError{fmt.Sprintf("%s is not a host web bots may be at", host)}
		}
		named = true
	}
	d := net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return &RefusedError{fmt.Sprintf("%s is not an address", address)}
		}
		return p.allowAddr(ap.Addr(), named)
	}}
	return d.DialContext(ctx, network, addr)
}
