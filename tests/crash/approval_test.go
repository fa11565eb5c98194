package crash

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/settings"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// The person's edits of the plan in TestKillAfterApproval: one step
// renamed, one removed, the order changed, one added.
var (
	editedPlan = []api.SubTask{
		{ID: "s3", Title: "썸네일 제작", Detail: "눈에 띄는 썸네일"},
		{ID: "s1", Title: "대본 작성 (30초, 존댓말)", Detail: "30초 분량의 카페 소개 대본"},
		{Title: "업로드", Detail: "유튜브에 올리기"},
	}
	editedTitles = []string{"썸네일 제작", "대본 작성 (30초, 존댓말)", "업로드"}
)

// TestKillAfterApproval is issue 22's crash: the person approves an
// edited plan in serve mode and the process is killed (SIGKILL) at a
// random moment after the approval was accepted, while the work on it
// runs. After a restart, what a person expects: the turn either finished
// before the kill (the guide follows the edited plan), or the approved
// plan waits again, edits and all, with a note that the work stopped,
// and one approval carries on to the guide for the edited plan. Never a
// lost approval ("Approved the plan" with an empty reply and nothing
// waiting), never the plan as first proposed.
func TestKillAfterApproval(t *testing.T) {
	runs := int(envInt("WAYFINDER_CRASH_RUNS", 20)) / 2
	seed := envInt("WAYFINDER_CRASH_SEED", time.Now().UnixNano()%1_000_000)
	t.Logf("kills after an approval %d, seed %d (replay with WAYFINDER_CRASH_SEED=%d)", runs, seed, seed)
	rng := rand.New(rand.NewSource(seed))
	dir := t.TempDir()
	slow := ollamatest.New(t, ollamatest.WithChunkDelay(40*time.Millisecond))
	world.ScriptComplex(slow, world.Pace{ChunkDelay: 40 * time.Millisecond})
	fast := ollamatest.New(t)
	world.ScriptComplex(fast, world.Pace{})

	var length time.Duration // an uninterrupted approval's turn, measured by run 0
	outcomes := map[string]int{}
	for run := 0; run <= runs; run++ {
		srv := startServe(t, dir, slow.URL())
		ack := srv.send(world.ComplexTask)
		plan := srv.waitFor(ack.SessionID, func(m api.Message) bool { return m.Status == api.StatusAwaitingApproval })
		begin := time.Now()
		srv.decide(ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, SubTasks: editedPlan, Version: plan.Result.Plan.Version})
		if run == 0 {
			srv.waitFor(ack.SessionID, func(m api.Message) bool {
				return m.Status == api.StatusComplete && m.Result != nil && len(m.Result.Steps) > 0
			})
			length = time.Since(begin)
			t.Logf("an approval's turn takes %v uninterrupted", length.Round(time.Millisecond))
			srv.kill()
			continue
		}
		// Run 1 is killed as soon as the approval is accepted, before the
		// recommendations start (no model call after the plan yet); the
		// others at a random moment of the work.
		calls := slow.Count(ollamatest.PathChat)
		if run > 1 {
			time.Sleep(time.Duration(rng.Int63n(int64(length))))
		}
		srv.kill()
		got := settleAfterKill(t, dir, fast.URL(), ack.SessionID, run)
		if run == 1 {
			after := slow.Count(ollamatest.PathChat) - calls
			t.Logf("run 1: killed after %d model calls of the approved work: %s", after, got)
			if after == 0 && got != "offered again" {
				t.Errorf("killed between the approval and the recommendations: %s, want the plan offered again", got)
			}
		}
		outcomes[got]++
	}
	t.Logf("kills after an approval: %v", outcomes)
	if outcomes["lost"] > 0 {
		t.Fatalf("%d approvals lost", outcomes["lost"])
	}
}

