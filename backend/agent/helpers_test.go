package agent

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"
	"go.uber.org/goleak"
	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/tools"
	"github.com/wayfinder-app/wayfinder/backend/tools/toolstest"
)

func TestMain(m *testing.M) {
	// gorm's prepared-statement cache (used by graph/sqlitesaver) starts a
	// janitor goroutine per session that nothing can stop; it is not ours.
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("gorm.io/gorm/internal/lru.NewLRU[...].func1"))
}

const testModel = "llama3.2:3b"

var leavePolicy = tools.Doc{ID: "hr-1", Title: "휴가 정책", Source: "employee-handbook.pdf", Page: 3,
	Text: "휴가 정책: 연차 15일, 병가 10일. 연차는 입사 1년 후부터 사용할 수 있습니다."}

var catalog = []tools.Doc{
	{ID: "cat-vrew", Title: "Vrew", Source: "Wayfinder AI tool catalog", Catalog: true, URL: "https://vrew.ai",
		Text: "Vrew: AI video editor with automatic Korean subtitles, short-form video editing. 자동 한국어 자막으로 세로 영상을 편집합니다. Pricing: free plan, Pro $9.99/month."},
	{ID: "cat-chatgpt", Title: "ChatGPT", Source: "Wayfinder AI tool catalog", Catalog: true, URL: "https://chatgpt.com",
		Text: "ChatGPT: writes scripts and ideas for videos in Korean and English. 한국어 대본 작성. Pricing: free, Plus $20/month."},
	{ID: "cat-canva", Title: "Canva", Source: "Wayfinder AI tool catalog", Catalog: true, URL: "https://canva.com",
		Text: "Canva: thumbnails and simple graphics for video. 썸네일 제작. Pricing: free, Pro $15/month."},
}

// env is one test's world: a fake Ollama, documents, memory and a database.
type env struct {
	t      testing.TB
	fake   *ollamatest.Server
	client *llm.Client
	docs   *toolstest.Docs
	mem    *toolstest.Memory
	dbPath string
	// inMemory keeps checkpoints in memory instead of SQLite.
	inMemory bool
	// model is the chat model agents are given (default testModel).
	model string
	// attached are the files attached to each conversation (Deps.Attached).
	attached map[string][]string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	fake := ollamatest.New(t)
	client, err := llm.New(fake.URL(), llm.WithRetry(2, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, fake: fake, client: client,
		docs:   toolstest.NewDocs(append([]tools.Doc{leavePolicy}, catalog...)...),
		mem:    &toolstest.Memory{},
		dbPath: filepath.Join(t.TempDir(), "wayfinder.db"),
	}
}

func (e *env) openDB() *gorm.DB {
	e.t.Helper()
	db, err := store.OpenDB(e.dbPath)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	})
	return db
}

// agent builds an Agent on the env's database; every call makes a new
// instance, as a new process would.
func (e *env) agent(opt Options) *Agent {
	e.t.Helper()
	return e.agentWith(opt, nil)
}

// agentWith is agent with the person's settings.
func (e *env) agentWith(opt Options, settings func() api.Settings) *Agent {
	e.t.Helper()
	reg, err := tools.Standard(nil, tools.Deps{Retriever: e.docs, Memory: e.mem,
		Clock: func() time.Time { return time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC) }, TimeZone: "Asia/Seoul"})
	if err != nil {
		e.t.Fatal(err)
	}
	deps := Deps{
		Model:     func() (Model, string) { return e.client, cmp.Or(e.model, testModel) },
		Tools:     reg,
		Retriever: e.docs,
		Memory:    e.mem,
		Settings:  settings,
		Attached:  func(_ context.Context, conversation string) []string { return e.attached[conversation] },
	}
	if !e.inMemory {
		deps.DB = e.openDB()
	}
	a, err := New(deps, opt)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { a.Close() })
	return a
}

// output records what a turn streamed and traced.
type output struct {
	mu     sync.Mutex
	text   strings.Builder
	traces []api.TraceEvent
}

func (o *output) Text(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.text.WriteString(s)
}

func (o *output) Trace(e api.TraceEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.traces = append(o.traces, e)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.text.String()
}

func (o *output) kinds(kind api.TraceKind) []api.TraceEvent {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []api.TraceEvent
	for _, e := range o.traces {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// turn runs one turn and returns its result and output, failing on error.
func turn(t *testing.T, a *Agent, tr chat.Turn) (api.TurnResult, *output) {
	t.Helper()
	out := &output{}
	res, err := a.Respond(context.Background(), tr, out)
	if err != nil {
		t.Fatalf("respond to %q: %v", tr.Text, err)
	}
	return res, out
}

// chatCalls counts the fake's /api/chat requests.
func (e *env) chatCalls() int { return e.fake.Count(ollamatest.PathChat) }

// system prompt of a recorded request: its system messages joined, as
// Ollama joins them.
func systemOf(req ollama.ChatRequest) string {
	var sys []string
	for _, m := range req.Messages {
		if m.Role == "system" {
			sys = append(sys, m.Content)
		}
	}
	return strings.Join(sys, "\n\n")
}

// promptText is every message of a recorded request, joined.
func promptText(req ollama.ChatRequest) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

func msgs(pairs ...string) []api.Message {
	var out []api.Message
	for i, c := range pairs {
		role := api.RoleUser
		if i%2 == 1 {
			role = api.RoleAssistant
		}
		out = append(out, api.Message{ID: fmt.Sprintf("m%03d", i), Role: role, Content: c, Status: api.StatusComplete})
	}
	return out
}

func toolCall(name string, args map[string]any) ollamatest.ToolCall {
	return ollamatest.ToolCall{Name: name, Args: args}
}

var (
	isRouter   = ollamatest.SystemContains(RoleRouter)
	isAnswer   = ollamatest.SystemContains(RoleAnswer)
	isPlanner  = ollamatest.SystemContains(RolePlanner)
	isScout    = ollamatest.SystemContains(RoleScout)
	isReviewer = ollamatest.SystemContains(RoleReviewer)
	isGuide    = ollamatest.SystemContains(RoleGuide)
	isMemory   = ollamatest.SystemContains(RoleMemory)
	// The summary request is backend/memory's: its transcript has this
	// header, in Korean or English.
	isSummary = func(req ollama.ChatRequest) bool {
		return ollamatest.LastUserContains("요약할 대화:")(req) || ollamatest.LastUserContains("Conversation to summarise:")(req)
	}
)
