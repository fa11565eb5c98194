//go:build !windows

// Package terminal runs the wayfinder command in a real pseudo-terminal, as
// a person types into it: what a terminal does differently from a pipe (a
// question asked before something that cannot be undone, Ctrl+C sent as a
// signal by the terminal) is tested here, through the built binary.
package terminal

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

var binary string

func TestMain(m *testing.M) { world.RunWithBinary(m, &binary) }

// session is the binary running in a terminal of its own.
type session struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func start(t *testing.T, args ...string) *session {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "TERM=dumb")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, cmd: cmd, tty: tty, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		tty.Close()
	})
	return s
}

func (s *session) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// waitFor waits until the terminal shows want.
func (s *session) waitFor(want string) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.screen(), want) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the terminal never showed %q:\n%s", want, s.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *session) typeIn(keys string) {
	s.t.Helper()
	if _, err := io.WriteString(s.tty, keys); err != nil {
		s.t.Fatal(err)
	}
}

// exit waits for the command to end and returns its exit code.
func (s *session) exit() int {
	s.t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- s.cmd.Wait() }()
	select {
	case err := <-errc:
		<-s.done
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		s.t.Fatalf("the command did not end:\n%s", s.screen())
		return -1
	}
}

// Ctrl+C at the plan's question ends the command at once (exit 130) and
// the plan still waits: the next `ask --session` decides it.
func TestCtrlCAtThePlanPrompt(t *testing.T) {
	fake := ollamatest.New(t)
	world.ScriptComplex(fake, world.Pace{})
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", world.Model, "--embed-model", "bge-m3"}

	s := start(t, append(base, "ask", world.ComplexTask)...)
	s.waitFor("[a]pprove, [r]evise with feedback, or [c]ancel?")
	s.typeIn("\x03") // what the terminal sends for Ctrl+C
	if code := s.exit(); code != 130 {
		t.Fatalf("exit %d after Ctrl+C, want 130:\n%s", code, s.screen())
	}
	m := regexp.MustCompile(`the plan is still waiting; decide later with: wayfinder ask --session (\S+)`).FindStringSubmatch(s.screen())
	if m == nil {
		t.Fatalf("no way back to the plan:\n%s", s.screen())
	}

	s = start(t, append(base, "ask", "--session", m[1])...)
	s.waitFor("A plan in this conversation is waiting for your decision.")
	s.waitFor("[a]pprove")
	s.typeIn("a\r")
	if code := s.exit(); code != 0 || !strings.Contains(s.screen(), "카페 쇼츠 가이드") {
		t.Fatalf("approving the waiting plan: exit %d\n%s", code, s.screen())
	}
}

// memory rm --all asks first in a terminal: Ctrl+C and "no" forget
// nothing, "y" forgets everything.
func TestForgetEverythingInATerminal(t *testing.T) {
	fake := ollamatest.New(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--embed-model", "bge-m3"}
	if out, err := exec.Command(binary, append(base, "memory", "add", "I prefer free tools")...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	count := func() int {
		out, _ := exec.Command(binary, append(base, "memory", "list")...).Output()
		return strings.Count(string(out), "\n") - 1
	}
	for _, tt := range []struct {
		keys string
		code int
		left int
	}{
		{"\x03", 130, 1},
		{"n\r", 1, 1},
		{"\r", 1, 1},
		{"y\r", 0, 0},
	} {
		s := start(t, append(base, "memory", "rm", "--all")...)
		s.waitFor("Forget all 1 memory? This cannot be undone. [y/N]")
		s.typeIn(tt.keys)
		if code := s.exit(); code != tt.code || count() != tt.left {
			t.Fatalf("answer %q: exit %d (want %d), %d left (want %d)\n%s", tt.keys, code, tt.code, count(), tt.left, s.screen())
		}
	}
}
