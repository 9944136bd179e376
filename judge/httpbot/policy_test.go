package httpbot_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"judge/judge"
	"judge/judge/httpbot"
)

func TestParsePolicy(t *testing.T) {
	for _, tt := range []struct {
		entries []string
		err     string // "" when the entries are good
	}{
		{[]string{"10.0.0.0/24"}, ""},
		{[]string{"10.0.0.5/24"}, ""}, // the network of 10.0.0.5
		{[]string{"127.0.0.1/32", "::1/128"}, ""},
		{[]string{"127.0.0.1", "::1"}, ""},
		{[]string{"0.0.0.0/0,::/0"}, ""},
		{[]string{"bots.example.org, *.students.example.edu", "localhost"}, ""},
		{[]string{"Bots.Example.ORG."}, ""},
		{[]string{"::ffff:10.0.0.0/104"}, ""},
		{nil, ""},
		{[]string{""}, "an empty entry"},
		{[]string{"10.0.0.0/24,"}, "an empty entry"},
		{[]string{"10.0.0.0/33"}, "not a network"},
		{[]string{"10.0.0/24"}, "not a network"},
		{[]string{"bots.example.org:8080"}, "no port"},
		{[]string{"127.0.0.1:80"}, "no port"},
		{[]string{"[::1]"}, "no port"},
		{[]string{"fe80::1%eth0"}, "zone"},
		{[]string{"http://bots.example.org/"}, "no port"},
		{[]string{"bots example.org"}, "not a host name"},
		{[]string{"-bots.example.org"}, "not a host name"},
		{[]string{"bots..example.org"}, "not a host name"},
		{[]string{"127.1"}, "last label"},
		{[]string{"0x7f000001"}, "last label"},
		{[]string{"*"}, "not a host name"},
		{[]string{"*.*.example.org"}, "not a host name"},
		{[]string{strings.Repeat("a", 64) + ".org"}, "not a host name"},
	} {
		p, err := httpbot.ParsePolicy(tt.entries...)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("ParsePolicy(%q): %v", tt.entries, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParsePolicy(%q) = %v, want an error saying %q", tt.entries, err, tt.err)
		case err == nil && p.Empty() != (len(tt.entries) == 0):
			t.Errorf("ParsePolicy(%q).Empty() = %v", tt.entries, p.Empty())
		}
	}
}

