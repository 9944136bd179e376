package main

import (
	"context"
	"fmt"
)

func (m *Main) arenaServe(ctx context.Context, args []string) error {
	return fmt.Errorf("%w: judge arena serve is not built in", errUsage)
}
