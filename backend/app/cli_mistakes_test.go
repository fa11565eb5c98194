package app

import (
	"strings"
	"testing"
)

// A command-line mistake is one line in the language the command speaks,
// then where the usage is: in a Korean terminal both are Korean, the
// syntax it quotes as typed; in English the words stay what they were.
func TestMistakesAreSaidInTheCommandsLanguage(t *testing.T) {
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1"}
	for _, tt := range []struct {
		args   []string
		en, ko string
	}{
		{[]string{"bogus"}, `unknown command "bogus"`, `알 수 없는 명령입니다: "bogus"`},
		{[]string{"ask"}, `give the message to send, e.g. wayfinder ask "123 * 456"`, `보낼 메시지를 적으세요. 예: wayfinder ask "123 * 456"`},
		{[]string{"ask", "--nope", "hi"}, "flag provided but not defined: -nope", "없는 플래그입니다: -nope"},
		{[]string{"ask", "--session"}, "flag needs an argument: -session", "플래그 -session에 값이 필요합니다"},
		{[]string{"kb", "search", "--top", "x", "q"}, `invalid value "x" for flag -top: parse error`, `플래그 -top에 쓸 수 없는 값입니다: "x"`},
		{[]string{"kb", "frob"}, `unknown kb command "frob"; use wayfinder kb import PATH...`, `알 수 없는 kb 명령입니다: "frob". 이렇게 쓰세요: wayfinder kb import PATH...`},
		{[]string{"mcp", "frob"}, `unknown mcp command "frob"; use wayfinder mcp list`, `알 수 없는 mcp 명령입니다: "frob". 이렇게 쓰세요: wayfinder mcp list`},
		{[]string{"export"}, "choose one conversation with --session ID, or --all", "--session ID로 대화 하나를 고르거나 --all을 쓰세요"},
		{[]string{"export", "--all", "a", "b"}, `export takes no arguments, got ["a" "b"] (use --session ID or --all)`, `export에는 인수를 적지 않습니다. 적은 것: ["a" "b"] (--session ID나 --all을 쓰세요)`},
		{[]string{"export", "--all", "--format", "pdf"}, `unknown format "pdf": use md or json`, `알 수 없는 형식입니다: "pdf". md나 json을 쓰세요`},
		{[]string{"import"}, "give the file to import (made by wayfinder export --format json)", "가져올 파일을 적으세요(wayfinder export --format json으로 만든 파일)"},
		{[]string{"serve", "extra"}, `serve takes no arguments, got ["extra"]`, `serve에는 인수를 적지 않습니다. 적은 것: ["extra"]`},
	} {
		for _, l := range []struct{ env, want, usage string }{
			{"en_US.UTF-8", tt.en, "Run `wayfinder "}, {"ko_KR.UTF-8", tt.ko, "사용법은 `wayfinder "},
		} {
			t.Run(l.env[:2]+" "+strings.Join(tt.args, " "), func(t *testing.T) {
				t.Setenv("LC_ALL", l.env)
				code, out, errOut := wayfinder(t, append(append([]string{}, base...), tt.args...)...)
				lines := strings.Split(strings.TrimSpace(errOut), "\n")
				if code != 2 || out != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], "wayfinder: "+l.want) || !strings.HasPrefix(lines[1], l.usage) {
					t.Errorf("exit %d, want 2 and\nwayfinder: %s\n%s…\ngot:\n%s", code, l.want, l.usage, errOut)
				}
			})
		}
	}
}
