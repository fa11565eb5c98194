package server

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The token is made once, readable by its owner only, and the same at
// every start after; --new-token replaces it (and mends a file serve
// would not use); a file others may read, one holding something else, or
// a folder or a link in its place is refused, with the problem named and
// never the token.
func TestLoadToken(t *testing.T) {
	const kept = "0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string) // nil: no file yet
		renew   bool
		want    string // "" a new token; else this one
		made    bool
		problem TokenProblem
	}{
		{"first start makes one", nil, false, "", true, ""},
		{"a later start keeps it", writeFile(kept+"\n", 0o600), false, kept, false, ""},
		{"without its newline too", writeFile(kept, 0o600), false, kept, false, ""},
		{"--new-token replaces it", writeFile(kept+"\n", 0o600), true, "", true, ""},
		{"--new-token on the first start", nil, true, "", true, ""},
		{"readable by others", writeFile(kept+"\n", 0o644), false, "", false, TokenOpen},
		{"writable by the group", writeFile(kept+"\n", 0o620), false, "", false, TokenOpen},
		{"junk", writeFile("hello\n", 0o600), false, "", false, TokenJunk},
		{"empty", writeFile("", 0o600), false, "", false, TokenJunk},
		{"a token cut short", writeFile(kept[:40]+"\n", 0o600), false, "", false, TokenJunk},
		{"upper-case or other letters", writeFile(strings.ToUpper(kept), 0o600), false, "", false, TokenJunk},
		{"--new-token mends one readable by others", writeFile(kept+"\n", 0o644), true, "", true, ""},
		{"--new-token mends junk", writeFile("hello\n", 0o600), true, "", true, ""},
		{"a folder in its place", func(t *testing.T, path string) { mustDo(t, os.Mkdir(path, 0o700)) }, false, "", false, TokenNotFile},
		{"a folder, with --new-token", func(t *testing.T, path string) { mustDo(t, os.Mkdir(path, 0o700)) }, true, "", false, TokenNotFile},
		{"a link in its place", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			mustDo(t, os.WriteFile(target, []byte(kept+"\n"), 0o600))
			mustDo(t, os.Symlink(target, path))
		}, false, "", false, TokenNotFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && tt.problem == TokenOpen {
				tt.problem, tt.want = "", kept // no such permission bits there
			}
			dir := t.TempDir()
			path := filepath.Join(dir, TokenFile)
			if tt.prepare != nil {
				tt.prepare(t, path)
			}
			token, made, err := load(dir, tt.renew)
			if tt.problem != "" {
				var te *TokenError
				if !errors.As(err, &te) || te.Problem != tt.problem || te.Path != path {
					t.Fatalf("err %v, want a %s TokenError for %s", err, tt.problem, path)
				}
				if strings.Contains(err.Error(), kept) {
					t.Fatalf("the error shows the token: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if made != tt.made {
				t.Fatalf("made %v, want %v", made, tt.made)
			}
			if tt.want != "" && token != tt.want {
				t.Fatalf("token %q, want %q", token, tt.want)
			}
			if tt.want == "" && (token == kept || !validToken(token)) {
				t.Fatalf("token %q, want a new one", token)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
				t.Fatalf("token file permissions %04o, want 0600", info.Mode().Perm())
			}
			// The next start gives the same token, and left no temporary file.
			again, made, err := load(dir, false)
			if err != nil || again != token || made {
				t.Fatalf("the next start: %q %v %v, want %q", again, made, err, token)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Fatalf("the folder holds %d entries, want the token file alone", len(entries))
			}
		})
	}
}

// load is what `wayfinder serve` does: the token kept, unless renew;
// a new one when there is none (made).
func load(dir string, renew bool) (token string, made bool, err error) {
	if !renew {
		if token, err = ReadToken(dir); err != nil || token != "" {
			return token, false, err
		}
	}
	token, err = NewToken(dir)
	return token, err == nil, err
}

func writeFile(content string, mode os.FileMode) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		mustDo(t, os.WriteFile(path, []byte(content), mode))
		mustDo(t, os.Chmod(path, mode)) // past the umask
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// DropOpenToken removes a token file others may read, which any start
// would otherwise make private and so have serve accept, and leaves every
// other token file, and a folder or a link in its place, alone.
func TestDropOpenToken(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no such permission bits on Windows")
	}
	const kept = "0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string) // nil: no file
		dropped bool
	}{
		{"no file", nil, false},
		{"private", writeFile(kept+"\n", 0o600), false},
		{"readable by others", writeFile(kept+"\n", 0o644), true},
		{"writable by the group", writeFile(kept+"\n", 0o620), true},
		{"a folder in its place", func(t *testing.T, path string) { mustDo(t, os.Mkdir(path, 0o755)) }, false},
		{"a link in its place", func(t *testing.T, path string) {
			target := filepath.Join(filepath.Dir(path), "elsewhere")
			writeFile(kept, 0o644)(t, target)
			mustDo(t, os.Symlink(target, path))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, TokenFile)
			if tt.prepare != nil {
				tt.prepare(t, path)
			}
			dropped, err := DropOpenToken(dir)
			if err != nil || dropped != tt.dropped {
				t.Fatalf("DropOpenToken = %v, %v; want %v", dropped, err, tt.dropped)
			}
			_, err = os.Lstat(path)
			if gone := errors.Is(err, os.ErrNotExist); gone != (tt.dropped || tt.prepare == nil) {
				t.Errorf("file gone %v after DropOpenToken (%v)", gone, err)
			}
		})
	}
}
