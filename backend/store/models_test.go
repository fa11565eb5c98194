package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestSessionModel: a database of the first schema gets the model column;
// a conversation keeps the model set for it across a reopen, the sidebar
// lists it, setting it does not reorder the sidebar, and a deleted
// conversation cannot get one.
func TestSessionModel(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// A data folder written before conversations had models.
	db, err := OpenDB(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db, "store", migrations()[:1]); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := db.Exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('old', 'before models', ?, ?)`, old, old).Error; err != nil {
		t.Fatal(err)
	}
	if sqlDB, err := db.DB(); err == nil {
		sqlDB.Close()
	}

	s := open(t, dir)
	if m, err := s.SessionModel(ctx, "old"); err != nil || m != "" {
		t.Fatalf("an old conversation follows the default: %q %v", m, err)
	}
	sess, err := s.SetSessionModel(ctx, "old", " qwen3:4b ")
	if err != nil || sess.Model != "qwen3:4b" || !sess.UpdatedAt.Equal(old) {
		t.Fatalf("SetSessionModel = %+v, %v", sess, err)
	}
	if m, _ := s.SessionModel(ctx, "old"); m != "qwen3:4b" {
		t.Fatalf("model after setting it: %q", m)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2 := open(t, dir)
	if m, err := s2.SessionModel(ctx, "old"); err != nil || m != "qwen3:4b" {
		t.Fatalf("model after reopening: %q %v", m, err)
	}
	list, err := s2.ListSessions(ctx, "")
	if err != nil || len(list) != 1 || list[0].Model != "qwen3:4b" {
		t.Fatalf("sidebar: %+v %v", list, err)
	}
	if _, err := s2.SetSessionModel(ctx, "old", ""); err != nil {
		t.Fatal(err)
	}
	if m, _ := s2.SessionModel(ctx, "old"); m != "" {
		t.Fatalf("back to the default: %q", m)
	}
	if err := s2.DeleteSession(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.SetSessionModel(ctx, "old", "qwen3:4b"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a deleted conversation: %v", err)
	}
}