// What a policy lets a web bot be given as: listed names, and addresses
// in listed networks, the machine's own networks only where a network
// within them is listed.
func TestPolicyCheck(t *testing.T) {
	for _, tt := range []struct {
		policy string
		url    string
		err    string // "" when allowed
	}{
		{"", "http://203.0.113.5/bot", "not in the networks"},
		{"203.0.113.0/24", "http://203.0.113.5:8080/bot", ""},
		{"203.0.113.0/24", "http+json://203.0.113.5/bot", ""},
		{"203.0.113.0/24", "http://203.0.114.5/bot", "not in the networks"},
		{"203.0.113.0/24", "http://127.0.0.1:8080/admin/export", "loopback"},
		{"0.0.0.0/0", "http://127.0.0.1:8080/admin/export", "loopback"},
		{"0.0.0.0/0", "http://203.0.113.5/", ""},
		{"0.0.0.0/0", "http://10.1.2.3/", "private"},
		{"0.0.0.0/0", "http://100.64.0.1/", "shared"},
		{"0.0.0.0/0", "http://169.254.169.254/latest/meta-data/", "link-local"},
		{"0.0.0.0/0", "http://0.0.0.0:8080/", "this network"},
		{"0.0.0.0/0", "http://224.0.0.1/", "multicast"},
		{"0.0.0.0/0", "http://[::ffff:127.0.0.1]:8080/", "loopback"},
		{"::/0", "http://[::1]:8080/", "loopback"},
		{"::/0", "http://[::]:8080/", "unspecified"},
		{"::/0", "http://[fd00::1]/", "unique local"},
		{"::/0", "http://[fe80::1]/", "link-local"},
		{"::/0", "http://[2001:db8::1]/", ""},
		{"::/0", "http://[fe80::1%25eth0]/", "zone"},
		{"127.0.0.0/8", "http://127.0.0.1:8080/", ""},
		{"127.0.0.1/32", "http://127.0.0.1:8080/", ""},
		{"127.0.0.1", "http://127.0.0.2:8080/", "loopback"},
		{"10.0.0.0/24", "http://10.0.0.7/", ""},
		{"10.0.0.0/24", "http://10.0.1.7/", "private"},
		{"10.0.0.0/7", "http://10.0.0.7/", "private"}, // wider than 10.0.0.0/8
		{"::1", "http://[::1]:8080/", ""},
		{"::ffff:127.0.0.1/128", "http://127.0.0.1/", ""},
		{"bots.example.org", "http://bots.example.org:8080/bot", ""},
		{"bots.example.org", "http://BOTS.example.org./bot", ""},
		{"bots.example.org", "http://evil.example.org/bot", "not a host web bots may be at"},
		{"bots.example.org", "http://203.0.113.5/bot", "not in the networks"},
		{"*.example.org", "http://a.b.example.org/bot", ""},
		{"*.example.org", "http://example.org/bot", "not a host web bots may be at"},
		{"*.example.org", "http://a.example.org.evil.net/bot", "not a host web bots may be at"},
		{"localhost", "http://localhost:8080/", ""}, // its addresses are checked as it connects
		{"bots.example.org", "http://user:secret@bots.example.org/", "user name or password"},
	} {
		p, err := httpbot.ParsePolicy(tt.policy)
		if tt.policy == "" {
			p, err = httpbot.ParsePolicy()
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := httpbot.Parse(tt.url)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.url, err)
		}
		err = p.Check(b)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("policy %q refuses %s: %v", tt.policy, tt.url, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("policy %q, %s: %v, want an error saying %q", tt.policy, tt.url, err, tt.err)
		}
	}
	// The command line's web bots may be anywhere.
	b, _, _ := httpbot.Parse("http://127.0.0.1:8080/")
	if err := (*httpbot.Policy)(nil).Check(b); err != nil {
		t.Errorf("no policy: %v", err)
	}
}

// The machine's own service on the loopback address, reached through a
// listed name (as a name the bot's author points at 127.0.0.1 would be,
// DNS rebinding or not): the connection is refused as it is made, and
// the service sees no request. Listed explicitly, the address plays.
func TestPolicyDial(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		c4Bot(w, r)
	}))
	defer srv.Close()
	byName := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/bot"
	for _, tt := range []struct {
		policy string
		url    string
		plays  bool
	}{
		{"localhost", byName, false},
		{"localhost, 0.0.0.0/0, ::/0", byName, false},
		// Not what Check lets through: the dial checks all the same.
		{"bots.example.org", byName, false},
		{"0.0.0.0/0", srv.URL + "/bot", false},
		{"bots.example.org", srv.URL + "/bot", false},
		{"localhost, 127.0.0.1/32", byName, true},
		{"127.0.0.1/32", srv.URL + "/bot", true},
	} {
		t.Run(tt.policy+" "+tt.url, func(t *testing.T) {
			asked.Store(0)
			p, err := httpbot.ParsePolicy(tt.policy)
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := httpbot.Parse(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			b.Policy = p
			res := play(t, "connect4", judge.TurnLimits{}, b, example(t, "examples/connect4/random.c"))
			st := res.Players[0]
			switch {
			case tt.plays && (st.Status != judge.OK || asked.Load() == 0):
				t.Errorf("got %s %q after %d requests, want a game", st.Status, st.Reason, asked.Load())
			case !tt.plays && (st.Status != judge.Crash || !strings.Contains(st.Reason, "may not connect")):
				t.Errorf("got %s %q, want a refused connection", st.Status, st.Reason)
			case !tt.plays && asked.Load() != 0:
				t.Errorf("the service was asked %d times", asked.Load())
			}
		})
	}
}
