package app

import (
	"context"
	"io"
	"net"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// testShells stand in for package main's: a frontend of one page and no
// desktop window (TestDesktopStart gives one).
var testShells = Shells{Assets: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Wayfinder</title>")}}}

// Help goes to standard output (it was asked for); a mistake is one line on
// standard error and where the help is, never the whole usage.
func TestHelpAndMistakes(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		out      []string // each must be in stdout
		errLines []string // stderr, line by line
	}{
		{"--help", []string{"--help"}, 0, []string{"Usage:", "wayfinder serve", "-data-dir", "-version"}, nil},
		{"-h", []string{"-h"}, 0, []string{"Usage:", "wayfinder doctor"}, nil},
		{"help", []string{"help"}, 0, []string{"Usage:", "wayfinder ask"}, nil},
		{"ask --help", []string{"ask", "--help"}, 0, []string{"Usage: wayfinder ask", "-session", "-data-dir"}, nil},
		{"kb --help", []string{"kb", "--help"}, 0, []string{"Usage:\n  wayfinder kb import PATH...\n  wayfinder kb list\n"}, nil},
		// A kb command's --help gives its own syntax, not the group's line.
		{"kb search --help", []string{"kb", "search", "--help"}, 0, []string{"Usage: wayfinder kb search [--top N] [--json] [--scope documents|catalog|all] [--per-doc N] [--floor F] QUERY\n", "-top"}, nil},
		{"kb import --help", []string{"kb", "import", "--help"}, 0, []string{"Usage: wayfinder kb import PATH...\n"}, nil},
		{"kb remove --help", []string{"kb", "remove", "--help"}, 0, []string{"Usage: wayfinder kb remove ID\n"}, nil},
		{"memory help", []string{"memory", "help"}, 0, []string{"Usage:\n  wayfinder memory list\n"}, nil},
		{"unknown flag", []string{"--nope"}, 2, nil, []string{"wayfinder: flag provided but not defined: -nope", "Run `wayfinder --help` for usage."}},
		{"unknown flag of a command", []string{"ask", "--frob", "hi"}, 2, nil, []string{"wayfinder: flag provided but not defined: -frob", "Run `wayfinder ask --help` for usage."}},
		{"bad flag value", []string{"kb", "search", "--top", "many", "x"}, 2, nil, []string{`wayfinder: invalid value "many" for flag -top: parse error`, "Run `wayfinder kb search --help` for usage."}},
		{"unknown command", []string{"frobnicate"}, 2, nil, []string{`wayfinder: unknown command "frobnicate"`, "Run `wayfinder --help` for usage."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := wayfinder(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			for _, w := range tt.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if got := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n"); tt.errLines != nil && strings.Join(got, "\n") != strings.Join(tt.errLines, "\n") {
				t.Errorf("stderr:\n%s\nwant:\n%s", errOut, strings.Join(tt.errLines, "\n"))
			}
			if tt.errLines == nil && errOut != "" {
				t.Errorf("stderr should be empty, got:\n%s", errOut)
			}
		})
	}
}

// --version and version say the version, the commit and the build date.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := wayfinder(t, args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut)
		}
		for _, w := range []string{"wayfinder ", "\ncommit  ", "\nbuilt   ", "\ngo      go1."} {
			if !strings.Contains(out, w) {
				t.Errorf("%v: %q lacks %q", args, out, w)
			}
		}
	}
}

// The desktop start opens the app and gives it to the window; when the data
// folder is in use, the error window gets a page saying so and the open
// app's instance id, so that a desktop with a session bus can raise it.
func TestDesktopStart(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	dir := t.TempDir()
	args := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	var shown *App
	var page []byte
	var instance string
	sh := testShells
	sh.Window = func(ctx context.Context, a *App) error {
		shown = a
		// A second start while this one is open.
		code := Main(ctx, args, strings.NewReader(""), io.Discard, io.Discard, sh)
		if code != 1 {
			t.Errorf("second start: exit %d, want 1", code)
		}
		return nil
	}
	sh.ErrorWindow = func(_ context.Context, p []byte, id string) error {
		page, instance = p, id
		return nil
	}
	if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard, sh); code != 0 {
		t.Fatalf("desktop start: exit %d", code)
	}
	if shown == nil || shown.mode != "desktop" {
		t.Fatalf("the window got %+v", shown)
	}
	if !strings.Contains(string(page), "Wayfinder is already open") || instance == "" || instance != shown.InstanceID() {
		t.Errorf("error window: instance %q (want %q), page:\n%s", instance, shown.InstanceID(), page)
	}

	// Any other failure: the page says what, and no instance is named.
	page, instance = nil, "x"
	bad := []string{"--data-dir", t.TempDir(), "--ollama-host", "ftp://nowhere"}
	if code := Main(context.Background(), bad, strings.NewReader(""), io.Discard, io.Discard, sh); code != 1 {
		t.Fatalf("failing start: exit %d", code)
	}
	if !strings.Contains(string(page), "Wayfinder could not start") || instance != "" {
		t.Errorf("error window: instance %q, page:\n%s", instance, page)
	}

	// A build without a window says what to use instead.
	code, _, errOut := wayfinder(t, "--data-dir", t.TempDir())
	if code != 1 || !strings.Contains(errOut, "wayfinder serve") {
		t.Errorf("no window: exit %d, stderr %q", code, errOut)
	}
}