// A decision for a plan that is no longer the one waiting (the person
// revised it in another window) is refused in serve mode with 409,
// plan_changed, "the plan changed; here is the current one" and the
// current plan; a decision for the current one applies.
func TestServeRefusesAStaleDecision(t *testing.T) {
	fake := ollamatest.New(t)
	world.ScriptComplex(fake, world.Pace{})
	srv := startServe(t, t.TempDir(), fake.URL())
	defer srv.kill()
	ack := srv.send(world.ComplexTask)
	first := srv.waitFor(ack.SessionID, func(m api.Message) bool { return m.Status == api.StatusAwaitingApproval })
	srv.decide(ack.SessionID, api.ApprovalDecision{Action: api.ActionRevise, Feedback: "무료 도구만", Version: first.Result.Plan.Version})
	now := srv.waitFor(ack.SessionID, func(m api.Message) bool {
		return m.Status == api.StatusAwaitingApproval && m.Result.Plan.Version != first.Result.Plan.Version
	})
	status, body := srv.post("Decide", ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: first.Result.Plan.Version})
	var info api.ErrorInfo
	if err := json.Unmarshal(body, &info); err != nil || status != http.StatusConflict || info.Code != api.ErrPlanChanged ||
		info.Message != "The plan changed; here is the current one." || info.Awaiting == nil || info.Awaiting.Plan == nil ||
		info.Awaiting.Plan.Version != now.Result.Plan.Version {
		t.Fatalf("a stale approval: HTTP %d %s", status, body)
	}
	srv.decide(ack.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: now.Result.Plan.Version})
	srv.waitFor(ack.SessionID, func(m api.Message) bool { return m.Status == api.StatusComplete && len(m.Result.Steps) > 0 })
}

// settleAfterKill starts a backend on the data folder, as the next start
// of the app would, and says what became of the approval: "finished"
// before the kill, "offered again" and then carried on, or "lost".
func settleAfterKill(t *testing.T, dir, host, sessionID string, run int) string {
	t.Helper()
	ctx := context.Background()
	b, err := world.Open(ctx, host, world.Config{DataDir: dir})
	if err != nil {
		t.Fatalf("run %d: restart: %v", run, err)
	}
	defer b.Close()
	if err := b.Store.IntegrityCheck(ctx); err != nil {
		t.Fatalf("run %d: %v", run, err)
	}
	msgs, err := b.Store.Messages(ctx, sessionID)
	if err != nil || len(msgs) != 4 {
		t.Fatalf("run %d: %d messages, %v", run, len(msgs), err)
	}
	if d := msgs[2].Decision; d == nil || !slices.Equal(titles(d.SubTasks), editedTitles) {
		t.Errorf("run %d: the approval's message lost the decision: %+v", run, msgs[2])
		return "lost"
	}
	reply := msgs[3]
	if reply.Status == api.StatusComplete {
		if reply.Result == nil || !slices.Equal(titles(reply.Result.Steps), editedTitles) {
			t.Errorf("run %d: finished without the edits: %+v", run, reply.Result)
			return "lost"
		}
		return "finished"
	}
	aw, err := b.Store.Awaiting(ctx, sessionID)
	if err != nil || aw == nil || aw.Plan == nil || aw.MessageID != reply.ID || reply.Status != api.StatusAwaitingApproval {
		t.Errorf("run %d: after the kill the reply is %s and nothing waits (%+v, %v): the approval is lost", run, reply.Status, aw, err)
		return "lost"
	}
	if aw.Plan.Again != api.AgainInterrupted || !slices.Equal(titles(aw.Plan.SubTasks), editedTitles) {
		t.Errorf("run %d: offered again without the edits: %+v", run, aw.Plan)
		return "lost"
	}
	msg, err := b.Chat.AskDecision(ctx, sessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: aw.Plan.Version}, nil)
	if err != nil || msg.Status != api.StatusComplete || !slices.Equal(titles(msg.Result.Steps), editedTitles) {
		t.Errorf("run %d: approving the plan offered again: %v %+v", run, err, msg)
		return "lost"
	}
	return "offered again"
}

func titles(steps []api.SubTask) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Title
	}
	return out
}

