package app

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
)

// mcpProblemText words the mistakes of mcp.json on the command line
// (`wayfinder mcp list`, doctor) in English and Korean: the window's own
// sentences ("error.invalid_input.case.mcp_*" and their hints in
// frontend/src/i18n; a test holds them equal), so the terminal and
// Settings say the same thing.
var mcpProblemText = map[string][2]string{
	"error.invalid_input.case.mcp_name":              {"This cannot be an MCP server's name: {name}", "MCP 서버 이름으로 쓸 수 없습니다: {name}"},
	"error.invalid_input.case.mcp_name.hint":         {"Use 1 to 32 letters, digits, - or _, starting with a letter or digit (for example files or web-search).", "영문자, 숫자, -, _로 1~32자, 영문자나 숫자로 시작하세요(예: files, web-search)."},
	"error.invalid_input.case.mcp_no_command":        {"The MCP server {name} needs a command or an address.", "MCP 서버 {name}에 명령이나 주소가 필요합니다."},
	"error.invalid_input.case.mcp_no_command.hint":   {"Give the command that starts it, or its http:// or https:// address.", "서버를 시작하는 명령이나 http:// 또는 https:// 주소를 적으세요."},
	"error.invalid_input.case.mcp_both":              {"The MCP server {name} has both a command and an address.", "MCP 서버 {name}에 명령과 주소가 둘 다 있습니다."},
	"error.invalid_input.case.mcp_both.hint":         {"Keep one of them.", "둘 중 하나만 남기세요."},
	"error.invalid_input.case.mcp_url":               {"Not an http:// or https:// address: {url}", "http:// 또는 https:// 주소가 아닙니다: {url}"},
	"error.invalid_input.case.mcp_url.hint":          {"An MCP server over HTTP is reached at an address such as http://127.0.0.1:8000/mcp.", "HTTP로 연결하는 MCP 서버의 주소는 http://127.0.0.1:8000/mcp 같은 형식입니다."},
	"error.invalid_input.case.mcp_timeout":           {"The time limit of the MCP server {name} is negative.", "MCP 서버 {name}의 시간 제한이 음수입니다."},
	"error.invalid_input.case.mcp_timeout.hint":      {"Set timeoutSeconds in mcp.json to 0 (the default) or more.", "mcp.json의 timeoutSeconds를 0(기본값) 이상으로 정하세요."},
	"error.invalid_input.case.mcp_transport":         {"The MCP server {name} asks for a transport Wayfinder does not speak: {transport}", "MCP 서버 {name}의 전송 방식은 Wayfinder가 지원하지 않습니다: {transport}"},
	"error.invalid_input.case.mcp_transport.hint":    {"Remove its \"type\", or set it to stdio (with a command) or http (with an http:// or https:// address).", "\"type\"을 지우거나, stdio(명령이 있을 때) 또는 http(http:// 또는 https:// 주소가 있을 때)로 바꾸세요."},
	"error.invalid_input.case.mcp_duplicate":         {"The MCP server {name} is in mcp.json {count} times, so none of them starts.", "MCP 서버 {name}이(가) mcp.json에 {count}번 있어 어느 것도 시작하지 않습니다."},
	"error.invalid_input.case.mcp_duplicate.hint":    {"Keep one entry with this name, or rename the others.", "이 이름의 항목을 하나만 남기거나 나머지의 이름을 바꾸세요."},
	"error.invalid_input.case.mcp_field":             {"In the MCP server {name}, \"{field}\" must be {want}.", "MCP 서버 {name}의 \"{field}\"은(는) {want}여야 합니다."},
	"error.invalid_input.case.mcp_field.hint":        {"Correct that key in mcp.json.", "mcp.json에서 그 키를 고치세요."},
	"error.invalid_input.case.mcp_entry":             {"The MCP server {name} must be a JSON object with a command or a url.", "MCP 서버 {name}은(는) command나 url이 있는 JSON 객체여야 합니다."},
	"error.invalid_input.case.mcp_entry.hint":        {"For example \"command\": \"npx\" with its \"args\", or \"url\": \"http://127.0.0.1:8000/mcp\".", "예: \"command\": \"npx\"와 \"args\", 또는 \"url\": \"http://127.0.0.1:8000/mcp\"."},
	"error.invalid_input.case.mcp_syntax":            {"mcp.json is not valid JSON at line {line}, column {column}, so no MCP server runs.", "mcp.json의 {line}번째 줄 {column}번째 글자에서 JSON 형식이 잘못되어 MCP 서버가 하나도 실행되지 않습니다."},
	"error.invalid_input.case.mcp_syntax.hint":       {"Correct it there (a missing comma, quote or brace, most often), or remove the file to start again.", "그곳을 고치거나(쉼표, 따옴표, 괄호가 빠진 경우가 많습니다), 파일을 지우고 다시 시작하세요."},
	"error.invalid_input.case.mcp_not_object":        {"mcp.json must be a JSON object with \"mcpServers\" in it, so no MCP server runs.", "mcp.json은 \"mcpServers\"가 들어 있는 JSON 객체여야 해서 MCP 서버가 하나도 실행되지 않습니다."},
	"error.invalid_input.case.mcp_not_object.hint":   {"Put the servers inside { \"mcpServers\": … }, or remove the file to start again.", "서버들을 { \"mcpServers\": … } 안에 넣거나, 파일을 지우고 다시 시작하세요."},
	"error.invalid_input.case.mcp_servers":           {"\"mcpServers\" in mcp.json (line {line}) must be an object of servers by name, so no MCP server runs.", "mcp.json의 \"mcpServers\"({line}번째 줄)는 이름별 서버를 담은 객체여야 해서 MCP 서버가 하나도 실행되지 않습니다."},
	"error.invalid_input.case.mcp_servers.hint":      {"Write each server as \"name\": { \"command\": … } inside it.", "그 안에 서버마다 \"이름\": { \"command\": … } 형식으로 적으세요."},
	"error.invalid_input.case.mcp_too_big":           {"mcp.json is larger than {max} bytes, so it is not read and no MCP server runs.", "mcp.json이 {max}바이트보다 커서 읽지 않았고, MCP 서버가 하나도 실행되지 않습니다."},
	"error.invalid_input.case.mcp_too_big.hint":      {"It holds only the servers' settings: keep it small, or remove it to start again.", "서버 설정만 담는 파일이니 작게 유지하거나, 지우고 다시 시작하세요."},
	"error.invalid_input.case.mcp_save_too_big":      {"This change would make mcp.json larger than {max} bytes, more than Wayfinder reads back, so it was not saved.", "이렇게 바꾸면 mcp.json이 {max}바이트보다 커져 Wayfinder가 다시 읽을 수 없으므로 저장하지 않았습니다."},
	"error.invalid_input.case.mcp_save_too_big.hint": {"mcp.json is left as it was. Remove servers you no longer use, or shorten long settings (args, env, headers), then try again.", "mcp.json은 그대로입니다. 쓰지 않는 서버를 지우거나 긴 설정(args, env, headers)을 줄인 뒤 다시 시도하세요."},
	"mcp.problemAt":       {"Line {line}: {problem}", "{line}번째 줄: {problem}"},
	"mcp.kind.list":       {"a list [ … ]", "목록 [ … ]"},
	"mcp.kind.object":     {"an object { … }", "객체 { … }"},
	"mcp.kind.string":     {"text in quotes", "따옴표로 묶은 글"},
	"mcp.kind.number":     {"a whole number", "정수"},
	"mcp.kind.texts":      {"a list of texts in quotes [ \"…\" ]", "따옴표로 묶은 글의 목록 [ \"…\" ]"},
	"mcp.kind.textObject": {"an object of texts in quotes { \"KEY\": \"…\" }", "따옴표로 묶은 글을 담은 객체 { \"KEY\": \"…\" }"},
	"mcp.kind.bool":       {"true or false", "true 또는 false"},
}

