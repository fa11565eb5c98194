package app

import (
	"strings"
	"testing"
)

// `wayfinder mcp` says the servers and its changes in the command's
// language: none yet, one added that did not start (its state, the
// error's label), a name taken, an unknown one, switched off and on,
// removed; the English run as it was, no English words in the Korean one
// but the data's (names, the system's own error).
func TestMCPCommandsSpeakTheCommandsLanguage(t *testing.T) {
	type step struct {
		args []string
		code int
		want string
	}
	for _, tc := range []struct {
		lang, errLabel string
		steps          []step
		not            []string
	}{
		{"en_US.UTF-8", "error: ", []step{
			{[]string{"list"}, 0, "No MCP servers. Add one with `wayfinder mcp add NAME -- COMMAND [ARGS...]`"},
			{[]string{"add", "files", "--", "/nonexistent/files"}, 1, "files (stdio: /nonexistent/files): failed\n  error: "},
			{[]string{"add", "files", "--", "/nonexistent/files"}, 1, `wayfinder: an MCP server named "files" is already there; remove it first or choose another name`},
			{[]string{"off", "web"}, 1, `wayfinder: no MCP server named "web" (see ` + "`wayfinder mcp list`)"},
			{[]string{"off", "files"}, 0, "Switched off: files\n"},
			{[]string{"list"}, 0, "files (stdio: /nonexistent/files): off\n"},
			{[]string{"on", "files"}, 0, "Switched on: files\n"},
			{[]string{"remove", "files"}, 0, "Removed: files\n"},
		}, []string{"서버", "습니다"}},
		{"ko_KR.UTF-8", "오류: ", []step{
			{[]string{"list"}, 0, "MCP 서버가 없습니다. `wayfinder mcp add 이름 -- 명령 [인수...]`"},
			{[]string{"add", "files", "--", "/nonexistent/files"}, 1, "files (stdio: /nonexistent/files): 실패\n  오류: "},
			{[]string{"add", "files", "--", "/nonexistent/files"}, 1, `wayfinder: "files"라는 MCP 서버가 이미 있습니다. 먼저 지우거나 다른 이름을 고르세요`},
			{[]string{"off", "web"}, 1, `wayfinder: "web"(이)라는 MCP 서버가 없습니다(` + "`wayfinder mcp list`로 확인하세요)"},
			{[]string{"off", "files"}, 0, "껐습니다: files\n"},
			{[]string{"list"}, 0, "files (stdio: /nonexistent/files): 꺼짐\n"},
			{[]string{"on", "files"}, 0, "켰습니다: files\n"},
			{[]string{"remove", "files"}, 0, "지웠습니다: files\n"},
		}, []string{"No MCP", "failed", "error:", "already", "Switched", "Removed", "Added", "no MCP server"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			dir := t.TempDir()
			for _, st := range tc.steps {
				code, out, errOut := wayfinder(t, append([]string{"--data-dir", dir, "mcp"}, st.args...)...)
				said := out + errOut
				if code != st.code || !strings.Contains(said, st.want) {
					t.Errorf("%v: exit %d, want %d and %q:\n%s", st.args, code, st.code, st.want, said)
				}
				// The system's own words of a failed start are data: only
				// what comes before them is checked.
				said, _, _ = strings.Cut(said, tc.errLabel)
				for _, n := range tc.not {
					if strings.Contains(said, n) {
						t.Errorf("%v: %q is not in this language:\n%s", st.args, n, out+errOut)
					}
				}
			}
		})
	}
}
