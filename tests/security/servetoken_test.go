package security

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// TestServeKeepsItsToken: a browser tab open across a restart of
// `wayfinder serve` goes on working, as the token is kept in the data
// folder (0600); `--new-token` makes a new one, and the old one is refused
// from then on. The token is in no log, even with -v, and in no
// file of the data folder but its own.
func TestServeKeepsItsToken(t *testing.T) {
	fake := ollamatest.New(t)
	dir := t.TempDir()
	const list = "ChatService/ListSessions"

	first := startServe(t, serveOptions{ollama: fake.URL(), dataDir: dir, args: []string{"-v"}})
	if st := callAPI(t, first.addr, first.token, list, nil, ""); st != http.StatusOK {
		t.Fatalf("first start: status %d", st)
	}
	first.stop()
	info, err := os.Stat(filepath.Join(dir, "serve-token"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Fatalf("token file permissions %04o, want 0600", info.Mode().Perm())
	}

	again := startServe(t, serveOptions{ollama: fake.URL(), dataDir: dir, args: []string{"-v"}})
	if again.token != first.token {
		t.Fatalf("a restart changed the token")
	}
	if st := callAPI(t, again.addr, first.token, list, nil, ""); st != http.StatusOK {
		t.Fatalf("the first start's token after a restart: status %d", st)
	}
	logs := first.log() + again.log()
	again.stop()

	renewed := startServe(t, serveOptions{ollama: fake.URL(), dataDir: dir, args: []string{"--new-token"}})
	if renewed.token == first.token {
		t.Fatalf("--new-token kept the token")
	}
	if st := callAPI(t, renewed.addr, first.token, list, nil, ""); st != http.StatusUnauthorized {
		t.Fatalf("the old token after --new-token: status %d, want 401", st)
	}
	if st := callAPI(t, renewed.addr, renewed.token, list, nil, ""); st != http.StatusOK {
		t.Fatalf("the new token: status %d", st)
	}
	logs += renewed.log()
	renewed.stop()

	for _, token := range []string{first.token, renewed.token} {
		if strings.Contains(logs, token) {
			t.Fatalf("serve's log shows its token:\n%s", logs)
		}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() == "serve-token" {
				return err
			}
			data, err := os.ReadFile(path)
			if err == nil && strings.Contains(string(data), token) {
				t.Errorf("%s holds the token", path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestServeRefusesABadTokenFile: a token file others may read, or one
// that holds no token, stops serve with what is wrong and the flag that
// mends it, in the window's language; --new-token then starts it with a
// new token.
func TestServeRefusesABadTokenFile(t *testing.T) {
	fake := ollamatest.New(t)
	tests := []struct {
		name, content string
		mode          os.FileMode
		lang          string
		want          []string
	}{
		{"junk", "not a token\n", 0o600, "en_US.UTF-8", []string{"does not hold a token Wayfinder made", "--new-token"}},
		{"junk, in Korean", "not a token\n", 0o600, "ko_KR.UTF-8", []string{"Wayfinder가 만든 토큰이 없습니다", "--new-token"}},
		{"readable by others", strings.Repeat("ab", 24) + "\n", 0o644, "en_US.UTF-8", []string{"can be read by other users (permissions 0644)", "--new-token"}},
		{"readable by others, in Korean", strings.Repeat("ab", 24) + "\n", 0o644, "ko_KR.UTF-8", []string{"다른 사용자도 읽을 수 있어(권한 0644)", "--new-token"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && tt.mode != 0o600 {
				return // no such permission bits there
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "serve-token")
			if err := os.WriteFile(path, []byte(tt.content), tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.mode); err != nil { // past the umask
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := commandContext(ctx, "--data-dir", dir, "--ollama-host", fake.URL(), "serve", "--addr", "127.0.0.1:"+freePort(t))
			cmd.Env = append(os.Environ(), "LC_ALL="+tt.lang)
			out, err := cmd.CombinedOutput()
			if err == nil || ctx.Err() != nil {
				t.Fatalf("serve started with a bad token file (err %v):\n%s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Fatalf("no %q in:\n%s", w, out)
				}
			}
			if strings.Contains(string(out), strings.Repeat("ab", 24)) {
				t.Fatalf("the refusal shows the token:\n%s", out)
			}
			srv := startServe(t, serveOptions{ollama: fake.URL(), dataDir: dir, args: []string{"--new-token"}})
			if st := callAPI(t, srv.addr, srv.token, "ChatService/ListSessions", nil, ""); st != http.StatusOK {
				t.Fatalf("after --new-token: status %d", st)
			}
		})
	}
}

// TestOpenTokenIsNotTightenedIntoUse: a token file others could read is
// removed by whatever command opens the data folder next (here `kb list`),
// not made private along with the folder's other files; serve then starts
// with a new token and refuses the old one, where it went on accepting a
// token others may have read unless it happened to run first.
func TestOpenTokenIsNotTightenedIntoUse(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no such permission bits on Windows")
	}
	fake := ollamatest.New(t)
	dir := t.TempDir()
	first := startServe(t, serveOptions{ollama: fake.URL(), dataDir: dir})
	first.stop()
	path := filepath.Join(dir, "serve-token")
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := commandContext(ctx, "--data-dir", dir, "--ollama-host", fake.URL(), "kb", "list").CombinedOutput(); err != nil {
		t.Fatalf("kb list: %v\n%s", err, out)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the token file others could read is still there after kb list (%v)", err)
	}
	next := startServe(t, serveOptions{ollama: fake.URL(), dataDir: dir})
	defer next.stop()
	if next.token == first.token {
		t.Fatal("serve took up the token others could read")
	}
	if st := callAPI(t, next.addr, first.token, "ChatService/ListSessions", nil, ""); st != http.StatusUnauthorized {
		t.Fatalf("the old token: status %d, want 401", st)
	}
}
