//go:build unix

package security

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// TestDataFilesArePrivate (issue 22.7): in a data folder that already
// existed with mode 0755, everything `wayfinder serve` writes — the
// database and its -wal and -shm, the lock, the document vectors and
// keyword index, an uploaded file, a memory's vector file, and with
// --embed-model the tried model's vectors (chunks.override.vec) — is 0600
// and every folder 0700, while it runs and after it stops; a later run
// tightens what an older version left 0644/0755.
func TestDataFilesArePrivate(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithModels(append(ollamatest.DefaultModels(),
		ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}})...))
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // past the test's umask
		t.Fatal(err)
	}
	run := func(check func(t *testing.T), args ...string) {
		srv := startServe(t, serveOptions{ollama: fake.URL(), dataDir: dir, args: args})
		addr, token := srv.addr, srv.token
		var id string
		note := base64.StdEncoding.EncodeToString([]byte("# 메모\n\n회의록 정리에 쓸 도구를 찾는다."))
		if st := callAPI(t, addr, token, "KnowledgeService/Upload", &id, "memo.md", note); st != 200 {
			t.Fatalf("upload: status %d", st)
		}
		var mem api.Memory
		if st := callAPI(t, addr, token, "MemoryService/Add", &mem, "I prefer free tools "+time.Now().String(), "preference"); st != 200 {
			t.Fatalf("memory add: status %d", st)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			var docs []api.KBDocument
			callAPI(t, addr, token, "KnowledgeService/Documents", &docs)
			if len(docs) > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		check(t)
		srv.stop()
	}
	wantPrivate := func(t *testing.T, mustHave ...string) {
		t.Helper()
		seen := map[string]bool{}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			// The server runs while the folder is walked: a file written
			// atomically (a temporary renamed into place) may be gone
			// between the listing and its lstat. What it became is walked.
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			info, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			want := fs.FileMode(0o600)
			if d.IsDir() {
				want = 0o700
			}
			if info.Mode().Perm() != want {
				t.Errorf("%s: mode %o, want %o", rel, info.Mode().Perm(), want)
			}
			for _, m := range mustHave {
				if strings.HasPrefix(rel, m) {
					seen[m] = true
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mustHave {
			if !seen[m] {
				t.Errorf("nothing named %s* was written: the test checks less than it claims", m)
			}
		}
	}
	all := []string{"wayfinder.db", "wayfinder.db-wal", "wayfinder.db-shm", "wayfinder.lock", "knowledge/chunks.vec", "uploads/", "memory/", "serve-token"}
	stopped := []string{"wayfinder.db", "wayfinder.lock", "knowledge/", "uploads/", "memory/", "serve-token"}
	run(func(t *testing.T) { wantPrivate(t, all...) })
	wantPrivate(t, stopped...)
	// A model tried for one run embeds into a file of its own, kept until
	// the next run without the flag.
	tried := append(slices.Clone(all), "knowledge/chunks.override.vec")
	run(func(t *testing.T) { wantPrivate(t, tried...) }, "--embed-model", "nomic-embed-text")
	wantPrivate(t, append(stopped, "knowledge/chunks.override.vec")...)

	// As an older version left it: everything readable by others, and no
	// access token kept (one found readable by others is refused by serve,
	// and removed rather than tightened by any other start:
	// TestServeRefusesABadTokenFile, TestOpenTokenIsNotTightenedIntoUse).
	if err := os.Remove(filepath.Join(dir, "serve-token")); err != nil {
		t.Fatal(err)
	}
	if err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(path, 0o755)
		}
		return os.Chmod(path, 0o644)
	}); err != nil {
		t.Fatal(err)
	}
	run(func(t *testing.T) { wantPrivate(t, tried...) }, "--embed-model", "nomic-embed-text")
}
