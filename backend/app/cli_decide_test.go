// How `ask` puts a waiting plan or tool call to the person (decide,
// decideTool in cli_ask.go), and what it does with the answer.

package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/internal/i18ntest"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

func TestDecidePrompt(t *testing.T) {
	plan := &api.PlanApproval{Version: "v7", Round: 2, SubTasks: []api.SubTask{{ID: "1", Title: "대본 작성", Detail: "30초"}, {ID: "2", Title: "영상 생성"}}}
	tests := []struct {
		name, input string
		auto        bool
		want        api.ApprovalDecision
		err         string
	}{
		{"auto", "", true, api.ApprovalDecision{Action: api.ActionApprove}, ""},
		{"approve", "a\n", false, api.ApprovalDecision{Action: api.ActionApprove}, ""},
		{"Enter asks again", "\na\n", false, api.ApprovalDecision{Action: api.ActionApprove}, ""},
		{"cancel after nonsense", "what\ncancel\n", false, api.ApprovalDecision{Action: api.ActionCancel}, "? Type a, r or c.\n[a]pprove"},
		{"revise", "r\n더 짧게\n", false, api.ApprovalDecision{Action: api.ActionRevise, Feedback: "더 짧게"}, ""},
		{"revise needs feedback", "r\n\na\n", false, api.ApprovalDecision{Action: api.ActionApprove}, ""},
		{"no stdin", "", false, api.ApprovalDecision{}, "--approve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			got, err := decide(context.Background(), plan, tt.auto, newLineReader(strings.NewReader(tt.input)), stdio{err: &errOut, out: io.Discard}, 0)
			if tt.err != "" && !strings.HasPrefix(tt.err, "? ") {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			// An answer that is none of the choices says which they are
			// (err "? …": what is said after the question); Enter alone
			// asks again without a word.
			if said := strings.Contains(errOut.String(), "Type a, r or c."); said != (tt.err != "") || tt.err != "" && !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("after the answers %q:\n%s", tt.input, errOut.String())
			}
			if err != nil || got.Action != tt.want.Action || got.Feedback != tt.want.Feedback || got.Version != "v7" {
				t.Fatalf("got %+v, %v", got, err)
			}
			if !strings.Contains(errOut.String(), "Proposed plan (round 2):\n  1. 대본 작성 — 30초\n  2. 영상 생성") {
				t.Fatalf("plan not shown:\n%s", errOut.String())
			}
		})
	}
}

