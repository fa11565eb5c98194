package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// referenceServer is the command of one of the MCP reference servers from
// the npm registry, which `make deps-mcp` installs into
// tests/mcpservers/node_modules (make test does it first and sets
// WAYFINDER_MCP_SERVERS, so there they must be present).
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
			t.Fatalf("reference server %s: %v", bin, err)
		}
		t.Skipf("reference server %s not installed (run make deps-mcp): %v", bin, err)
	}
	return path
}

func TestReferenceFilesystem(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "메모.txt"), []byte("회의는 목요일 3시"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := newManager(t, map[string]Server{"files": {Command: referenceServer(t, "mcp-server-filesystem"), Args: []string{root}}}, Options{})
	reg := registry(t, m)
	if !slices.Contains(reg.Names(), "files__read_text_file") || !slices.Contains(reg.Names(), "files__write_file") {
		t.Fatalf("tools %v", reg.Names())
	}
	o := run(reg, "files__read_text_file", map[string]any{"path": filepath.Join(root, "메모.txt")})
	if o.Err != nil || !strings.Contains(o.Result.Text, "회의는 목요일 3시") {
		t.Fatalf("read: %q %v", o.Result.Text, o.Err)
	}
	// Outside the allowed folder the server refuses; the model reads why.
	o = run(reg, "files__read_text_file", map[string]any{"path": "/etc/passwd"})
	if o.Err == nil || !strings.Contains(o.Result.Text, "Error:") || strings.Contains(o.Result.Text, "root:") {
		t.Fatalf("outside: %q %v", o.Result.Text, o.Err)
	}
	var readOnly, writes bool
	for _, tl := range status(t, m, "files").Tools {
		readOnly = readOnly || (tl.Name == "read_text_file" && tl.ReadOnly)
		writes = writes || (tl.Name == "write_file" && !tl.ReadOnly)
	}
	if !readOnly || !writes {
		t.Errorf("read-only hints not read: %+v", status(t, m, "files").Tools)
	}
}

func TestReferenceEverything(t *testing.T) {
	m := newManager(t, map[string]Server{"every": {Command: referenceServer(t, "mcp-server-everything"), Args: []string{"stdio"}}}, Options{})
	st := m.Status(context.Background(), true)[0]
	if st.State != api.MCPReady {
		t.Fatalf("status %+v", st)
	}
	names := []string{}
	for _, tl := range st.Tools {
		names = append(names, tl.Name)
	}
	reg := registry(t, m)
	if !slices.Contains(reg.Names(), "every__get-tiny-image") {
		t.Fatalf("tools %v", names)
	}
	o := run(reg, "every__echo", map[string]any{"message": "안녕하세요"})
	if o.Err != nil || !strings.Contains(o.Result.Text, "안녕하세요") {
		t.Fatalf("echo: %q %v", o.Result.Text, o.Err)
	}
	o = run(reg, "every__get-sum", map[string]any{"a": 2, "b": 40})
	if o.Err != nil || !strings.Contains(o.Result.Text, "42") {
		t.Fatalf("sum: %q %v", o.Result.Text, o.Err)
	}
	o = reg.Run(tools.WithConversation(context.Background(), "c1"), tools.Call{Name: "every__get-tiny-image"})
	files, _ := filepath.Glob(filepath.Join(m.dir, AttachmentsDir, "c1", "*.png"))
	if o.Err != nil || len(files) != 1 || !strings.Contains(o.Result.Text, files[0]) || len(o.Result.Attachments) != 1 {
		t.Fatalf("image: %q %v, attachments %v", o.Result.Text, o.Err, files)
	}
	// The window can show it: a real PNG, sniffed.
	if mt, data, err := ReadImage(m.dir, "c1", o.Result.Attachments[0].Name); err != nil || mt != "image/png" || len(data) < 50 {
		t.Fatalf("the tiny image is not shown: %q, %d bytes, %v", mt, len(data), err)
	}
	o = run(reg, "every__get-resource-links", map[string]any{"count": 2})
	if o.Err != nil || !strings.Contains(o.Result.Text, "[resource ") {
		t.Fatalf("links: %q %v", o.Result.Text, o.Err)
	}
}
