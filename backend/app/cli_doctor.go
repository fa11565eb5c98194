package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
	"github.com/wayfinder-app/wayfinder/backend/settings"
	"github.com/wayfinder-app/wayfinder/backend/zim"
)

// doctorText holds what `wayfinder doctor` says, in English and Korean
// (say finds it beside cliText): each check as ✓ or ✗ with what to do.
// Commands, flags and the system's own errors stay as they are.
var doctorText = map[string][2]string{
	"doctor.fix":            {"fix: {fix}", "고치려면: {fix}"},
	"doctor.found":          {"{problems} found", "{problems}를 찾았습니다"},
	"count.problem.one":     {"1 problem", "문제 1개"},
	"count.problem.many":    {"{n} problems", "문제 {n}개"},
	"count.tool.one":        {"1 tool", "도구 1개"},
	"count.tool.many":       {"{n} tools", "도구 {n}개"},
	"count.address.one":     {"1 address", "주소 1개"},
	"count.address.many":    {"{n} addresses", "주소 {n}개"},
	"doctor.dataDirBad":     {"Data folder: {error}", "데이터 폴더: {error}"},
	"doctor.dataDirBad.fix": {"choose a folder you can write to with --data-dir or WAYFINDER_DATA_DIR", "--data-dir나 WAYFINDER_DATA_DIR로 쓸 수 있는 폴더를 고르세요"},
	"doctor.dataDirOK":      {"Data folder {dir} is writable", "데이터 폴더 {dir}에 쓸 수 있습니다"},
	"doctor.dataDirBusy": {"Data folder {dir} is in use by an open Wayfinder; its settings were read without changing anything",
		"데이터 폴더 {dir}은(는) 열려 있는 Wayfinder가 쓰고 있어, 아무것도 바꾸지 않고 설정만 읽었습니다"},
	"doctor.noHost": {"No Ollama host answers ({addresses} set):", "Ollama 호스트가 하나도 응답하지 않습니다({addresses} 설정됨):"},
	"doctor.noHost.fix": {"start Ollama on each of them (`ollama serve`, or the Ollama app; install it from https://ollama.com/download), and check the addresses in --ollama-host or OLLAMA_HOST",
		"각 컴퓨터에서 Ollama를 실행하고(`ollama serve` 또는 Ollama 앱, 설치는 https://ollama.com/download), --ollama-host나 OLLAMA_HOST의 주소를 확인하세요"},
	"doctor.ollamaDown": {"Ollama does not answer at {host}: {error}", "{host}의 Ollama가 응답하지 않습니다: {error}"},
	"doctor.ollamaDown.fix": {"start it with `ollama serve` (install it from https://ollama.com/download), or point --ollama-host at it",
		"`ollama serve`로 실행하거나(설치는 https://ollama.com/download), --ollama-host가 그 주소를 가리키게 하세요"},
	"doctor.ollamaUp":       {"Ollama {version} answers at {host}", "{host}의 Ollama {version}이(가) 응답합니다"},
	"doctor.role.chat":      {"chat", "대화"},
	"doctor.role.embedding": {"embedding", "임베딩"},
	"doctor.modelMissing":   {"The {role} model {name} is not downloaded", "{role} 모델 {name}을(를) 내려받지 않았습니다"},
	"doctor.modelLacks":     {"The {role} model {name} lacks the {need} capability (it has: {has})", "{role} 모델 {name}에는 {need} 기능이 없습니다(있는 기능: {has})"},
	"doctor.modelLacks.fix": {"choose another {role} model with --{flag}", "--{flag}로 다른 {role} 모델을 고르세요"},
	"doctor.modelReady":     {"The {role} model {name} is ready ({has})", "{role} 모델 {name}이(가) 준비되었습니다({has})"},
	"doctor.ready":          {"Everything is ready.", "모두 준비되었습니다."},
	"doctor.mcpFile.fix":    {"fix the file, or remove it and add the servers again with `wayfinder mcp add`", "파일을 고치거나, 지우고 `wayfinder mcp add`로 서버를 다시 추가하세요"},
	"doctor.mcpOff":         {"MCP server {name} is switched off", "MCP 서버 {name}은(는) 꺼져 있습니다"},
	"doctor.mcpFailed":      {"MCP server {name} did not start: {error}", "MCP 서버 {name}이(가) 시작하지 않았습니다: {error}"},
	"doctor.mcpFailed.fix": {"check its command in {path} (`wayfinder mcp list`), or switch it off with `wayfinder mcp off {name}`",
		"{path}에서 명령을 확인하거나(`wayfinder mcp list`), `wayfinder mcp off {name}`으로 끄세요"},
	"doctor.mcpReady": {"MCP server {name} is ready ({tools})", "MCP 서버 {name}이(가) 준비되었습니다({tools})"},
	"doctor.zimBad":   {"search_wikipedia cannot read its ZIM file {file}: {error}", "search_wikipedia가 ZIM 파일 {file}을(를) 읽을 수 없습니다: {error}"},
	"doctor.zimBad.fix": {"run with --wikipedia-zim FILE set to another ZIM file (Kiwix offers them)",
		"--wikipedia-zim 파일로 다른 ZIM 파일을 지정해 실행하세요(Kiwix에서 받을 수 있습니다)"},
	"doctor.zimOK": {"search_wikipedia reads the ZIM file {file} ({n} entries)", "search_wikipedia가 ZIM 파일 {file}을(를) 읽습니다(항목 {n}개)"},
	"doctor.wikiOnline": {"search_wikipedia may ask Wikipedia online (MediaWiki API) for what the file lacks",
		"search_wikipedia는 파일에 없는 내용을 온라인 위키백과(MediaWiki API)에 물을 수 있습니다"},
	"doctor.noModels": {"no models", "모델 없음"},
	"doctor.models":   {"models: {models}", "모델: {models}"},
	"doctor.hostUp":   {"Ollama host {url} is up ({models})", "Ollama 호스트 {url}이(가) 응답합니다({models})"},
	"doctor.hostDown": {"Ollama host {url} is down since {since}: {why}{error}; calls go to the other hosts, and it is tried again from {retry}",
		"Ollama 호스트 {url}이(가) {since}부터 응답하지 않습니다: {why}{error}. 호출은 다른 호스트로 가고, {retry}부터 다시 시도합니다"},
	"doctor.hostDown.fix": {"start `ollama serve` there, or remove it from the hosts in --ollama-host or OLLAMA_HOST",
		"그 컴퓨터에서 `ollama serve`를 실행하거나, --ollama-host나 OLLAMA_HOST의 호스트 목록에서 지우세요"},
	"doctor.hostStuck": {"Ollama there takes the connection but does not answer in time:", "그곳의 Ollama가 연결은 받지만 제때 응답하지 않습니다:"},
	"doctor.hostStuck.fix": {"Ollama there may be stuck or overloaded: restart it there, or remove it from the hosts in --ollama-host or OLLAMA_HOST",
		"그곳의 Ollama가 멈췄거나 과부하일 수 있습니다. 그 컴퓨터에서 다시 시작하거나, --ollama-host나 OLLAMA_HOST의 호스트 목록에서 지우세요"},
	"doctor.hostNothing": {"nothing listens at this address:", "이 주소에서 기다리는 프로그램이 없습니다:"},
}

