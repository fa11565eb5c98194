package crash

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// TestQuitWhileMCPApprovalWaits: a call of an MCP server's tool waits for
// the person at the `ask` prompt; the process is killed there, a new one
// on the same data folder finds the call still waiting, and "run once"
// runs it exactly once. The server is a Streamable HTTP one in this
// process, so the test counts what reached it.
func TestQuitWhileMCPApprovalWaits(t *testing.T) {
	var runs atomic.Int32
	srv := sdk.NewServer(&sdk.Implementation{Name: "notes", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "add_note", Description: "Adds a line to the person's to-do note.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			runs.Add(1)
			var args map[string]any
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "added: " + args["text"].(string)}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	dir := t.TempDir()
	if err := mcp.Save(dir, mcp.Config{Servers: map[string]mcp.Server{"notes": {URL: ts.URL}}}); err != nil {
		t.Fatal(err)
	}
	fake := ollamatest.New(t)
	fake.OnFunc(ollamatest.All(ollamatest.HasTools(), ollamatest.LastIsToolResult()), func(req ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{Text: "Noted. " + req.Messages[len(req.Messages)-1].Content}
	})
	fake.OnFunc(ollamatest.HasTools(), func(ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "notes__add_note", Args: map[string]any{"text": "장보기"}}}}
	})
	h := &harness{t: t, dataDir: dir, slow: fake}
	cmd, out, done := h.start(true, "ask", "할 일 메모에 장보기를 추가해 줄래?")
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
	if shown := out.String(); !strings.Contains(shown, "notes__add_note") || !strings.Contains(shown, `"text": "장보기"`) {
		t.Fatalf("the prompt does not show the call:\n%s", shown)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
	if n := runs.Load(); n != 0 {
		t.Fatalf("the MCP tool ran %d times before its approval", n)
	}

	ctx := context.Background()
	st, err := store.OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	sessions, err := st.ListSessions(ctx, "")
	st.Close()
	if err != nil || len(sessions) != 1 || !sessions[0].PendingApproval {
		t.Fatalf("after the kill the call does not wait: %+v %v", sessions, err)
	}
	again := exec.Command(binary, h.args("ask", "--session", sessions[0].ID)...)
	again.Stdin = strings.NewReader("r\n")
	res, err := again.CombinedOutput()
	if err != nil || !strings.Contains(string(res), "Noted.") || !strings.Contains(string(res), "added: 장보기") {
		t.Fatalf("run once after the restart: %v\n%s", err, res)
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("the approved call ran %d times, want exactly 1", n)
	}
}
