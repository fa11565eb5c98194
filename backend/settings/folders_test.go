package settings

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

func openStore(t *testing.T) (*store.Store, *Store) {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := Load(context.Background(), db, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	return db, s
}

// TestFolderGrants: the person grants a folder, changes what it allows,
// sees it after a restart, and revokes it; a settings form saved with a
// stale list changes no grant; wrong paths get their own codes.
func TestFolderGrants(t *testing.T) {
	ctx := context.Background()
	db, s := openStore(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	stale := s.Current() // a settings form opened before the grant

	cur, err := s.Grant(ctx, api.FolderGrant{Path: dir})
	if err != nil || len(cur.Folders) != 1 || cur.Folders[0].Path != dir || cur.Folders[0].GrantedAt.IsZero() {
		t.Fatalf("grant: %+v, %v", cur.Folders, err)
	}
	granted := cur.Folders[0].GrantedAt
	if cur, err = s.Grant(ctx, api.FolderGrant{Path: dir + string(filepath.Separator), AllowHidden: true}); err != nil ||
		len(cur.Folders) != 1 || !cur.Folders[0].AllowHidden || cur.Folders[0].AllowSecrets || !cur.Folders[0].GrantedAt.Equal(granted) {
		t.Fatalf("grant again with hidden files: %+v, %v", cur.Folders, err)
	}
	stale.Language = "ko"
	if cur, err = s.Save(ctx, stale); err != nil || len(cur.Folders) != 1 || cur.Language != "ko" {
		t.Fatalf("saving a stale form: %+v, %v", cur, err)
	}
	again, err := Load(ctx, db, Overrides{})
	if err != nil || len(again.Current().Folders) != 1 || !again.Current().Folders[0].AllowHidden {
		t.Fatalf("after a restart: %+v, %v", again.Current().Folders, err)
	}

	// Each carries the path (and which case it is) for the window to word
	// in the person's language, not only the English message.
	missing := filepath.Join(dir, "missing")
	for _, tt := range []struct {
		path string
		code api.ErrorCode
		args map[string]string
	}{
		{missing, api.ErrFolderNotFound, map[string]string{"path": missing}},
		{file, api.ErrNotAFolder, map[string]string{"path": file}},
		{"", api.ErrFolderNotFound, map[string]string{"case": "empty"}},
	} {
		_, err := s.Grant(ctx, api.FolderGrant{Path: tt.path})
		if info, ok := api.AsError(err); !ok || info.Code != tt.code || !maps.Equal(info.Args, tt.args) {
			t.Errorf("Grant(%q) = %v %+v, want %s %v", tt.path, err, info.Args, tt.code, tt.args)
		}
	}

	if cur, err = s.Revoke(ctx, dir); err != nil || len(cur.Folders) != 0 {
		t.Fatalf("revoke: %+v, %v", cur.Folders, err)
	}
	if _, err := s.Revoke(ctx, dir); err == nil {
		t.Fatal("revoking twice succeeded")
	} else if info, _ := api.AsError(err); info.Code != api.ErrFolderNotGranted || info.Args["path"] != dir {
		t.Fatalf("revoking twice: %v", err)
	}
}

// TestImportGrantsAreNotKept: a settings document of an older version
// listed imported folders as readable. None stays readable; they are
// listed as revoked until the person grants one again or dismisses the
// notice, and the document is rewritten once.
func TestImportGrantsAreNotKept(t *testing.T) {
	ctx := context.Background()
	db, _ := openStore(t)
	a, b := t.TempDir(), t.TempDir()
	old := map[string]any{"ollama_host": "http://127.0.0.1:11434", "chat_model": "qwen3:4b", "theme": "dark",
		"max_iterations": 5, "context_tokens": 8192, "folders": []string{a, b}}
	if err := db.SaveSettings(ctx, old); err != nil {
		t.Fatal(err)
	}
	s, err := Load(ctx, db, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	cur := s.Current()
	if len(cur.Folders) != 0 || len(cur.RevokedImportFolders) != 2 || cur.Theme != api.ThemeDark || len(s.Migrated) != 1 {
		t.Fatalf("migrated: %+v (%v)", cur, s.Migrated)
	}
	s2, err := Load(ctx, db, Overrides{})
	if err != nil || len(s2.Migrated) != 0 || len(s2.Current().RevokedImportFolders) != 2 {
		t.Fatalf("the migration did not persist: %+v %v", s2.Current(), s2.Migrated)
	}
	if cur, err = s2.Grant(ctx, api.FolderGrant{Path: a}); err != nil || len(cur.Folders) != 1 || len(cur.RevokedImportFolders) != 1 {
		t.Fatalf("granting one again: %+v, %v", cur, err)
	}
	if cur, err = s2.DismissRevokedImports(ctx); err != nil || len(cur.RevokedImportFolders) != 0 || len(cur.Folders) != 1 {
		t.Fatalf("dismiss: %+v, %v", cur, err)
	}
}
