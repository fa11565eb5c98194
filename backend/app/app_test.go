package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/version"
)

// wayfinder runs the command line in-process.
func wayfinder(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(context.Background(), args, strings.NewReader(""), &out, &errOut, testShells)
	return code, out.String(), errOut.String()
}

// inTerminal runs the command line in-process as wayfinder does, with
// standard input a pseudo-terminal where answer was typed, so the command
// asks its question as it asks a person.
func inTerminal(t *testing.T, answer string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if _, err := ptmx.Write([]byte(answer)); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code = Main(context.Background(), args, tty, &out, &errOut, testShells)
	return code, out.String(), errOut.String()
}

const fakeReply = "Hello! I am Wayfinder's test model."

func TestCommandLine(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	tests := []struct {
		name     string
		args     []string
		code     int
		out, err string
		notInOut string
	}{
		{"help", []string{"--help"}, 0, "wayfinder serve", "", ""},
		{"help command", []string{"help"}, 0, "wayfinder doctor", "", ""},
		{"serve help", []string{"serve", "--help"}, 0, "--addr", "", ""},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`, ""},
		{"bad flag", []string{"--nope"}, 2, "", "flag provided but not defined", ""},
		{"version", []string{"version"}, 0, "wayfinder " + version.Current().Version, "", ""},
		{"ask without message", append(base, "ask"), 2, "", "give the message", ""},
		{"ask empty message", append(base, "ask", "   "), 2, "", "give the message", ""},
		{"ask streams", append(base, "ask", "hello"), 0, "Hello! I am Wayfinder's test model.", "", ""},
		{"ask json", append(base, "ask", "--json", "hi"), 0, `"llm_calls": 1`, "", "Hello! I am Wayfinder's test model.\n{"},
		{"global flags after command", append([]string{"ask"}, append(base, "hi")...), 0, "test model", "", ""},
		{"ask unknown session", append(base, "ask", "--session", "nope", "hi"), 1, "", `No conversation has an id starting with "nope"`, ""},
		{"ask model missing", append(base, "--model", "ghost:1b", "ask", "hi"), 1, "", "ollama pull ghost:1b", ""},
		{"doctor ready", append(base, "doctor"), 0, "Everything is ready.", "", ""},
		{"doctor model missing", append(base, "--embed-model", "nomic-embed-text", "doctor"), 1, "fix: ollama pull nomic-embed-text", "", ""},
		{"doctor unreachable", []string{"--data-dir", dir, "--ollama-host", "http://127.0.0.1:1", "doctor"}, 1, "fix: start it with `ollama serve`", "", ""},
		{"serve refuses the network", append(base, "serve", "--addr", "0.0.0.0:8765"), 2, "", "loopback only", ""},
		{"bad ollama host", []string{"--data-dir", dir, "--ollama-host", "ftp://x", "doctor"}, 1, "", "http://", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := wayfinder(t, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Fatalf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			if tt.notInOut != "" && strings.Contains(out, tt.notInOut) {
				t.Fatalf("stdout contains %q:\n%s", tt.notInOut, out)
			}
		})
	}
}

func TestAskContinuesSession(t *testing.T) {
	fake := ollamatest.New(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	fake.Script(ollamatest.Reply{Text: "반가워요, 철수님."})
	code, out, errOut := wayfinder(t, append(base, "ask", "--json", "내 이름은 철수야")...)
	if code != 0 {
		t.Fatalf("first turn: %d %s", code, errOut)
	}
	var first api.TurnResult
	if err := json.Unmarshal([]byte(out), &first); err != nil || first.SessionID == "" {
		t.Fatalf("json %q: %v", out, err)
	}
	// A new process (a new Main() on the same data folder) continues it.
	fake.Script(ollamatest.Reply{Text: "철수님이라고 하셨어요."})
	code, out, errOut = wayfinder(t, append(base, "ask", "--session", first.SessionID, "내 이름이 뭐야?")...)
	if code != 0 || !strings.Contains(out, "철수님이라고") {
		t.Fatalf("second turn: %d %s %s", code, out, errOut)
	}
	// The answering call of the second turn carries the first turn.
	var answered bool
	for _, req := range fake.ChatRequests() {
		last := req.Messages[len(req.Messages)-1]
		if last.Role != "user" || last.Content != "내 이름이 뭐야?" {
			continue
		}
		for _, m := range req.Messages {
			answered = answered || strings.Contains(m.Content, "내 이름은 철수야")
		}
	}
	if !answered {
		t.Fatalf("the second turn did not send the history: %+v", fake.ChatRequests())
	}
}

// A conversation deleted more than 30 days ago is purged at start, and its
// checkpoints (which hold its words) go with it; a kept one's stay.
func TestPurgeTakesTheCheckpoints(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	var sessions []string
	for _, q := range []string{"비밀 계획을 알려줄게", "keep this one"} {
		code, out, errOut := wayfinder(t, append(base, "ask", "--json", q)...)
		var res api.TurnResult
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
			t.Fatalf("ask %q: %d %v %s", q, code, err, errOut)
		}
		sessions = append(sessions, res.SessionID)
	}
	db, err := store.OpenDB(filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := db.DB()
	defer sqlDB.Close()
	checkpoints := func(session string) (n int64) {
		t.Helper()
		if err := db.Table("graph_checkpoints").Where("thread_id = ?", session).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	if checkpoints(sessions[0]) == 0 || checkpoints(sessions[1]) == 0 {
		t.Fatal("the turns left no checkpoints to purge")
	}
	if err := db.Exec("UPDATE sessions SET deleted_at = ? WHERE id = ?", time.Now().Add(-31*24*time.Hour).UTC(), sessions[0]).Error; err != nil {
		t.Fatal(err)
	}

	if code, _, errOut := wayfinder(t, append(base, "ask", "--session", sessions[1], "again")...); code != 0 {
		t.Fatalf("ask after the purge: %s", errOut)
	}
	if n := checkpoints(sessions[0]); n != 0 {
		t.Fatalf("%d checkpoints of the purged conversation left", n)
	}
	if checkpoints(sessions[1]) == 0 {
		t.Fatal("the kept conversation lost its checkpoints")
	}
}

// serve says where it runs in the command's language, the address on the
// line as scripts and tests read it.
func TestServeSaysWhereItRuns(t *testing.T) {
	for _, tc := range []struct{ lang, running, open string }{
		{"en_US.UTF-8", "Wayfinder is running at http://127.0.0.1:", "Open that address in your browser. Press Ctrl+C to stop.\n"},
		{"ko_KR.UTF-8", "Wayfinder가 실행 중입니다: http://127.0.0.1:", "브라우저에서 이 주소를 여세요. 멈추려면 Ctrl+C를 누르세요.\n"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			ctx, cancel := context.WithCancel(context.Background())
			pr, pw := io.Pipe()
			done := make(chan int, 1)
			go func() {
				done <- Main(ctx, []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "serve", "--addr", "127.0.0.1:0"}, strings.NewReader(""), pw, io.Discard, testShells)
				pw.Close()
			}()
			out := bufio.NewReader(pr)
			running, _ := out.ReadString('\n')
			open, _ := out.ReadString('\n')
			cancel()
			go io.Copy(io.Discard, pr)
			<-done
			if !strings.HasPrefix(running, tc.running) || !regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?token=\w+\n$`).MatchString(running) || open != tc.open {
				t.Errorf("serve said %q, %q", running, open)
			}
		})
	}
}

