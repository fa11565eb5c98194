package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// Every command takes its flags before, between or after its arguments,
// and "--" ends them: `kb search leave --top 2` searches for "leave".
func TestFlagsAnywhere(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	docs := t.TempDir()
	for i, text := range []string{"Annual leave is 15 days.", "Sick leave is 10 days.", "Parental leave is a year."} {
		os.WriteFile(filepath.Join(docs, string(rune('a'+i))+".md"), []byte("# Leave\n\n"+text+"\n"), 0o644)
	}
	if code, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...); code != 0 {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"kb", "search", "leave", "--top", "2", "--json"},
		{"kb", "search", "--json", "leave", "--top=2"},
		{"kb", "search", "--top", "2", "leave", "--json"},
	} {
		code, out, errOut := wayfinder(t, append(base, args...)...)
		var hits []api.SearchHit
		if code != 0 || json.Unmarshal([]byte(out), &hits) != nil || len(hits) != 2 {
			t.Fatalf("%v: exit %d, want 2 hits as JSON\n%s\n%s", args, code, out, errOut)
		}
	}
	// Flags after the message, and the global ones after the command.
	code, out, errOut := wayfinder(t, "ask", "hello", "--json", "--data-dir", base[1], "--ollama-host", fake.URL(), "--model", "llama3.2:3b")
	if code != 0 || !strings.Contains(out, `"llm_calls"`) {
		t.Fatalf("ask hello --json: %d\n%s\n%s", code, out, errOut)
	}
	// "--" ends the flags: what follows is text, however it looks.
	code, out, errOut = wayfinder(t, append(base, "memory", "add", "--kind", "preference", "--", "--json is my favourite flag")...)
	if code != 0 {
		t.Fatalf("memory add with --: %d %s %s", code, out, errOut)
	}
	if _, out, _ = wayfinder(t, append(base, "memory", "list")...); !regexp.MustCompile(`(?m)preference\s+edited\s+.*--json is my favourite flag$`).MatchString(out) {
		t.Fatalf("the text after -- was not kept as text:\n%s", out)
	}
	// A negative number is an argument, not an unknown flag.
	if code, out, errOut = wayfinder(t, append(base, "ask", "what", "is", "-5", "+", "3")...); code != 0 {
		t.Fatalf("ask with a negative number: %d %s %s", code, out, errOut)
	}
	// An unknown flag after the arguments is still a mistake.
	if code, _, errOut = wayfinder(t, append(base, "kb", "search", "leave", "--frob")...); code != 2 || !strings.Contains(errOut, "flag provided but not defined: -frob") {
		t.Fatalf("unknown flag after the query: %d %s", code, errOut)
	}
}

// A streamed reply is the whole of standard output; the session's id, to
// continue it, goes to standard error at the end.
func TestAskPrintsTheSessionOnStderr(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b"}
	code, out, errOut := wayfinder(t, append(base, "ask", "hello")...)
	if code != 0 || out != fakeReply+"\n" {
		t.Fatalf("stdout is not just the reply: %d %q %s", code, out, errOut)
	}
	m := regexp.MustCompile(`Session ([0-9a-f-]{36}) \(continue it with: wayfinder ask --session ([0-9a-f-]{36}) "…"\)`).FindStringSubmatch(errOut)
	if m == nil || m[1] != m[2] {
		t.Fatalf("no session id on stderr: %q", errOut)
	}
	if code, out, errOut = wayfinder(t, append(base, "ask", "--session", m[1], "again")...); code != 0 || !strings.Contains(errOut, m[1]) {
		t.Fatalf("the printed session does not continue: %d %s %s", code, out, errOut)
	}
}

