package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
)

type setting struct {
	Key   string `gorm:"primaryKey"`
	Value string
}

// settingsKey holds the whole settings document: one JSON value keeps a
// settings change atomic and lets new fields appear without a migration.
const settingsKey = "settings"

// LoadSettings decodes the saved settings into v. It reports false when
// nothing was saved yet, leaving v as it was (the caller's defaults).
func (s *Store) LoadSettings(ctx context.Context, v any) (bool, error) {
	var row setting
	err := s.db.WithContext(ctx).Where("key = ?", settingsKey).First(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("load settings: %w", err)
	}
	if err := json.Unmarshal([]byte(row.Value), v); err != nil {
		return false, fmt.Errorf("decode settings: %w", err)
	}
	return true, nil
}

// SaveSettings stores the settings document.
func (s *Store) SaveSettings(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	err = s.db.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).
		Create(&setting{Key: settingsKey, Value: string(b)}).Error
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

// OpenReadOnly opens dataDir's database for reading while another process
// (the open app) owns it and writes to it: no migration, and a read-only
// connection, which never writes the database file. SQLite's WAL mode is
// made for this: each read sees the last transaction committed before it
// began, while the writer goes on. The store keeps no history cache, since
// another process writes. It fails with fs.ErrNotExist when there is no
// database yet.
func OpenReadOnly(dataDir string) (*Store, error) {
	path := filepath.Join(dataDir, FileName)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open %q: %w", path, err)
	}
	q := url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(10000)"}}
	db, err := gorm.Open(sqlite.Open("file:"+path+"?"+q.Encode()), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	if err != nil {
		return nil, fmt.Errorf("open %q to read it: %w", path, err)
	}
	return &Store{db: db, path: path, histories: newHistories(), models: &sessionModels{byID: map[string]string{}}, readOnly: true}, nil
}