// TestServe starts `wayfinder serve` on a free port and drives the API the
// way the browser does: token, call, events.
func TestServe(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "serve", "--addr", "127.0.0.1:0"}, strings.NewReader(""), pw, io.Discard, testShells)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/\?token=(\w+)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no URL in %q", line)
	}
	base, token := m[1], m[2]

	// Events first, so the turn's events are seen.
	evReq, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events?token="+token, nil)
	evResp, err := http.DefaultClient.Do(evReq)
	if err != nil {
		t.Fatal(err)
	}
	events := bufio.NewReader(evResp.Body)
	events.ReadString('\n') // ": connected"

	call := func(path, body string) (int, string) {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := call("/api/ChatService/Send", `["", "", {}]`); code != 400 || !strings.Contains(body, "empty_message") {
		t.Fatalf("empty message: %d %s", code, body)
	}
	code, body := call("/api/ChatService/Send", `["", "hello", {}]`)
	if code != 200 {
		t.Fatalf("send: %d %s", code, body)
	}
	var ack api.SendAck
	json.Unmarshal([]byte(body), &ack)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		l, err := events.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(l, "event: "+api.EventTurnFinished) {
			break
		}
	}
	if code, body := call("/api/ChatService/Messages", `["`+ack.SessionID+`"]`); code != 200 || !strings.Contains(body, "test model") {
		t.Fatalf("messages: %d %s", code, body)
	}
	if code, body := call("/api/SettingsService/Status", `[]`); code != 200 || !strings.Contains(body, `"reachable":true`) {
		t.Fatalf("status: %d %s", code, body)
	}
	// "Check now" is the same status, asked for by the person.
	if code, body := call("/api/SettingsService/CheckNow", `[]`); code != 200 || !strings.Contains(body, `"reachable":true`) {
		t.Fatalf("check now: %d %s", code, body)
	}
	evResp.Body.Close()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited with %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestOSLocale(t *testing.T) {
	for _, tt := range []struct{ lang, want string }{{"ko_KR.UTF-8", "ko"}, {"en_US.UTF-8", "en"}, {"C", "en"}, {"", "en"}} {
		t.Setenv("LC_ALL", "")
		t.Setenv("LC_MESSAGES", "")
		t.Setenv("LANG", tt.lang)
		if got := osLocale(); got != tt.want {
			t.Errorf("LANG=%q: %q, want %q", tt.lang, got, tt.want)
		}
	}
}

