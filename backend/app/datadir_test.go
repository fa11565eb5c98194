package app

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/server"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// A command that would write to a data folder another Wayfinder holds says
// so in the command's language, then what to do, on two lines: a Korean
// terminal read the whole of it in English.
func TestDataFolderInUseIsSaidInTheCommandsLanguage(t *testing.T) {
	dir := t.TempDir()
	l, err := lockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	doc := filepath.Join(t.TempDir(), "note.md")
	if err := os.WriteFile(doc, []byte("# Note\n\nleave policy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		env  string
		want []string
	}{
		{"en_US.UTF-8", []string{
			"wayfinder: another Wayfinder is using the data folder " + dir + " (a Wayfinder window, `wayfinder serve` or `wayfinder ask`)",
			"  next step: Close it first, or choose another folder with --data-dir.",
		}},
		{"ko_KR.UTF-8", []string{
			"wayfinder: 다른 Wayfinder(Wayfinder 창, `wayfinder serve`, `wayfinder ask`)가 데이터 폴더 " + dir + "을 쓰고 있습니다", // 001: 일, so 을,
			"  다음 단계: 먼저 그것을 닫거나, --data-dir로 다른 폴더를 고르세요.",
		}},
	} {
		for _, args := range [][]string{{"kb", "import", doc}, {"ask", "hi"}, {"memory", "add", "I like tea"}} {
			t.Run(tt.env[:2]+" "+args[0], func(t *testing.T) {
				t.Setenv("LC_ALL", tt.env)
				code, out, errOut := wayfinder(t, append([]string{"--data-dir", dir, "--ollama-host", "http://127.0.0.1:1"}, args...)...)
				if got := strings.TrimSuffix(errOut, "\n"); code != 1 || out != "" || got != strings.Join(tt.want, "\n") {
					t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", code, out, errOut, strings.Join(tt.want, "\n"))
				}
			})
		}
	}
}

// A command that only reads, run beside the app that holds the data
// folder, leaves every mode in it as it is and removes nothing: making the
// folder private (fileperm.Tighten) and removing a serve token others
// could read (server.DropOpenToken) are the holder's to do at its start,
// and readers did both before they found the folder held. The next start
// still does them.
func TestReadersBesideTheAppChmodNothing(t *testing.T) {
	fake := ollamatest.New(t)
	dir := t.TempDir()
	g := globals{dataDir: dir, ollamaHost: fake.URL(), embedModel: "bge-m3"}
	a, err := openApp(context.Background(), g, "cli", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	token, db := filepath.Join(dir, server.TokenFile), filepath.Join(dir, store.FileName)
	if err := os.WriteFile(token, []byte("token"), 0o600); err != nil {
		t.Fatal(err)
	}
	loosen := map[string]os.FileMode{token: 0o644, db: 0o640, dir: 0o750}
	mode := func(p string) os.FileMode {
		info, err := os.Stat(p)
		if err != nil {
			return 0
		}
		return info.Mode().Perm()
	}
	for p, m := range loosen {
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"kb", "list"}, {"memory", "list"}} {
		if code, out, errOut := wayfinder(t, append([]string{"--data-dir", dir, "--ollama-host", fake.URL()}, args...)...); code != 0 {
			t.Fatalf("%v beside the app: exit %d\n%s%s", args, code, out, errOut)
		}
		for p, m := range loosen {
			if got := mode(p); got != m {
				t.Errorf("%v beside the app made %s %v, want it left %v", args, filepath.Base(p), got, m)
			}
		}
	}
	a.Close()
	if a, err = openApp(context.Background(), g, "cli", newLogger(io.Discard, false)); err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := os.Stat(token); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a start left the token others could read: %v", err)
	}
	if mode(db) != 0o600 || mode(dir) != 0o700 {
		t.Errorf("a start left the database %v and the folder %v, want 0600 and 0700", mode(db), mode(dir))
	}
}