// toolWords name the built-in tools as the window's trace does
// ("trace.tool.*" in frontend/src/i18n; a test holds them equal, key for
// key), so that a terminal says 도구 목록 검색 where the window does, not
// the tool's code name search_catalog. An MCP server's tool keeps its own
// name, as in the window.
var toolWords = map[string][2]string{
	"trace.tool.retrieve_docs":    {"Document search", "문서 검색"},
	"trace.tool.search_catalog":   {"Tool catalog search", "도구 목록 검색"},
	"trace.tool.calculator":       {"Calculator", "계산기"},
	"trace.tool.web_search":       {"Web search", "웹 검색"},
	"trace.tool.search_wikipedia": {"Wikipedia search", "위키백과 검색"},
	"trace.tool.get_weather":      {"Weather", "날씨"},
	"trace.tool.get_time":         {"Clock", "시계"},
	"trace.tool.read_file":        {"File reader", "파일 읽기"},
	"trace.tool.read_memory":      {"Memory search", "기억 찾기"},
	"trace.tool.run_python":       {"Python runner", "파이썬 실행"},
}

// toolAbout says what each built-in tool does, for the person deciding
// whether it may run: what it reads or reaches (a file, the web,
// Wikipedia, nothing outside this computer), in English and Korean, the
// window's "approval.desc.*" (a test holds them equal, and every built-in
// tool to having both). The tool's own Description is written for the
// model, in English; an MCP server's tool keeps its server's description.
var toolAbout = map[string][2]string{
	"approval.desc.retrieve_docs":    {"Searches the documents you put in Knowledge, on this computer; nothing leaves it.", "지식 베이스에 넣은 문서에서 찾습니다. 이 컴퓨터 안에서만 찾고, 밖으로 보내는 것은 없습니다."},
	"approval.desc.search_catalog":   {"Searches Wayfinder's own list of AI tools and services, on this computer; nothing leaves it.", "Wayfinder에 들어 있는 AI 도구·서비스 목록에서 찾습니다. 이 컴퓨터 안에서만 찾고, 밖으로 보내는 것은 없습니다."},
	"approval.desc.calculator":       {"Works out a calculation. It reads no file and reaches nothing outside.", "계산을 합니다. 파일을 읽지 않고 밖에 연결하지도 않습니다."},
	"approval.desc.web_search":       {"Searches the web through the SearXNG address in Settings: the query leaves your computer.", "설정에 적은 SearXNG 주소로 웹을 검색합니다. 검색어가 컴퓨터 밖으로 나갑니다."},
	"approval.desc.search_wikipedia": {"Looks a topic up in the offline Wikipedia file chosen in Settings, and in Wikipedia online if you allowed it there: then the query leaves your computer.", "설정에서 고른 오프라인 위키백과 파일에서 찾고, 설정에서 허용했다면 온라인 위키백과에서도 찾습니다. 그때는 검색어가 컴퓨터 밖으로 나갑니다."},
	"approval.desc.get_weather":      {"Asks Open-Meteo on the internet for a place's weather: the place's name leaves your computer.", "인터넷의 Open-Meteo에 그곳의 날씨를 묻습니다. 장소 이름이 컴퓨터 밖으로 나갑니다."},
	"approval.desc.get_time":         {"Reads this computer's clock for the date and time. It reaches nothing outside.", "이 컴퓨터의 시계에서 날짜와 시각을 읽습니다. 밖에 연결하지 않습니다."},
	"approval.desc.read_file":        {"Reads a text file from a folder you let Wayfinder read.", "Wayfinder가 읽도록 허용한 폴더에서 텍스트 파일을 읽습니다."},
	"approval.desc.read_memory":      {"Searches what Wayfinder remembers about you (Memory), on this computer; nothing leaves it.", "Wayfinder가 기억해 둔 내용(기억)에서 찾습니다. 이 컴퓨터 안에서만 찾고, 밖으로 보내는 것은 없습니다."},
	"approval.desc.run_python":       {"Runs a short program the assistant wrote, in a closed space: it cannot read files, reach the network or install anything.", "어시스턴트가 쓴 짧은 프로그램을 닫힌 공간에서 실행합니다. 파일을 읽거나 네트워크에 연결하거나 무엇을 설치할 수 없습니다."},
}