// memory rm --all asks in a terminal (a real pseudo-terminal here), is
// refused without one unless --yes says so, and says how many it forgot.
func TestForgetEverythingAsksFirst(t *testing.T) {
	fake := ollamatest.New(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--embed-model", "bge-m3"}
	for _, m := range []string{"I prefer free tools", "I edit on a Mac"} {
		if code, _, errOut := wayfinder(t, append(base, "memory", "add", m)...); code != 0 {
			t.Fatal(errOut)
		}
	}
	left := func() int {
		_, out, _ := wayfinder(t, append(base, "memory", "list")...)
		return strings.Count(out, "\n") - 1
	}
	// No terminal, no --yes: nothing is forgotten.
	code, _, errOut := wayfinder(t, append(base, "memory", "rm", "--all")...)
	if code != 2 || !strings.Contains(errOut, "add --yes") || left() != 2 {
		t.Fatalf("rm --all from a pipe: exit %d, %d left, %s", code, left(), errOut)
	}
	rmAll := append(base[:len(base):len(base)], "memory", "rm", "--all")
	code, _, errOut = inTerminal(t, "n\n", rmAll...)
	if code != 1 || !strings.Contains(errOut, "Forget all 2 memories? This cannot be undone. [y/N]") || !strings.Contains(errOut, "nothing was changed") || left() != 2 {
		t.Fatalf("answering no: exit %d, %d left\n%s", code, left(), errOut)
	}
	code, out, errOut := inTerminal(t, "y\n", rmAll...)
	if code != 0 || !strings.Contains(out, "Forgot 2 memories.") || left() != 0 {
		t.Fatalf("answering yes: exit %d, %d left\n%s\n%s", code, left(), out, errOut)
	}
	wayfinder(t, append(base, "memory", "add", "one more")...)
	if code, out, _ = wayfinder(t, append(base, "memory", "rm", "--all", "--yes")...); code != 0 || !strings.Contains(out, "Forgot 1 memory.") || left() != 0 {
		t.Fatalf("rm --all --yes: exit %d %q", code, out)
	}
}

// Documents and memories are named by the start of their id: four
// characters or more, and only while one id starts so.
func TestIDPrefixes(t *testing.T) {
	fake := ollamatest.New(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--embed-model", "bge-m3"}
	docs := t.TempDir()
	os.WriteFile(filepath.Join(docs, "one.md"), []byte("# One\n\nThe first note.\n"), 0o644)
	os.WriteFile(filepath.Join(docs, "two.md"), []byte("# Two\n\nThe second note.\n"), 0o644)
	if code, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	_, out, _ := wayfinder(t, append(base, "kb", "list")...)
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		ids = append(ids, strings.Fields(l)[0])
	}
	if len(ids) != 2 {
		t.Fatalf("kb list:\n%s", out)
	}
	common := 0
	for common < len(ids[0]) && ids[0][common] == ids[1][common] {
		common++
	}
	if common >= 4 { // made in the same moment: the shared start names both
		code, _, errOut := wayfinder(t, append(base, "kb", "remove", ids[0][:common])...)
		if code != 1 || !strings.Contains(errOut, "is the start of 2 documents' ids") || !strings.Contains(errOut, ids[0]) || !strings.Contains(errOut, ids[1]) {
			t.Fatalf("ambiguous prefix: %d %s", code, errOut)
		}
	}
	if code, _, errOut := wayfinder(t, append(base, "kb", "remove", ids[0][:3])...); code != 2 || !strings.Contains(errOut, "at least 4 characters") {
		t.Fatalf("three characters: %d %s", code, errOut)
	}
	if code, _, errOut := wayfinder(t, append(base, "kb", "remove", "ffffffff")...); code != 1 || !strings.Contains(errOut, `No document has an id starting with "ffffffff"`) {
		t.Fatalf("unknown prefix: %d %s", code, errOut)
	}
	unique := ids[0][:common+1]
	if code, out, errOut := wayfinder(t, append(base, "kb", "remove", unique)...); code != 0 || !strings.Contains(out, "removed "+ids[0]) {
		t.Fatalf("remove %s: %d %s %s", unique, code, out, errOut)
	}
	if _, out, _ = wayfinder(t, append(base, "kb", "list")...); strings.Contains(out, ids[0]) || !strings.Contains(out, ids[1]) {
		t.Fatalf("after remove:\n%s", out)
	}

	_, out, _ = wayfinder(t, append(base, "memory", "add", "I like tea")...)
	id := strings.TrimSpace(strings.TrimPrefix(out, "remembered "))
	if code, out, errOut := wayfinder(t, append(base, "memory", "edit", id[:8], "I like green tea")...); code != 0 || !strings.Contains(out, "updated "+id) {
		t.Fatalf("memory edit by prefix: %d %s %s", code, out, errOut)
	}
	if code, out, errOut := wayfinder(t, append(base, "memory", "rm", id[:8])...); code != 0 || !strings.Contains(out, "forgot "+id+" (I like green tea)") {
		t.Fatalf("memory rm by prefix: %d %s %s", code, out, errOut)
	}
}

// A folder import names the files it left out and why, counts in words
// that agree with the numbers, and says why nothing was embedded when
// Ollama is away.
func TestImportSaysWhatItDid(t *testing.T) {
	docs := t.TempDir()
	os.WriteFile(filepath.Join(docs, "notes.md"), []byte("# Notes\n\nOne small note.\n"), 0o644)
	os.WriteFile(filepath.Join(docs, "todo.md"), []byte("# To do\n\nWater the plants.\n"), 0o644)
	os.WriteFile(filepath.Join(docs, "photo.png"), []byte("\x89PNG\r\n"), 0o644)
	os.WriteFile(filepath.Join(docs, "report.doc"), []byte("PK"), 0o644)
	os.WriteFile(filepath.Join(docs, ".hidden.md"), []byte("# Hidden\n"), 0o644)
	// A binary HWP 5.0 file is read, not left out.
	os.WriteFile(filepath.Join(docs, "공지.hwp"), hwptest.File(hwptest.Compressed, nil, hwptest.Para(0, 0, 0, hwptest.UTF16("회의는 목요일 3시입니다."))), 0o644)

	down := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "--embed-model", "bge-m3"}
	code, out, errOut := wayfinder(t, append(down, "kb", "import", docs)...)
	for _, want := range []string{
		"notes.md: 1 chunk, 0 embedded\n",
		"  not embedded: Wayfinder cannot reach Ollama at http://127.0.0.1:1.\n",
		"Keyword search finds them now",
		"todo.md: 1 chunk, 0 embedded\n",
		"공지.hwp: 1 chunk, 0 embedded\n",
		"Imported 3 files (3 documents, 3 chunks); 0 unchanged, 0 failed.\n",
		"Left out 2 files of other types (Wayfinder imports PDF, Word, PowerPoint, Excel, Hancom (HWP, HWPX), OpenDocument, RTF, web pages, EPUB, Markdown, text, CSV, JSON and JSON Lines):\n  " + filepath.Join(docs, "photo.png") + "\n  " + filepath.Join(docs, "report.doc") +
			": Wayfinder reads Word's .docx files, not the older .doc format: open it in Word or LibreOffice, save it as .docx (or PDF), then add that.\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("import with Ollama down: exit %d, want %q in\n%s\n%s", code, want, out, errOut)
		}
	}
	// Ollama being away is said once for the folder, not after each file.
	if n := strings.Count(out, "not embedded:"); n != 1 {
		t.Errorf("why nothing was embedded is said %d times, want once:\n%s", n, out)
	}
	if strings.Contains(out, ".hidden.md") {
		t.Errorf("hidden files are not news:\n%s", out)
	}
	// Keyword search finds it all the same.
	if code, out, _ = wayfinder(t, append(down, "kb", "search", "small note")...); code != 0 || !strings.Contains(out, "notes.md") {
		t.Fatalf("search with Ollama down: %d\n%s", code, out)
	}
}