func runDoctor(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("doctor", "doctor", &g, s)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMistake("usage.noArguments", "command", "doctor", "args", quotedList(fs.Args()))
	}
	// lang: the data folder's Language setting (read without opening
	// it), else the system's, as report's words.
	lang := langIndex(cliLanguage(settingsLanguage(ctx, g)))
	problems := 0
	// Each check on a terminal is wrapped to its width (sayLine), the
	// lines under a problem (its hosts, its fix) indented deeper.
	ok := func(key string, kv ...string) { sayLine(s.out, "✓ ", "  ", say(key, lang, kv...)) }
	bad := func(msg, fix string) {
		problems++
		for i, line := range strings.Split(msg, "\n") {
			if i == 0 {
				sayLine(s.out, "✗ ", "  ", line)
			} else {
				sayLine(s.out, "    ", "      ", strings.TrimSpace(line))
			}
		}
		sayLine(s.out, "    ", "      ", say("doctor.fix", lang, "fix", fix))
	}
	found := func() error {
		return errors.New(say("doctor.found", lang, "problems", counted(problems, lang, "problem")))
	}

	dir, err := g.resolvedDataDir()
	if err == nil {
		err = checkWritable(dir)
	}
	if err != nil {
		bad(say("doctor.dataDirBad", lang, "error", err.Error()), say("doctor.dataDirBad.fix", lang))
		return found()
	}
	ok("doctor.dataDirOK", "dir", dir)

	logger := cliLogger(s, g.verbose)
	var cfg api.Settings
	a, err := openApp(ctx, g, "doctor", logger)
	switch {
	case errors.Is(err, errDataDirBusy):
		// People run doctor when the open app misbehaves: check what it
		// uses without opening the folder it owns.
		if cfg, err = readSettings(ctx, g, dir); err != nil {
			return err
		}
		if err := checkWorkflowFile(g.workflow); err != nil {
			return err
		}
		ok("doctor.dataDirBusy", "dir", dir)
	case err != nil:
		return err
	default:
		defer a.Close()
		cfg = a.settings.Current()
	}
	lang = langIndex(cliLanguage(cfg.Language))
	doctorMCP(ctx, dir, lang, logger, ok, bad)
	doctorWikipedia(cfg, lang, ok, bad)
	models, err := newModelClient(cfg, logger, nil)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st := settings.CheckStatus(cctx, models, cfg, describe)
	if !st.Reachable && noHostUp(st.Hosts) {
		bad(noHostAnswers(st.Hosts, lang), say("doctor.noHost.fix", lang))
		return found()
	}
	if !st.Reachable {
		doctorHosts(st.Hosts, lang, ok, bad)
		why := ""
		if st.Error != nil {
			why, _ = errorWords(*st.Error, lang)
		}
		bad(say("doctor.ollamaDown", lang, "host", cfg.OllamaHost, "error", why), say("doctor.ollamaDown.fix", lang))
		return found()
	}
	ok("doctor.ollamaUp", "version", st.Version, "host", cfg.OllamaHost)
	doctorHosts(st.Hosts, lang, ok, bad)
	checkModel := func(role string, m api.ModelState, need string) {
		r := say("doctor.role."+role, lang)
		switch {
		case !m.Installed:
			bad(say("doctor.modelMissing", lang, "role", r, "name", m.Name), "ollama pull "+m.Name)
		case !slices.Contains(m.Capabilities, need):
			bad(say("doctor.modelLacks", lang, "role", r, "name", m.Name, "need", strconv.Quote(need), "has", strings.Join(m.Capabilities, ", ")),
				say("doctor.modelLacks.fix", lang, "role", r, "flag", map[string]string{"chat": "model", "embedding": "embed-model"}[role]))
		default:
			ok("doctor.modelReady", "role", r, "name", m.Name, "has", strings.Join(m.Capabilities, ", "))
		}
	}
	checkModel("chat", st.ChatModel, "tools")
	checkModel("embedding", st.EmbedModel, "embedding")
	if problems > 0 {
		return found()
	}
	sayLine(s.out, "", "  ", say("doctor.ready", lang))
	return nil
}

