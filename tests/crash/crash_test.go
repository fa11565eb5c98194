// Package crash kills Wayfinder with SIGKILL in the middle of turns and
// checks that nothing a person wrote or was shown is lost (issue 7, item 1).
//
// Every run starts the real binary (`wayfinder ask`) on one shared data
// directory against a fake Ollama that streams slowly, kills it at a random
// moment (seeded; the seed is printed), then starts a new process on the
// same directory and checks: the database passes PRAGMA integrity_check;
// every message seen after earlier runs is still there with the same
// content; no reply is left "streaming"; each session keeps the person's
// message; a session waiting for plan approval can still be approved (the
// checkpoint is intact) and an interrupted one can go on.
//
// WAYFINDER_CRASH_RUNS sets the number of kills (default 20; issue 7 asks
// for 100), WAYFINDER_CRASH_SEED replays a run.
package crash

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

var binary string

func TestMain(m *testing.M) { world.RunWithBinary(m, &binary) }

func envInt(name string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil && v != 0 {
		return v
	}
	return def
}

// ledgerEntry is a message as a recovered process saw it.
type ledgerEntry struct {
	session, role, content string
	status                 api.MessageStatus
}

type harness struct {
	t       *testing.T
	dataDir string
	slow    *ollamatest.Server // what the killed processes talk to
	fast    *ollamatest.Server // what the in-test recovery checks talk to
	ledger  map[string]ledgerEntry
	lost    int
	// approved and continued count sessions settled after a restart.
	approved, continued int
	// empty holds sessions a kill left without any message.
	empty map[string]bool
}

func (h *harness) args(extra ...string) []string {
	return append([]string{"--data-dir", h.dataDir, "--ollama-host", h.slow.URL(), "--model", world.Model, "--embed-model", "bge-m3"}, extra...)
}

// start runs the binary with args. Stdin is empty, so without --approve a
// proposed plan stays waiting and the command ends; with holdStdin it stays
// open instead, and the process sits at the approval prompt like a person
// thinking it over, until it is killed.
func (h *harness) start(holdStdin bool, args ...string) (*exec.Cmd, *output, chan error) {
	cmd := exec.Command(binary, h.args(args...)...)
	var hold io.WriteCloser
	if holdStdin {
		var err error
		if hold, err = cmd.StdinPipe(); err != nil {
			h.t.Fatal(err)
		}
	} else {
		cmd.Stdin = strings.NewReader("")
	}
	out := &output{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		if hold != nil {
			hold.Close()
		}
		done <- err
	}()
	return cmd, out, done
}