// doctor counts problems in words that agree with the number.
func TestDoctorCountsInWords(t *testing.T) {
	fake := ollamatest.New(t)
	code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "nomic-embed-text", "doctor")
	if code != 1 || !strings.Contains(errOut, "wayfinder: 1 problem found") {
		t.Fatalf("doctor: %d\n%s\n%s", code, out, errOut)
	}
}

// doctor with several Ollama hosts prints each one's state: up with its
// models, or down with the error and when it is tried again.
func TestDoctorShowsEachHost(t *testing.T) {
	up := ollamatest.New(t)
	gone := ollamatest.New(t)
	goneURL := gone.URL()
	gone.Close()
	code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", up.URL()+","+goneURL,
		"--model", "llama3.2:3b", "--embed-model", "bge-m3", "doctor")
	if code != 1 || !strings.Contains(errOut, "wayfinder: 1 problem found") {
		t.Fatalf("doctor: %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"✓ Ollama host " + up.URL() + " is up (models: llama3.2:3b, bge-m3:latest)",
		"✗ Ollama host " + goneURL + " is down since ",
		"calls go to the other hosts, and it is tried again from ",
		"✓ The chat model llama3.2:3b is ready",
	} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("doctor lacks %q:\n%s\n%s", want, out, errOut)
		}
	}
}