// doctorMCP checks the MCP servers of mcp.json: each enabled one is
// started and its tools listed; one that fails shows its standard error.
// Each mistake in the file is a problem of its own, worded in the
// person's language (lang, an index of the texts) with what to do; the servers that are right
// are checked all the same. Like the other checks it reports through ok
// and bad, which count.
func doctorMCP(ctx context.Context, dir string, lang int, logger *slog.Logger, ok func(string, ...string), bad func(msg, fix string)) {
	m := mcp.New(dir, mcp.Options{Logger: logger})
	defer m.Close()
	path := filepath.Join(dir, mcp.FileName)
	if err := m.Err(); err != nil {
		if whole, isFile := wholeFileProblem(err); !isFile {
			bad(err.Error(), say("doctor.mcpFile.fix", lang))
			return
		} else if whole != nil {
			text, hint := mcpProblemLine(*whole, lang)
			bad(path+": "+text, hint)
			return
		}
	}
	for _, srv := range m.Status(ctx, true) {
		switch srv.State {
		case api.MCPOff:
			ok("doctor.mcpOff", "name", srv.Name)
		case api.MCPInvalid:
			for _, p := range srv.Problems {
				text, hint := mcpProblemLine(p, lang)
				bad(path+": "+text, hint)
			}
		case api.MCPFailed:
			msg := say("doctor.mcpFailed", lang, "name", srv.Name, "error", srv.Error)
			if srv.Stderr != "" {
				msg += "\n    " + say("mcp.stderr", lang) + "\n      " + strings.ReplaceAll(srv.Stderr, "\n", "\n      ")
			}
			bad(msg, say("doctor.mcpFailed.fix", lang, "path", filepath.Join(dir, mcp.FileName), "name", srv.Name))
		default:
			ok("doctor.mcpReady", "name", srv.Name, "tools", counted(len(srv.Tools), lang, "tool"))
		}
	}
}

