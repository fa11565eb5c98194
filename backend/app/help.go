package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/server"
)

// helpKo is the command line's help in Korean, by its English: the
// commands' summaries, every flag's description and the lines around
// them. A Korean terminal read all of `--help` in English. The syntax
// (commands, flags, PATH, ID) stays as it is typed. Keyed by the English
// so that a description changed without its Korean fails the test that
// reads every command's help in Korean (TestHelpIsKoreanInKorean).
var helpKo = map[string]string{
	"a local-first assistant that plans your tasks with local models.": "로컬 모델로 할 일을 계획해 주는, 내 컴퓨터에서 도는 어시스턴트입니다.",
	"Usage:":                             "사용법:",
	"Usage: wayfinder":                   "사용법: wayfinder",
	"open the desktop window":            "데스크톱 창을 엽니다",
	"Flags (accepted by every command):": "플래그(모든 명령에 쓸 수 있음):",
	"Flags:":                             "플래그:",
	"Run `wayfinder COMMAND --help` for a command's own flags.":       "명령마다 따로 있는 플래그는 `wayfinder 명령 --help`로 볼 수 있습니다.",
	"Run `wayfinder --help` for the flags every command accepts.":     "모든 명령에 쓸 수 있는 플래그는 `wayfinder --help`로 볼 수 있습니다.",
	"Run `wayfinder GROUP COMMAND --help` for a command's own flags.": "명령마다 따로 있는 플래그는 `wayfinder GROUP 명령 --help`로 볼 수 있습니다.",
	"default": "기본값",

	// The commands (commands()).
	"the Wayfinder UI in your browser (loopback only)":                                                                         "브라우저에서 쓰는 Wayfinder 화면(이 컴퓨터에서만 접속)",
	"one turn in the terminal, streaming the reply":                                                                            "터미널에서 한 번 묻고, 답을 쓰는 대로 보여 줍니다",
	"manage the knowledge base (run `wayfinder kb --help` for details)":                                                        "지식 베이스를 관리합니다(자세한 것은 `wayfinder kb --help`)",
	"see and edit what Wayfinder remembers about you":                                                                          "Wayfinder가 나에 대해 기억하는 내용을 보고 고칩니다",
	"the conversations, newest first, with the ids ask --session and export --session take":                                    "대화 목록(최근 것부터)과 ask --session, export --session에 쓰는 ID",
	"conversations as Markdown (to read) or JSON (to import again)":                                                            "대화를 Markdown(읽기용)이나 JSON(다시 가져오기용)으로 내보냅니다",
	"conversations from a JSON export":                                                                                         "JSON으로 내보낸 대화를 가져옵니다",
	"connect MCP servers whose tools the assistant may call, always asking you first (run `wayfinder mcp --help` for details)": "어시스턴트가 도구를 부를 수 있는 MCP 서버를 연결합니다. 부를 때마다 먼저 묻습니다(자세한 것은 `wayfinder mcp --help`)",
	"the folders the read_file tool may read: grant, list, revoke":                                                             "read_file 도구가 읽을 수 있는 폴더를 허용하고, 보고, 거둡니다",
	"check Ollama, the models and the data folder, and say how to fix each problem":                                            "Ollama, 모델, 데이터 폴더를 점검하고 문제마다 고치는 법을 알려 줍니다",
	"print the version, commit and build date (also --version)":                                                                "버전, 커밋, 빌드 날짜를 출력합니다(--version도 같음)",

	// Every command's flags (globals.register).
	"where Wayfinder keeps its data (env WAYFINDER_DATA_DIR)":                                                                                  "Wayfinder가 데이터를 두는 폴더(환경 변수 WAYFINDER_DATA_DIR)",
	"Ollama address, or several separated by commas to share the calls (default: $OLLAMA_HOST, else http://127.0.0.1:11434)":                   "Ollama 주소. 여러 개를 쉼표로 구분해 적으면 호출을 나눠 보냅니다(기본: $OLLAMA_HOST, 없으면 http://127.0.0.1:11434)",
	"chat model for this run (overrides Settings)":                                                                                             "이번 실행에 쓸 대화 모델(설정보다 우선)",
	"chat model that answers when the chosen one is missing, out of memory or keeps failing (overrides Settings)":                              "고른 모델이 없거나, 메모리가 모자라거나, 계속 실패할 때 대신 답할 대화 모델(설정보다 우선)",
	"embedding model for this run (overrides Settings)":                                                                                        "이번 실행에 쓸 임베딩 모델(설정보다 우선)",
	"requests the Ollama server answers at once (its OLLAMA_NUM_PARALLEL): sub-tasks are recommended that many at a time (overrides Settings)": "Ollama 서버가 한 번에 답하는 요청 수(OLLAMA_NUM_PARALLEL): 하위 작업을 그만큼씩 함께 추천합니다(설정보다 우선)",
	"your own agent workflow definition (JSON) instead of the built-in one (env WAYFINDER_WORKFLOW)":                                           "내장 워크플로 대신 쓸 나만의 에이전트 워크플로 정의(JSON)(환경 변수 WAYFINDER_WORKFLOW)",
	"let the assistant search this Kiwix ZIM file (an offline Wikipedia) with search_wikipedia, for this run (overrides Settings)":             "이번 실행에서 어시스턴트가 search_wikipedia로 이 Kiwix ZIM 파일(오프라인 위키백과)을 찾게 합니다(설정보다 우선)",
	"log debug details to stderr":              "디버그 정보를 표준 오류에 기록합니다",
	"print the version, commit and build date": "버전, 커밋, 빌드 날짜를 출력합니다",

	// ask
	"continue this conversation: its `ID`, or the first characters of it (wayfinder sessions lists them); a plan or tool call waiting in it is shown to decide first": "이 대화를 이어 갑니다: 대화 `ID`나 그 앞부분(wayfinder sessions가 보여 줍니다). 결정을 기다리는 계획이나 도구 호출이 있으면 먼저 보여 줍니다",
	"print the turn's result as JSON instead of streaming the reply":                                      "답을 쓰는 대로 보여 주는 대신 결과를 JSON으로 출력합니다",
	"approve the first proposed plan without asking (for scripts; not one recovered from a broken reply)": "처음 제안된 계획을 묻지 않고 승인합니다(스크립트용, 깨진 답에서 살린 계획은 제외)",
	"run every tool call that asks for approval, once each, without asking (for scripts)":                 "승인을 묻는 도구 호출을 묻지 않고 한 번씩 실행합니다(스크립트용)",
	// export
	"md (Markdown, to read) or json (everything, to import again); default: from -o's extension, else md": "md(Markdown, 읽기용) 또는 json(전부, 다시 가져오기용). 기본: -o 파일의 확장자, 없으면 md",
	"the conversation to export: its `ID`, or the first characters of it (wayfinder sessions lists them)": "내보낼 대화: 대화 `ID`나 그 앞부분(wayfinder sessions가 보여 줍니다)",
	"export every conversation":                     "모든 대화를 내보냅니다",
	"write to this file instead of standard output": "표준 출력 대신 이 파일에 씁니다",
	"with -o: replace FILE if it exists, without asking (needed when standard input is not a terminal)": "-o와 함께: FILE이 이미 있으면 묻지 않고 바꿔 씁니다(표준 입력이 터미널이 아닐 때 필요)",
	"the language of the Markdown's headings: en or ko (default: the language the command speaks)":      "Markdown 제목의 언어: en 또는 ko(기본: 명령이 쓰는 언어)",
	// kb search
	"how many passages to show":                                                                                             "보여 줄 구절 수",
	"print JSON: id, source, page, unit, score, text":                                                                       "JSON으로 출력합니다: id, source, page, unit, score, text",
	"what to search: documents (your files), catalog (the built-in AI tools) or all":                                        "찾을 곳: documents(내 파일), catalog(내장 AI 도구 목록), all(둘 다)",
	"passages of one document at most (0: one, -1: no limit)":                                                               "한 문서에서 보여 줄 구절 수의 상한(0: 하나, -1: 제한 없음)",
	fmt.Sprintf("relevance floor, the share of the query a passage must match (0: %.2f, -1: none)", knowledge.DefaultFloor): fmt.Sprintf("관련도 하한: 구절이 맞아야 하는 검색어의 비율(0: %.2f, -1: 없음)", knowledge.DefaultFloor),
	// memory
	"preference, fact or feedback":                                             "preference(선호), fact(사실), feedback(피드백) 중 하나",
	"with rm: forget every memory (asks first in a terminal)":                  "rm과 함께: 모든 기억을 지웁니다(터미널에서는 먼저 묻습니다)",
	"with rm --all: do not ask (needed when standard input is not a terminal)": "rm --all과 함께: 묻지 않습니다(표준 입력이 터미널이 아닐 때 필요)",
	// sessions, mcp, folders
	"print the conversations as JSON: id, title, created_at, updated_at, message_count, pending_approval, model":  "대화를 JSON으로 출력합니다: id, title, created_at, updated_at, message_count, pending_approval, model",
	"print the servers, their state and tools as JSON":                                                            "서버와 그 상태, 도구를 JSON으로 출력합니다",
	"address of a Streamable HTTP server (instead of a command)":                                                  "Streamable HTTP 서버의 주소(명령 대신)",
	"an environment variable for the server's command, KEY=VALUE (repeatable)":                                    "서버 명령에 줄 환경 변수, KEY=VALUE(여러 번 쓸 수 있음)",
	"with add: let read_file read hidden files and folders (.name) there too":                                     "add와 함께: read_file이 그곳의 숨김 파일과 폴더(.이름)도 읽게 합니다",
	"with add: let read_file read files that usually hold secrets (.env, keys, .git, .ssh; see README) there too": "add와 함께: read_file이 그곳에서 보통 비밀을 담는 파일(.env, 키, .git, .ssh; README 참고)도 읽게 합니다",
	"with list: print JSON": "list와 함께: JSON으로 출력합니다",
	// serve
	"loopback address to listen on; port 0 picks a free one": "받을 루프백 주소. 포트 0은 비어 있는 포트를 고릅니다",
	"make a new access token (kept in the data folder, file " + server.TokenFile + "): addresses printed before stop working. Without it the token of the last start is kept, so open tabs go on working": "새 접근 토큰을 만듭니다(데이터 폴더의 " + server.TokenFile + " 파일에 둡니다): 전에 출력한 주소는 더 이상 쓸 수 없습니다. 이 플래그가 없으면 지난번 토큰을 그대로 써서 열린 탭이 계속 동작합니다",
}

