package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// mcpSource stands for the MCP manager: tools that come and go; the
// servers in start are started on the next call (those in fail fail).
type mcpSource struct {
	tools       []*tools.Tool
	start, fail []string
	invalid     []api.MCPServer // entries with mistakes, never started
	failed      []api.MCPServer // servers that did not start, waiting for their next try
	asked       atomic.Int32    // calls of Invalid
	// unreadable: mcp.json cannot be read at all, for this reason, with
	// kept: the servers still in use from before the edit.
	unreadable *api.MCPProblem
	kept       []string
}

func (m *mcpSource) Unreadable() (api.MCPProblem, []string, bool) {
	if m.unreadable == nil {
		return api.MCPProblem{}, nil, false
	}
	return *m.unreadable, m.kept, true
}

func (m *mcpSource) Invalid() []api.MCPServer {
	m.asked.Add(1)
	return m.invalid
}

func (m *mcpSource) Failed() []api.MCPServer { return m.failed }

func (m *mcpSource) Tools(_ context.Context, starting func(string) func(error)) []*tools.Tool {
	for _, s := range m.start {
		if starting != nil {
			starting(s)(nil)
		}
	}
	for _, s := range m.fail {
		if starting != nil {
			starting(s)(fmt.Errorf("start MCP server %s: %w", s, timedOut{}))
		}
	}
	m.start, m.fail = nil, nil
	return m.tools
}

// timedOut is a start error that says why in parts, as the mcp package's do.
type timedOut struct{}

func (timedOut) Error() string { return "no answer to the MCP handshake in time" }
func (timedOut) Reason() (string, map[string]string) {
	return "timeout", map[string]string{"seconds": "30"}
}

// An MCP server's tools are offered to both loops beside the built-in
// ones, and a call of one waits for the person like any tool that acts:
// with the server, the description and the arguments; run once runs it
// once, and the call is in the message details.
func TestMCPToolsAreOfferedAndAsked(t *testing.T) {
	var runs atomic.Int32
	write := &tools.Tool{Name: "files__write_file", Server: "files", AlwaysAsk: true, Outside: true, Reaches: true,
		Description: "[MCP server files] Create or overwrite a file.",
		InputSchema: &ollama.ToolFunctionParameters{Type: "object", Required: []string{"path"}, Properties: ollama.NewToolPropertiesMap()},
		Run: func(_ context.Context, args tools.Args) (tools.Result, error) {
			runs.Add(1)
			return tools.Result{Text: "wrote " + args.String("path")}, nil
		}}
	src := &mcpSource{tools: []*tools.Tool{write}}
	w := newGateWorld(t)
	a := w.agent(t, func(d *Deps) { d.MCP = src })
	for _, set := range []string{"answer", "recommend"} {
		var names []string
		for _, s := range a.toolset(context.Background(), nil, set, State{}).Schemas() {
			names = append(names, s.Function.Name)
		}
		if !slices.Contains(names, "files__write_file") || !slices.Contains(names, "calculator") {
			t.Errorf("%s loop tools %v", set, names)
		}
	}
	w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if last := lastMessage(req); last.Role == "tool" {
			return ollamatest.Reply{Text: "Done: " + last.Content}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("files__write_file", map[string]any{"path": "todo.md", "content": "- 장보기"})}}
	})
	w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "todo.md에 장보기를 적어 줘"})
	tc := res.ToolCall
	if tc == nil || tc.Server != "files" || tc.Tool != "files__write_file" || tc.Reason != api.ReasonAlwaysAsk ||
		tc.Description != write.Description || tc.Arguments != `{"content":"- 장보기","path":"todo.md"}` {
		t.Fatalf("the MCP call does not wait for the person: %+v", res)
	}
	if runs.Load() != 0 {
		t.Fatal("the MCP tool ran before the person decided")
	}
	res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: tc.ID}})
	if runs.Load() != 1 || !strings.HasPrefix(res.Response, "Done: ") || !strings.Contains(res.Response, "wrote todo.md") {
		t.Fatalf("after run once: %d runs, %+v", runs.Load(), res)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Server != "files" || res.ToolCalls[0].Decision != api.ToolDecidedOnce || res.ToolCalls[0].Result != "wrote todo.md" {
		t.Fatalf("details %+v", res.ToolCalls)
	}
	a.Wait()
	// A server switched off takes its tools away at once.
	src.tools = nil
	if _, ok := a.toolset(context.Background(), nil, "answer", State{}).Lookup("files__write_file"); ok {
		t.Fatal("the tool of a server that is gone is still offered")
	}
}

