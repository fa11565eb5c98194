package app

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// mistakeText words the command line's mistakes (exit code 2) in English
// and Korean: the sentence says what is missing or wrong in the language
// of the rest of the command's words, and the line after it where the
// usage is. The syntax it quotes (commands, flags, `wayfinder …`) stays
// as it is typed. Before, a Korean terminal read "wayfinder: unknown
// command "bogus"" over "사용법은 … 볼 수 있습니다.".
var mistakeText = map[string][2]string{
	"usage.unknownCommand": {"unknown command {command}", "알 수 없는 명령입니다: {command}"},
	"usage.unknownSub":     {"unknown {group} command {sub}: use one of {subs}", "알 수 없는 {group} 명령입니다: {sub}. {subs} 중 하나를 쓰세요"},
	"usage.askMessage":     {`give the message to send, e.g. wayfinder ask "123 * 456"`, `보낼 메시지를 적으세요. 예: wayfinder ask "123 * 456"`},
	"usage.nothingWaiting": {"no plan or tool call is waiting in this conversation: give the message to send", "이 대화에서 결정을 기다리는 계획이나 도구 호출이 없습니다. 보낼 메시지를 적으세요"},
	"usage.noArguments":    {"{command} takes no arguments, got {args}", "{command}에는 인수를 적지 않습니다. 적은 것: {args}"},
	"usage.exportArgs":     {"export takes no arguments, got {args} (use --session ID or --all)", "export에는 인수를 적지 않습니다. 적은 것: {args} (--session ID나 --all을 쓰세요)"},
	"usage.exportWhich":    {"choose one conversation with --session ID, or --all", "--session ID로 대화 하나를 고르거나 --all을 쓰세요"},
	"usage.exportExists":   {"{path} already exists: add --force to replace it, or give -o another file", "{path}이(가) 이미 있습니다. 바꿔 쓰려면 --force를 붙이고, 아니면 -o에 다른 파일을 적으세요"},
	"usage.format":         {"unknown format {format}: use md or json", "알 수 없는 형식입니다: {format}. md나 json을 쓰세요"},
	"usage.importFile":     {"give the file to import (made by wayfinder export --format json)", "가져올 파일을 적으세요(wayfinder export --format json으로 만든 파일)"},
	"usage.kbWhich":        {"give a kb command: import, list, remove, search or extract", "kb 명령을 적으세요: import, list, remove, search, extract 중 하나"},
	"usage.kbImport":       {"give the files or folders to import, e.g. wayfinder kb import ~/Documents", "가져올 파일이나 폴더를 적으세요. 예: wayfinder kb import ~/Documents"},
	"usage.kbSearch":       {`give the words to search for, e.g. wayfinder kb search "annual leave"`, `찾을 낱말을 적으세요. 예: wayfinder kb search "연차 휴가"`},
	"usage.kbRemove":       {"give one document's id, as `wayfinder kb list` shows it: wayfinder kb remove ID", "`wayfinder kb list`가 보여 주는 문서 ID를 하나 적으세요: wayfinder kb remove ID"},
	"usage.kbExtract":      {"give one file to read the text of: wayfinder kb extract FILE", "글을 읽어 낼 파일을 하나 적으세요: wayfinder kb extract FILE"},
	"usage.scope":          {"unknown search scope {scope}: use documents, catalog or all", "알 수 없는 검색 범위입니다: {scope}. documents, catalog, all 중 하나를 쓰세요"},
	"usage.notLoopback":    {"wayfinder serve listens on loopback only: use 127.0.0.1:PORT, not {addr} (another address would expose your chats to the network)", "wayfinder serve는 이 컴퓨터 안(루프백)에서만 받습니다: {addr} 대신 127.0.0.1:PORT를 쓰세요(다른 주소는 대화를 네트워크에 드러냅니다)"},
	"usage.listenAddr":     {"{addr} is not an address to listen on: use 127.0.0.1:PORT, e.g. --addr 127.0.0.1:8080", "{addr}은(는) 받을 주소가 아닙니다. 127.0.0.1:PORT 형식으로 쓰세요. 예: --addr 127.0.0.1:8080"},
	"usage.memoryWhich":    {"give a memory command: list, add, edit or rm", "memory 명령을 적으세요: list, add, edit, rm 중 하나"},
	"usage.memoryAdd":      {`give what to remember, e.g. wayfinder memory add "I prefer short answers"`, `기억할 내용을 적으세요. 예: wayfinder memory add "답은 짧게 해 주세요"`},
	"usage.memoryEdit":     {"give the memory's id and its new text: wayfinder memory edit [--kind K] ID TEXT", "기억의 ID와 새 내용을 적으세요: wayfinder memory edit [--kind K] ID TEXT"},
	"usage.memoryRm":       {"give one memory's id, as `wayfinder memory list` shows it, or --all: wayfinder memory rm ID", "`wayfinder memory list`가 보여 주는 기억 ID를 하나 적거나 --all을 쓰세요: wayfinder memory rm ID"},
	"usage.foldersWhich":   {"give a folders command: list, add or remove", "folders 명령을 적으세요: list, add, remove 중 하나"},
	"usage.foldersPath":    {"give one folder's path: wayfinder folders {command} PATH", "폴더 경로를 하나 적으세요: wayfinder folders {command} PATH"},
	// The flag package's own mistakes, read back from its English.
	"usage.unknownFlag": {"flag provided but not defined: {flag}", "없는 플래그입니다: {flag}"},
	"usage.needsValue":  {"flag needs an argument: {flag}", "플래그 {flag}에 값이 필요합니다"},
	"usage.badValue":    {"invalid value {value} for flag {flag}: {why}", "플래그 {flag}에 쓸 수 없는 값입니다: {value}"},
}