// TestQuitWhileToolApprovalWaits: a web_search call made with text from
// outside in the model's context (the reviewer's words about what it
// found) waits for the person at the `ask` prompt; the process is killed
// there, a new one on the same data folder finds the call still waiting,
// and approving it runs the call exactly once.
func TestQuitWhileToolApprovalWaits(t *testing.T) {
	dir := t.TempDir()
	searx := newSearx(t)
	ctx := context.Background()
	// Web search on, as the person would set it in Settings.
	st, err := store.Open(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	set, err := settings.Load(ctx, st, settings.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	cur := set.Current()
	cur.WebSearchEnabled, cur.WebSearchURL = true, searx.URL
	if _, err := set.Save(ctx, cur); err != nil {
		t.Fatal(err)
	}
	st.Close()

	fake := ollamatest.New(t)
	scriptSearchingScout(fake)
	world.ScriptComplex(fake, world.Pace{})
	h := &harness{t: t, dataDir: dir, slow: fake}
	cmd, out, done := h.start(true, "ask", "--approve", world.ComplexTask)
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), "[r]un once, [a]lways for this tool, or [d]eny?") {
		select {
		case err := <-done:
			t.Fatalf("ask ended before the tool prompt: %v\n%s", err, out)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tool prompt:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	shown := out.String()
	if !strings.Contains(shown, "web_search") || !strings.Contains(shown, `"query": "ChatGPT script pricing"`) {
		t.Fatalf("the prompt does not show the call:\n%s", shown)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
	if n := searx.hits.Load(); n != 0 {
		t.Fatalf("web_search ran %d times before its approval", n)
	}

	b, err := world.Open(ctx, fake.URL(), world.Config{DataDir: dir, WebSearch: searx.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sessions, _ := b.Store.ListSessions(ctx, "")
	if len(sessions) != 1 {
		t.Fatalf("%d sessions", len(sessions))
	}
	id := sessions[0].ID
	aw, err := b.Store.Awaiting(ctx, id)
	if err != nil || aw == nil || aw.ToolCall == nil || aw.ToolCall.Tool != "web_search" || aw.ToolCall.Reason != api.ReasonUntrusted {
		t.Fatalf("after the restart the call does not wait: %+v %v", aw, err)
	}
	// Always: the call runs once, and the later sub-tasks' searches run
	// without asking.
	msg, err := b.Chat.AskDecision(ctx, id, api.ApprovalDecision{Action: api.ActionAlways, Version: aw.ToolCall.ID}, nil)
	if err != nil || msg.Status != api.StatusComplete {
		t.Fatalf("after approving: %v %+v", err, msg)
	}
	if got := searx.count("ChatGPT script pricing"); got != 1 {
		t.Fatalf("the approved call ran %d times, want exactly 1", got)
	}
	if n := searx.hits.Load(); n != 3 {
		t.Fatalf("%d searches for 3 sub-tasks", n)
	}
	if got := searx.count("Canva thumbnail pricing"); got != 1 {
		t.Fatalf("the last sub-task's search ran %d times", got)
	}
	var decisions []string
	for _, c := range msg.Result.ToolCalls {
		if c.Tool == "web_search" {
			decisions = append(decisions, c.Decision)
		}
	}
	if strings.Join(decisions, ",") != "always,granted,granted" {
		t.Fatalf("decisions in the details: %v", decisions)
	}
}

// scriptSearchingScout: for each sub-task the scout looks in the catalog,
// the reviewer asks for a price from the web, and the scout then searches
// the web with the reviewer's words in front of it: text written after
// reading tool results, so the web_search call needs the person.
func scriptSearchingScout(fake *ollamatest.Server) {
	subTask := regexp.MustCompile(`Sub-task (s\d+)`)
	fake.OnFunc(world.IsScout, func(req ollama.ChatRequest) ollamatest.Reply {
		searched := false
		for _, m := range req.Messages {
			searched = searched || m.Role == "tool" && m.ToolName == "web_search"
		}
		switch {
		case searched:
			return ollamatest.Reply{Text: "Found a good candidate."}
		case world.Last(req).Role == "user" && strings.Contains(strings.ToLower(world.Last(req).Content), "still missing"):
			query := "ChatGPT script"
			// The sub-task is named in the request wherever the prompt puts it.
			for _, msg := range req.Messages {
				if m := subTask.FindStringSubmatch(msg.Content); m != nil {
					query = map[string]string{"s1": "ChatGPT script", "s2": "Vrew video", "s3": "Canva thumbnail"}[m[1]]
					break
				}
			}
			return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "web_search", Args: map[string]any{"query": query + " pricing"}}}}
		}
		return world.Respond(world.RoleScout, req, world.Pace{})
	})
	fake.OnFunc(world.IsReviewer, func(req ollama.ChatRequest) ollamatest.Reply {
		if !strings.Contains(world.Last(req).Content, "tool:web_search") {
			return ollamatest.Reply{JSON: map[string]any{"sufficient": false, "missing": "the current price from the web"}}
		}
		return world.Respond(world.RoleReviewer, req, world.Pace{})
	})
}

// searx is a SearXNG stand-in that counts the searches it answers.
type searx struct {
	*httptest.Server
	hits    atomic.Int32
	mu      sync.Mutex
	queries map[string]int
}

func newSearx(t *testing.T) *searx {
	s := &searx{queries: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		s.queries[r.URL.Query().Get("q")]++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"results":[{"title":"ChatGPT pricing","url":"https://openai.com/chatgpt/pricing","content":"Plus $20/month"}]}`)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *searx) count(q string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries[q]
}

// served is a `wayfinder serve` process and its API.
type served struct {
	t           *testing.T
	cmd         *exec.Cmd
	done        chan error
	addr, token string
}

func startServe(t *testing.T, dir, host string) *served {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(binary, "--data-dir", dir, "--ollama-host", host, "--model", world.Model, "--embed-model", "bge-m3",
		"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", port))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{t: t, cmd: cmd, done: make(chan error, 1)}
	urlRe := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/\?token=([A-Za-z0-9_-]+)`)
	lines := bufio.NewScanner(stdout)
	timer := time.AfterFunc(60*time.Second, func() { _ = cmd.Process.Kill() })
	for lines.Scan() {
		if m := urlRe.FindStringSubmatch(lines.Text()); m != nil {
			s.addr, s.token = m[1], m[2]
			break
		}
	}
	timer.Stop()
	go func() {
		_, _ = io.Copy(io.Discard, stdout)
		s.done <- cmd.Wait()
	}()
	if s.addr == "" {
		s.kill()
		t.Fatal("serve printed no address")
	}
	return s
}

func (s *served) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// post posts a bound method's arguments and returns the status and body.
func (s *served) post(method string, args ...any) (int, []byte) {
	s.t.Helper()
	body, _ := json.Marshal(args)
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.addr+"/api/ChatService/"+method, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// call posts a bound method's arguments and decodes its result.
func (s *served) call(method string, out any, args ...any) {
	s.t.Helper()
	status, b := s.post(method, args...)
	if status != http.StatusOK {
		s.t.Fatalf("%s: HTTP %d %s", method, status, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			s.t.Fatalf("%s: %v: %s", method, err, b)
		}
	}
}

func (s *served) send(text string) api.SendAck {
	var ack api.SendAck
	s.call("Send", &ack, "", text, api.SendOptions{})
	return ack
}

func (s *served) decide(sessionID string, d api.ApprovalDecision) {
	s.call("Decide", &api.SendAck{}, sessionID, d)
}

// waitFor polls the session until its last message passes ok.
func (s *served) waitFor(sessionID string, ok func(api.Message) bool) api.Message {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var msgs []api.Message
		s.call("Messages", &msgs, sessionID)
		if n := len(msgs); n > 0 && ok(msgs[n-1]) {
			return msgs[n-1]
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("session %s: the last message never got there: %+v", sessionID, msgs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