// onlySession is the data folder's one conversation.
func onlySession(t *testing.T, dir string) api.Session {
	t.Helper()
	st, err := store.Open(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.ListSessions(context.Background(), "")
	if err != nil || len(all) != 1 {
		t.Fatalf("sessions: %+v, %v", all, err)
	}
	return all[0]
}

// `ask --json` reports every model call of the turn, the reflection after
// the answer included: the fake saw as many.
func TestAskJSONCountsEveryCall(t *testing.T) {
	fake := ollamatest.New(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	code, out, errOut := wayfinder(t, append(base, "ask", "--json", "What should a small café post on YouTube?")...)
	var res api.TurnResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("ask --json: %d\n%s\n%s", code, out, errOut)
	}
	if n := fake.Count(ollamatest.PathChat); res.LLMCalls != n || n < 2 {
		t.Fatalf("ask --json says %d model calls, the server saw %d", res.LLMCalls, n)
	}
}

// --fallback-model names the model that answers when the chosen one is
// missing; the result says which answered.
func TestAskFallbackModel(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "ghost:1b"}
	code, out, errOut := wayfinder(t, append(base, "--fallback-model", "llama3.2:3b", "ask", "--json", "hi")...)
	var res api.TurnResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Model != "llama3.2:3b" || res.FallbackFrom != "ghost:1b" || res.Response != fakeReply {
		t.Fatalf("ask with a fallback: %d %+v\n%s\n%s", code, res, out, errOut)
	}
	if code, _, errOut := wayfinder(t, append(base, "ask", "hi")...); code != 1 || !strings.Contains(errOut, "ollama pull ghost:1b") {
		t.Fatalf("ask without a fallback: %d\n%s", code, errOut)
	}
}

