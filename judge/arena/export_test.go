package arena

import "context"

// Count runs a counting query on a's database.
func Count(ctx context.Context, a *Arena, q string) (int, error) {
	var n int
	err := a.db.QueryRowContext(ctx, q).Scan(&n)
	return n, err
}
