package judge

import (
	"regexp"
	"strings"
)

// jvmLog matches a line of the JVM's unified logging at warning or error
// level, such as "[0.016s][warning][os,thread] Failed to start thread".
var jvmLog = regexp.MustCompile(`^\[[0-9.]+[a-z]*\]\[(warning|error)\s*\]`)

// RuntimeFailure reports whether a line a bot wrote where the protocol
// expects a query or a command is its runtime's own report of a failure
// (the JVM writes some of them on stdout whatever its flags), and if so
// the text to give as the bot's crash. Protocol lines, "#END" among
// them, are never runtime failures.
func RuntimeFailure(line string) (string, bool) {
	l := strings.TrimRight(line, "\r\n")
	t := strings.TrimSpace(l)
	switch {
	case t == "#":
		// The first line of the JVM's fatal error report.
		return "the Java runtime failed", true
	case strings.HasPrefix(l, "# "):
		// "# There is insufficient memory for the Java Runtime
		// Environment to continue.", "# A fatal error has been detected
		// by the Java Runtime Environment:".
		return "the Java runtime failed: " + strings.TrimSpace(l[2:]), true
	case strings.HasPrefix(t, "Error occurred during initialization of VM"),
		strings.HasPrefix(t, "Error: Could not find or load main class"),
		strings.HasPrefix(t, "Error: Could not create the Java Virtual Machine"),
		strings.HasPrefix(t, "Error: A JNI error has occurred"),
		strings.HasPrefix(t, "Unrecognized VM option"),
		strings.Contains(t, " VM warning: "): // "OpenJDK 64-Bit Server VM warning: ..."
		return "the Java runtime failed: " + t, true
	case jvmLog.MatchString(t):
		return "the Java runtime failed: " + t, true
	}
	return "", false
}