func TestKnowledgeAndMemoryCommands(t *testing.T) {
	fake := ollamatest.New(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	docs := t.TempDir()
	policy := filepath.Join(docs, "leave.md")
	os.WriteFile(policy, []byte("# 휴가 정책\n\n연차는 15일이고 병가는 10일입니다.\n"), 0o644)
	os.WriteFile(filepath.Join(docs, "broken.pdf"), []byte("%PDF-1.7 not really"), 0o644)

	code, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...)
	if code != 1 || !strings.Contains(out, "leave.md: 1 chunk, 1 embedded") || !strings.Contains(out, "broken.pdf: failed") {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = wayfinder(t, append(base, "kb", "list")...)
	if code != 0 || !strings.Contains(out, "leave.md") || strings.Contains(out, "catalog") || !regexp.MustCompile(`Markdown +— +1 `).MatchString(out) {
		t.Fatalf("list (a Markdown file has no pages: —): %d\n%s", code, out)
	}
	docID := strings.Fields(strings.Split(out, "\n")[1])[0]
	code, out, _ = wayfinder(t, append(base, "kb", "search", "--json", "--top", "2", "휴가를")...)
	var hits []struct {
		ID, Source, Text string
		Page             int
		Score            float64
	}
	if code != 0 || json.Unmarshal([]byte(out), &hits) != nil || len(hits) == 0 || hits[0].Source != policy || !strings.Contains(hits[0].Text, "연차는 15일") {
		t.Fatalf("search: %d\n%s", code, out)
	}
	code, out, _ = wayfinder(t, append(base, "kb", "extract", policy)...)
	if code != 0 || !strings.Contains(out, "병가는 10일") {
		t.Fatalf("extract: %d\n%s", code, out)
	}
	// A file that cannot be read is worded as kb import words it.
	code, _, errOut = wayfinder(t, append(base, "kb", "extract", filepath.Join(docs, "broken.pdf"))...)
	if code != 1 || !strings.Contains(errOut, "broken.pdf: This PDF is damaged") || strings.Contains(errOut, "import \"") {
		t.Fatalf("extract of a broken file: %d\n%s", code, errOut)
	}
	// A reply that cites the document lists it under the streamed text.
	fake.On(ollamatest.SystemContains(agent.RoleAnswer), ollamatest.Reply{Text: "연차는 15일입니다 [1]."})
	code, out, errOut = wayfinder(t, append(base, "ask", "휴가는 며칠이야?")...)
	if code != 0 || !strings.Contains(out, "연차는 15일입니다 [1].\n\nSources:\n[1] 휴가 정책 — "+policy+"\n") {
		t.Fatalf("ask with a citation: %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut = wayfinder(t, append(base, "kb", "remove", docID)...); code != 0 {
		t.Fatalf("remove: %d %s %s", code, out, errOut)
	}
	if code, _, errOut = wayfinder(t, append(base, "kb", "frobnicate")...); code != 2 || !strings.Contains(errOut, "unknown kb command") {
		t.Fatalf("unknown kb command: %d %s", code, errOut)
	}

	code, out, _ = wayfinder(t, append(base, "memory", "add", "--kind", "preference", "무료 도구를 선호한다")...)
	if code != 0 || !strings.HasPrefix(out, "remembered ") {
		t.Fatalf("memory add: %d %s", code, out)
	}
	id := strings.TrimSpace(strings.TrimPrefix(out, "remembered "))
	if code, _, errOut = wayfinder(t, append(base, "memory", "add", "--kind", "bogus", "x")...); code != 1 || !strings.Contains(errOut, "bogus") {
		t.Fatalf("bad kind: %d %s", code, errOut)
	}
	if code, out, _ = wayfinder(t, append(base, "memory", "edit", "--kind", "preference", id, "유료 도구도 괜찮다")...); code != 0 {
		t.Fatalf("memory edit: %d %s", code, out)
	}
	code, out, _ = wayfinder(t, append(base, "memory", "list")...)
	if code != 0 || !strings.Contains(out, "유료 도구도 괜찮다") || strings.Contains(out, "무료 도구를") {
		t.Fatalf("memory list: %d %s", code, out)
	}
	// Asking in a conversation stores the person's words, at once, and the
	// list says where each memory came from.
	calls := fake.Count(ollamatest.PathChat)
	code, out, errOut = wayfinder(t, append(base, "ask", "Please remember that I edit videos on a Mac.")...)
	if code != 0 || !strings.Contains(out, "I'll remember: “I edit videos on a Mac”") || fake.Count(ollamatest.PathChat) != calls {
		t.Fatalf("remember: %d %q %s (model calls %d -> %d)", code, out, errOut, calls, fake.Count(ollamatest.PathChat))
	}
	code, out, _ = wayfinder(t, append(base, "memory", "list")...)
	if code != 0 || !regexp.MustCompile(`(?m)^\S+\s+fact\s+said\s+.*I edit videos on a Mac$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^\S+\s+preference\s+edited\s+.*유료 도구도 괜찮다$`).MatchString(out) {
		t.Fatalf("memory list with origins:\n%s", out)
	}
	if code, _, _ = wayfinder(t, append(base, "memory", "rm", "--all", "--yes")...); code != 0 {
		t.Fatal("memory rm --all failed")
	}
	if _, out, _ = wayfinder(t, append(base, "memory", "list")...); strings.Contains(out, "도구") {
		t.Fatalf("memories left after rm --all:\n%s", out)
	}
}

func TestServicesOutsideTheWindow(t *testing.T) {
	fake := ollamatest.New(t)
	a, events := openTestApp(t, fake, "llama3.2:3b")

	wf, err := (&SettingsService{a}).Workflow()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range wf.Nodes {
		ids = append(ids, n.ID)
	}
	for _, want := range []string{"router", "planner", "approve_plan", "guide"} {
		if !slices.Contains(ids, want) {
			t.Errorf("workflow lacks %s: %v", want, ids)
		}
	}
	if len(wf.Edges) < len(wf.Nodes)-1 {
		t.Errorf("workflow has %d edges for %d nodes", len(wf.Edges), len(wf.Nodes))
	}

	// Native dialogs exist only in the desktop window.
	if _, err := (&SettingsService{a}).SaveTextFile("guide.md", "# x"); describe(err).Code != api.ErrDesktopOnly {
		t.Fatalf("SaveTextFile outside the window: %v", err)
	}
	if _, err := (&KnowledgeService{a}).ChooseFiles(); err == nil {
		t.Fatal("ChooseFiles outside the window succeeded")
	}

	// Upload: a browser hands over content, not a path.
	k := &KnowledgeService{a}
	for _, bad := range []struct{ name, data string }{{"", "eA=="}, {"x.md", "not base64!"}} {
		if _, err := k.Upload(bad.name, bad.data); err == nil {
			t.Errorf("Upload(%q, %q) accepted", bad.name, bad.data)
		}
	}
	content := base64.StdEncoding.EncodeToString([]byte("# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n"))
	id, err := k.Upload("../../travel.md", content)
	if err != nil {
		t.Fatal(err)
	}
	done := events.wait(t, api.EventImportDone).(api.ImportReport)
	if done.ImportID != id || len(done.Imported) != 1 || !strings.HasPrefix(done.Imported[0], filepath.Join(a.dataDir, "uploads")) {
		t.Fatalf("upload report: %+v", done)
	}
	hits, err := k.Search("출장비를", 3)
	if err != nil || len(hits) == 0 || !strings.Contains(hits[0].Text, "10만원") {
		t.Fatalf("search after upload: %+v, %v", hits, err)
	}
}

func TestCustomWorkflowFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "wf.json")
	os.WriteFile(bad, []byte(`{"nodes":[{"id":"s","type":"start"},{"id":"x","type":"no_such_type"}],"edges":[{"source":"s","target":"x"}]}`), 0o644)
	code, _, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--workflow", bad, "doctor")
	if code != 1 || !strings.Contains(errOut, "no_such_type") {
		t.Fatalf("bad workflow: %d %s", code, errOut)
	}
	notJSON := filepath.Join(t.TempDir(), "wf.json")
	os.WriteFile(notJSON, []byte(`{nodes`), 0o644)
	if code, _, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--workflow", notJSON, "doctor"); code != 1 || !strings.Contains(errOut, "not valid JSON") {
		t.Fatalf("non-JSON workflow: %d %s", code, errOut)
	}
}