// doctor with every Ollama host down says so once, plainly, and what to
// do; no host is said to hand its calls to the others.
func TestDoctorWithNoHostUp(t *testing.T) {
	var urls []string
	for range 2 {
		gone := ollamatest.New(t)
		urls = append(urls, gone.URL())
		gone.Close()
	}
	code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", strings.Join(urls, ","),
		"--model", "llama3.2:3b", "--embed-model", "bge-m3", "doctor")
	if code != 1 || !strings.Contains(errOut, "wayfinder: 1 problem found") {
		t.Fatalf("doctor: %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"✗ No Ollama host answers (2 addresses set):\n    " + urls[0] + ": list: ollama is not reachable: ",
		"\n    " + urls[1] + ": list: ollama is not reachable: ",
		"connection refused",
		"fix: start Ollama on each of them (`ollama serve`",
		"check the addresses in --ollama-host or OLLAMA_HOST",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "other hosts") || strings.Count(out, "✗") != 1 {
		t.Errorf("doctor says more than one thing is wrong, or that other hosts take the calls:\n%s", out)
	}
}

// serve on a port in use says so, and how to pick another, instead of
// calling it a usage mistake, in the language of the command line (the
// setting, else the system's, as `ask`'s progress lines).
func TestServeOnABusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	for _, tc := range []struct{ lang, said, hint string }{
		{"en_US.UTF-8", "The address " + addr + " is in use", "or --addr 127.0.0.1:0 for a free one. If it is a Wayfinder"},
		{"ko_KR.UTF-8", "주소 " + addr + particle(addr, "은(는)") + " 이미 쓰이고 있습니다", "--addr 127.0.0.1:0으로 비어 있는 포트를 쓰세요"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			code, _, errOut := wayfinder(t, "--data-dir", t.TempDir(), "serve", "--addr", addr)
			if code != 1 || !strings.Contains(errOut, tc.said) || !strings.Contains(errOut, tc.hint) || strings.Contains(errOut, "usage") {
				t.Fatalf("serve on a busy port: exit %d\n%s", code, errOut)
			}
		})
	}
}

// An id prefix that names several items lists them and asks for more of
// the id; one that names none says so; both in English and Korean.
func TestIDPrefixInBothLanguages(t *testing.T) {
	items := []string{"0190aaaa-1111", "0190aaaa-2222", "0190bbbb-3333"}
	key := func(s string) (string, string) { return s, "title of " + s[len(s)-4:] }
	for _, tc := range []struct {
		lang, prefix string
		code         api.ErrorCode
		msg, hint    string
	}{
		{"en", "0190aaaa", api.ErrInvalidInput, "\"0190aaaa\" is the start of 2 memories' ids:\n  0190aaaa-1111  title of 1111\n  0190aaaa-2222  title of 2222", "Give more characters of the id (`wayfinder memory list` shows them whole)."},
		{"ko", "0190aaaa", api.ErrInvalidInput, "\"0190aaaa\"로 시작하는 기억 ID가 2개 있습니다:\n  0190aaaa-1111  title of 1111", "ID를 더 길게 적으세요(`wayfinder memory list`가 전체 ID를 보여 줍니다)."},
		{"en", "0190ffff", api.ErrNotFound, "No memory has an id starting with \"0190ffff\".", "`wayfinder memory list` shows them."},
		{"ko", "0190ffff", api.ErrNotFound, "\"0190ffff\"로 시작하는 ID의 기억이 없습니다.", "`wayfinder memory list`가 ID를 보여 줍니다."},
	} {
		t.Run(tc.lang+" "+tc.prefix, func(t *testing.T) {
			_, err := byIDPrefix(tc.lang, "memory", "wayfinder memory list", tc.prefix, items, key)
			info := describe(err)
			if info.Code != tc.code || !strings.HasPrefix(info.Message, tc.msg) || info.Hint != tc.hint {
				t.Fatalf("got %s %q (hint %q)\nwant %s %q (hint %q)", info.Code, info.Message, info.Hint, tc.code, tc.msg, tc.hint)
			}
		})
	}
	if got, err := byIDPrefix("ko", "memory", "x", "0190bb", items, key); err != nil || got != items[2] {
		t.Fatalf("a unique prefix: %q %v", got, err)
	}
}