// toolAboutLine is what a tool call waiting for approval says its tool
// does: a built-in tool's words for a person in language lang, an MCP
// server's tool's own description as one line of text (it is the
// server's, untrusted: oneLine keeps its newlines and control characters
// from drawing lines of their own).
func toolAboutLine(tool, server, description string, lang int) string {
	if w, ok := toolAbout["approval.desc."+tool]; ok && server == "" {
		return w[lang]
	}
	return oneLine(description)
}

// toolName is a tool as a person knows it in language lang (langIndex):
// a built-in tool's name in that language, another's name as it is.
func toolName(name string, lang int) string {
	if w, ok := toolWords["trace.tool."+name]; ok {
		return w[lang]
	}
	return name
}

// langIndex is a language setting as an index of the [2]string tables.
func langIndex(lang string) int {
	if lang == "ko" {
		return 1
	}
	return 0
}

// blank is a sentence's {blank}, with the closing quotes (or a command's
// closing backquote: "`wayfinder mcp remove {name}`(으)로") and the Korean
// particle written in both forms after it, if any ("“{title}”을(를)").
var blank = regexp.MustCompile(`\{(\w+)\}([”’"')\]」』]*\x60?)(을\(를\)|이\(가\)|은\(는\)|와\(과\)|과\(와\)|\(으\)로|으로\(로\)|\(이\))?`)

// fill puts args into a sentence's {blanks}, in one pass: a value that
// holds a {blank} of its own (a document's title) is left as it is. A
// particle after a blank takes the form its value needs (particle).
func fill(text string, args map[string]string) string {
	text, _ = filled(text, args)
	return text
}

// filled is fill, and whether args had a value for every blank.
func filled(text string, args map[string]string) (string, bool) {
	all := true
	text = blank.ReplaceAllStringFunc(text, func(b string) string {
		m := blank.FindStringSubmatch(b)
		v, ok := args[m[1]]
		if !ok {
			all = false
			return b
		}
		return v + m[2] + particle(v, m[3])
	})
	return text, all
}

// mcpProblemLine is one mistake of mcp.json in words, with its line, and
// what to do about it; the backend's English when it cannot be worded
// (a particular missing).
func mcpProblemLine(p api.MCPProblem, lang int) (text, hint string) {
	key := "error.invalid_input.case." + p.Code
	words, ok := mcpProblemText[key]
	if !ok {
		return p.Message, ""
	}
	args := make(map[string]string, len(p.Args))
	for k, v := range p.Args {
		args[k] = v
	}
	if w, ok := mcpProblemText["mcp.kind."+args["want"]]; ok {
		args["want"] = w[lang]
	}
	text, all := filled(words[lang], args)
	if !all { // a particular missing
		return p.Message, ""
	}
	if args["line"] != "" && !strings.Contains(words[lang], "{line}") {
		text = fill(mcpProblemText["mcp.problemAt"][lang], map[string]string{"line": args["line"], "problem": text})
	}
	return text, fill(mcpProblemText[key+".hint"][lang], args)
}

// wholeFileProblem tells a *mcp.FileError (isFile) and, when the file
// could not be read at all, its one problem.
func wholeFileProblem(err error) (whole *api.MCPProblem, isFile bool) {
	var fe *mcp.FileError
	if !errors.As(err, &fe) {
		return nil, false
	}
	if !fe.Whole || len(fe.Problems) == 0 {
		return nil, true
	}
	p := fe.Problems[0]
	return &api.MCPProblem{Code: p.Code, Args: p.Args, Message: p.Text()}, true
}