// "Always" holds for the program that provides the tool (Tool.Origin):
// the same server runs the tool unasked, but a new server added under the
// old one's name, with another command, asks again instead of inheriting
// the grant; and the person's "always" for the new one replaces the old.
func TestMCPGrantHoldsForItsServerOnly(t *testing.T) {
	var runs atomic.Int32
	write := func(origin string) *tools.Tool {
		return &tools.Tool{Name: "files__write_file", Server: "files", Origin: origin, AlwaysAsk: true, Outside: true, Reaches: true,
			Description: "[MCP server files] Create or overwrite a file.",
			InputSchema: &ollama.ToolFunctionParameters{Type: "object", Properties: ollama.NewToolPropertiesMap()},
			Run: func(context.Context, tools.Args) (tools.Result, error) {
				runs.Add(1)
				return tools.Result{Text: "wrote"}, nil
			}}
	}
	src := &mcpSource{tools: []*tools.Tool{write("old-server")}}
	w := newGateWorld(t)
	a := w.agent(t, func(d *Deps) { d.MCP = src })
	w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if last := lastMessage(req); last.Role == "tool" {
			return ollamatest.Reply{Text: "Done: " + last.Content}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("files__write_file", map[string]any{"path": "a.md"})}}
	})
	w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	ask := func(session string) *api.ToolApproval {
		t.Helper()
		res, _ := turn(t, a, chat.Turn{SessionID: session, Text: "a.md에 적어 줘"})
		a.Wait()
		return res.ToolCall
	}
	tc := ask("s1")
	if tc == nil {
		t.Fatal("the first call did not ask")
	}
	turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionAlways, Version: tc.ID}})
	a.Wait()
	if tc := ask("s2"); tc != nil || runs.Load() != 2 {
		t.Fatalf("the granted tool of the same server asked again (%+v) or did not run (%d runs)", tc, runs.Load())
	}
	src.tools = []*tools.Tool{write("new-server")} // removed, and another program added as "files"
	tc = ask("s3")
	if tc == nil || runs.Load() != 2 {
		t.Fatalf("a new server under the old name inherited the grant: asked %v, %d runs", tc != nil, runs.Load())
	}
	turn(t, a, chat.Turn{SessionID: "s3", Decision: &api.ApprovalDecision{Action: api.ActionAlways, Version: tc.ID}})
	a.Wait()
	grants, err := w.st.ToolGrants(context.Background())
	if err != nil || len(grants) != 1 || grants[0].Tool != "files__write_file" {
		t.Fatalf("grants %+v %v", grants, err)
	}
	if ok, _ := w.st.ToolGranted(context.Background(), "files__write_file", "old-server"); ok {
		t.Fatal("the old server's grant is still there")
	}
	if tc := ask("s4"); tc != nil {
		t.Fatalf("the new server's grant does not hold: %+v", tc)
	}
}

// A server started for the turn is said in the trace before the model is
// asked (the window's progress line and ask's standard error read it),
// and so is one that did not start, with why.
func TestMCPServerStartIsTraced(t *testing.T) {
	src := &mcpSource{start: []string{"files"}, fail: []string{"web"}}
	w := newGateWorld(t)
	a := w.agent(t, func(d *Deps) { d.MCP = src })
	w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	w.fake.On(isAnswer, ollamatest.Reply{Text: "안녕하세요"})
	w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	_, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "안녕"})
	a.Wait()
	starting, started, failed := toolLines(out, api.TraceMCPStarting), toolLines(out, api.TraceMCPStarted), toolLines(out, api.TraceMCPFailed)
	if len(starting) != 2 || starting[0].Args["server"] != "files" || starting[0].Text != "Starting MCP server files" {
		t.Fatalf("starting: %+v", starting)
	}
	if len(started) != 1 || started[0].Args["server"] != "files" {
		t.Fatalf("started: %+v", started)
	}
	if len(failed) != 1 || failed[0].Args["server"] != "web" || !strings.Contains(failed[0].Text, "no answer to the MCP handshake") {
		t.Fatalf("failed: %+v", failed)
	}
	// Why, in parts the window words in the person's language.
	if a := failed[0].Args; a["reason"] != "timeout" || a["seconds"] != "30" {
		t.Fatalf("failed without its reason: %+v", a)
	}
}