// mistake is a command-line mistake: report says it in the language the
// command speaks; Error is its English (it is errUsage too).
type mistake struct {
	key string
	kv  []string
}

// usageMistake is the mistake worded by mistakeText[key], its blanks
// filled by name, value pairs.
func usageMistake(key string, kv ...string) error { return mistake{key: key, kv: kv} }

func (m mistake) Error() string        { return errUsage.Error() + ": " + m.in(0) }
func (m mistake) Is(target error) bool { return target == errUsage }

// in is the mistake's sentence in language lang.
func (m mistake) in(lang int) string { return say(m.key, lang, m.kv...) }

// unknownSub is the mistake of a command group given a command it does
// not have: its commands by name ("list, add, remove, on, off"), where
// the sentence held the group's whole syntax, four lines at 60 columns.
func unknownSub(group, sub, usage string) error {
	var subs []string
	for _, line := range subUsages(usage) {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		for _, name := range strings.Split(fields[1], "|") {
			if !slices.Contains(subs, name) {
				subs = append(subs, name)
			}
		}
	}
	return usageMistake("usage.unknownSub", "group", group, "sub", strconv.Quote(sub), "subs", strings.Join(subs, ", "))
}

// quotedList is arguments as %q prints a []string: ["a" "b"].
func quotedList(args []string) string {
	b := []byte{'['}
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendQuote(b, a)
	}
	return string(append(b, ']'))
}

// flagMistakes are the flag package's English mistakes this command line
// words itself.
var flagMistakes = []struct {
	re  *regexp.Regexp
	key string
	// names of the submatches, in order
	names []string
}{
	{regexp.MustCompile(`^flag provided but not defined: (-\S+)$`), "usage.unknownFlag", []string{"flag"}},
	{regexp.MustCompile(`^flag needs an argument: (-\S+)$`), "usage.needsValue", []string{"flag"}},
	{regexp.MustCompile(`^invalid (?:boolean )?value (".*") for flag (-\S+): (.*)$`), "usage.badValue", []string{"value", "flag", "why"}},
}

// flagMistake is the flag package's parse error as a mistake report can
// word, or the error itself (as errUsage) when it is not one it knows.
func flagMistake(err error) error {
	for _, f := range flagMistakes {
		if m := f.re.FindStringSubmatch(err.Error()); m != nil {
			kv := make([]string, 0, 2*len(f.names))
			for i, n := range f.names {
				kv = append(kv, n, m[i+1])
			}
			return usageMistake(f.key, kv...)
		}
	}
	return fmt.Errorf("%w: %v", errUsage, err)
}