// eventLog is an EventSink that keeps events for tests.
type eventLog struct {
	mu     sync.Mutex
	events []struct {
		name    string
		payload any
	}
}

func (l *eventLog) Emit(name string, payload any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, struct {
		name    string
		payload any
	}{name, payload})
}

func (l *eventLog) wait(t *testing.T, name string) any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		for _, e := range l.events {
			if e.name == name {
				l.mu.Unlock()
				return e.payload
			}
		}
		l.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s event", name)
	return nil
}

// TestOllamaDiesMidReply: the stream breaks after some text; the turn ends
// with a clear, actionable error, the person's message and the partial
// reply are kept, and the next message works once Ollama is back.
func TestOllamaDiesMidReply(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	fake.Fail(ollamatest.PathChat, -1, ollamatest.Fault{Kind: ollamatest.FaultDrop, After: 2})
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c := &ChatService{a}
	ack, err := c.Send("", "tell me about my café's opening hours", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	failed := events.wait(t, api.EventTurnFailed).(api.TurnFailed)
	if failed.Error.Code != api.ErrStreamDropped || failed.Error.Hint == "" {
		t.Fatalf("error shown: %+v", failed.Error)
	}
	msgs, err := c.Messages(ack.SessionID)
	if err != nil || len(msgs) != 2 || msgs[0].Content != "tell me about my café's opening hours" || msgs[1].Status != api.StatusError {
		t.Fatalf("stored: %+v, %v", msgs, err)
	}
	fake.Reset()
	for a.chat.Busy(ack.SessionID) {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := c.Regenerate(ack.SessionID); err != nil {
		t.Fatal(err)
	}
	fin := events.wait(t, api.EventTurnFinished).(api.TurnFinished)
	if fin.Message.Status != api.StatusComplete || fin.Message.Content == "" {
		t.Fatalf("after Ollama came back: %+v", fin.Message)
	}
}

// TestStatusEventAfterPull: a finished download announces the new status,
// so onboarding moves on without waiting for its next poll.
func TestStatusEventAfterPull(t *testing.T) {
	fake := ollamatest.New(t)
	a, events := openTestApp(t, fake, "qwen3:4b")
	s := &SettingsService{a}
	if st, _ := s.Status(); st.ChatModel.Installed {
		t.Fatal("qwen3:4b installed before the pull")
	}
	if err := s.Pull("qwen3:4b"); err != nil {
		t.Fatal(err)
	}
	st := events.wait(t, api.EventStatusChanged).(api.OllamaStatus)
	if !st.ChatModel.Installed {
		t.Fatalf("status after pull: %+v", st)
	}
}

// openTestApp opens the backend as serve mode does, on a fresh data folder
// and the fake Ollama, and records its events.
func openTestApp(t *testing.T, fake *ollamatest.Server, model string) (*App, *eventLog) {
	t.Helper()
	return openServeApp(t, globals{dataDir: t.TempDir(), ollamaHost: fake.URL(), model: model, embedModel: "bge-m3"})
}

// openServeApp opens the backend with g as serve mode does, closed when the
// test ends, and records its events.
func openServeApp(t *testing.T, g globals) (*App, *eventLog) {
	t.Helper()
	a, err := openApp(context.Background(), g, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	events := &eventLog{}
	a.AttachEvents(events)
	return a, events
}

// A new embedding model chosen in Settings applies to long-term memory at
// once: every memory is embedded again with it.
func TestEmbedModelChangeReachesMemory(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}},
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}},
		ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}},
	))
	// No --embed-model: a flag would pin the model for the whole run.
	a, _ := openServeApp(t, globals{dataDir: t.TempDir(), ollamaHost: fake.URL(), model: "llama3.2:3b"})
	if _, err := (&MemoryService{a}).Add("사용자는 무료 도구를 선호한다", api.MemoryPreference); err != nil {
		t.Fatal(err)
	}
	s := &SettingsService{a}
	cur, _ := s.Get()
	cur.EmbedModel = "nomic-embed-text"
	if _, err := s.Save(cur); err != nil {
		t.Fatal(err)
	}
	a.bg.Wait()
	reembedded := false
	for _, r := range fake.EmbedRequests() {
		if r.Model == "nomic-embed-text" && strings.Contains(fmt.Sprint(r.Input), "무료 도구") {
			reembedded = true
		}
	}
	if !reembedded {
		t.Error("the memory was not embedded with the new model")
	}
}