// Short commands end without the knowledge base's start-up complaining
// that it was cut short, and say nothing of the data folder's upkeep
// (the database given back its space, the memories' vectors switched to
// another embedding model for one run) unless asked with -v: every part
// logs to the command's own logger, none to the process's default one.
func TestShortCommandsAreQuiet(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithModels(append(ollamatest.DefaultModels(),
		ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}, ContextLength: 2048})...))
	var logged bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	dir := t.TempDir()
	for _, args := range [][]string{{"memory", "list"}, {"memory", "add", "x y z"}, {"memory", "list"}, {"kb", "list"}, {"doctor"}} {
		for _, embed := range []string{"bge-m3", "nomic-embed-text", "bge-m3"} {
			base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", embed}
			if code, out, errOut := wayfinder(t, append(base, args...)...); code != 0 || errOut != "" {
				t.Fatalf("%v with %s: exit %d, stderr %q (stdout %q)", args, embed, code, errOut, out)
			}
		}
	}
	if logged.Len() > 0 {
		t.Fatalf("logged past the commands' own loggers:\n%s", logged.String())
	}
}

// The commands that only read work beside the open app, even while it
// imports, and change nothing; the others are still turned away.
func TestReadingBesideTheApp(t *testing.T) {
	ctx := context.Background()
	fake := ollamatest.New(t)
	dir := t.TempDir()
	g := globals{dataDir: dir, ollamaHost: fake.URL(), model: "llama3.2:3b", embedModel: "bge-m3"}
	// As the window, less its background embedding of the catalog, which
	// would change the vector file while the test compares it.
	a, err := openApp(ctx, g, "cli", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	docs := t.TempDir()
	os.WriteFile(filepath.Join(docs, "leave.md"), []byte("# 휴가 정책\n\n연차는 15일입니다.\n"), 0o644)
	if rep := a.library.importPaths(ctx, "1", []string{docs}, func(api.ImportProgress) {}); len(rep.Imported) != 1 {
		t.Fatalf("import in the app: %+v", rep)
	}
	if _, err := (&MemoryService{a}).Add("무료 도구를 선호한다", api.MemoryPreference); err != nil {
		t.Fatal(err)
	}
	files := func() map[string]fileState { return dataFiles(t, dir) }
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--embed-model", "bge-m3"}
	note := "(An open Wayfinder is using this data folder: showing what it has saved, read-only.)\n"
	reads := []struct {
		args []string
		want string
	}{
		{[]string{"kb", "list"}, "leave.md"},
		{[]string{"kb", "search", "휴가를"}, "연차는 15일"},
		{[]string{"kb", "search", "--json", "연차"}, `"source": "` + filepath.Join(docs, "leave.md")},
		{[]string{"memory", "list"}, "무료 도구를 선호한다"},
	}
	// read runs each reader; still (the app writes nothing meanwhile) checks
	// after each that the data folder is as it was, and says which command
	// changed which file how.
	read := func(still bool) {
		t.Helper()
		var before map[string]fileState
		if still {
			before = files()
		}
		for _, c := range reads {
			code, out, errOut := wayfinder(t, append(base, c.args...)...)
			if code != 0 || !strings.Contains(out, c.want) || errOut != note {
				t.Fatalf("%v beside the app: exit %d\nstdout: %s\nstderr: %q", c.args, code, out, errOut)
			}
			if !still {
				continue
			}
			if diff := cmp.Diff(before, files()); diff != "" {
				t.Fatalf("%v beside the app changed the data folder (-before +after):\n%s", c.args, diff)
			}
		}
	}
	read(true)

	// More files arrive in the app while the commands read.
	more := t.TempDir()
	for i := range 30 {
		os.WriteFile(filepath.Join(more, fmt.Sprintf("note%02d.md", i)), []byte(fmt.Sprintf("# Note %d\n\n휴가 메모 %d번입니다.\n", i, i)), 0o644)
	}
	imported := make(chan api.ImportReport, 1)
	go func() { imported <- a.library.importPaths(ctx, "2", []string{more}, func(api.ImportProgress) {}) }()
	read(false)
	if rep := <-imported; len(rep.Imported) != 30 {
		t.Fatalf("the app's import beside the readers: %+v", rep)
	}
	// What the app committed since is what the next reader sees.
	if code, out, _ := wayfinder(t, append(base, "kb", "list")...); code != 0 || !strings.Contains(out, "note29.md") {
		t.Fatalf("kb list after the app's import:\n%s", out)
	}
	for _, args := range [][]string{{"kb", "import", docs}, {"kb", "remove", "abcd"}, {"memory", "rm", "--all", "--yes"}, {"ask", "hi"}} {
		if code, _, errOut := wayfinder(t, append(base, args...)...); code != 1 || !strings.Contains(errOut, "another Wayfinder is using the data folder") {
			t.Fatalf("%v beside the app: exit %d %s", args, code, errOut)
		}
	}
	if ms, _ := (&MemoryService{a}).List(); len(ms) != 1 {
		t.Fatalf("memories after the readers: %+v", ms)
	}
}

// fileState is what TestReadingBesideTheApp compares of a file: a change
// of any is a write, and the failure shows which and how.
type fileState struct {
	Size    int64
	Mode    fs.FileMode
	ModTime string // with nanoseconds: two writes within a second differ
	SHA256  string
}

// dataFiles is every file under dir, by its path inside dir, but
// SQLite's shared-memory index, which readers of a WAL database use too.
func dataFiles(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, "-shm") {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone since the folder was listed: not there
		}
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = fileState{info.Size(), info.Mode(), info.ModTime().Format(time.RFC3339Nano), fmt.Sprintf("%x", sha256.Sum256(data))}
		return nil
	})
	if err != nil {
		t.Fatalf("read the data folder: %v", err)
	}
	return out
}