// Wails binds a service under its Go package's name: the frontend must call
// it there (the desktop smoke proves the whole round trip under Xvfb; this
// says at once what broke when the package is renamed).
func TestBindingNamespace(t *testing.T) {
	src, err := os.ReadFile("../../frontend/src/api/transport.ts")
	if err != nil {
		t.Fatal(err)
	}
	for name, svc := range (&App{}).Services() {
		pkg, typ, _ := strings.Cut(reflect.TypeOf(svc).Elem().String(), ".")
		if typ != name {
			t.Errorf("service %q is bound as type %s", name, typ)
		}
		if want := "this.win.go?." + pkg + "?.[service]"; !strings.Contains(string(src), want) {
			t.Errorf("transport.ts does not call bound services as window.go.%s (want %q)", pkg, want)
		}
	}
}

// What report adds to a failure — the hint's "next step:" label and where
// the usage is — is in the language the command speaks: the data folder's
// Language setting (read with the flags given after the command's name
// too), else the system's.
func TestReportSpeaksTheCommandsLanguage(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := ln.Addr().String()
	korean := t.TempDir()
	a, err := openApp(context.Background(), globals{dataDir: korean}, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	cfg := a.settings.Current()
	cfg.Language = "ko"
	if _, err := a.settings.Save(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	a.Close()
	for _, tc := range []struct {
		name, lang string
		args       []string
		code       int
		want, not  string
	}{
		{"hint en", "en_US.UTF-8", []string{"--data-dir", t.TempDir(), "serve", "--addr", busy}, 1, "\n  next step: Choose another port", "다음 단계"},
		{"hint ko", "ko_KR.UTF-8", []string{"--data-dir", t.TempDir(), "serve", "--addr", busy}, 1, "\n  다음 단계: --addr 127.0.0.1:PORT로 다른 포트를 고르거나", "next step"},
		{"hint by the setting, flag after the command", "en_US.UTF-8", []string{"serve", "--addr", busy, "--data-dir", korean}, 1, "\n  다음 단계: --addr", "next step"},
		{"usage en", "en_US.UTF-8", []string{"--data-dir", t.TempDir(), "mcp", "frob"}, 2, "\nRun `wayfinder mcp --help` for usage.\n", "사용법"},
		{"usage ko", "ko_KR.UTF-8", []string{"--data-dir", t.TempDir(), "mcp", "frob"}, 2, "\n사용법은 `wayfinder mcp --help`로 볼 수 있습니다.\n", "for usage"},
		{"usage by the setting", "en_US.UTF-8", []string{"mcp", "frob", "--data-dir", korean}, 2, "\n사용법은 `wayfinder mcp --help`로 볼 수 있습니다.\n", "for usage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			code, _, errOut := wayfinder(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, tc.not) {
				t.Fatalf("exit %d, want %d and %q without %q:\n%s", code, tc.code, tc.want, tc.not, errOut)
			}
		})
	}
}

// The start that finds the data folder in use speaks the language chosen
// in Settings, not only the system's: Korean chosen on an English system,
// the window said "Wayfinder is already open" in English.
func TestDesktopStartErrorSpeaksSettingsLanguage(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "en_US.UTF-8")
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	args := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	var page []byte
	sh := testShells
	sh.Window = func(ctx context.Context, a *App) error {
		s := a.settings.Current()
		s.Language = "ko"
		if _, err := (&SettingsService{app: a}).Save(s); err != nil {
			return err
		}
		Main(ctx, args, strings.NewReader(""), io.Discard, io.Discard, sh) // a second start while this one is open
		return nil
	}
	sh.ErrorWindow = func(_ context.Context, p []byte, _ string) error {
		page = p
		return nil
	}
	if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard, sh); code != 0 {
		t.Fatalf("desktop start: exit %d", code)
	}
	if !strings.Contains(string(page), "Wayfinder가 이미 열려 있습니다") || !strings.Contains(string(page), `lang="ko"`) {
		t.Errorf("error window, Korean chosen in Settings on an English system:\n%s", page)
	}
}