// helpText is en, the help's English, in language lang: its Korean where
// there is one.
func helpText(en string, lang int) string {
	if lang == 1 {
		if ko, ok := helpKo[en]; ok {
			return ko
		}
	}
	return en
}

// helpLang is the language of the help: the data folder's Language
// setting (read without opening it), else the system's, as report's.
func helpLang(g *globals) int {
	if g == nil {
		return langIndex(osLocale())
	}
	return langIndex(cliLanguage(settingsLanguage(context.Background(), *g)))
}

// valueKindKo names in Korean the kinds of value the flag package shows
// after a flag ("-top int"), which a Korean --help left in English
// beside its Korean descriptions. A value named in a description's back
// quotes (`ID`) is a placeholder as typed, like FILE and PATH in the
// usage lines, and stays.
var valueKindKo = map[string]string{
	"string":   "문자열",
	"int":      "정수",
	"uint":     "정수",
	"float":    "실수",
	"duration": "기간",
	"value":    "값",
}

// printFlags is fs.PrintDefaults in language lang: the flag package's
// own layout in English; in Korean each description and its default
// said in Korean, and the kind of value the flag takes (valueKindKo),
// the flag itself as typed.
func printFlags(fs *flag.FlagSet, w io.Writer, lang int) {
	fs.SetOutput(w)
	if lang == 0 {
		fs.PrintDefaults()
		return
	}
	fs.VisitAll(func(f *flag.Flag) {
		ko := *f
		ko.Usage = helpText(f.Usage, lang)
		name, usage := flag.UnquoteUsage(&ko)
		if k, ok := valueKindKo[name]; ok {
			name = k
		}
		line := "  -" + f.Name
		if name != "" {
			line += " " + name
		}
		if len(line) <= 4 { // a one-letter bool flag, as PrintDefaults puts it
			line += "\t"
		} else {
			line += "\n    \t"
		}
		line += strings.ReplaceAll(usage, "\n", "\n    \t")
		if d := f.DefValue; d != "" && d != "0" && d != "false" {
			line += " (" + helpText("default", lang) + ": " + d + ")"
		}
		fmt.Fprintln(w, line)
	})
}
