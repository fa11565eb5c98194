package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
)

// filesystemServer is the npm reference filesystem server (make deps-mcp).
func filesystemServer(t *testing.T) string {
	t.Helper()
	return referenceServer(t, "mcp-server-filesystem")
}

// referenceServer is the command of an npm reference server (make deps-mcp).
func referenceServer(t *testing.T, bin string) string {
	t.Helper()
	dir := os.Getenv("WAYFINDER_MCP_SERVERS")
	required := dir != ""
	if dir == "" {
		dir = filepath.Join("..", "..", "tests", "mcpservers", "node_modules", ".bin")
	}
	path, err := filepath.Abs(filepath.Join(dir, bin))
	if err == nil {
		_, err = os.Stat(path)
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		if required {
			t.Fatal(err)
		}
		t.Skipf("reference server not installed (make deps-mcp): %v", err)
	}
	return path
}

// A question answered with an MCP server's tool, end to end: wayfinder
// ask, the reference filesystem server over stdio, the approval prompt on
// the terminal (run once), the tool's result in the answer and in the
// message details; without an answer on stdin, the call stays waiting.
func TestAskCallsAnMCPTool(t *testing.T) {
	root := t.TempDir()
	note := filepath.Join(root, "메모.txt")
	if err := os.WriteFile(note, []byte("회의는 목요일 3시"), 0o600); err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	if err := mcp.Save(dataDir, mcp.Config{Servers: map[string]mcp.Server{"files": {Command: filesystemServer(t), Args: []string{root}}}}); err != nil {
		t.Fatal(err)
	}
	fake := ollamatest.New(t)
	offered := false
	fake.OnFunc(ollamatest.All(ollamatest.HasTools(), ollamatest.LastIsToolResult()), func(req ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{Text: "파일 내용: " + req.Messages[len(req.Messages)-1].Content}
	})
	fake.OnFunc(ollamatest.HasTools(), func(req ollama.ChatRequest) ollamatest.Reply {
		for _, tl := range req.Tools {
			offered = offered || tl.Function.Name == "files__read_text_file"
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "files__read_text_file", Args: map[string]any{"path": note}}}}
	})
	base := []string{"--data-dir", dataDir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}

	code, out, errOut := wayfinder(t, append(base, "ask", "--json", "메모.txt 파일을 읽어 줘")...)
	if code != 2 || !strings.Contains(errOut, "files__read_text_file") || !strings.Contains(errOut, note) || !strings.Contains(errOut, "--approve-tools") {
		t.Fatalf("without an answer: %d\n%s\n%s", code, out, errOut)
	}
	if !offered {
		t.Fatal("the MCP tool was not offered to the model")
	}
	if !strings.Contains(errOut, "Starting MCP server files…") {
		t.Fatalf("the server's start is not in the progress:\n%s", errOut)
	}
	var stdout, stderr bytes.Buffer
	code = Main(context.Background(), append(base, "ask", "--json", "--session", onlySession(t, dataDir).ID), strings.NewReader("r\n"), &stdout, &stderr, testShells)
	out, errOut = stdout.String(), stderr.String()
	var res api.TurnResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("run once: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(res.Response, "회의는 목요일 3시") || len(res.ToolCalls) != 1 || res.ToolCalls[0].Server != "files" ||
		res.ToolCalls[0].Decision != api.ToolDecidedOnce || !strings.Contains(res.ToolCalls[0].Result, "회의는 목요일 3시") {
		t.Fatalf("after run once: %+v\n%s", res, errOut)
	}
}