// lockedBuffer is a bytes.Buffer safe to read while a command writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// `ask --session` on a conversation whose plan waits shows the plan and
// takes the decision, instead of refusing; Ctrl+C at the question leaves
// the plan waiting, and a message given with --session is sent once the
// plan is decided.
func TestAskDecidesAWaitingPlan(t *testing.T) {
	fake := ollamatest.New(t)
	dir := t.TempDir()
	// The plan-first workflow plans every message; the fake's structured
	// replies are empty, so the plan is the task as one step.
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--workflow", "testdata/plan-first.workflow.json"}
	code, _, errOut := wayfinder(t, append(base, "ask", "Make a video about my café")...)
	if code != 2 || !strings.Contains(errOut, "the plan stays waiting") {
		t.Fatalf("ask with nothing on stdin: %d\n%s", code, errOut)
	}
	sess := onlySession(t, dir)
	if !sess.PendingApproval {
		t.Fatal("the plan is not waiting")
	}
	// Ctrl+C at the question: exit 130, the plan still waits.
	ctx, cancel := context.WithCancel(context.Background())
	stdin, never := io.Pipe()
	defer never.Close()
	var out, errBuf lockedBuffer
	done := make(chan int)
	go func() { done <- Main(ctx, append(base, "ask", "--session", sess.ID), stdin, &out, &errBuf, testShells) }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(errBuf.String(), "[a]pprove") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	code = <-done
	if code != 130 || !strings.Contains(errBuf.String(), "1. Make a video about my café") ||
		!strings.Contains(errBuf.String(), "the plan is still waiting; decide later with: wayfinder ask --session "+sess.ID) {
		t.Fatalf("Ctrl+C at the plan: %d\n%s", code, errBuf.String())
	}
	if !onlySession(t, dir).PendingApproval {
		t.Fatal("Ctrl+C dropped the waiting plan")
	}

	// Approve at the prompt; the message given beside it is sent after (and
	// planned too, by this workflow: its plan is approved as well).
	var stdout, stderr bytes.Buffer
	code = Main(context.Background(), append(base, "ask", "--session", sess.ID, "고마워"), strings.NewReader("a\na\n"), &stdout, &stderr, testShells)
	if code != 0 || !strings.Contains(stderr.String(), "A plan in this conversation is waiting for your decision.") ||
		!strings.Contains(stderr.String(), "Proposed plan (round 1)") {
		t.Fatalf("ask --session on the waiting plan: %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if onlySession(t, dir).PendingApproval {
		t.Fatal("the plan still waits after the approval")
	}
	var thanked bool
	for _, req := range fake.ChatRequests() {
		thanked = thanked || strings.Contains(req.Messages[len(req.Messages)-1].Content, "Task: 고마워")
	}
	if !thanked {
		t.Fatal("the message given with --session was not sent after the plan")
	}
	// With no plan waiting and no message, there is nothing to do.
	if code, _, errOut := wayfinder(t, append(base, "ask", "--session", sess.ID)...); code != 2 || !strings.Contains(errOut, "no plan or tool call is waiting") {
		t.Fatalf("ask --session with nothing to do: %d\n%s", code, errOut)
	}
}

// A decision the CLI makes for a plan that changed meanwhile is refused
// with "the plan changed; here is the current one": the current plan is
// shown and asked about, and approving it applies.
func TestAskRefusedDecisionShowsTheCurrentPlan(t *testing.T) {
	fake := ollamatest.New(t)
	ctx := context.Background()
	g := globals{dataDir: t.TempDir(), ollamaHost: fake.URL(), model: "llama3.2:3b", workflow: "testdata/plan-first.workflow.json"}
	a, err := openApp(ctx, g, "ask", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	first, err := a.chat.Ask(ctx, "", "Make a video about my café", nil)
	if err != nil || first.Result == nil || first.Result.Plan == nil {
		t.Fatalf("ask: %+v, %v", first, err)
	}
	// The plan changes after the CLI read it (revised elsewhere).
	revised, err := a.chat.AskDecision(ctx, first.SessionID, api.ApprovalDecision{Action: api.ActionRevise, Feedback: "짧게", Version: first.Result.Plan.Version}, nil)
	if err != nil || revised.Result.Plan == nil || revised.Result.Plan.Round != 2 {
		t.Fatalf("revise: %+v, %v", revised.Result, err)
	}
	var errOut bytes.Buffer
	s := stdio{out: io.Discard, err: &errOut}
	ask := asker{a: a, s: s, in: newLineReader(strings.NewReader("a\na\n")), onText: func(string) {}, follow: chat.WithTrace(func(api.TraceEvent) {})}
	msg, err := ask.decideAll(ctx, first) // first still shows round 1
	shown := errOut.String()
	refused := strings.Index(shown, "The plan changed; here is the current one.")
	if err != nil || msg.Status != api.StatusComplete || refused < 0 || !strings.Contains(shown[refused:], "Proposed plan (round 2)") {
		t.Fatalf("decideAll: %v, %s\n%s", err, msg.Status, shown)
	}
}

// The tool approval prompt shows the whole call, arguments indented in
// full, and answers with the call's id.
func TestDecideToolPrompt(t *testing.T) {
	long := strings.Repeat("가", 3000)
	tc := api.ToolApproval{ID: "c1", Tool: "read_file", Description: "Read a text file", Arguments: `{"path":"notes/` + long + `.md"}`, Reason: api.ReasonUntrusted}
	tests := []struct {
		name, input string
		auto        bool
		want        api.ApprovalAction
		err         string
	}{
		{"auto", "", true, api.ActionRunOnce, ""},
		{"once", "r\n", false, api.ActionRunOnce, ""},
		{"always after nonsense", "maybe\nalways\n", false, api.ActionAlways, "? Type r, a or d.\n[r]un once"},
		{"deny", "d\n", false, api.ActionDeny, ""},
		{"no stdin", "", false, "", "--approve-tools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			got, err := decideTool(context.Background(), tc, tt.auto, newLineReader(strings.NewReader(tt.input)), stdio{err: &errOut, out: io.Discard}, 0)
			if said := strings.Contains(errOut.String(), "Type r, a or d."); said != strings.HasPrefix(tt.err, "? ") || said && !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("after the answers %q:\n%s", tt.input, errOut.String())
			}
			if tt.err != "" && !strings.HasPrefix(tt.err, "? ") {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil || got.Action != tt.want || got.Version != "c1" {
				t.Fatalf("got %+v, %v", got, err)
			}
			shown := errOut.String()
			if !strings.Contains(shown, "the tool File reader.") || !strings.Contains(shown, "  Reads a text file from a folder you let Wayfinder read.\n") || strings.Contains(shown, "Read a text file") ||
				!strings.Contains(shown, "{\n    \"path\": \"notes/"+long+".md\"\n  }") || !strings.Contains(shown, "steered") {
				t.Fatalf("call not shown in full:\n%.300s", shown)
			}
		})
	}
}

// The prompt names a built-in tool as the window does, in the person's
// language, and an MCP server's tool by its server and its own name.
func TestDecideToolNamesTheTool(t *testing.T) {
	for _, c := range []struct {
		tool, server string
		lang         int
		want         string
	}{
		{"web_search", "", 1, "어시스턴트가 도구 웹 검색을 실행하려고 합니다."},
		{"web_search", "", 0, "The assistant wants to run the tool Web search."},
		{"read_file", "files", 1, "어시스턴트가 도구 files / read_file을(를) 실행하려고 합니다."},
		{"translate", "", 1, "어시스턴트가 도구 translate을(를) 실행하려고 합니다."},
	} {
		var errOut bytes.Buffer
		tc := api.ToolApproval{ID: "c1", Tool: c.tool, Server: c.server, Arguments: `{}`, Reason: api.ReasonUntrusted}
		if _, err := decideTool(context.Background(), tc, true, newLineReader(strings.NewReader("")), stdio{err: &errOut, out: io.Discard}, c.lang); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%s %d: shown\n%s\nwant %q", c.tool, c.lang, errOut.String(), c.want)
		}
	}
}

