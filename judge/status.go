package judge

// Status is how a seat ended its match. Every status but OK loses.
type Status string

// The statuses a seat can end with.
const (
	OK       Status = "ok"
	Timeout  Status = "timeout"  // no #END within the turn's time limit
	Crash    Status = "crash"    // exited, was killed by a signal, or closed its output
	Illegal  Status = "illegal"  // no valid move by #END
	Protocol Status = "protocol" // an unknown query or command, a line too long, bytes that are not text
	Output   Status = "output"   // more output in one turn than allowed
	Memory   Status = "memory"   // stopped for using more memory than allowed
)
