module judge

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/creack/pty v1.1.24
	golang.org/x/sync v0.24.0
	golang.org/x/sys v0.49.0
)