// twoToolRounds is an agent on src whose turns call the calculator and
// then answer, so that its loop asks src for the tools at least twice a
// turn. The func it returns runs a turn in session and returns the turn's
// tool lines of code.
func twoToolRounds(t *testing.T, src *mcpSource) func(session string, code api.TraceCode) []api.TraceEvent {
	t.Helper()
	w := newGateWorld(t)
	a := w.agent(t, func(d *Deps) { d.MCP = src })
	w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
	w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if lastMessage(req).Role == "tool" {
			return ollamatest.Reply{Text: "2"}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("calculator", map[string]any{"expression": "1+1"})}}
	})
	w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
	return func(session string, code api.TraceCode) []api.TraceEvent {
		t.Helper()
		before := src.asked.Load()
		_, out := turn(t, a, chat.Turn{SessionID: session, Text: "1+1은?"})
		a.Wait()
		if src.asked.Load()-before < 2 {
			t.Fatalf("the tools were asked for %d times in the turn; the test needs a loop that asks again", src.asked.Load()-before)
		}
		return toolLines(out, code)
	}
}

// A server that did not start is not tried again for a while, and a turn
// in that pause says that it goes on without it, with why, as the turn
// that saw it fail did: once a turn however often the loops ask for the
// tools, including the turn whose start failed (the manager then lists
// it as failed too).
func TestFailedMCPServerIsTracedDuringItsPause(t *testing.T) {
	gone := api.MCPServer{Name: "files", State: api.MCPFailed, Error: "exec: \"/nonexistent/mcp-files\": stat /nonexistent/mcp-files: no such file or directory",
		Reason: "command_missing", ReasonArgs: map[string]string{"command": "/nonexistent/mcp-files"}}
	src := &mcpSource{fail: []string{"files"}, failed: []api.MCPServer{gone}}
	run := twoToolRounds(t, src)
	for i, session := range []string{"s1", "s2", "s3"} {
		failed := run(session, api.TraceMCPFailed)
		if len(failed) != 1 || failed[0].Args["server"] != "files" {
			t.Fatalf("%s: %d lines for the server that did not start, want 1: %+v", session, len(failed), failed)
		}
		if i == 0 {
			continue // the start's own error (timedOut)
		}
		if a := failed[0].Args; a["reason"] != "command_missing" || a["command"] != "/nonexistent/mcp-files" || a["error"] != gone.Error {
			t.Fatalf("%s: %+v", session, a)
		}
		if !strings.HasPrefix(failed[0].Text, "MCP server files did not start (exec:") {
			t.Errorf("%s: English text %q", session, failed[0].Text)
		}
	}
}

// A server whose entry in mcp.json has mistakes is said in the turn's
// trace, as one that fails to start is (mcp_invalid, which the window and
// ask word pointing to Settings; its mistakes in English as the error),
// once a turn however often the loops ask for the tools, and again in the
// next turn.
func TestInvalidMCPEntryIsTraced(t *testing.T) {
	src := &mcpSource{invalid: []api.MCPServer{{Name: "web", State: api.MCPInvalid, Problems: []api.MCPProblem{
		{Code: "mcp_url", Message: `server "web": url "ftp://h" must be an http:// or https:// address`},
		{Code: "mcp_field", Message: `server "web" (line 5): "args" must be a list`},
	}}}}
	run := twoToolRounds(t, src)
	for _, session := range []string{"s1", "s2"} {
		failed := run(session, api.TraceMCPInvalid)
		if len(failed) != 1 {
			t.Fatalf("%s: %d lines for the entry with mistakes, want 1: %+v", session, len(failed), failed)
		}
		args := failed[0].Args
		if args["server"] != "web" || failed[0].Kind != api.TraceToolSelected ||
			!strings.Contains(args["error"], "must be an http:// or https:// address; ") || !strings.Contains(args["error"], `"args" must be a list`) {
			t.Fatalf("%s: %+v", session, failed[0])
		}
		if !strings.HasPrefix(failed[0].Text, "MCP server web not started (its entry in mcp.json has mistakes; see Settings") {
			t.Errorf("%s: English text %q", session, failed[0].Text)
		}
	}
}

