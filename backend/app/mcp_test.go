package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
)

// filesystemServer is the npm reference filesystem server (make deps-mcp).
func filesystemServer(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WAYFINDER_MCP_SERVERS")
	required := dir != ""
	if dir == "" {
		dir = filepath.Join("..", "..", "tests", "mcpservers", "node_modules", ".bin")
	}
	path, err := filepath.Abs(filepath.Join(dir, "mcp-server-filesystem"))
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
	if _, err := svc.Add(api.MCPServerInput{Name: "files", URL: "http://127.0.0.1:1/mcp"}); mcpCode(err) != api.ErrInvalidInput || !strings.Contains(err.Error(), "already there") {
		t.Fatalf("add twice: %v", err)
	}
	if _, err := svc.Add(api.MCPServerInput{Name: "web", URL: "ftp://x"}); mcpCode(err) != api.ErrInvalidInput {
		t.Fatalf("bad url: %v", err)
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
	for _, tl := range a.mcp.Tools(context.Background()) {
		if tl.Name == "files__write_file" {
			t.Fatal("a switched-off tool is offered")
		}
	}
	if err := svc.Remove("files"); err != nil {
		t.Fatal(err)
	}
	if list, err := svc.List(false); err != nil || len(list) != 0 {
		t.Fatalf("after remove: %+v %v", list, err)
	}
	if err := svc.Remove("files"); mcpCode(err) != api.ErrInvalidInput {
		t.Fatalf("remove twice: %v", err)
	}
}

func mcpCode(err error) api.ErrorCode {
	if err == nil {
		return ""
	}
	return describe(err).Code
}