// The Settings section's service: add starts the server and lists its
// tools, switches and removal reach mcp.json, a mistake is an
// invalid_input error in words.
func TestMCPService(t *testing.T) {
	a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	svc := a.Services()["MCPService"].(*MCPService)
	servers, err := svc.Add(api.MCPServerInput{Name: "files", Command: filesystemServer(t), Args: []string{t.TempDir()}})
	if err != nil || len(servers) != 1 || servers[0].State != api.MCPReady || len(servers[0].Tools) < 5 {
		t.Fatalf("add: %+v %v", servers, err)
	}
	// Each mistake says which it is, with its particulars, for the window
	// to word in the person's language.
	for _, tt := range []struct {
		in   api.MCPServerInput
		args map[string]string
	}{
		{api.MCPServerInput{Name: "files", URL: "http://127.0.0.1:1/mcp"}, map[string]string{"case": "mcp_taken", "name": "files"}},
		{api.MCPServerInput{Name: "web", URL: "ftp://x"}, map[string]string{"case": "mcp_url", "name": "web", "url": "ftp://x"}},
		{api.MCPServerInput{Name: "웹 서버", URL: "http://127.0.0.1:1/mcp"}, map[string]string{"case": "mcp_name", "name": "웹 서버"}},
		{api.MCPServerInput{Name: "empty"}, map[string]string{"case": "mcp_no_command", "name": "empty"}},
	} {
		_, err := svc.Add(tt.in)
		if info := describe(err); mcpCode(err) != api.ErrInvalidInput || !maps.Equal(info.Args, tt.args) || err.Error() == "" {
			t.Errorf("add %+v: %v %+v, want %v", tt.in, err, info.Args, tt.args)
		}
	}
	if err := svc.SetTool("files", "write_file", false); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetServer("files", true, true); err != nil {
		t.Fatal(err)
	}
	cfg, err := mcp.Load(a.dataDir)
	if err != nil || cfg.Servers["files"].ToolEnabled("write_file") || !cfg.Servers["files"].AutoApproveReadOnly {
		t.Fatalf("mcp.json %+v %v", cfg, err)
	}
	for _, tl := range a.mcp.Tools(context.Background(), nil) {
		if tl.Name == "files__write_file" {
			t.Fatal("a switched-off tool is offered")
		}
	}
	if err := a.store.GrantTool(context.Background(), "files__write_file", "files", cfg.Servers["files"].Origin()); err != nil {
		t.Fatal(err)
	}
	if err := svc.Remove("files"); err != nil {
		t.Fatal(err)
	}
	if grants, err := a.store.ToolGrants(context.Background()); err != nil || len(grants) != 0 {
		t.Fatalf("a removed server's grants are kept: %+v %v", grants, err)
	}
	if list, err := svc.List(false); err != nil || len(list) != 0 {
		t.Fatalf("after remove: %+v %v", list, err)
	}
	if err := svc.Remove("files"); mcpCode(err) != api.ErrInvalidInput {
		t.Fatalf("remove twice: %v", err)
	} else if info := describe(err); info.Args["case"] != "mcp_unknown" || info.Args["name"] != "files" {
		t.Fatalf("remove twice: %+v", info)
	}
}

func mcpCode(err error) api.ErrorCode {
	if err == nil {
		return ""
	}
	return describe(err).Code
}