// output is what a started process wrote, safe to read while it writes
// (a test watches for a prompt).
type output struct {
	mu sync.Mutex
	b  strings.Builder
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

func TestKillAnywhere(t *testing.T) {
	runs := int(envInt("WAYFINDER_CRASH_RUNS", 20))
	seed := envInt("WAYFINDER_CRASH_SEED", time.Now().UnixNano()%1_000_000)
	t.Logf("crash runs %d, seed %d (replay with WAYFINDER_CRASH_SEED=%d)", runs, seed, seed)
	rng := rand.New(rand.NewSource(seed))

	h := &harness{t: t, dataDir: t.TempDir(), ledger: map[string]ledgerEntry{}, empty: map[string]bool{}}
	h.slow = ollamatest.New(t, ollamatest.WithChunkDelay(40*time.Millisecond))
	world.ScriptComplex(h.slow, world.Pace{ChunkDelay: 40 * time.Millisecond})
	h.fast = ollamatest.New(t)
	world.ScriptComplex(h.fast, world.Pace{})

	// One uninterrupted complex turn measures how long a turn takes, and
	// proves the scripted flow works end to end through the binary.
	begin := time.Now()
	_, out, done := h.start(false, "ask", "--approve", "--json", world.ComplexTask)
	if err := <-done; err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	full := time.Since(begin)
	t.Logf("an uninterrupted complex turn takes %v", full.Round(time.Millisecond))
	h.recover(0)

	kinds := map[string]int{}
	// How long each kind of run takes uninterrupted, so kills land inside it.
	length := map[int]time.Duration{1: full}
	var sessionID string
	for i := 1; i <= runs; i++ {
		var args []string
		kind := i % 3
		switch {
		case kind == 0:
			args = []string{"ask", "--json", world.ComplexTask} // stops at the approval prompt
		case kind == 1 || sessionID == "":
			kind = 1
			args = []string{"ask", "--approve", "--json", world.ComplexTask}
		default:
			args = []string{"ask", "--session", sessionID, "--json", "What should I do first?"}
		}
		if length[kind] == 0 {
			begin := time.Now()
			_, out, done := h.start(false, args...)
			if err := <-done; err != nil && kind != 0 {
				t.Fatalf("uninterrupted run %v: %v\n%s", args, err, out)
			}
			length[kind] = time.Since(begin)
			if kind == 0 {
				// Kills also land while the plan waits at the prompt.
				length[kind] += length[kind] / 2
			}
			sessionID = h.recover(i)
			continue
		}
		at := time.Duration(rng.Int63n(int64(length[kind])))
		cmd, out, done := h.start(kind == 0, args...)
		timer := time.NewTimer(at)
		select {
		case err := <-done:
			timer.Stop()
			kinds["finished before the kill"]++
			if err != nil {
				t.Logf("run %d ended by itself: %v\n%s", i, err, out)
			}
		case <-timer.C:
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			kinds["killed"]++
		}
		sessionID = h.recover(i)
	}
	t.Logf("run lengths by kind %v; after restarts: %d waiting plans approved, %d interrupted replies continued",
		length, h.approved, h.continued)
	t.Logf("crash: %d runs (%v), lost messages: %d, empty sessions left: %d", runs, kinds, h.lost, len(h.empty))
	fmt.Fprintf(os.Stderr, "CRASH runs=%d killed=%d lost=%d empty_sessions=%d seed=%d\n", runs, kinds["killed"], h.lost, len(h.empty), seed)
	if h.lost != 0 {
		t.Fatalf("%d messages lost", h.lost)
	}
}

// recover starts a new process on the data directory (which marks cut-off
// replies interrupted), then checks the database in the test and settles
// every session: a waiting plan is approved, an interrupted turn goes on.
// It returns a session free for a follow-up message.
func (h *harness) recover(run int) string {
	t := h.t
	_, out, done := h.start(false, "memory", "list")
	if err := <-done; err != nil {
		t.Fatalf("run %d: a new process on the data directory failed: %v\n%s", run, err, out)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, h.dataDir, nil)
	if err != nil {
		t.Fatalf("run %d: reopen: %v", run, err)
	}
	if err := st.IntegrityCheck(ctx); err != nil {
		t.Fatalf("run %d: %v", run, err)
	}
	seen := map[string]bool{}
	sessions, err := st.ListSessions(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		msgs, err := st.Messages(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) == 0 {
			// Killed between creating the session and saving the first
			// message (two transactions in chat.Service.begin): nothing
			// was acknowledged, but an empty conversation is left behind.
			if !h.empty[s.ID] {
				h.empty[s.ID] = true
				t.Logf("run %d: empty session %s (%q) left by the kill", run, s.ID, s.Title)
			}
			continue
		}
		if msgs[0].Role != api.RoleUser || msgs[0].Content != world.ComplexTask {
			t.Errorf("run %d: session %s lost the person's first message: %+v", run, s.ID, msgs)
			h.lost++
		}
		for _, m := range msgs {
			seen[m.ID] = true
			if m.Status == api.StatusStreaming {
				t.Errorf("run %d: reply %s still marked streaming after a restart", run, m.ID)
			}
			if old, ok := h.ledger[m.ID]; ok && old.status != api.StatusInterrupted && old.status != api.StatusStreaming &&
				(old.content != m.Content || old.role != string(m.Role)) {
				t.Errorf("run %d: message %s changed: %q -> %q", run, m.ID, old.content, m.Content)
				h.lost++
			}
		}
	}
	for id, e := range h.ledger {
		if !seen[id] {
			t.Errorf("run %d: message %s (%s in %s: %q) is gone", run, id, e.role, e.session, e.content)
			h.lost++
		}
	}
	st.Close()

	// Settle every session in a fresh backend, as the next app start would.
	b, err := world.Open(ctx, h.fast.URL(), world.Config{DataDir: h.dataDir})
	if err != nil {
		t.Fatalf("run %d: open backend: %v", run, err)
	}
	free := ""
	for _, s := range sessions {
		cur, err := b.Store.Session(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur.PendingApproval {
			h.approved++
			aw, err := b.Store.Awaiting(ctx, s.ID)
			if err != nil || aw == nil || aw.Plan == nil {
				t.Errorf("run %d: session %s waits, but for no plan: %+v %v", run, s.ID, aw, err)
				continue
			}
			msg, err := b.Chat.AskDecision(ctx, s.ID, api.ApprovalDecision{Action: api.ActionApprove, Version: aw.Plan.Version}, nil)
			if err != nil || msg.Status != api.StatusComplete || msg.Result == nil || len(msg.Result.Recommendations) == 0 {
				t.Errorf("run %d: the plan waiting in %s could not be approved after the crash: %v %+v", run, s.ID, err, msg)
			}
		}
		msgs, _ := b.Store.Messages(ctx, s.ID)
		if n := len(msgs); n > 0 && msgs[n-1].Status == api.StatusInterrupted {
			h.continued++
			msg, err := b.Chat.Ask(ctx, s.ID, "Please go on.", nil)
			if err == nil && msg.Status == api.StatusAwaitingApproval {
				msg, err = b.Chat.AskDecision(ctx, s.ID, api.ApprovalDecision{Action: api.ActionApprove, Version: msg.Result.Plan.Version}, nil)
			}
			if err != nil || msg.Status != api.StatusComplete {
				t.Errorf("run %d: session %s cannot go on after an interrupted reply: %v %+v", run, s.ID, err, msg)
			}
		}
		if free == "" && !h.empty[s.ID] {
			free = s.ID
		}
	}
	b.Close()

	// Remember every message as it is now.
	st, err = store.Open(ctx, h.dataDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, s := range sessions {
		msgs, _ := st.Messages(ctx, s.ID)
		for _, m := range msgs {
			h.ledger[m.ID] = ledgerEntry{session: s.ID, role: string(m.Role), content: m.Content, status: m.Status}
		}
	}
	return free
}
