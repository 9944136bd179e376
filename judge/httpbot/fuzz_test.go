package httpbot

import (
	"encoding/json"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
		if s, p := formShot(ans); p.why == "" {
			if w := oneWord(s); strings.ContainsAny(w, " \t\r\n") || w == "" {
				t.Errorf("formShot(%q) passed on %q", ans, w)
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
