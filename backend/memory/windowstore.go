package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/wayfinder-app/wayfinder/backend/store"
)

// MigrationSet names this package's migrations in the shared database.
const MigrationSet = "memory"

func migrations() []store.Migration {
	return []store.Migration{
		{Version: 1, Name: "summary windows", Up: func(tx *gorm.DB) error {
			return tx.Exec(`CREATE TABLE memory_windows (
				session_id TEXT PRIMARY KEY,
				summary TEXT NOT NULL DEFAULT '',
				next INTEGER NOT NULL DEFAULT 0,
				updated_at DATETIME NOT NULL)`).Error
		}},
		{Version: 2, Name: "long-term memories", Up: func(tx *gorm.DB) error {
			for _, q := range []string{
				`CREATE TABLE memories (
					id TEXT PRIMARY KEY,
					text TEXT NOT NULL,
					norm TEXT NOT NULL,
					kind TEXT NOT NULL,
					session_id TEXT NOT NULL DEFAULT '',
					created_at DATETIME NOT NULL,
					updated_at DATETIME NOT NULL)`,
				`CREATE INDEX memories_norm ON memories(norm)`,
				`CREATE INDEX memories_updated ON memories(updated_at)`,
			} {
				if err := tx.Exec(q).Error; err != nil {
					return err
				}
			}
			return nil
		}},
	}
}

// Migrate brings the memory tables up to date; Open and OpenWindows call it.
func Migrate(ctx context.Context, db *gorm.DB) error {
	return store.Migrate(ctx, db, MigrationSet, migrations())
}

type windowRow struct {
	SessionID string `gorm:"primaryKey"`
	Summary   string
	Next      int
	UpdatedAt time.Time
}

func (windowRow) TableName() string { return "memory_windows" }

// Windows keeps each session's summary window.
type Windows struct {
	db *gorm.DB
}

// OpenWindows migrates the tables and returns the window store.
func OpenWindows(ctx context.Context, db *gorm.DB) (*Windows, error) {
	if err := Migrate(ctx, db); err != nil {
		return nil, err
	}
	return &Windows{db: db}, nil
}

// Load returns the session's window; a session never summarised has the
// zero state.
func (w *Windows) Load(ctx context.Context, sessionID string) (WindowState, error) {
	var row windowRow
	err := w.db.WithContext(ctx).Where("session_id = ?", sessionID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return WindowState{SessionID: sessionID}, nil
	}
	if err != nil {
		return WindowState{}, fmt.Errorf("load summary window of session %s: %w", sessionID, err)
	}
	return WindowState{SessionID: sessionID, Summary: row.Summary, Next: row.Next}, nil
}

// Save stores the session's window.
func (w *Windows) Save(ctx context.Context, s WindowState) error {
	row := windowRow{SessionID: s.SessionID, Summary: s.Summary, Next: s.Next, UpdatedAt: time.Now().UTC()}
	err := w.db.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("save summary window of session %s: %w", s.SessionID, err)
	}
	return nil
}

// Delete forgets the session's summaries, with the session.
func (w *Windows) Delete(ctx context.Context, sessionID string) error {
	if err := w.db.WithContext(ctx).Where("session_id = ?", sessionID).Delete(&windowRow{}).Error; err != nil {
		return fmt.Errorf("delete summary window of session %s: %w", sessionID, err)
	}
	return nil
}

// MessageSummarizer folds messages into one summary; *Summarizer is one.
type MessageSummarizer interface {
	Summarize(ctx context.Context, msgs []Msg) (string, error)
}

// Compact summarises the session's oldest unsummarised messages when there
// are more than MaxMessages of them, and saves the new window. all is every
// message of the session, oldest first. Call it after a turn is answered:
// it makes a model call, and nothing waits for it. It reports whether it
// summarised anything; on error the saved window is unchanged.
func (w *Windows) Compact(ctx context.Context, s MessageSummarizer, sessionID string, all []Msg) (WindowState, bool, error) {
	state, err := w.Load(ctx, sessionID)
	if err != nil {
		return state, false, err
	}
	state.Next = min(max(state.Next, 0), len(all)) // messages may have been removed since
	old, _ := Plan(state, all)
	if len(old) == 0 {
		return state, false, nil
	}
	summary, err := s.Summarize(ctx, old)
	if err != nil {
		return state, false, fmt.Errorf("compact session %s: %w", sessionID, err)
	}
	state = state.Advance(summary, len(old))
	if err := w.Save(ctx, state); err != nil {
		return state, false, err
	}
	return state, true, nil
}
