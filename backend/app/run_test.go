package app

import (
	"context"
	"io"
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
		{"kb --help", []string{"kb", "--help"}, 0, []string{"Usage: wayfinder kb import PATH..."}, nil},
		{"memory help", []string{"memory", "help"}, 0, []string{"Usage: wayfinder memory list"}, nil},
		{"unknown flag", []string{"--nope"}, 2, nil, []string{"wayfinder: flag provided but not defined: -nope", "Run `wayfinder --help` for usage."}},
		{"unknown flag of a command", []string{"ask", "--frob", "hi"}, 2, nil, []string{"wayfinder: flag provided but not defined: -frob", "Run `wayfinder ask --help` for usage."}},
		{"bad flag value", []string{"kb", "search", "--top", "many", "x"}, 2, nil, []string{`wayfinder: invalid value "many" for flag -top: parse error`, "Run `wayfinder kb --help` for usage."}},
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