// A whole mcp.json that cannot be read is said in the turn's trace once
// however often the loops ask for the tools (mcp_unreadable, which the
// window and ask word pointing to Settings), with its line and column
// when it is not JSON, the servers still in use from before the edit when
// there are, and its mistake in English as the error; again in the next
// turn.
func TestUnreadableMCPFileIsTraced(t *testing.T) {
	syntax := api.MCPProblem{Code: "mcp_syntax", Args: map[string]string{"line": "3", "column": "7"},
		Message: "not valid JSON at line 3, column 7: invalid character '}' after object key"}
	for _, tc := range []struct {
		name    string
		problem api.MCPProblem
		kept    []string
		text    string
	}{
		{"not JSON", syntax, nil,
			"MCP servers could not be read (mcp.json is not valid JSON at line 3, column 7; see Settings › MCP servers); going on without their tools"},
		{"not JSON, servers from before", syntax, []string{"files", "web"},
			"mcp.json could not be read again (it is not valid JSON at line 3, column 7; see Settings › MCP servers); the MCP servers as set up before the edit keep running: files, web"},
		{"too big", api.MCPProblem{Code: "mcp_too_big", Args: map[string]string{"max": "1048576"}, Message: "mcp.json is larger than 1048576 bytes"}, nil,
			"MCP servers could not be read (mcp.json has a mistake; see Settings › MCP servers); going on without their tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := twoToolRounds(t, &mcpSource{unreadable: &tc.problem, kept: tc.kept})
			for _, session := range []string{"s1", "s2"} {
				lines := run(session, api.TraceMCPUnreadable)
				if len(lines) != 1 {
					t.Fatalf("%s: %d lines for the unreadable file, want 1: %+v", session, len(lines), lines)
				}
				ev := lines[0]
				if ev.Text != tc.text || ev.Args["case"] != tc.problem.Code || ev.Args["error"] != tc.problem.Message ||
					ev.Args["line"] != tc.problem.Args["line"] || ev.Args["servers"] != strings.Join(tc.kept, ", ") {
					t.Fatalf("%s: %+v\nwant text %q", session, ev, tc.text)
				}
			}
		})
	}
}

// Stop while an approved call hangs (a server that never answers): the
// turn ends at once, nothing ran to completion, and the call is offered
// again saying the person stopped it; the app closing instead says so.
func TestStopDuringAHungCall(t *testing.T) {
	for _, c := range []struct {
		name  string
		cause error
		want  api.AgainReason
		key   string
	}{
		{"stopped by the person", chat.ErrStopped, api.AgainStopped, keyToolStopped},
		{"the app closing", nil, api.AgainInterrupted, keyToolAgain},
	} {
		t.Run(c.name, func(t *testing.T) {
			started := make(chan struct{}, 1)
			hang := &tools.Tool{Name: "slow__wait", Server: "slow", AlwaysAsk: true, Outside: true, Reaches: true,
				Description: "[MCP server slow] Never answers.", Timeout: time.Hour,
				InputSchema: &ollama.ToolFunctionParameters{Type: "object", Properties: ollama.NewToolPropertiesMap()},
				Run: func(ctx context.Context, _ tools.Args) (tools.Result, error) {
					started <- struct{}{}
					<-ctx.Done()
					return tools.Result{}, ctx.Err()
				}}
			w := newGateWorld(t)
			a := w.agent(t, func(d *Deps) { d.MCP = &mcpSource{tools: []*tools.Tool{hang}} })
			w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
			w.fake.On(isAnswer, ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("slow__wait", map[string]any{})}})
			w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
			res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "기다려 줘"})
			if res.ToolCall == nil {
				t.Fatalf("the call does not ask: %+v", res)
			}
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				<-started
				cancel(c.cause)
			}()
			out := &output{}
			res, err := a.Respond(ctx, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: res.ToolCall.ID}}, out)
			if err == nil || !errors.Is(err, context.Canceled) {
				t.Fatalf("the stopped turn ended with %v", err)
			}
			if res.ToolCall == nil || res.ToolCall.Again != c.want || res.ToolCall.Tool != "slow__wait" {
				t.Fatalf("offered again: %+v, want again %q", res.ToolCall, c.want)
			}
			// The line says what happened: the person's Stop, or the app closing.
			if line, _ := Line(c.key, map[string]string{"tool": "slow__wait"}, "ko"); res.TextKey != c.key || res.Response != line {
				t.Fatalf("said %q (key %s), want %q (key %s)", res.Response, res.TextKey, line, c.key)
			}
			if running := toolLines(out, ""); len(running) != 1 || running[0].Text != "{}" {
				t.Fatalf("the trace of the running call: %+v (a call without arguments shows {})", running)
			}
		})
	}
}

