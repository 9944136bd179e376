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
	// RefereeError: the game's referee (a plugin game's) failed and the
	// match ended there. It is no fault of the seat: standings do not
	// count the match.
	RefereeError Status = "referee-error"
)

// verb says what a seat of status st did, in words: "crashed".
func (st Status) verb(person bool) string {
	switch st {
	case Timeout:
		return "timed out"
	case Crash:
		if person {
			return "left"
		}
		return "crashed"
	case Illegal:
		return "made an illegal move"
	case Protocol:
		return "broke the protocol"
	case Output:
		return "wrote too much"
	case Memory:
		return "ran out of memory"
	case RefereeError:
		return "was stopped by the referee's failure"
	}
	return string(st)
}
