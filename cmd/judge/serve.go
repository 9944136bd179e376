package main

import (
	"context"
	"errors"
)

func (m *Main) serve(ctx context.Context, args []string) error {
	return errors.New("not yet")
}