// cliText holds what only the command line says, in English and Korean
// (cliLanguage chooses, as for `ask`'s progress lines).
var cliText = map[string][2]string{
	// The desktop window's native dialogs (shell.go), in the window's language.
	"dialog.importFiles":  {"Import documents", "문서 가져오기"},
	"dialog.attachFiles":  {"Attach files to this conversation", "대화에 파일 첨부"},
	"dialog.documents":    {"Documents Wayfinder reads", "Wayfinder가 읽는 문서"},
	"dialog.importFolder": {"Import a folder", "폴더 가져오기"},
	"dialog.grantFolder":  {"Let Wayfinder read a folder", "Wayfinder가 읽을 폴더 고르기"},
	"dialog.zim":          {"Choose an offline Wikipedia (ZIM file)", "오프라인 위키백과(ZIM 파일) 고르기"},
	"dialog.zimFiles":     {"Kiwix ZIM files", "Kiwix ZIM 파일"},
	"dialog.save":         {"Save", "저장"},
	// What report adds to a failure: the label of its hint, and where the
	// usage is after a command-line mistake.
	"report.nextStep": {"next step:", "다음 단계:"},
	"report.usage":    {"Run `{command}` for usage.", "사용법은 `{command}`로 볼 수 있습니다."},
	"mcp.mistakes": {"{path} has {count}: those servers do not start, the others do. Correct them there as each line says.",
		"{path}에 잘못된 곳이 {count}개 있습니다. 그 서버들은 시작하지 않고 나머지는 시작합니다. 각 줄에 적힌 대로 그곳을 고치세요."},
	"mcp.invalid": {"has mistakes", "설정 오류"},
	"mcp.stillMistakes": {"{path} still has {count}, kept as you wrote them: those servers do not start. `wayfinder mcp list` says each.",
		"{path}에 아직 잘못된 곳이 {count}개 있고, 적으신 그대로 두었습니다. 그 서버들은 시작하지 않습니다. `wayfinder mcp list`가 각각을 알려 줍니다."},
	"mcp.brokenSwitch": {"{name} has mistakes in mcp.json, so it does not start and cannot be switched; correct them there as `wayfinder mcp list` says, or `wayfinder mcp remove {name}`.",
		"{name}은(는) mcp.json에 잘못된 곳이 있어 시작하지 않고, 켜거나 끌 수도 없습니다. `wayfinder mcp list`가 알려 주는 대로 그곳을 고치거나 `wayfinder mcp remove {name}`(으)로 지우세요."},
	// What `wayfinder mcp` says of the servers and of its changes. A
	// state's English is its name in --json; Korean is the window's.
	"mcp.none": {"No MCP servers. Add one with `wayfinder mcp add NAME -- COMMAND [ARGS...]` or `wayfinder mcp add NAME --url URL`, or paste an \"mcpServers\" block into {file}.",
		"MCP 서버가 없습니다. `wayfinder mcp add 이름 -- 명령 [인수...]`나 `wayfinder mcp add 이름 --url 주소`로 추가하거나, {file}에 \"mcpServers\" 블록을 붙여 넣으세요."},
	"mcp.taken": {"an MCP server named {name} is already there; remove it first or choose another name",
		"{name}(이)라는 MCP 서버가 이미 있습니다. 먼저 지우거나 다른 이름을 고르세요"},
	"mcp.unknown": {"no MCP server named {name} (see `wayfinder mcp list`)", "{name}(이)라는 MCP 서버가 없습니다(`wayfinder mcp list`로 확인하세요)"},
	"mcp.added":   {"Added {name}. Every call of its tools asks you first.", "{name}을(를) 추가했습니다. 이 서버의 도구는 부를 때마다 먼저 묻습니다."},
	"mcp.addedNotStarted": {"added {name}, but it did not start; fix its command and try `wayfinder mcp list`, or `wayfinder mcp remove {name}`",
		"{name}을(를) 추가했지만 시작하지 않았습니다. 명령을 고친 뒤 `wayfinder mcp list`로 확인하거나 `wayfinder mcp remove {name}`(으)로 지우세요"},
	"mcp.removeDone": {"Removed: {what}", "지웠습니다: {what}"},
	"mcp.onDone":     {"Switched on: {what}", "켰습니다: {what}"},
	"mcp.offDone":    {"Switched off: {what}", "껐습니다: {what}"},
	"mcp.grantsStay": {"Wayfinder is open, so if you allowed tools of {name} for good, they stay allowed: close it and run `wayfinder mcp remove {name}` again to take that back.",
		"Wayfinder가 열려 있어, {name}의 도구에 '항상 허용'을 준 적이 있다면 그대로 남습니다. Wayfinder를 닫은 뒤 `wayfinder mcp remove {name}` 명령을 다시 실행하면 거둡니다."},
	"mcp.tookBack":       {"Took back {grants} for its tools.", "이 서버의 도구에 준 {grants}를 거뒀습니다."},
	"count.grant.one":    {"1 grant", "허용 1개"},
	"count.grant.many":   {"{n} grants", "허용 {n}개"},
	"mcp.error":          {"error: {error}", "오류: {error}"},
	"mcp.stderr":         {"its standard error:", "표준 오류 출력:"},
	"mcp.toolOff":        {"off", "꺼짐"},
	"mcp.readOnly":       {"read-only", "읽기 전용"},
	"mcp.state.off":      {"off", "꺼짐"},
	"mcp.state.idle":     {"idle", "시작 전"},
	"mcp.state.starting": {"starting", "시작하는 중"},
	"mcp.state.ready":    {"ready", "실행 중"},
	"mcp.state.failed":   {"failed", "실패"},
	"mcp.state.invalid":  {"invalid", "설정 오류"},
	"serve.inUse": {"The address {addr} is in use: another `wayfinder serve` or another program is listening there.",
		"주소 {addr}은(는) 이미 쓰이고 있습니다. 다른 `wayfinder serve`나 다른 프로그램이 그 주소에서 기다리고 있습니다."},
	"serve.inUse.hint": {"Choose another port with --addr 127.0.0.1:PORT, or --addr 127.0.0.1:0 for a free one. If it is a Wayfinder, open the address it printed instead.",
		"--addr 127.0.0.1:PORT로 다른 포트를 고르거나, --addr 127.0.0.1:0으로 비어 있는 포트를 쓰세요. 그 프로그램이 Wayfinder라면 대신 그것이 알려 준 주소를 여세요."},
	"serve.running":      {"Wayfinder is running at {url}", "Wayfinder가 실행 중입니다: {url}"},
	"serve.open":         {"Open that address in your browser. Press Ctrl+C to stop.", "브라우저에서 이 주소를 여세요. 멈추려면 Ctrl+C를 누르세요."},
	"serve.cannotListen": {"Cannot listen on {addr}: {error}.", "{addr}에서 연결을 받을 수 없습니다: {error}."},
	"serve.newToken":     {"A new access token was made: addresses printed before no longer work.", "새 접근 토큰을 만들었습니다. 전에 알려 준 주소는 더 이상 쓸 수 없습니다."},
	"serve.token.open": {"The access token file {path} can be read by other users (permissions {mode}), so the token may be known to them.",
		"접근 토큰 파일 {path}을(를) 다른 사용자도 읽을 수 있어(권한 {mode}) 토큰이 알려졌을 수 있습니다."},
	"serve.token.open.hint": {"Start with --new-token to make a new one that only you can read.",
		"--new-token으로 시작해 나만 읽을 수 있는 새 토큰을 만드세요."},
	"serve.token.junk": {"The access token file {path} does not hold a token Wayfinder made.",
		"접근 토큰 파일 {path}에 Wayfinder가 만든 토큰이 없습니다."},
	"serve.token.junk.hint": {"Start with --new-token to make a new one.", "--new-token으로 시작해 새 토큰을 만드세요."},
	"serve.token.not_file": {"{path} is not a file, so Wayfinder cannot keep its access token there.",
		"{path}이(가) 파일이 아니어서 Wayfinder가 접근 토큰을 그곳에 둘 수 없습니다."},
	"serve.token.not_file.hint": {"Move or remove it, then start serve again.", "그것을 옮기거나 지운 뒤 serve를 다시 시작하세요."},
	"serve.cannotListen.hint": {"Choose another port with --addr 127.0.0.1:PORT, or --addr 127.0.0.1:0 for a free one.",
		"--addr 127.0.0.1:PORT로 다른 포트를 고르거나, --addr 127.0.0.1:0으로 비어 있는 포트를 쓰세요."},
	// kb import's lines: a file's progress, its summary, what was left
	// out; kb list's headings and kb remove's line. The counts are whole
	// phrases ("1 chunk", "청크 1개"), worded by counted.
	"count.file.one":      {"1 file", "파일 1개"},
	"count.file.many":     {"{n} files", "파일 {n}개"},
	"count.page.one":      {"1 page", "1쪽"},
	"count.page.many":     {"{n} pages", "{n}쪽"},
	"count.slide.one":     {"1 slide", "슬라이드 1장"},
	"count.slide.many":    {"{n} slides", "슬라이드 {n}장"},
	"count.entry.one":     {"1 entry", "항목 1개"},
	"count.entry.many":    {"{n} entries", "항목 {n}개"},
	"count.chunk.one":     {"1 chunk", "청크 1개"},
	"count.chunk.many":    {"{n} chunks", "청크 {n}개"},
	"count.document.one":  {"1 document", "문서 1개"},
	"count.document.many": {"{n} documents", "문서 {n}개"},
	"kb.embedded":         {"{n} embedded", "{n}개 임베딩"},
	"kb.skipped":          {"unchanged, skipped", "바뀌지 않아 건너뜀"},
	"kb.indexing":         {"indexing words: {n} of {chunks}", "단어 색인 중: {chunks} 중 {n}개"},
	"kb.failed":           {"failed: {reason}", "실패: {reason}"},
	"kb.notEmbedded":      {"not embedded: {reason}", "임베딩 안 됨: {reason}"},
	"kb.keywordsMeanwhile": {"Keyword search finds them now; they are embedded when the Wayfinder window or `wayfinder serve` runs with the embedding model reachable.",
		"지금은 키워드 검색으로 찾을 수 있고, 임베딩 모델에 연결되는 동안 Wayfinder 창이나 `wayfinder serve`가 실행되면 임베딩됩니다."},
	"kb.warning":         {"warning: {text}", "경고: {text}"},
	"kb.nothingToImport": {"there is no file to import in {paths}", "{paths}에 가져올 파일이 없습니다"},
	"kb.imported":        {"Imported {files} ({documents}, {chunks}); {skipped} unchanged, {failed} failed.", "{files}를 가져왔습니다({documents}, {chunks}). 바뀌지 않음 {skipped}개, 실패 {failed}개."},
	"kb.stopped":         {"Stopped: {files} not imported.", "중지했습니다. {files}를 가져오지 않았습니다."},
	"kb.embedStopped": {"embedding stopped: keyword search finds this file now; the rest is embedded when the Wayfinder window or `wayfinder serve` runs.",
		"임베딩 중지: 이 파일은 지금 키워드 검색으로 찾을 수 있고, 나머지는 Wayfinder 창이나 `wayfinder serve`가 실행되면 임베딩됩니다."},
	"kb.embedLater": {"Ollama did not answer the embedding in time: the files are found by their words now and are embedded later, in the background of the Wayfinder window or `wayfinder serve`.",
		"Ollama가 임베딩에 제때 답하지 않았습니다. 파일은 지금 키워드로 찾을 수 있고, 임베딩은 나중에 Wayfinder 창이나 `wayfinder serve`가 실행되는 동안 뒤에서 합니다."},
	"kb.embedLaterHint": {"nothing to do now; if it keeps happening, restart Ollama or choose a smaller embedding model in Settings (--embed-model tries one for a run and keeps the saved model's vectors).",
		"지금 할 일은 없습니다. 계속 그러면 Ollama를 다시 시작하거나 설정에서 더 작은 임베딩 모델을 고르세요(--embed-model은 한 번 실행에 시험해 보며, 저장된 모델의 벡터는 그대로 둡니다)."},
	"kb.notImported": {"not imported: {file}: {reason}", "가져오지 못함: {file}: {reason}"},
	// The kinds named as the window's note on files left out names them
	// (knowledge.leftOutIgnored; a test holds the two lists equal).
	"kb.leftOut": {"Left out {files} of other types (Wayfinder imports PDF, Word, PowerPoint, Excel, Hancom (HWP, HWPX), OpenDocument, RTF, web pages, EPUB, Markdown, text, CSV, JSON and JSON Lines):",
		"다른 종류의 {files}는 가져오지 않았습니다(Wayfinder는 PDF, Word, PowerPoint, Excel, 한글(HWP, HWPX), OpenDocument, RTF, 웹 페이지, EPUB, 마크다운, 텍스트, CSV, JSON, JSON Lines 파일을 가져옵니다):"},
	"kb.notRead":        {"Not read from the folders: {entries} (links and what is not a file), each with why:", "폴더에서 읽지 않은 {entries}(링크, 파일이 아닌 것)와 그 까닭:"},
	"kb.couldNotImport": {"{files} could not be imported", "{files}를 가져오지 못했습니다"},
	"kb.listHeadings":   {"ID\tTITLE\tKIND\tLENGTH\tCHUNKS\tSOURCE", "ID\t제목\t종류\t분량\t청크\t출처"},
	"kb.removed":        {"removed {id} ({title})", "지웠습니다: {id} ({title})"},
	"kb.recordID":       {"id {id}", "ID {id}"},
	"kb.copies":         {"also: {paths}", "같은 파일: {paths}"},
	"kb.page":           {"p. {page}", "{page}쪽"},
	"kb.slide":          {"slide {page}", "슬라이드 {page}"},
	"kb.score":          {"score {score}", "점수 {score}"},
	"kb.noHits":         {"Nothing found for “{query}”. Try other words, or see what is imported with `wayfinder kb list`.", "“{query}”에 맞는 구절이 없습니다. 다른 낱말로 찾아보거나 `wayfinder kb list`로 가져온 문서를 확인하세요."},
	// memory's lines; the kinds and origins in the list stay as --kind
	// takes them.
	"count.memory.one":  {"1 memory", "기억 1개"},
	"count.memory.many": {"{n} memories", "기억 {n}개"},
	// memory list's KIND and FROM in the command's language: the kinds
	// as the window names them (memory.kind*), where a Korean table read
	// "fact  edited"; English keeps the words --kind takes.
	"memory.kind.preference":   {"preference", "선호"},
	"memory.kind.fact":         {"fact", "사실"},
	"memory.kind.feedback":     {"feedback", "피드백"},
	"memory.origin.said":       {"said", "기억 요청"},
	"memory.origin.reflection": {"reflection", "대화에서 앎"},
	"memory.origin.edited":     {"edited", "직접 씀"},
	"memory.listHeadings":      {"ID\tKIND\tFROM\tUPDATED\tTEXT", "ID\t종류\t출처\t고친 때\t내용"},
	"memory.remembered":        {"remembered {id}", "기억했습니다: {id}"},
	"memory.updated":           {"updated {id}", "고쳤습니다: {id}"},
	"memory.forgot":            {"forgot {id} ({text})", "잊었습니다: {id} ({text})"},
	"memory.none":              {"There are no memories to forget.", "잊을 기억이 없습니다."},
	"memory.confirmAll":        {"Forget all {memories}? This cannot be undone.", "{memories}를 모두 잊을까요? 되돌릴 수 없습니다."},
	"memory.forgotAll":         {"Forgot {memories}.", "{memories}를 잊었습니다."},
	// folders' lines: what read_file may read.
	"folders.added":        {"read_file may now read {path} ({allows})", "이제 read_file이 읽을 수 있습니다: {path} ({allows})"},
	"folders.removed":      {"read_file may no longer read {path}", "이제 read_file이 읽을 수 없습니다: {path}"},
	"folders.none":         {"read_file may read no folder. Grant one with: wayfinder folders add PATH", "read_file이 읽을 수 있는 폴더가 없습니다. 허용하려면: wayfinder folders add 경로"},
	"folders.listHeadings": {"FOLDER\tALLOWS\tGRANTED", "폴더\t허용하는 것\t허용한 때"},
	"folders.revokedImports": {"Importing documents no longer lets read_file read their folder. These folders were readable only because you had imported them, and no longer are:",
		"이제 문서를 가져와도 read_file이 그 폴더를 읽을 수 있게 되지 않습니다. 다음 폴더는 문서를 가져왔기 때문에만 읽을 수 있었고, 이제는 읽을 수 없습니다:"},
	"folders.grantAgain": {"Grant one again with `wayfinder folders add PATH`, or forget it with `wayfinder folders remove PATH`.",
		"`wayfinder folders add 경로`로 다시 허용하거나, `wayfinder folders remove 경로`로 목록에서 지우세요."},
	"folders.allowsAll":     {"files, hidden files and files that usually hold secrets", "파일, 숨김 파일, 보통 비밀을 담는 파일"},
	"folders.allowsHidden":  {"files and hidden files; not secrets", "파일과 숨김 파일, 비밀을 담는 파일은 빼고"},
	"folders.allowsSecrets": {"files and files that usually hold secrets; not hidden files", "파일과 보통 비밀을 담는 파일, 숨김 파일은 빼고"},
	"folders.allowsFiles":   {"files; not hidden files or secrets", "파일, 숨김 파일과 비밀을 담는 파일은 빼고"},
	// What several commands say: a read-only look beside an open
	// Wayfinder, a question before what cannot be undone.
	"cli.readOnly": {"(An open Wayfinder is using this data folder: showing what it has saved, read-only.)",
		"(열려 있는 Wayfinder가 이 데이터 폴더를 쓰고 있어, 저장된 내용을 읽기 전용으로 보여 줍니다.)"},
	"cli.dataDirBusy": {"another Wayfinder is using the data folder {dir} (a Wayfinder window, `wayfinder serve` or `wayfinder ask`)",
		"다른 Wayfinder(Wayfinder 창, `wayfinder serve`, `wayfinder ask`)가 데이터 폴더 {dir}을(를) 쓰고 있습니다"},
	"cli.dataDirBusy.hint": {"Close it first, or choose another folder with --data-dir.", "먼저 그것을 닫거나, --data-dir로 다른 폴더를 고르세요."},
	"cli.notTerminal": {"standard input is not a terminal, so nobody can confirm; add --yes to go ahead without asking",
		"표준 입력이 터미널이 아니어서 확인할 수 없습니다. 묻지 않고 진행하려면 --yes를 붙이세요"},
	"cli.nothingChanged": {"nothing was changed", "아무것도 바꾸지 않았습니다"},
	"cli.cancelled":      {"cancelled: nothing was changed", "취소했습니다. 아무것도 바꾸지 않았습니다"},
	// export and import of conversations.
	"count.conversation.one":  {"1 conversation", "대화 1개"},
	"count.conversation.many": {"{n} conversations", "대화 {n}개"},
	"archive.exported":        {"Exported {conversations} to {path}.", "{conversations}를 내보냈습니다: {path}"},
	"archive.imported":        {"Imported {conversations}: {parts}.", "{conversations}를 가져왔습니다: {parts}."},
	"archive.new":             {"{n} new", "새 대화 {n}개"},
	"archive.copy":            {"1 as a copy under new ids (a different conversation had the id)", "1개는 다른 대화가 같은 ID를 써서 새 ID로 복사"},
	"archive.copies":          {"{n} as copies under new ids (a different conversation had the id)", "{n}개는 다른 대화가 같은 ID를 써서 새 ID로 복사"},
	"archive.unchanged":       {"{n} already here, unchanged", "{n}개는 이미 있어 그대로"},
	// The file export writes or import reads.
	"archive.noFolder":         {"There is no folder {dir}, so {path} was not written.", "{dir} 폴더가 없어 {path}에 쓰지 못했습니다."},
	"archive.noFolder.hint":    {"Create the folder first (mkdir -p {dir}), or give -o a path in a folder that exists.", "먼저 폴더를 만들거나(mkdir -p {dir}) -o에 있는 폴더의 경로를 적으세요."},
	"archive.cannotWrite":      {"Wayfinder may not write in the folder {dir}.", "Wayfinder가 {dir} 폴더에 쓸 권한이 없습니다."},
	"archive.cannotWrite.hint": {"Give -o a path in a folder you can write to, such as your home folder.", "-o에 쓸 수 있는 폴더(예: 홈 폴더)의 경로를 적으세요."},
	"archive.replace":          {"{path} already exists. Replace it?", "{path}이(가) 이미 있습니다. 바꿔 쓸까요?"},
	"archive.outIsFolder":      {"{path} is a folder, not a file.", "{path}은(는) 파일이 아니라 폴더입니다."},
	"archive.outIsFolder.hint": {"Give -o the file to write, such as {path}/conversations.md.", "-o에 쓸 파일을 적으세요(예: {path}/conversations.md)."},
	"archive.noFile":           {"There is no file {path}.", "{path} 파일이 없습니다."},
	"archive.noFile.hint":      {"Check the path; `wayfinder export --format json -o FILE` makes a file to import.", "경로를 확인하세요. 가져올 파일은 `wayfinder export --format json -o 파일`로 만듭니다."},
	"archive.cannotRead":       {"Wayfinder may not read {path}.", "Wayfinder가 {path} 파일을 읽을 권한이 없습니다."},
	"archive.cannotRead.hint":  {"Check the file's permissions, or copy it somewhere you can read.", "파일의 권한을 확인하거나, 읽을 수 있는 곳에 복사하세요."},
	"archive.inIsFolder":       {"{path} is a folder, not a file.", "{path}은(는) 파일이 아니라 폴더입니다."},
	"archive.inIsFolder.hint":  {"Give the JSON file made by `wayfinder export --format json` that is in it.", "그 안에 있는, `wayfinder export --format json`으로 만든 JSON 파일을 적으세요."},
	// sessions: the conversations and their ids.
	"sessions.listHeadings": {"ID\tUPDATED\tMESSAGES\tTITLE", "ID\t마지막 활동\t메시지\t제목"},
	"sessions.pending":      {"(waiting for you)", "(승인 대기)"},
	"sessions.untitled":     {"Untitled conversation", "제목 없는 대화"},
	"sessions.none":         {"No conversations yet. Start one with: wayfinder ask \"…\"", "아직 대화가 없습니다. 시작하려면: wayfinder ask \"…\""},
	"sessions.noMatch":      {"No conversation matches “{query}”.", "“{query}”에 맞는 대화가 없습니다."},
	"id.short":              {"give at least {n} characters of the {thing}'s id (`{list}` shows them)", "{thing} ID를 {n}자 이상 적으세요(`{list}`가 보여 줍니다)"},
	"id.ambiguous":          {"{prefix} is the start of {count} {things}' ids:{list}", "{prefix}(으)로 시작하는 {thing} ID가 {count}개 있습니다:{list}"},
	"id.ambiguous.hint":     {"Give more characters of the id (`{list}` shows them whole).", "ID를 더 길게 적으세요(`{list}`가 전체 ID를 보여 줍니다)."},
	"id.none":               {"No {thing} has an id starting with {prefix}.", "{prefix}(으)로 시작하는 ID의 {subject} 없습니다."},
	"id.none.hint":          {"`{list}` shows them.", "`{list}`가 ID를 보여 줍니다."},
	"id.more":               {"… and {n} more", "… 외 {n}개"},
}

