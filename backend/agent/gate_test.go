package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// gateWorld is an agent whose read_file counts its runs, on the app's
// store (checkpoints and tool grants in one SQLite file), so a test can
// start a new agent on it as a restarted app would.
type gateWorld struct {
	*env
	st    *store.Store
	reads atomic.Int32
	reg   *tools.Registry
	opt   Deps
}

func newGateWorld(t *testing.T, more ...*tools.Tool) *gateWorld {
	t.Helper()
	w := &gateWorld{env: newEnv(t)}
	st, err := store.Open(context.Background(), filepath.Dir(w.dbPath), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w.st = st
	readFile := &tools.Tool{Name: "read_file", Reaches: true, Outside: true, Description: "Read a text file from the person's folders.",
		Params: []tools.Param{{Name: "path", Type: tools.TypeString, Required: true}},
		Run: func(_ context.Context, args tools.Args) (tools.Result, error) {
			w.reads.Add(1)
			return tools.Result{Text: "contents of " + args.String("path")}, nil
		}}
	calc := tools.NewCalculator()
	list := append([]*tools.Tool{readFile, calc}, more...)
	if w.reg, err = tools.NewRegistry(nil, list...); err != nil {
		t.Fatal(err)
	}
	return w
}

// agent starts an agent on the world's store, as a new process would.
func (w *gateWorld) agent(t *testing.T, change ...func(*Deps)) *Agent {
	t.Helper()
	deps := Deps{
		Model: func() (Model, string) { return w.client, testModel }, Tools: w.reg, Retriever: w.docs,
		DB: w.st.DB(), Grants: w.st,
		Settings: func() api.Settings { return api.Settings{Folders: []api.FolderGrant{{Path: "/notes"}}} },
	}
	for _, c := range change {
		c(&deps)
	}
	a, err := New(deps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// scriptFileQuestion: the router says the question needs the documents
// (so passages, untrusted text, are in the answer's context), the answer
// asks for read_file with path, then answers with what it read.
func (w *gateWorld) scriptFileQuestion(path string) {
	w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple, NeedsDocuments: true}})
	w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if last := lastMessage(req); last.Role == "tool" {
			return ollamatest.Reply{Text: "Answer from: " + last.Content}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("read_file", map[string]any{"path": path})}}
	})
	w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
}

const fileQuestion = "휴가 정책 문서를 읽고 정리해 줘"

// A read_file call made with document passages in the context waits for
// the person as a graph interrupt that survives a restart, with the tool,
// its description and the full arguments; run once then runs it exactly
// once, and the call, its arguments, result and decision are in the trace
// and the result.
func TestGateAsksAndRunsOnceAfterRestart(t *testing.T) {
	w := newGateWorld(t)
	w.scriptFileQuestion(".env")
	first := w.agent(t)
	res, out := turn(t, first, chat.Turn{SessionID: "s1", Text: fileQuestion})
	tc := res.ToolCall
	if tc == nil || tc.Tool != "read_file" || tc.Reason != api.ReasonUntrusted || tc.Description == "" || tc.ID == "" || res.Plan != nil {
		t.Fatalf("the call does not wait for the person: %+v", res)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(tc.Arguments), &args); err != nil || args["path"] != ".env" {
		t.Fatalf("arguments %q", tc.Arguments)
	}
	if w.reads.Load() != 0 {
		t.Fatal("read_file ran before the person decided")
	}
	if res.Response != "read_file 도구를 사용하려고 해요. 실행할지 정해 주세요." || out.String() != res.Response {
		t.Fatalf("asked with %q", res.Response)
	}
	if asks := toolLines(out, api.TraceToolAsk); len(asks) != 1 || asks[0].Tool != "read_file" {
		t.Fatalf("trace: %+v", out.kinds(api.TraceToolSelected))
	}
	first.Close()

	second := w.agent(t)
	if _, err := second.Respond(context.Background(), chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: "other"}}, &output{}); codeOf(err) != api.ErrPlanChanged {
		t.Fatalf("a decision for another call: %v", err)
	}
	res, out = turn(t, second, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: tc.ID}})
	if w.reads.Load() != 1 {
		t.Fatalf("read_file ran %d times, want 1", w.reads.Load())
	}
	if !strings.HasPrefix(res.Response, "Answer from: ") || !strings.Contains(res.Response, "contents of .env") || res.ToolCall != nil {
		t.Fatalf("after run once: %+v", res)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Decision != api.ToolDecidedOnce || res.ToolCalls[0].Arguments != `{"path":".env"}` ||
		res.ToolCalls[0].Result != "contents of .env" || res.ToolCalls[0].ID != tc.ID {
		t.Fatalf("message details: %+v", res.ToolCalls)
	}
	if ok := toolLines(out, api.TraceToolOnce); len(ok) != 1 || ok[0].Args["tool"] != "read_file" {
		t.Fatalf("trace of the decision: %+v", out.kinds(api.TraceToolSelected))
	}
	second.Wait()
	if granted, _ := w.st.ToolGranted(context.Background(), "read_file", ""); granted {
		t.Fatal("run once granted the tool for good")
	}
}

