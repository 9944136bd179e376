package httpbot

import (
	"encoding/json"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"judge/judge"
)

// The readers of botsarena's Battleship answers, on any bytes: they never
// panic, what they accept is what the arena accepts, and what they pass
// on to the game is one word of a command, never another line.
func FuzzBattleshipAnswers(f *testing.F) {
	for _, s := range []string{
		`{"name":"gnieark","boats":["4,2-4,6","3,3-3,0","2,3-2,1","7,9-5,9","6,8-6,7"]}`,
		`["3,3-3,7","2,1-2,4"]`, `{"play":"1,8"}`, `{"play":"1,8\n"}`, `{"play":" 1,8"}`, `{"play":18}`,
		`1,8`, `"1,8"`, ``, `null`, `{}`, `{"boats":null}`, `{"boats":"x"}`, `{"boats":[1]}`,
		"{\"play\":\"1,8\\n#END\"}", "[\"0,0-0,1\\nShoot 1,1\"]", `<html>Parse error</html>`,
	} {
		f.Add([]byte(s))
	}
	play := regexp.MustCompile(`^[0-9]+,[0-9]+$`)
	arenaShot := regexp.MustCompile(`^[0-9]+,[0-9]+\n?$`)
	f.Fuzz(func(t *testing.T, ans []byte) {
		if ships, p := jsonFleet(ans); p.why == "" {
			var a struct{ Boats []string }
			if err := json.Unmarshal(ans, &a); err != nil || a.Boats == nil || strings.Join(a.Boats, "\n") != strings.Join(ships, "\n") {
				t.Errorf("jsonFleet(%q) took %q (%v)", ans, ships, err)
			}
			for _, s := range ships {
				if w := oneWord(s); strings.ContainsAny(w, " \t\r\n") || w == "" {
					t.Errorf("ship %q passed on as %q", s, w)
				}
			}
		} else if !strings.HasPrefix(p.why, ",") && !strings.HasPrefix(p.why, ":") {
			t.Errorf("jsonFleet(%q): problem %q", ans, p.why)
		}
		if s, p := jsonShot(ans); p.why == "" && !play.MatchString(s) {
			t.Errorf("jsonShot(%q) took %q", ans, s)
		}
		for _, arena := range []bool{false, true} {
			d := &driver{arena: arena}
			s, p := d.formShot(ans)
			if p.why != "" {
				continue
			}
			if w := oneWord(s); strings.ContainsAny(w, " \t\r\n") || w == "" {
				t.Errorf("formShot(%q) passed on %q", ans, w)
			}
			// botsarena's act.php: preg_match('/^[0-9]+,[0-9]+$/', …), its
			// $ matching before a final newline too.
			if arena && !arenaShot.Match(ans) {
				t.Errorf("formShot(%q) in botsarena's game took what the arena refuses", ans)
			}
		}
		if ships, p := formFleet(ans); p.why == "" {
			for _, s := range ships {
				if w := oneWord(s); strings.ContainsAny(w, " \t\r\n") || w == "" {
					t.Errorf("ship %q passed on as %q", s, w)
				}
			}
		}
	})
}

// matchSeed recovers the match's seed from any seat's seed: both seats
// of a match give botsarena's match id alike.
func FuzzMatchSeed(f *testing.F) {
	for _, s := range []uint64{0, 1, 3, 1 << 63, ^uint64(0), 4345336574102529630} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		for seat := range 4 {
			if got := matchSeed(judge.SeatSeed(seed, seat), seat); got != seed {
				t.Errorf("seed %d, seat %d: got %d", seed, seat, got)
			}
		}
	})
}

// Parse on any argument: it never panics, and a web bot it accepts is an
// http or https URL with a host that is an IP address or a host name
// (letters, digits, - and _ in dotted labels, the last one starting with
// a letter), and a port from 1 to 65535 if any.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"http://h:1/b.php", "https+json://h/x?y", "http://", "http+json://[::1]:80/", "bot.py", "ftp://h/", "http://h\n/x",
		"http+json://http://127.0.0.1:8080/", "http://h:/", "http://127.1/", "http://[fe80::1%25lo]:1/", "http://a.b-c.d_e.:65535/"} {
		f.Add(s)
	}
	name := regexp.MustCompile(`^([A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?\.)*[A-Za-z]([A-Za-z0-9_-]*[A-Za-z0-9_])?\.?$`)
	f.Fuzz(func(t *testing.T, arg string) {
		b, ok, err := Parse(arg)
		if !ok || err != nil {
			return
		}
		u, perr := url.Parse(b.URL)
		if perr != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || b.JSON != strings.Contains(arg[:strings.Index(arg, "://")], "+json") {
			t.Errorf("Parse(%q) = %+v (%v)", arg, b, perr)
			return
		}
		host := u.Hostname()
		if a, err := netip.ParseAddr(host); err == nil {
			if a.Is4() == strings.HasPrefix(u.Host, "[") {
				t.Errorf("Parse(%q): host %q", arg, u.Host)
			}
		} else if !name.MatchString(host) || len(host) > 254 {
			t.Errorf("Parse(%q): host %q is not a host name", arg, host)
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				t.Errorf("Parse(%q): port %q", arg, p)
			}
		} else if strings.HasSuffix(u.Host, ":") {
			t.Errorf("Parse(%q): an empty port", arg)
		}
	})
}

// ParsePolicy on any entries: it never panics, and an address of the
// machine's own networks is allowed only by an entry that is a network
// within its range (here given apart, as its prefix length), never
// through a host name.
func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{"10.0.0.0/24", "0.0.0.0/0", "::/0", "127.0.0.1", "::ffff:127.0.0.1/128", "::ffff:0.0.0.0/96", "localhost",
		"*.example.org", "127.0.0.0/8,::1", "10.0.0.0/7", "fd00::/8", "fc00::/6", "100.64.0.0/10", "0.0.0.0/8", ",", ""} {
		f.Add(s)
	}
	own := map[string]int{"127.0.0.1": 8, "127.255.0.9": 8, "::1": 128, "10.1.2.3": 8, "172.31.0.1": 12, "192.168.1.1": 16,
		"169.254.169.254": 16, "0.0.0.0": 8, "::": 128, "100.64.0.1": 10, "fd00::1": 7, "fe80::1": 10, "224.0.0.1": 4,
		"255.255.255.255": 4, "::ffff:127.0.0.1": 8, "64:ff9b::7f00:1": 96, "2002:7f00:1::": 16}
	f.Fuzz(func(t *testing.T, entries string) {
		p, err := ParsePolicy(entries)
		if err != nil {
			return
		}
		for addr, bits := range own {
			a := netip.MustParseAddr(addr)
			if p.allowAddr(a, true) != nil {
				continue
			}
			ok := false
			for e := range strings.SplitSeq(entries, ",") {
				e = strings.TrimSpace(e)
				n, err := netip.ParsePrefix(e)
				if err != nil {
					x, err := netip.ParseAddr(e)
					if err != nil {
						continue
					}
					n = netip.PrefixFrom(x, x.BitLen())
				}
				n = n.Masked()
				if n.Addr().Is4In6() && n.Bits() >= 96 {
					n = netip.PrefixFrom(n.Addr().Unmap(), n.Bits()-96)
				}
				ok = ok || n.Contains(a.Unmap()) && n.Bits() >= bits
			}
			if !ok {
				t.Errorf("ParsePolicy(%q) allows %s", entries, addr)
			}
		}
	})
}