// doctorWikipedia checks search_wikipedia's ZIM file when the tool is on:
// a file moved, deleted or damaged since it was chosen shows here rather
// than at the model's first call.
func doctorWikipedia(cfg api.Settings, lang int, ok func(string, ...string), bad func(msg, fix string)) {
	if !cfg.WikipediaEnabled {
		return
	}
	if cfg.WikipediaZIM != "" {
		if a, err := zim.Open(cfg.WikipediaZIM); err != nil {
			bad(say("doctor.zimBad", lang, "file", cfg.WikipediaZIM, "error", err.Error()), say("doctor.zimBad.fix", lang))
		} else {
			ok("doctor.zimOK", "file", cfg.WikipediaZIM, "n", strconv.Itoa(int(a.EntryCount())))
			a.Close()
		}
	}
	if cfg.WikipediaOnline {
		ok("doctor.wikiOnline")
	}
}

// noHostUp says whether several Ollama hosts are set and none answers.
func noHostUp(hosts []api.HostStatus) bool {
	return len(hosts) > 1 && !slices.ContainsFunc(hosts, func(h api.HostStatus) bool { return h.Up })
}

// noHostAnswers says that no host of several answers, one problem, with
// each one's error under it: "calls go to the other hosts" would be false.
func noHostAnswers(hosts []api.HostStatus, lang int) string {
	var b strings.Builder
	b.WriteString(say("doctor.noHost", lang, "addresses", counted(len(hosts), lang, "address")))
	for _, h := range hosts {
		fmt.Fprintf(&b, "\n    %s: %s", h.URL, h.Error)
	}
	return b.String()
}

// doctorHosts prints the state of each Ollama host when several are set;
// a host that is down is a problem (bad counts it).
func doctorHosts(hosts []api.HostStatus, lang int, ok func(string, ...string), bad func(msg, fix string)) {
	for _, h := range hosts {
		models := say("doctor.noModels", lang)
		if len(h.Models) > 0 {
			models = say("doctor.models", lang, "models", strings.Join(h.Models, ", "))
		}
		if h.Up {
			ok("doctor.hostUp", "url", h.URL, "models", models)
			continue
		}
		why, fix := "", say("doctor.hostDown.fix", lang)
		switch h.Code {
		case api.ErrTimeout:
			why = say("doctor.hostStuck", lang) + " "
			fix = say("doctor.hostStuck.fix", lang)
		case api.ErrOllamaUnreachable:
			why = say("doctor.hostNothing", lang) + " "
		}
		bad(say("doctor.hostDown", lang, "url", h.URL, "since", h.DownSince.Local().Format("15:04:05"), "why", why, "error", h.Error,
			"retry", h.RetryAt.Local().Format("15:04:05")), fix)
	}
}
