package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
)

// nearlyFullMCPFile is an mcp.json of one server just under the 1 MB
// that is read back: any server added makes it too large.
func nearlyFullMCPFile(t *testing.T, dir string) []byte {
	t.Helper()
	head, tail := `{"mcpServers": {"big": {"command": "/nonexistent/big", "env": {"K": "`, `"}}}}`
	b := []byte(head + strings.Repeat("x", 1<<20-len(head)-len(tail)-8) + tail)
	if err := os.WriteFile(filepath.Join(dir, mcp.FileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return b
}

// A change refused because mcp.json would grow past what is read back
// has its own case (mcp_save_too_big with the limit) in Settings, not
// "mcp.json has a mistake", and is worded so on the command line in the
// command's language; the file is left as it was.
func TestMCPChangeThatWouldNotFitIsWorded(t *testing.T) {
	a, _ := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	svc := a.Services()["MCPService"].(*MCPService)
	was := nearlyFullMCPFile(t, a.dataDir)
	_, err := svc.Add(api.MCPServerInput{Name: "more", URL: "http://127.0.0.1:1/mcp"})
	if info := describe(err); info.Code != api.ErrInvalidInput || info.Args["case"] != "mcp_save_too_big" || info.Args["max"] != "1048576" {
		t.Fatalf("Add: %v %+v", err, info)
	}
	if b, _ := os.ReadFile(filepath.Join(a.dataDir, mcp.FileName)); !bytes.Equal(b, was) {
		t.Fatal("mcp.json was written")
	}

	dir := t.TempDir()
	was = nearlyFullMCPFile(t, dir)
	for _, tc := range []struct{ lang, want, hint, not string }{
		{"en_US.UTF-8", "wayfinder: This change would make mcp.json larger than 1048576 bytes, more than Wayfinder reads back, so it was not saved.\n",
			"  next step: mcp.json is left as it was. Remove servers you no longer use", "바이트"},
		{"ko_KR.UTF-8", "wayfinder: 이렇게 바꾸면 mcp.json이 1048576바이트보다 커져 Wayfinder가 다시 읽을 수 없으므로 저장하지 않았습니다.\n",
			"  다음 단계: mcp.json은 그대로입니다.", "bytes"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			code, _, errOut := wayfinder(t, "--data-dir", dir, "mcp", "add", "more", "--url", "http://127.0.0.1:1/mcp")
			if code != 1 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, tc.hint) || strings.Contains(errOut, tc.not) {
				t.Fatalf("exit %d:\n%s\nwant %q and %q", code, errOut, tc.want, tc.hint)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, mcp.FileName)); !bytes.Equal(b, was) {
				t.Fatal("mcp.json was written")
			}
		})
	}
}