// doctor tells a host that hangs from one where nothing listens, with a
// fix for each, and keeps the error itself.
func TestDoctorHostsSaysWhyEachIsDown(t *testing.T) {
	at := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	hosts := []api.HostStatus{
		{URL: "http://gpu1:11434", Up: true, Models: []string{"qwen3:4b"}},
		{URL: "http://gpu2:11434", DownSince: at, RetryAt: at, Code: api.ErrOllamaUnreachable, Error: "list: ollama is not reachable: connection refused"},
		{URL: "http://gpu3:11434", DownSince: at, RetryAt: at, Code: api.ErrTimeout, Error: "list: ollama is not reachable: connected, but no answer within 2s"},
	}
	type problem struct{ msg, fix string }
	var bads []problem
	doctorHosts(hosts, 0, func(string, ...string) {}, func(msg, fix string) { bads = append(bads, problem{msg, fix}) })
	if len(bads) != 2 {
		t.Fatalf("problems %+v", bads)
	}
	if !strings.Contains(bads[0].msg, "nothing listens at this address: list: ollama is not reachable: connection refused") || !strings.Contains(bads[0].fix, "ollama serve") {
		t.Errorf("refused: %+v", bads[0])
	}
	if !strings.Contains(bads[1].msg, "takes the connection but does not answer in time: list: ollama is not reachable: connected, but no answer within 2s") || !strings.Contains(bads[1].fix, "restart it there") {
		t.Errorf("hangs: %+v", bads[1])
	}
}