// Every built-in tool has both words a person reads in a terminal and in
// the window, in English and Korean: its name and what it reads or
// reaches. A tool without them would be put to the person by its code
// name and its English description for the model.
func TestEveryBuiltInToolHasItsWords(t *testing.T) {
	for i, lang := range []string{"en", "ko"} {
		catalog := i18ntest.Catalog(t, lang)
		for _, name := range tools.BuiltInNames() {
			for _, key := range []string{"trace.tool." + name, "approval.desc." + name} {
				words, ok := toolWords[key]
				if !ok {
					words = toolAbout[key]
				}
				if strings.TrimSpace(words[i]) == "" || catalog[key] == "" {
					t.Errorf("%s: %s has no words on the command line (%q) or in the window (%q)", lang, key, words[i], catalog[key])
				}
			}
		}
		for key := range catalog {
			if _, ok := toolAbout[key]; strings.HasPrefix(key, "approval.desc.") && !ok {
				t.Errorf("%s: the window describes %s, the command line does not", lang, key)
			}
		}
	}
}

// The approval prompt says what a built-in tool reads or reaches in the
// person's language, not its English description for the model; an MCP
// server's tool keeps its server's description, as one line of text.
func TestDecideToolSaysWhatTheToolDoes(t *testing.T) {
	for _, c := range []struct {
		tool, server, description string
		lang                      int
		want, not                 string
	}{
		{"search_wikipedia", "", "Look a topic up in Wikipedia", 1, "  설정에서 고른 오프라인 위키백과 파일에서 찾고", "Look a topic up"},
		{"search_wikipedia", "", "Look a topic up in Wikipedia", 0, "  Looks a topic up in the offline Wikipedia file chosen in Settings", "Look a topic up in Wikipedia"},
		{"web_search", "", "Search the web for recent information", 1, "  설정에 적은 SearXNG 주소로 웹을 검색합니다. 검색어가 컴퓨터 밖으로 나갑니다.\n", "Search the web"},
		{"read_file", "files", "Reads a file.\nRan once (--approve-tools).\x1b[2J", 1, "  Reads a file. Ran once (--approve-tools).\\x1b[2J\n", "Wayfinder가 읽도록"},
	} {
		var errOut bytes.Buffer
		tc := api.ToolApproval{ID: "c1", Tool: c.tool, Server: c.server, Description: c.description, Arguments: `{}`, Reason: api.ReasonUntrusted}
		if _, err := decideTool(context.Background(), tc, false, newLineReader(strings.NewReader("d\n")), stdio{err: &errOut, out: io.Discard}, c.lang); err != nil {
			t.Fatal(err)
		}
		if got := errOut.String(); !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%s/%s %d: shown\n%s\nwant %q, not %q", c.server, c.tool, c.lang, got, c.want, c.not)
		}
	}
}