// A turn that waits for the person's decision on a tool call and goes on
// after it (a new Respond) does not say again that a server did not
// start when it is the same failure, still in its pause: once per
// failure, not once per Respond. A new try that fails is a new failure
// and is said; the next message says it once again.
func TestFailedMCPServerIsSaidOncePerFailureAcrossADecision(t *testing.T) {
	gone := api.MCPServer{Name: "files", State: api.MCPFailed, Error: "exec: \"/nonexistent/mcp-files\": no such file or directory",
		Reason: "command_missing", ReasonArgs: map[string]string{"command": "/nonexistent/mcp-files"}}
	for _, tc := range []struct {
		name    string
		tryNew  bool // the server is tried again, and fails, after the decision
		resumed int  // lines for it in the resumed part of the turn
	}{
		{"the same failure", false, 0},
		{"a new try that fails", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			note := &tools.Tool{Name: "notes__add", Server: "notes", AlwaysAsk: true, Outside: true,
				Description: "[MCP server notes] Add a note.",
				InputSchema: &ollama.ToolFunctionParameters{Type: "object", Properties: ollama.NewToolPropertiesMap()},
				Run:         func(context.Context, tools.Args) (tools.Result, error) { return tools.Result{Text: "added"}, nil }}
			src := &mcpSource{tools: []*tools.Tool{note}, failed: []api.MCPServer{gone}}
			w := newGateWorld(t)
			a := w.agent(t, func(d *Deps) { d.MCP = src })
			w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
			w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
				if lastMessage(req).Role == "tool" {
					return ollamatest.Reply{Text: "Added."}
				}
				return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("notes__add", map[string]any{})}}
			})
			w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
			res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "메모 추가해 줘"})
			if res.ToolCall == nil {
				t.Fatalf("the call does not ask: %+v", res)
			}
			if failed := toolLines(out, api.TraceMCPFailed); len(failed) != 1 {
				t.Fatalf("before the decision: %d lines for the server that did not start, want 1", len(failed))
			}
			if tc.tryNew {
				src.fail = []string{"files"}
			}
			asked := src.asked.Load()
			res, out = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: res.ToolCall.ID}})
			if res.Response != "Added." || src.asked.Load() == asked {
				t.Fatalf("the turn did not go on with the tools asked for again: %+v", res)
			}
			if failed := toolLines(out, api.TraceMCPFailed); len(failed) != tc.resumed {
				t.Errorf("after the decision: %d lines for the server that did not start, want %d: %+v", len(failed), tc.resumed, failed)
			}
			a.Wait()
			_, out = turn(t, a, chat.Turn{SessionID: "s1", Text: "하나 더 추가해 줘"})
			if failed := toolLines(out, api.TraceMCPFailed); len(failed) != 1 {
				t.Errorf("the next message: %d lines for the server that did not start, want 1", len(failed))
			}
			a.Wait()
		})
	}
}
