package arena

import (
	"context"
	"errors"
)

// Run builds the queued submissions, plays their test matches, then the
// ladder, jobs matches at a time, until ctx ends.
func (a *Arena) Run(ctx context.Context, jobs int) error {
	return errors.New("arena: not implemented")
}

// Final plays the final round robin of the active submissions into out.
func (a *Arena) Final(ctx context.Context, out string, seed uint64) error {
	return errors.New("arena: not implemented")
}
