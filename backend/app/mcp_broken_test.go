package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// notesServer is an MCP server over Streamable HTTP with one tool, note,
// so that a test can see from the model's requests whether the app still
// uses it.
func notesServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "notes", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "note", Description: "Reads the note.", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a note"}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts
}

// mcp.json edited into something that is not JSON while the app runs, end
// to end through the app and its chat: the server of the configuration
// read before keeps being offered to the model, the turn's trace says
// once that mcp.json cannot be read, at which line and column, and names
// the server kept; once the file is fixed, the next turn says nothing of
// it and the server is still there.
func TestMCPFileBrokenWhileTheAppRuns(t *testing.T) {
	ts := notesServer(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	valid := "{\"mcpServers\": {\n  \"notes\": {\"url\": \"" + ts.URL + "\"}\n}}\n"
	// Line 3 column 3: "oops" where the next key should start.
	broken := "{\"mcpServers\": {\n  \"notes\": {\"url\": \"" + ts.URL + "\"},\n  oops\n}}\n"
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(valid)

	fake := ollamatest.New(t)
	var mu sync.Mutex
	var offered [][]string // the tool names of each answer call
	fake.OnFunc(ollamatest.HasTools(), func(req ollama.ChatRequest) ollamatest.Reply {
		var names []string
		for _, tl := range req.Tools {
			names = append(names, tl.Function.Name)
		}
		mu.Lock()
		offered = append(offered, names)
		mu.Unlock()
		return ollamatest.Reply{Text: "안녕하세요"}
	})
	fake.On(ollamatest.HasFormat(), ollamatest.Reply{JSON: map[string]any{"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false, "reason": "chat", "memories": []any{}}})
	a, events := openServeApp(t, globals{dataDir: dir, ollamaHost: fake.URL(), model: "llama3.2:3b", embedModel: "bge-m3"})
	c := &ChatService{a}

	// turn runs one turn and returns its mcp_unreadable lines and whether
	// the notes server's tool was offered in it.
	session := ""
	turn := func(text string) (lines []api.TraceEvent, noteOffered bool) {
		t.Helper()
		mu.Lock()
		n := len(offered)
		mu.Unlock()
		ack, err := c.Send(session, text, api.SendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		session = ack.SessionID
		if msg := events.finished(t, ack.TurnID); msg.Status != api.StatusComplete || msg.Content != "안녕하세요" {
			t.Fatalf("%s: reply %+v", text, msg)
		}
		a.agent.Wait()
		for a.chat.Busy(session) {
			time.Sleep(5 * time.Millisecond)
		}
		events.mu.Lock()
		for _, e := range events.events {
			if tr, ok := e.payload.(api.TraceEvent); ok && e.name == api.EventTrace && tr.TurnID == ack.TurnID && tr.Code == api.TraceMCPUnreadable {
				lines = append(lines, tr)
			}
		}
		events.mu.Unlock()
		mu.Lock()
		defer mu.Unlock()
		if len(offered) == n {
			t.Fatalf("%s: no answer call offered tools", text)
		}
		for _, names := range offered[n:] {
			noteOffered = noteOffered || slices.Contains(names, "notes__note")
		}
		return lines, noteOffered
	}

	if lines, ok := turn("처음"); len(lines) != 0 || !ok {
		t.Fatalf("with a valid mcp.json: unreadable lines %+v, notes__note offered %v", lines, ok)
	}

	write(broken)
	lines, ok := turn("고장 난 뒤")
	if !ok {
		t.Fatal("the server of the configuration read before is no longer offered after the file broke")
	}
	if len(lines) != 1 {
		t.Fatalf("%d mcp_unreadable lines in the turn, want 1: %+v", len(lines), lines)
	}
	ev := lines[0]
	if ev.Args["case"] != "mcp_syntax" || ev.Args["line"] != "3" || ev.Args["column"] != "3" || ev.Args["servers"] != "notes" {
		t.Fatalf("the line says %+v, want mcp_syntax at line 3, column 3 keeping notes", ev.Args)
	}
	const want = "mcp.json could not be read again (it is not valid JSON at line 3, column 3; see Settings › MCP servers); the MCP servers as set up before the edit keep running: notes"
	if ev.Text != want {
		t.Fatalf("the line reads\n%q\nwant\n%q", ev.Text, want)
	}

	write(valid)
	if lines, ok := turn("고친 뒤"); len(lines) != 0 || !ok {
		t.Fatalf("after the fix: unreadable lines %+v, notes__note offered %v", lines, ok)
	}
}
