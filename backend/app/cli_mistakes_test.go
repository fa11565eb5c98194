package app

import (
	"fmt"
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
		{[]string{"kb", "frob"}, `unknown kb command "frob": use one of import, list, remove, search, extract`, `알 수 없는 kb 명령입니다: "frob". import, list, remove, search, extract 중 하나를 쓰세요`},
		{[]string{"memory", "frob"}, `unknown memory command "frob": use one of list, add, edit, rm`, `알 수 없는 memory 명령입니다: "frob". list, add, edit, rm 중 하나를 쓰세요`},
		// Each kb command says what it lacks, not the whole group's syntax.
		{[]string{"kb"}, "give a kb command: import, list, remove, search or extract", "kb 명령을 적으세요: import, list, remove, search, extract 중 하나"},
		{[]string{"kb", "import"}, "give the files or folders to import, e.g. wayfinder kb import ~/Documents", "가져올 파일이나 폴더를 적으세요. 예: wayfinder kb import ~/Documents"},
		{[]string{"kb", "search"}, `give the words to search for, e.g. wayfinder kb search "annual leave"`, `찾을 낱말을 적으세요. 예: wayfinder kb search "연차 휴가"`},
		{[]string{"kb", "search", ""}, `give the words to search for`, `찾을 낱말을 적으세요`},
		{[]string{"kb", "search", "  ", "\t", "--top", "3"}, `give the words to search for`, `찾을 낱말을 적으세요`},
		{[]string{"kb", "search", "--scope", "web", "leave"}, `unknown search scope "web": use documents, catalog or all`, `알 수 없는 검색 범위입니다: "web". documents, catalog, all 중 하나를 쓰세요`},
		{[]string{"kb", "remove"}, "give one document's id, as `wayfinder kb list` shows it: wayfinder kb remove ID", "`wayfinder kb list`가 보여 주는 문서 ID를 하나 적으세요: wayfinder kb remove ID"},
		{[]string{"kb", "remove", "a1b2", "c3d4"}, "give one document's id", "`wayfinder kb list`가 보여 주는 문서 ID를 하나 적으세요"},
		{[]string{"kb", "extract"}, "give one file to read the text of: wayfinder kb extract FILE", "글을 읽어 낼 파일을 하나 적으세요: wayfinder kb extract FILE"},
		{[]string{"kb", "list", "all"}, `kb list takes no arguments, got ["all"]`, `kb list에는 인수를 적지 않습니다. 적은 것: ["all"]`},
		// memory's and folders' commands too, and what takes no arguments.
		{[]string{"memory"}, "give a memory command: list, add, edit or rm", "memory 명령을 적으세요: list, add, edit, rm 중 하나"},
		{[]string{"memory", "add", " "}, `give what to remember, e.g. wayfinder memory add "I prefer short answers"`, `기억할 내용을 적으세요. 예: wayfinder memory add "답은 짧게 해 주세요"`},
		{[]string{"memory", "edit", "a1b2"}, "give the memory's id and its new text: wayfinder memory edit [--kind K] ID TEXT", "기억의 ID와 새 내용을 적으세요: wayfinder memory edit [--kind K] ID TEXT"},
		{[]string{"memory", "rm"}, "give one memory's id, as `wayfinder memory list` shows it, or --all: wayfinder memory rm ID", "`wayfinder memory list`가 보여 주는 기억 ID를 하나 적거나 --all을 쓰세요: wayfinder memory rm ID"},
		{[]string{"memory", "rm", "a1b2", "--all"}, "give one memory's id, as `wayfinder memory list` shows it, or --all", "`wayfinder memory list`가 보여 주는 기억 ID를 하나 적거나 --all을 쓰세요"},
		{[]string{"memory", "list", "x"}, `memory list takes no arguments, got ["x"]`, `memory list에는 인수를 적지 않습니다. 적은 것: ["x"]`},
		{[]string{"folders"}, "give a folders command: list, add or remove", "folders 명령을 적으세요: list, add, remove 중 하나"},
		{[]string{"folders", "frob"}, `unknown folders command "frob": use one of list, add, remove`, `알 수 없는 folders 명령입니다: "frob". list, add, remove 중 하나를 쓰세요`},
		{[]string{"folders", "add"}, "give one folder's path: wayfinder folders add PATH", "폴더 경로를 하나 적으세요: wayfinder folders add PATH"},
		{[]string{"folders", "remove", "a", "b"}, "give one folder's path: wayfinder folders remove PATH", "폴더 경로를 하나 적으세요: wayfinder folders remove PATH"},
		{[]string{"folders", "list", "x"}, `folders list takes no arguments, got ["x"]`, `folders list에는 인수를 적지 않습니다. 적은 것: ["x"]`},
		{[]string{"doctor", "x"}, `doctor takes no arguments, got ["x"]`, `doctor에는 인수를 적지 않습니다. 적은 것: ["x"]`},
		{[]string{"version", "x"}, `version takes no arguments, got ["x"]`, `version에는 인수를 적지 않습니다. 적은 것: ["x"]`},
		{[]string{"mcp", "frob"}, `unknown mcp command "frob": use one of list, add, remove, on, off`, `알 수 없는 mcp 명령입니다: "frob". list, add, remove, on, off 중 하나를 쓰세요`},
		{[]string{"export"}, "choose one conversation with --session ID, or --all", "--session ID로 대화 하나를 고르거나 --all을 쓰세요"},
		{[]string{"export", "--all", "a", "b"}, `export takes no arguments, got ["a" "b"] (use --session ID or --all)`, `export에는 인수를 적지 않습니다. 적은 것: ["a" "b"] (--session ID나 --all을 쓰세요)`},
		{[]string{"export", "--all", "--format", "pdf"}, `unknown format "pdf": use md or json`, `알 수 없는 형식입니다: "pdf". md나 json을 쓰세요`},
		{[]string{"import"}, "give the file to import (made by wayfinder export --format json)", "가져올 파일을 적으세요(wayfinder export --format json으로 만든 파일)"},
		{[]string{"serve", "--addr", "0.0.0.0:8080"}, `wayfinder serve listens on loopback only: use 127.0.0.1:PORT, not "0.0.0.0:8080" (another address`, `wayfinder serve는 이 컴퓨터 안(루프백)에서만 받습니다: "0.0.0.0:8080" 대신 127.0.0.1:PORT를 쓰세요`},
		{[]string{"serve", "--addr", "8080"}, `"8080" is not an address to listen on: use 127.0.0.1:PORT, e.g. --addr 127.0.0.1:8080`, `"8080"은 받을 주소가 아닙니다. 127.0.0.1:PORT 형식으로 쓰세요. 예: --addr 127.0.0.1:8080`},
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

// A mistake says where the help with the flags of the command that was
// mistyped is: a kb, memory, mcp or folders command's own (`wayfinder kb
// search --help` has -top), where it named the group's, which lists only
// the syntax; a mistake before any of its commands names the group's.
func TestMistakesPointAtTheCommandsHelp(t *testing.T) {
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1"}
	for _, tt := range []struct {
		args []string
		help string
	}{
		{[]string{"kb", "search", "--top", "x", "q"}, "wayfinder kb search --help"},
		{[]string{"kb", "search"}, "wayfinder kb search --help"},
		{[]string{"kb", "frob"}, "wayfinder kb --help"},
		{[]string{"mcp", "frob"}, "wayfinder mcp --help"},
		{[]string{"memory", "frob"}, "wayfinder memory --help"},
		{[]string{"folders", "frob", "--nope"}, "wayfinder folders --help"},
		{[]string{"kb"}, "wayfinder kb --help"},
		{[]string{"memory", "edit", "a1b2"}, "wayfinder memory edit --help"},
		{[]string{"memory", "rm"}, "wayfinder memory rm --help"},
		{[]string{"mcp", "add", "--nope"}, "wayfinder mcp add --help"},
		{[]string{"folders", "add"}, "wayfinder folders add --help"},
		{[]string{"ask", "--nope", "hi"}, "wayfinder ask --help"},
		{[]string{"export", "--all", "--format", "pdf"}, "wayfinder export --help"},
		{[]string{"--nope"}, "wayfinder --help"},
	} {
		for _, l := range []struct{ env, words string }{
			{"en_US.UTF-8", "Run `%s` for usage."}, {"ko_KR.UTF-8", "사용법은 `%s`로 볼 수 있습니다."},
		} {
			t.Run(l.env[:2]+" "+strings.Join(tt.args, " "), func(t *testing.T) {
				t.Setenv("LC_ALL", l.env)
				code, _, errOut := wayfinder(t, append(append([]string{}, base...), tt.args...)...)
				if want := fmt.Sprintf(l.words, tt.help); code != 2 || !strings.HasSuffix(errOut, "\n"+want+"\n") {
					t.Errorf("exit %d, want 2 ending with %q:\n%s", code, want, errOut)
				}
			})
		}
	}
}