// A picture an MCP tool returns, end to end with the reference
// "everything" server: ask prints where the file is, the message keeps it
// among its tool calls' attachments, the window gets it as an image (a
// data: URL of the sniffed PNG), and purging the conversation deletes it.
func TestMCPImageAttachment(t *testing.T) {
	dataDir := t.TempDir()
	if err := mcp.Save(dataDir, mcp.Config{Servers: map[string]mcp.Server{"every": {Command: referenceServer(t, "mcp-server-everything"), Args: []string{"stdio"}}}}); err != nil {
		t.Fatal(err)
	}
	fake := ollamatest.New(t)
	fake.On(ollamatest.All(ollamatest.HasTools(), ollamatest.LastIsToolResult()), ollamatest.Reply{Text: "작은 그림을 가져왔습니다."})
	fake.On(ollamatest.HasTools(), ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "every__get-tiny-image", Args: map[string]any{}}}})
	g := globals{dataDir: dataDir, ollamaHost: fake.URL(), model: "llama3.2:3b", embedModel: "bge-m3"}
	code, out, errOut := wayfinder(t, "--data-dir", dataDir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "ask", "--approve-tools", "작은 그림을 보여 줘")
	if code != 0 {
		t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
	}
	session := onlySession(t, dataDir).ID
	folder := filepath.Join(dataDir, mcp.AttachmentsDir, session)
	files, _ := filepath.Glob(filepath.Join(folder, "*.png"))
	if len(files) != 1 || !strings.Contains(out, "Attachments:\n"+files[0]+" (image image/png") {
		t.Fatalf("ask does not say where the picture is (%v):\n%s", files, out)
	}

	a, err := openApp(context.Background(), g, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	c := &ChatService{a}
	msgs, err := c.Messages(session)
	if err != nil || len(msgs) == 0 {
		t.Fatalf("messages %+v %v", msgs, err)
	}
	last := msgs[len(msgs)-1] // the reply after the call ran (--approve-tools)
	if last.Result == nil || len(last.Result.ToolCalls) != 1 || len(last.Result.ToolCalls[0].Attachments) != 1 {
		t.Fatalf("the message does not keep the attachment: %+v", last)
	}
	att := last.Result.ToolCalls[0].Attachments[0]
	if att.Path != files[0] || att.Server != "every" {
		t.Fatalf("attachment %+v", att)
	}
	img, err := c.Attachment(session, att.Name)
	if err != nil || img.MIME != "image/png" || !strings.HasPrefix(img.DataURL, "data:image/png;base64,iVBORw0KGgo") {
		t.Fatalf("the window cannot show it: %+v %v", img, err)
	}
	if _, err := c.Attachment(session, "../../mcp.json"); mcpCode(err) != api.ErrInvalidInput {
		t.Fatalf("a path outside the attachments: %v", err)
	}

	// Deleted, it stays (Restore may bring it back); purged, it goes.
	if err := c.Delete(session); err != nil {
		t.Fatal(err)
	}
	if err := a.forgetPurged(a.ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(files[0]); err != nil {
		t.Fatalf("a deleted conversation's picture went before the purge: %v", err)
	}
	if err := a.store.PurgeDeleted(a.ctx, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := a.forgetPurged(a.ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(folder); !os.IsNotExist(err) {
		t.Fatalf("a purged conversation's pictures stay: %v", err)
	}
}

// Settings gets a broken mcp.json as the window words it: each entry with
// mistakes an invalid server with its problems (code, particulars, line),
// beside the servers that are right; a file that is not JSON an error
// with its line and column (mcp_syntax) and no English parser text in its
// particulars.
func TestMCPServiceListsABrokenFile(t *testing.T) {
	a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	svc := a.Services()["MCPService"].(*MCPService)
	path := filepath.Join(a.dataDir, mcp.FileName)
	for _, tc := range []struct {
		name, file string
		states     map[string]api.MCPState
		problems   map[string][]string // server: codes
		errArgs    map[string]string
	}{
		{"two broken entries", "{\"mcpServers\": {\n\"fine\": {\"command\": \"/nonexistent/x\"},\n\"old\": {\"type\": \"sse\", \"url\": \"http://h/sse\"},\n\"web\": {\"url\": \"ftp://h\", \"timeoutSeconds\": -1}}}",
			map[string]api.MCPState{"fine": api.MCPIdle, "old": api.MCPInvalid, "web": api.MCPInvalid},
			map[string][]string{"old": {"mcp_transport"}, "web": {"mcp_url", "mcp_timeout"}}, nil},
		{"not json", "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"}\n  \"b\": {}}}", nil, nil,
			map[string]string{"case": "mcp_syntax", "line": "3", "column": "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := a.mcp.Reload(); err == nil {
				t.Fatal("no mistake found")
			}
			list, err := svc.List(false)
			if tc.errArgs != nil {
				if info := describe(err); info.Code != api.ErrInvalidInput || !maps.Equal(info.Args, tc.errArgs) {
					t.Fatalf("List: %v %+v, want %v", err, info.Args, tc.errArgs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			states := map[string]api.MCPState{}
			problems := map[string][]string{}
			for _, s := range list {
				states[s.Name] = s.State
				for _, p := range s.Problems {
					problems[s.Name] = append(problems[s.Name], p.Code)
					if p.Args["line"] == "" || p.Message == "" {
						t.Errorf("%s %s: no line or no English: %+v", s.Name, p.Code, p)
					}
				}
			}
			if !maps.Equal(states, tc.states) || len(problems) != len(tc.problems) {
				t.Fatalf("states %v problems %v", states, problems)
			}
			for n, codes := range tc.problems {
				if strings.Join(problems[n], ",") != strings.Join(codes, ",") {
					t.Errorf("%s: problems %v, want %v", n, problems[n], codes)
				}
			}
		})
	}
}

// Settings changes mcp.json while entries in it have mistakes: a server is
// added and switched beside them, one with mistakes is removed (it cannot
// be switched, nor its name taken), and the others stay in the file as
// written. A file that is not JSON is refused with its line and column,
// and left as it is.
func TestMCPServiceChangesBesideBrokenEntries(t *testing.T) {
	a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	svc := a.Services()["MCPService"].(*MCPService)
	path := filepath.Join(a.dataDir, mcp.FileName)
	old := `{"type": "sse", "url": "http://h/sse"}`
	web := `{"url": "ftp://h", "timeoutSeconds": -1, "autoApprove": ["x"]}`
	file := "{\"mcpServers\": {\n\"fine\": {\"command\": \"/nonexistent/x\"},\n\"old\": " + old + ",\n\"web\": " + web + "}}"
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	// want: "name" then its entry as written, compared without spaces.
	kept := func(step string, want ...string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, b); err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(want); i += 2 {
			var cw bytes.Buffer
			if err := json.Compact(&cw, []byte(want[i+1])); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(c.String(), `"`+want[i]+`":`+cw.String()) {
				t.Errorf("%s: %s is not in mcp.json as written:\n%s", step, want[i], b)
			}
		}
	}
	if err := svc.SetServer("fine", false, true); err != nil {
		t.Fatalf("switch off beside broken entries: %v", err)
	}
	kept("off", "old", old, "web", web)
	for _, err := range []error{svc.SetServer("old", true, false), svc.SetTool("web", "x", false)} {
		if info := describe(err); info.Code != api.ErrInvalidInput || info.Args["case"] != "mcp_broken" {
			t.Errorf("switching an entry with mistakes: %v %+v", err, info.Args)
		}
	}
	if _, err := svc.Add(api.MCPServerInput{Name: "old", URL: "http://127.0.0.1:1/mcp"}); describe(err).Args["case"] != "mcp_taken" {
		t.Errorf("add under the name of an entry with mistakes: %v", err)
	}
	list, err := svc.Add(api.MCPServerInput{Name: "more", Command: "/nonexistent/more"})
	if err != nil {
		t.Fatalf("add beside broken entries: %v", err)
	}
	states := map[string]api.MCPState{}
	for _, s := range list {
		states[s.Name] = s.State
	}
	if want := map[string]api.MCPState{"fine": api.MCPOff, "more": api.MCPFailed, "old": api.MCPInvalid, "web": api.MCPInvalid}; !maps.Equal(states, want) {
		t.Fatalf("after add: %v, want %v", states, want)
	}
	kept("add", "old", old, "web", web)
	if err := svc.Remove("old"); err != nil {
		t.Fatalf("remove an entry with mistakes: %v", err)
	}
	list, err = svc.List(false)
	if err != nil || len(list) != 3 || list[2].Name != "web" || list[2].State != api.MCPInvalid {
		t.Fatalf("after removing old: %+v %v", list, err)
	}
	kept("remove", "web", web)
	if b, _ := os.ReadFile(path); strings.Contains(string(b), `"old"`) {
		t.Fatalf("old is still in mcp.json:\n%s", b)
	}
	notJSON := "{\"mcpServers\": {\n  \"fine\": {\"command\": \"x\"}\n  \"web\": {}}}"
	if err := os.WriteFile(path, []byte(notJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	err = svc.Remove("web")
	if info := describe(err); !maps.Equal(info.Args, map[string]string{"case": "mcp_syntax", "line": "3", "column": "3"}) {
		t.Fatalf("remove from a file that is not JSON: %v %+v", err, info.Args)
	}
	if b, _ := os.ReadFile(path); string(b) != notJSON {
		t.Fatalf("a file that is not JSON was written over:\n%s", b)
	}
}
