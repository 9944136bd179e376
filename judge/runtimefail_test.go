package judge

import "testing"

func TestRuntimeFailure(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // "" when the line is not a runtime failure
	}{
		{"#", "the Java runtime failed"},
		{"# There is insufficient memory for the Java Runtime Environment to continue.", "the Java runtime failed: There is insufficient memory for the Java Runtime Environment to continue."},
		{"# A fatal error has been detected by the Java Runtime Environment:\r", "the Java runtime failed: A fatal error has been detected by the Java Runtime Environment:"},
		{"Error occurred during initialization of VM", "the Java runtime failed: Error occurred during initialization of VM"},
		{"Error: Could not find or load main class Bot", "the Java runtime failed: Error: Could not find or load main class Bot"},
		{"OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00007f0fcd65f000, 520192, 0) failed; error='Not enough space' (errno=12)",
			"the Java runtime failed: OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00007f0fcd65f000, 520192, 0) failed; error='Not enough space' (errno=12)"},
		{`[0.015s][warning][os,thread] Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN)`,
			`the Java runtime failed: [0.015s][warning][os,thread] Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN)`},
		{"#END", ""},
		{"#END\r", ""},
		{"", ""},
		{"Board", ""},
		{"PlaceSymbol 3 4", ""},
		{"##", ""},
		{"#Comment", ""},
		{"[0.1s][info][gc] Using Serial", ""},
		{"Error", ""},
	} {
		got, ok := RuntimeFailure(tc.line)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("RuntimeFailure(%q) = %q, %v; want %q, %v", tc.line, got, ok, tc.want, tc.want != "")
		}
	}
}
