package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

func TestMCPCommands(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--data-dir", dir}
	code, out, errOut := wayfinder(t, append(base, "mcp", "list")...)
	if code != 0 || !strings.Contains(out, "No MCP servers") {
		t.Fatalf("empty list: %d %q %q", code, out, errOut)
	}
	// A server that cannot start is added, and says why.
	code, out, errOut = wayfinder(t, append(base, "mcp", "add", "broken", "--env", "A=1", "--", "/nonexistent/server", "--flag")...)
	if code != 1 || !strings.Contains(out, "broken (stdio: /nonexistent/server --flag): failed") || !strings.Contains(errOut, "did not start") {
		t.Fatalf("add broken: %d %q %q", code, out, errOut)
	}
	code, _, errOut = wayfinder(t, append(base, "mcp", "add", "broken", "--url", "http://127.0.0.1:1/mcp")...)
	if code != 1 || !strings.Contains(errOut, "already there") {
		t.Fatalf("add twice: %d %q", code, errOut)
	}
	for _, bad := range [][]string{{"mcp", "add", "x"}, {"mcp", "add", "x", "--url", "http://h", "extra"}, {"mcp", "remove"}, {"mcp", "frob"}} {
		if code, _, _ := wayfinder(t, append(base, bad...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code, _, errOut := wayfinder(t, append(base, "mcp", "add", "bad name", "--url", "http://h")...); code != 1 || !strings.Contains(errOut, "This cannot be an MCP server's name: bad name") {
		t.Errorf("bad name: %d %q", code, errOut)
	}
	if code, out, _ := wayfinder(t, append(base, "mcp", "off", "broken")...); code != 0 || !strings.Contains(out, "Switched off: broken") {
		t.Fatalf("off: %d %q", code, out)
	}
	code, out, _ = wayfinder(t, append(base, "mcp", "list", "--json")...)
	var servers []api.MCPServer
	if err := json.Unmarshal([]byte(out), &servers); code != 0 || err != nil || len(servers) != 1 || servers[0].State != api.MCPOff {
		t.Fatalf("list --json: %d %q %v", code, out, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "mcp.json"))
	if err != nil || !strings.Contains(string(b), `"mcpServers"`) || !strings.Contains(string(b), `"A": "1"`) {
		t.Fatalf("mcp.json: %s %v", b, err)
	}
	// Removing a server takes back its tools' grants, as Settings does.
	grant(t, dir, "broken__x", "broken")
	grant(t, dir, "other__y", "other")
	if code, out, _ := wayfinder(t, append(base, "mcp", "remove", "broken")...); code != 0 || !strings.Contains(out, "Removed") || !strings.Contains(out, "Took back 1 grant") {
		t.Fatalf("remove: %d %q", code, out)
	}
	st, err := store.Open(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	grants, err := st.ToolGrants(context.Background())
	st.Close()
	if err != nil || len(grants) != 1 || grants[0].Server != "other" {
		t.Fatalf("grants after remove: %+v %v", grants, err)
	}
	if code, _, errOut := wayfinder(t, append(base, "mcp", "remove", "broken")...); code != 1 || !strings.Contains(errOut, "no MCP server") {
		t.Fatalf("remove again: %d %q", code, errOut)
	}
}

// grant allows a server's tool for good, as the approval dialog does.
func grant(t *testing.T, dir, tool, server string) {
	t.Helper()
	st, err := store.Open(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.GrantTool(context.Background(), tool, server, "origin-of-"+server); err != nil {
		t.Fatal(err)
	}
}

func TestDoctorShowsMCPServers(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "server.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'missing API key: set WEATHER_KEY' >&2\nexit 1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := wayfinder(t, "--data-dir", dir, "mcp", "add", "weather", "--", script); code != 1 {
		t.Fatalf("add: %d %q", code, errOut)
	}
	code, out, errOut := wayfinder(t, "--data-dir", dir, "--ollama-host", "http://127.0.0.1:1", "doctor")
	if code != 1 || !strings.Contains(out, "✗ MCP server weather did not start") || !strings.Contains(out, "missing API key: set WEATHER_KEY") {
		t.Fatalf("doctor: %d %q", code, out)
	}
	// Each problem is counted once.
	if n := strings.Count(out, "✗ "); !strings.Contains(errOut, fmt.Sprintf("%s found", count(n, "problem", "problems"))) {
		t.Errorf("doctor shows %d problems but says %q", n, errOut)
	}
}

// A broken mcp.json on the command line: `mcp list` and doctor say each
// mistake on a line of its own, with its line in the file and what to do,
// in the person's language, and still try the server whose entry is
// right; a file that is not JSON says where.
func TestBrokenMCPJSONOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "server.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'fine server ran' >&2\nexit 1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	broken := "{\n  \"mcpServers\": {\n    \"fine\": {\"command\": \"" + script + "\"},\n" +
		"    \"old\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:1/sse\"},\n" +
		"    \"web\": {\"url\": \"ftp://host/mcp\", \"args\": \"-x\"}\n  }\n}\n"
	notJSON := "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}\n"
	for _, tc := range []struct {
		name, lang, file string
		cmd              []string
		code             int
		out, errOut      []string
	}{
		{"list en", "en_US.UTF-8", broken, []string{"mcp", "list"}, 1,
			[]string{"fine (stdio: " + script + "): failed", "old (mcp.json): has mistakes",
				"  Line 4: The MCP server old asks for a transport Wayfinder does not speak: sse\n    Remove its \"type\"",
				"  Line 5: In the MCP server web, \"args\" must be a list [ … ].\n"},
			[]string{"has 3 mistakes: those servers do not start, the others do"}},
		{"list ko", "ko_KR.UTF-8", broken, []string{"mcp", "list"}, 1,
			[]string{"old (mcp.json): 설정 오류", "  4번째 줄: MCP 서버 old의 전송 방식은 Wayfinder가 지원하지 않습니다: sse\n    \"type\"을 지우거나",
				"  5번째 줄: MCP 서버 web의 \"args\"는 목록 [ … ]여야 합니다."},
			[]string{"잘못된 곳이 3개 있습니다"}},
		{"doctor en", "en_US.UTF-8", broken, []string{"--ollama-host", "http://127.0.0.1:1", "doctor"}, 1,
			[]string{"✗ " + filepath.Join(dir, "mcp.json") + ": Line 4: The MCP server old asks for a transport",
				"✗ " + filepath.Join(dir, "mcp.json") + ": Line 5: In the MCP server web, \"args\" must be a list",
				"✗ " + filepath.Join(dir, "mcp.json") + ": Line 5: Not an http:// or https:// address: ftp://host/mcp\n    fix: An MCP server over HTTP",
				"✗ MCP server fine did not start", "fine server ran"}, nil},
		{"doctor ko", "ko_KR.UTF-8", broken, []string{"--ollama-host", "http://127.0.0.1:1", "doctor"}, 1,
			[]string{"mcp.json: 5번째 줄: http:// 또는 https:// 주소가 아닙니다: ftp://host/mcp"}, nil},
		{"off refused not json en", "en_US.UTF-8", notJSON, []string{"mcp", "off", "a"}, 1, nil,
			[]string{"mcp.json: mcp.json is not valid JSON at line 4, column 5, so no MCP server runs.\n  Correct it there"}},
		{"remove refused not json ko", "ko_KR.UTF-8", notJSON, []string{"mcp", "remove", "b"}, 1, nil,
			[]string{"mcp.json의 4번째 줄 5번째 글자에서 JSON 형식이 잘못되어"}},
		{"list not json en", "en_US.UTF-8", notJSON, []string{"mcp", "list"}, 1, nil,
			[]string{"mcp.json: mcp.json is not valid JSON at line 4, column 5, so no MCP server runs.\n  Correct it there"}},
		{"doctor not json ko", "ko_KR.UTF-8", notJSON, []string{"--ollama-host", "http://127.0.0.1:1", "doctor"}, 1,
			[]string{"mcp.json의 4번째 줄 5번째 글자에서 JSON 형식이 잘못되어"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := wayfinder(t, append([]string{"--data-dir", dir}, tc.cmd...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("standard output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.errOut {
				if !strings.Contains(errOut, w) {
					t.Errorf("standard error lacks %q:\n%s", w, errOut)
				}
			}
			// Nothing the person is fixing is written over.
			if b, err := os.ReadFile(filepath.Join(dir, "mcp.json")); err != nil || string(b) != tc.file {
				t.Errorf("mcp.json changed: %v\n%s", err, b)
			}
		})
	}
}

// `wayfinder mcp` changes mcp.json while entries in it have mistakes: a
// server is added and switched beside them, one with mistakes is removed
// (it cannot be switched, in the person's language, nor its name taken),
// and the others stay in the file as written.
func TestMCPCommandsBesideBrokenEntries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	old := `{"type": "sse", "url": "http://127.0.0.1:1/sse"}`
	web := `{"url": "ftp://host/mcp", "args": "-x", "autoApprove": ["t"]}`
	broken := "{\n  \"mcpServers\": {\n    \"fine\": {\"command\": \"/nonexistent/fine\"},\n" +
		"    \"old\": " + old + ",\n    \"web\": " + web + "\n  }\n}\n"
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	kept := func(step string, entries ...string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var file bytes.Buffer
		if err := json.Compact(&file, b); err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(entries); i += 2 {
			var entry bytes.Buffer
			if err := json.Compact(&entry, []byte(entries[i+1])); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(file.String(), `"`+entries[i]+`":`+entry.String()) {
				t.Errorf("%s: %s is not in mcp.json as written:\n%s", step, entries[i], b)
			}
		}
	}
	for _, tc := range []struct {
		lang        string
		cmd         []string
		code        int
		out, errOut string
	}{
		{"en_US.UTF-8", []string{"mcp", "off", "fine"}, 0, "Switched off: fine", "mcp.json still has 3 mistakes, kept as you wrote them: those servers do not start."},
		{"en_US.UTF-8", []string{"mcp", "off", "old"}, 1, "", "old has mistakes in mcp.json, so it does not start and cannot be switched"},
		{"ko_KR.UTF-8", []string{"mcp", "on", "web"}, 1, "", "web은(는) mcp.json에 잘못된 곳이 있어 시작하지 않고, 켜거나 끌 수도 없습니다."},
		{"en_US.UTF-8", []string{"mcp", "add", "old", "--", "/nonexistent/other"}, 1, "", "already there"},
		{"en_US.UTF-8", []string{"mcp", "add", "more", "--", "/nonexistent/more"}, 1, "more (stdio: /nonexistent/more): failed", "added more, but it did not start"},
		{"ko_KR.UTF-8", []string{"mcp", "remove", "old"}, 0, "지웠습니다: old", "mcp.json에 아직 잘못된 곳이 2개 있고, 적으신 그대로 두었습니다."},
	} {
		t.Setenv("LC_ALL", tc.lang)
		code, out, errOut := wayfinder(t, append([]string{"--data-dir", dir}, tc.cmd...)...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errOut) {
			t.Errorf("%v: %d %q %q, want %d %q %q", tc.cmd, code, out, errOut, tc.code, tc.out, tc.errOut)
		}
		if tc.cmd[1] != "remove" {
			kept(strings.Join(tc.cmd, " "), "old", old, "web", web)
		}
	}
	kept("remove old", "web", web)
	b, err := os.ReadFile(path)
	if err != nil || strings.Contains(string(b), `"old"`) || !strings.Contains(string(b), `"more"`) || !strings.Contains(string(b), `"disabled": true`) {
		t.Fatalf("mcp.json after the changes: %v\n%s", err, b)
	}
	t.Setenv("LC_ALL", "en_US.UTF-8")
	code, out, _ := wayfinder(t, "--data-dir", dir, "mcp", "list")
	if code != 1 || !strings.Contains(out, "web (mcp.json): has mistakes") || strings.Contains(out, "old") {
		t.Errorf("list after the changes: %d %q", code, out)
	}
}

// Removing a server while Wayfinder has the data folder open leaves the
// grants of its tools: the terminal says, in the person's language, the
// command that takes them back once Wayfinder is closed (not a place in the
// window), and that command does.
func TestMCPRemoveWhileWayfinderIsOpen(t *testing.T) {
	for _, tc := range []struct {
		lang, stays, tookBack, unknown string
	}{
		{"en_US.UTF-8", "close it and run `wayfinder mcp remove web` again", "Took back 1 grant", "no MCP server"},
		{"ko_KR.UTF-8", "Wayfinder를 닫은 뒤 `wayfinder mcp remove web` 명령을 다시 실행하면 거둡니다", "허용 1개를 거뒀습니다", "MCP 서버가 없습니다"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LANG", tc.lang)
			t.Setenv("LC_ALL", "")
			t.Setenv("LC_MESSAGES", "")
			dir := t.TempDir()
			base := []string{"--data-dir", dir}
			wayfinder(t, append(base, "mcp", "add", "web", "--url", "http://127.0.0.1:1/mcp")...)
			grant(t, dir, "web__fetch", "web")
			open, err := lockDataDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			code, out, errOut := wayfinder(t, append(base, "mcp", "remove", "web")...)
			open.Unlock()
			if code != 0 || !strings.Contains(errOut, tc.stays) || strings.Contains(errOut, "Settings") || strings.Contains(errOut, "설정") {
				t.Fatalf("remove while open: %d %q %q", code, out, errOut)
			}
			if code, out, errOut := wayfinder(t, append(base, "mcp", "remove", "web")...); code != 0 || !strings.Contains(out, tc.tookBack) {
				t.Fatalf("remove again once closed: %d %q %q", code, out, errOut)
			}
			if code, _, errOut := wayfinder(t, append(base, "mcp", "remove", "web")...); code != 1 || !strings.Contains(errOut, tc.unknown) {
				t.Fatalf("remove a third time: %d %q", code, errOut)
			}
		})
	}
}

// A server that did not start says why in the command's language where
// its reason is known, the system's words in brackets under it; an
// unknown reason keeps the system's words alone.
func TestPrintServerSaysWhyItFailed(t *testing.T) {
	failed := func(reason string, args map[string]string) api.MCPServer {
		return api.MCPServer{Name: "fs", Transport: "stdio", Command: "/no/such/bin", State: api.MCPFailed,
			Error: "run /no/such/bin: fork/exec /no/such/bin: no such file or directory", Reason: reason, ReasonArgs: args}
	}
	for _, tt := range []struct {
		name string
		srv  api.MCPServer
		lang int
		want string
	}{
		{"missing, en", failed("command_missing", map[string]string{"command": "/no/such/bin"}), 0,
			"  error: program not found: /no/such/bin\n    (run /no/such/bin: fork/exec /no/such/bin: no such file or directory)\n"},
		{"missing, ko", failed("command_missing", map[string]string{"command": "/no/such/bin"}), 1,
			"  오류: 실행할 프로그램이 없음: /no/such/bin\n    (run /no/such/bin: fork/exec /no/such/bin: no such file or directory)\n"},
		{"timeout, ko", failed("timeout", map[string]string{"seconds": "30"}), 1,
			"  오류: 30초 안에 응답 없음\n    (run /no/such/bin: fork/exec /no/such/bin: no such file or directory)\n"},
		{"a particular missing", failed("command_missing", nil), 1,
			"  오류: run /no/such/bin: fork/exec /no/such/bin: no such file or directory\n"},
		{"an unknown reason", failed("something_new", nil), 1,
			"  오류: run /no/such/bin: fork/exec /no/such/bin: no such file or directory\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			printServer(&b, tt.srv, tt.lang)
			_, got, _ := strings.Cut(b.String(), "\n") // after the server's own line
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
