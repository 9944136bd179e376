package arena

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base32"
	"fmt"
	"strings"
	"time"
)

// validName says whether name may be an entrant's name, which names
// files and URLs: 1 to 32 ASCII letters, digits, - or _, starting with a
// letter or digit. (Not a regular expression: compiled as the program
// starts, its repetition took 0.1 ms of every start of the judge's binary,
// which is also every sandbox's init.)
func validName(name string) bool {
	if name == "" || len(name) > 32 || name[0] == '-' || name[0] == '_' {
		return false
	}
	return nameChars(name)
}

// nameChars says whether s holds only ASCII letters, digits, - and _.
func nameChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// tokenPrefix starts every token, so that one is easy to recognise.
const tokenPrefix = "arena_"

// AddParticipant adds an entrant and gives its token: 160 random bits, stored
// only as their SHA-256.
func (a *Arena) AddParticipant(ctx context.Context, name string) (string, error) {
	if !validName(name) {
		return "", fmt.Errorf("arena: bad name %q: want 1 to 32 letters, digits, - or _, starting with a letter or digit", name)
	}
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("arena: %w", err)
	}
	token := tokenPrefix + strings.ToLower(base32.StdEncoding.EncodeToString(b))
	sum := sha256.Sum256([]byte(token))
	err := a.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM entrants WHERE name = ?`, name).Scan(&n); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if n > 0 {
			return fmt.Errorf("arena: %q: %w", name, ErrExists)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO entrants (name, token_hash, created) VALUES (?, ?, ?)`,
			name, sum[:], time.Now().UnixNano())
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// RemoveParticipant retires an entrant: its token no longer works, its
// submissions leave the ladder, its matches are kept.
func (a *Arena) RemoveParticipant(ctx context.Context, name string) error {
	err := a.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `UPDATE entrants SET retired = 1 WHERE name = ? AND retired = 0`, name)
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("arena: entrant %q: %w", name, ErrNotFound)
		}
		_, err = tx.ExecContext(ctx, `UPDATE submissions SET status = ? WHERE status IN (?, ?, ?, ?, ?)
			AND entrant_id = (SELECT id FROM entrants WHERE name = ?)`,
			StatusRetired, StatusQueued, StatusBuilding, StatusTesting, StatusActive, StatusFailing, name)
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		return nil
	})
	a.notify()
	return err
}

// Participants lists the entrants, retired ones too, by name.
func (a *Arena) Participants(ctx context.Context) ([]Participant, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT id, name, retired FROM entrants ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	var out []Participant
	for rows.Next() {
		var e Participant
		if err := rows.Scan(&e.ID, &e.Name, &e.Retired); err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return out, nil
}

// Authenticate finds the entrant whose token this is: ErrUnauthorized
// for none, or a retired one. Every stored hash is compared, in constant
// time.
func (a *Arena) Authenticate(ctx context.Context, token string) (Participant, error) {
	sum := sha256.Sum256([]byte(token))
	rows, err := a.db.QueryContext(ctx, `SELECT id, name, token_hash FROM entrants WHERE retired = 0`)
	if err != nil {
		return Participant{}, fmt.Errorf("arena: %w", err)
	}
	defer rows.Close()
	var found Participant
	ok := 0
	for rows.Next() {
		var e Participant
		var h []byte
		if err := rows.Scan(&e.ID, &e.Name, &h); err != nil {
			return Participant{}, fmt.Errorf("arena: %w", err)
		}
		if subtle.ConstantTimeCompare(h, sum[:]) == 1 {
			found, ok = e, 1
		}
	}
	if err := rows.Err(); err != nil {
		return Participant{}, fmt.Errorf("arena: %w", err)
	}
	if ok == 0 || token == "" {
		return Participant{}, ErrUnauthorized
	}
	return found, nil
}
