package games

import "errors"

// ErrReferee is wrapped by the errors of a state whose rules run in
// another program (a plugin game's referee) when that program failed: it
// crashed, hung, ran out of memory or answered nonsense. It is never a
// player's fault.
var ErrReferee = errors.New("referee error")

// Faulty is implemented by states whose rules run in another program.
// Since most State methods return no error, such a state keeps its first
// fault, which Err returns (an error wrapping ErrReferee), or nil. Once
// it has one, its answers mean nothing: the judge ends the match.
type Faulty interface {
	Err() error
}

// Fault is st's fault when st is Faulty, or nil.
func Fault(st State) error {
	if f, ok := st.(Faulty); ok {
		return f.Err()
	}
	return nil
}

// Closer is implemented by states that hold something outside the judge
// (a plugin game's referee): whoever made the state with Game.New closes
// it once done with it.
type Closer interface {
	Close() error
}

// Close closes st when it is a Closer.
func Close(st State) {
	if c, ok := st.(Closer); ok {
		_ = c.Close()
	}
}