// things names what an id prefix picks: singular, plural, Korean, and
// Korean with its subject particle (which depends on the last syllable).
var things = map[string][4]string{
	"document":     {"document", "documents", "문서", "문서가"},
	"memory":       {"memory", "memories", "기억", "기억이"},
	"conversation": {"conversation", "conversations", "대화", "대화가"},
}

// say is a sentence of cliText (or askText, mistakeText, doctorText) in language lang with its
// blanks filled.
func say(key string, lang int, kv ...string) string {
	args := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i]] = kv[i+1]
	}
	text, ok := cliText[key]
	if !ok {
		text, ok = askText[key]
	}
	if !ok {
		text, ok = mistakeText[key]
	}
	if !ok {
		text = doctorText[key]
	}
	return fill(text[lang], args)
}

// mistakes is "N mistakes" in English; Korean counts with the number alone.
func mistakes(n, lang int) string {
	if lang == 1 {
		return strconv.Itoa(n)
	}
	return count(n, "mistake", "mistakes")
}

// counted is "1 file", "2 files" ("파일 2개", "청크 34,796개") in
// language lang: what is "count.<what>.one" or ".many" in cliText.
func counted(n, lang int, what string) string {
	if n == 1 {
		return say("count."+what+".one", lang)
	}
	return say("count."+what+".many", lang, "n", grouped(n))
}

// grouped is n with its thousands set apart by commas, "34,796", as the
// window writes a count in English and Korean alike (Intl.NumberFormat
// of en-US and ko-KR), so that the terminal and the window say the same
// number the same way.
func grouped(n int) string {
	s := strconv.Itoa(n)
	digits := strings.TrimPrefix(s, "-")
	var b strings.Builder
	b.WriteString(s[:len(s)-len(digits)])
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}