// One process per data folder: while the app has it open, a second app and
// `wayfinder ask` are turned away with what to do, and nothing is written;
// once the app closes, the folder opens again.
func TestDataFolderInUse(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	g := globals{dataDir: t.TempDir(), ollamaHost: fake.URL(), model: "llama3.2:3b", embedModel: "bge-m3"}
	first, err := openApp(context.Background(), g, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openApp(context.Background(), g, "desktop", newLogger(io.Discard, false)); !errors.Is(err, errDataDirBusy) {
		first.Close()
		t.Fatalf("second app on the same folder: err = %v, want errDataDirBusy", err)
	}
	code, _, stderr := wayfinder(t, "--data-dir", g.dataDir, "--ollama-host", fake.URL(), "ask", "hello")
	if code != 1 || !strings.Contains(stderr, "another Wayfinder is using the data folder "+g.dataDir) || !strings.Contains(stderr, "--data-dir") {
		t.Errorf("ask beside the app: exit %d, stderr %q", code, stderr)
	}
	if n := fake.Count(ollamatest.PathChat); n != 0 {
		t.Errorf("the refused ask still called the model %d times", n)
	}
	first.Close()
	code, stdout, stderr := wayfinder(t, "--data-dir", g.dataDir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3", "ask", "hello")
	if code != 0 || !strings.Contains(stdout, fakeReply) {
		t.Errorf("ask after the app closed: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// doctor is run when the open app misbehaves: beside it, doctor checks the
// settings the app saved (command-line ones still win) and the workflow
// file, without opening the folder the app owns.
func TestDoctorBesideTheApp(t *testing.T) {
	ctx := context.Background()
	fake := ollamatest.New(t)
	dir := t.TempDir()
	a, err := openApp(ctx, globals{dataDir: dir}, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	cfg := a.settings.Current()
	cfg.OllamaHost, cfg.ChatModel, cfg.EmbedModel = fake.URL(), "llama3.2:3b", "bge-m3"
	if _, err := a.settings.Save(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := wayfinder(t, "--data-dir", dir, "doctor")
	for _, want := range []string{"is in use by an open Wayfinder", "The chat model llama3.2:3b is ready", "Everything is ready."} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("doctor beside the app: exit %d, want %q in\n%s\n%s", code, want, out, errOut)
		}
	}
	if code, out, _ := wayfinder(t, "--data-dir", dir, "--model", "ghost:1b", "doctor"); code != 1 || !strings.Contains(out, "ollama pull ghost:1b") {
		t.Errorf("doctor --model beside the app: exit %d\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "wf.json")
	os.WriteFile(bad, []byte(`{"nodes":[{"id":"s","type":"start"},{"id":"x","type":"no_such_type"}],"edges":[{"source":"s","target":"x"}]}`), 0o644)
	if code, _, errOut := wayfinder(t, "--data-dir", dir, "--workflow", bad, "doctor"); code != 1 || !strings.Contains(errOut, "no_such_type") {
		t.Errorf("doctor with a bad workflow beside the app: exit %d\n%s", code, errOut)
	}
}
