package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

// ReadSettings decodes the settings saved in dataDir's database into v
// without writing anything: no migration, a read-only connection. It is for
// `wayfinder doctor` beside an open app, which owns the folder. It reports
// false when there is no database or nothing was saved yet.
func ReadSettings(ctx context.Context, dataDir string, v any) (bool, error) {
	path := filepath.Join(dataDir, FileName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	q := url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(10000)"}}
	db, err := gorm.Open(sqlite.Open("file:"+path+"?"+q.Encode()), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return false, fmt.Errorf("open %q to read the settings: %w", path, err)
	}
	s := &Store{db: db, path: path}
	defer s.Close()
	return s.LoadSettings(ctx, v)
}