// Deny: the tool does not run; the model reads the refusal as an
// observation and answers anyway.
func TestGateDeny(t *testing.T) {
	w := newGateWorld(t)
	w.scriptFileQuestion(".ssh/id_rsa")
	a := w.agent(t)
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: fileQuestion})
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionDeny, Version: res.ToolCall.ID}})
	if w.reads.Load() != 0 {
		t.Fatal("a denied call ran")
	}
	if !strings.HasPrefix(res.Response, "Answer from: The person did not allow this call to read_file") {
		t.Fatalf("the model did not read the denial: %q", res.Response)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Decision != api.ToolDecidedDenied {
		t.Fatalf("details: %+v", res.ToolCalls)
	}
	a.Wait()
}

// Always: the call runs, the grant is kept in the store, later calls of
// the tool (in a new agent, as after a restart) run without asking, and a
// revoked grant asks again.
func TestGateAlwaysIsKeptAndRevocable(t *testing.T) {
	w := newGateWorld(t)
	w.scriptFileQuestion("notes/plan.md")
	a := w.agent(t)
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: fileQuestion})
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionAlways, Version: res.ToolCall.ID}})
	if w.reads.Load() != 1 || res.ToolCalls[0].Decision != api.ToolDecidedAlways {
		t.Fatalf("always: %d reads, %+v", w.reads.Load(), res.ToolCalls)
	}
	a.Wait()
	grants, err := w.st.ToolGrants(context.Background())
	if err != nil || len(grants) != 1 || grants[0].Tool != "read_file" {
		t.Fatalf("grants %+v %v", grants, err)
	}
	a.Close()

	b := w.agent(t)
	res, _ = turn(t, b, chat.Turn{SessionID: "s2", Text: fileQuestion})
	if res.ToolCall != nil || w.reads.Load() != 2 || res.ToolCalls[0].Decision != api.ToolDecidedGranted {
		t.Fatalf("a granted tool asked again or did not run: %+v", res)
	}
	b.Wait()
	if err := w.st.RevokeTool(context.Background(), "read_file"); err != nil {
		t.Fatal(err)
	}
	if res, _ = turn(t, b, chat.Turn{SessionID: "s3", Text: fileQuestion}); res.ToolCall == nil || w.reads.Load() != 2 {
		t.Fatalf("a revoked tool ran without asking: %+v", res)
	}
}

