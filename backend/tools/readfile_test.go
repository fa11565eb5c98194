package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

func TestReadTextFile(t *testing.T) {
	base := t.TempDir()
	added := filepath.Join(base, "added")
	other := filepath.Join(base, "other")
	for _, d := range []string{added, filepath.Join(added, "notes"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(added, "notes", "plan.md"), "# 계획\n영상 편집 도구를 찾는다.")
	write(filepath.Join(added, "bom.txt"), "\xef\xbb\xbfhello")
	write(filepath.Join(added, "image.png"), "\x89PNG\r\n\x1a\n\x00\x00")
	write(filepath.Join(added, "latin1.txt"), "caf\xe9")
	write(filepath.Join(added, "big.txt"), strings.Repeat("a", 2000))
	write(filepath.Join(other, "secret.txt"), "secret")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(other, "secret.txt"), filepath.Join(added, "escape.txt")))
	must(os.Symlink(other, filepath.Join(added, "otherdir")))
	must(os.Symlink(filepath.Join(added, "notes", "plan.md"), filepath.Join(added, "inside-link.md")))

	folders := grants(added)
	tests := []struct {
		name    string
		folders []api.FolderGrant
		path    string
		want    string
		wantErr error
	}{
		{"relative", folders, "notes/plan.md", "# 계획\n영상 편집 도구를 찾는다.", nil},
		{"absolute inside", folders, filepath.Join(added, "notes", "plan.md"), "# 계획", nil},
		{"link inside the folder", folders, "inside-link.md", "# 계획", nil},
		{"BOM stripped", folders, "bom.txt", "hello", nil},
		{"second folder", grants(other, added), "notes/plan.md", "# 계획", nil},
		{"dot-dot", folders, "../other/secret.txt", "", ErrOutsideFolders},
		{"dot-dot in the middle", folders, "notes/../../other/secret.txt", "", ErrOutsideFolders},
		{"absolute outside", folders, filepath.Join(other, "secret.txt"), "", ErrOutsideFolders},
		{"absolute system file", folders, "/etc/passwd", "", ErrOutsideFolders},
		{"symlink to a file outside", folders, "escape.txt", "", ErrOutsideFolders},
		{"symlinked dir outside", folders, "otherdir/secret.txt", "", ErrOutsideFolders},
		{"absolute through symlinked dir", folders, filepath.Join(added, "otherdir", "secret.txt"), "", ErrOutsideFolders},
		{"no folders", nil, "notes/plan.md", "", ErrOutsideFolders},
		{"binary", folders, "image.png", "", ErrNotText},
		{"not utf-8", folders, "latin1.txt", "", ErrNotText},
		{"too large", folders, "big.txt", "", ErrTooLarge},
		{"folder", folders, "notes", "", ErrInvalidArgs},
		{"missing", folders, "nope.txt", "", fs.ErrNotExist},
		{"empty", folders, " ", "", ErrInvalidArgs},
		{"nul byte", folders, "a\x00b", "", ErrInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadTextFile(tt.folders, tt.path, 1000)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("ReadTextFile(%q) = %q, %v; want %v", tt.path, got.Text, err, tt.wantErr)
				}
				if strings.Contains(got.Text, "secret") {
					t.Fatal("leaked content")
				}
				return
			}
			if err != nil || !strings.HasPrefix(got.Text, tt.want) {
				t.Fatalf("ReadTextFile(%q) = %q, %v; want prefix %q", tt.path, got.Text, err, tt.want)
			}
			if !filepath.IsAbs(got.Path) || !strings.HasSuffix(got.Path, ".md") && !strings.HasSuffix(got.Path, ".txt") {
				t.Fatalf("ReadTextFile(%q) says it read %q", tt.path, got.Path)
			}
		})
	}
}

func TestReadFileTool(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("안녕"), 0o644); err != nil {
		t.Fatal(err)
	}
	var folders []api.FolderGrant
	r := mustRegistry(t, NewReadFile(func() []api.FolderGrant { return folders }))
	call := Call{Name: "read_file", Args: map[string]any{"path": "a.txt"}}
	if out := r.Run(context.Background(), call); !errors.Is(out.Err, ErrOutsideFolders) || !strings.Contains(out.Result.Text, "no folders granted") {
		t.Fatalf("before granting the folder: %+v", out)
	}
	folders = grants(dir) // granted in the settings: counts at the next call
	want := "File: " + filepath.Join(dir, "a.txt") + "\n\n안녕"
	if out := r.Run(context.Background(), call); out.Err != nil || out.Result.Text != want {
		t.Fatalf("after granting the folder: %+v, want %q", out, want)
	}
	folders = nil // revoked
	if out := r.Run(context.Background(), call); !errors.Is(out.Err, ErrOutsideFolders) {
		t.Fatalf("after revoking the folder: %+v", out)
	}
}

// grants grants each folder with nothing more than ordinary files.
func grants(dirs ...string) []api.FolderGrant {
	out := make([]api.FolderGrant, len(dirs))
	for i, d := range dirs {
		out[i] = api.FolderGrant{Path: d}
	}
	return out
}

// FuzzReadTextFile: whatever path the model sends, nothing outside the
// added folder is ever returned.
func FuzzReadTextFile(f *testing.F) {
	base := f.TempDir()
	added, outside := filepath.Join(base, "added"), filepath.Join(base, "outside")
	for _, d := range []string{added, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("TOPSECRET"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(added, "ok.txt"), []byte("fine"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(added, "link")); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"ok.txt", "../outside/secret.txt", "link/secret.txt", filepath.Join(outside, "secret.txt"),
		"./link/../link/secret.txt", "ok.txt/../../outside/secret.txt", "//etc/passwd", "link", "."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		got, err := ReadTextFile(grants(added), path, 1000)
		if strings.Contains(got.Text, "TOPSECRET") {
			t.Fatalf("ReadTextFile(%q) escaped the folder", path)
		}
		if err == nil && got.Text != "fine" {
			t.Fatalf("ReadTextFile(%q) = %q", path, got.Text)
		}
	})
}