// No untrusted text in the context (no passages, no tool results yet):
// read_file runs without asking. A tool that asks before every call
// (AlwaysAsk, as MCP tools do) asks even then, unless it is read-only
// and its server's read-only tools are allowed. A server's tool is offered
// to the model beside the built-in ones (its name is none of theirs).
func TestGateWhenToAsk(t *testing.T) {
	t.Run("clean context", func(t *testing.T) {
		w := newGateWorld(t)
		w.scriptFileQuestion("notes/plan.md")
		w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
		a := w.agent(t)
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "notes/plan.md 파일 내용을 알려 줘"})
		if res.ToolCall != nil || w.reads.Load() != 1 || res.ToolCalls[0].Decision != api.ToolDecidedAuto {
			t.Fatalf("asked with nothing untrusted in context: %+v", res)
		}
		a.Wait()
	})
	mcp := func(readOnly bool) *tools.Tool {
		return &tools.Tool{Name: "clock_now", Server: "clock", AlwaysAsk: true, ReadOnly: readOnly, Description: "What time it is.",
			Run: func(context.Context, tools.Args) (tools.Result, error) { return tools.Result{Text: "09:30"}, nil }}
	}
	for _, tt := range []struct {
		name          string
		readOnly, ok  bool
		wantAsk       bool
		wantReason    api.ToolAskReason
		wantServerRun string
	}{
		{"always ask", false, true, true, api.ReasonAlwaysAsk, ""},
		{"read-only, server not allowed", true, false, true, api.ReasonAlwaysAsk, ""},
		{"read-only, server allowed", true, true, false, "", "clock"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newGateWorld(t, mcp(tt.readOnly))
			w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
			w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
				if last := lastMessage(req); last.Role == "tool" {
					return ollamatest.Reply{Text: "It is " + last.Content}
				}
				return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("clock_now", map[string]any{})}}
			})
			w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
			a := w.agent(t, func(d *Deps) { d.ReadOnlyAllowed = func(server string) bool { return tt.ok && server == "clock" } })
			res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "지금 몇 시야?"})
			if got := res.ToolCall != nil; got != tt.wantAsk {
				t.Fatalf("asked = %v, want %v: %+v", got, tt.wantAsk, res)
			}
			if tt.wantAsk {
				if res.ToolCall.Reason != tt.wantReason || res.ToolCall.Server != "clock" || res.ToolCall.Arguments != "{}" {
					t.Fatalf("request %+v", res.ToolCall)
				}
			} else if res.Response != "It is 09:30" || res.ToolCalls[0].Server != tt.wantServerRun {
				t.Fatalf("result %+v", res)
			}
			a.Wait()
		})
	}
}

// Two calls in one batch that both need the person: each is asked about
// in turn (two pauses), nothing runs until both are settled, and each
// runs once; answers are matched by call id.
func TestGateTwoCallsInOneBatch(t *testing.T) {
	w := newGateWorld(t)
	w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple, NeedsDocuments: true}})
	w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if last := lastMessage(req); last.Role == "tool" {
			return ollamatest.Reply{Text: "done"}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{
			toolCall("read_file", map[string]any{"path": "a.md"}), toolCall("read_file", map[string]any{"path": "b.md"})}}
	})
	w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	a := w.agent(t)
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: fileQuestion})
	firstID := res.ToolCall.ID
	if res.ToolCall.Arguments != `{"path":"a.md"}` || res.TextKey != keyToolAsk || res.TextArgs["tool"] != "read_file" {
		t.Fatalf("first ask %+v (%q %v)", res.ToolCall, res.TextKey, res.TextArgs)
	}
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionDeny, Version: firstID}})
	if res.ToolCall == nil || res.ToolCall.Arguments != `{"path":"b.md"}` || res.ToolCall.ID == firstID || w.reads.Load() != 0 {
		t.Fatalf("second ask %+v, %d reads", res.ToolCall, w.reads.Load())
	}
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: res.ToolCall.ID}})
	if w.reads.Load() != 1 || res.Response != "done" || len(res.ToolCalls) != 2 ||
		res.ToolCalls[0].Decision != api.ToolDecidedDenied || res.ToolCalls[1].Decision != api.ToolDecidedOnce {
		t.Fatalf("after both: %d reads, %+v", w.reads.Load(), res)
	}
	a.Wait()
}

// toolLines returns the tool trace lines with a code.
func toolLines(o *output, code api.TraceCode) []api.TraceEvent {
	var out []api.TraceEvent
	for _, e := range o.kinds(api.TraceToolSelected) {
		if e.Code == code {
			out = append(out, e)
		}
	}
	return out
}
