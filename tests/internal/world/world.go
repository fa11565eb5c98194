// Package world builds what the black-box tests under tests/ run against: a
// fake Ollama scripted for every model-calling role of the agent graph, and a
// Wayfinder backend (store, tools, agent, chat service) wired the way
// backend/app/app.go wires it, but inside the test process so that a test
// can swap the HTTP client, the data directory or the fake.
//
// The roles are recognised by the first line of their system prompts (see
// backend/agent/prompts.go); if a prompt changes, the scripted fakes stop
// matching and the tests fail loudly rather than pass on default replies.
package world

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/settings"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/tools"
	"github.com/wayfinder-app/wayfinder/backend/tools/toolstest"
)

// Model is the chat model every world uses; the fake has it installed.
const Model = "llama3.2:3b"

// The roles of the agent graph that call a model, by the opening of their
// system prompts.
const (
	RoleAnswer   = agent.RoleAnswer
	RoleRouter   = agent.RoleRouter
	RolePlanner  = agent.RolePlanner
	RoleScout    = agent.RoleScout
	RoleReviewer = agent.RoleReviewer
	RoleGuide    = agent.RoleGuide
	RoleMemory   = agent.RoleMemory
)

// Matchers for the roles.
var (
	IsAnswer   = ollamatest.SystemContains(RoleAnswer)
	IsRouter   = ollamatest.SystemContains(RoleRouter)
	IsPlanner  = ollamatest.SystemContains(RolePlanner)
	IsScout    = ollamatest.SystemContains(RoleScout)
	IsReviewer = ollamatest.SystemContains(RoleReviewer)
	IsGuide    = ollamatest.SystemContains(RoleGuide)
	IsMemory   = ollamatest.SystemContains(RoleMemory)
	// IsSummary is backend/memory's summarising call, in Korean or English.
	IsSummary = func(req ollama.ChatRequest) bool {
		return ollamatest.LastUserContains("요약할 대화:")(req) || ollamatest.LastUserContains("Conversation to summarise:")(req)
	}
)

// ComplexTask is the seed 004 task every complex scenario sends.
const ComplexTask = "카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어"

// Plan is the planner's answer for ComplexTask.
var Plan = map[string]any{"sub_tasks": []map[string]string{
	{"id": "s1", "title": "대본 작성", "detail": "30초 분량의 카페 소개 대본"},
	{"id": "s2", "title": "영상 편집", "detail": "촬영본을 세로 영상으로 편집"},
	{"id": "s3", "title": "썸네일 제작", "detail": "눈에 띄는 썸네일"},
}}

var subTaskRe = regexp.MustCompile(`Sub-task (s\d+)`)

var picks = map[string]map[string]any{
	"s1": {"sufficient": true, "tool": "ChatGPT", "why": "한국어 대본", "url": "https://chatgpt.com", "pricing": "free, Plus $20/month", "alternatives": []string{}},
	"s2": {"sufficient": true, "tool": "Vrew", "why": "자동 한국어 자막", "url": "https://vrew.ai", "pricing": "free plan, Pro $9.99/month", "alternatives": []string{"CapCut"}},
	"s3": {"sufficient": true, "tool": "Canva", "why": "썸네일 템플릿", "url": "https://canva.com", "pricing": "free", "alternatives": []string{}},
}

// Pace slows the fake's replies so that a turn takes a while (crash tests);
// zero values answer at once.
type Pace struct {
	ChunkDelay time.Duration
}

// ScriptComplex scripts every role of the complex path: the router says
// complex for ComplexTask, the planner proposes Plan, the scout searches
// once per sub-task, the reviewer picks a tool, the guide streams a cited
// guide, the memory keeper writes one memory, and the answer role answers
// simple questions.
func ScriptComplex(fake *ollamatest.Server, p Pace) {
	for _, role := range Roles {
		fake.OnFunc(Matcher(role), func(req ollama.ChatRequest) ollamatest.Reply { return Respond(role, req, p) })
	}
}

// Roles lists the roles that call a model, in the order a turn reaches them.
var Roles = []string{RoleRouter, RoleAnswer, RolePlanner, RoleScout, RoleReviewer, RoleGuide, RoleMemory}

// Matcher selects the requests of one role.
func Matcher(role string) ollamatest.Matcher { return ollamatest.SystemContains(role) }

// Respond is the well-behaved model's reply to req in role.
func Respond(role string, req ollama.ChatRequest, p Pace) ollamatest.Reply {
	switch role {
	case RoleRouter:
		return Route(req)
	case RolePlanner:
		return ollamatest.Reply{JSON: Plan, ChunkDelay: p.ChunkDelay}
	case RoleScout:
		if last(req).Role == "tool" {
			return ollamatest.Reply{Chunks: []string{"Found ", "a good ", "candidate."}, ChunkDelay: p.ChunkDelay}
		}
		id := "s1"
		for _, m := range req.Messages { // the sub-task follows the conversation
			if sm := subTaskRe.FindStringSubmatch(m.Content); m.Role == "user" && sm != nil {
				id = sm[1]
			}
		}
		query := map[string]string{"s1": "ChatGPT script", "s2": "Vrew video", "s3": "Canva thumbnail"}[id]
		if query == "" {
			query = "ChatGPT"
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "search_catalog", Args: map[string]any{"query": query}}}}
	case RoleReviewer:
		r, ok := picks[SubTaskOf(req)]
		if !ok {
			r = picks["s1"]
		}
		return ollamatest.Reply{JSON: r, ChunkDelay: p.ChunkDelay}
	case RoleGuide:
		return ollamatest.Reply{Chunks: []string{"# 카페 쇼츠 가이드\n\n", "1. 대본: ChatGPT [1]\n", "2. 편집: Vrew [2]\n", "3. 썸네일: Canva [3]\n", "끝.\n"}, ChunkDelay: p.ChunkDelay}
	case RoleMemory:
		return ollamatest.Reply{JSON: map[string]any{"memories": []map[string]string{{"text": "카페를 운영함", "kind": "fact"}}}}
	case RoleAnswer:
		// Arithmetic goes through the calculator, as seed 001 does.
		if strings.Contains(userInput(req), "123*456") {
			if last(req).Role != "tool" {
				return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "calculator", Args: map[string]any{"expression": "123*456"}}}}
			}
			return ollamatest.Reply{Chunks: []string{"123*456 = ", strings.TrimSpace(last(req).Content)}, ChunkDelay: p.ChunkDelay}
		}
		return ollamatest.Reply{Chunks: []string{"알겠습니다. ", "도와드릴게요."}, ChunkDelay: p.ChunkDelay}
	}
	return ollamatest.Reply{Text: "ok"}
}

// SubTaskOf is the id of the sub-task a reviewer's request is about
// ("s1" when it names none).
func SubTaskOf(req ollama.ChatRequest) string {
	if m := subTaskRe.FindStringSubmatch(last(req).Content); m != nil {
		return m[1]
	}
	return "s1"
}

// Route is the router's answer: complex for ComplexTask, simple otherwise,
// with documents for questions about the leave policy (휴가).
func Route(req ollama.ChatRequest) ollamatest.Reply {
	// The first user message holds the input; a repair request adds
	// another one after it.
	in := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			in = m.Content
			break
		}
	}
	return ollamatest.Reply{JSON: map[string]any{
		"route":           map[bool]string{true: "complex", false: "simple"}[strings.Contains(in, ComplexTask)],
		"needs_documents": strings.Contains(in, "휴가"), "refers_to_previous": false, "out_of_scope": false,
	}}
}

// userInput is the last message the person wrote in a request.
func userInput(req ollama.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return req.Messages[i].Content
		}
	}
	return ""
}

func last(req ollama.ChatRequest) ollama.Message { return req.Messages[len(req.Messages)-1] }

// Last is the last message of a request.
func Last(req ollama.ChatRequest) ollama.Message { return last(req) }

// Catalog is a small stand-in for the knowledge base.
var Catalog = []tools.Doc{
	{ID: "cat-vrew", Title: "Vrew", Source: "Wayfinder AI tool catalog", Catalog: true, URL: "https://vrew.ai",
		Text: "Vrew: AI video editor with automatic Korean subtitles. 자동 한국어 자막으로 세로 영상을 편집합니다. Pricing: free plan, Pro $9.99/month."},
	{ID: "cat-chatgpt", Title: "ChatGPT", Source: "Wayfinder AI tool catalog", Catalog: true, URL: "https://chatgpt.com",
		Text: "ChatGPT: writes scripts for videos in Korean and English. 한국어 대본 작성. Pricing: free, Plus $20/month."},
	{ID: "cat-canva", Title: "Canva", Source: "Wayfinder AI tool catalog", Catalog: true, URL: "https://canva.com",
		Text: "Canva: thumbnails and simple graphics. 썸네일 제작. Pricing: free, Pro $15/month."},
	{ID: "hr-1", Title: "휴가 정책", Source: "employee-handbook.pdf", Page: 3,
		Text: "휴가 정책: 연차 15일, 병가 10일. 연차는 입사 1년 후부터 사용할 수 있습니다."},
}

// Memory is long-term memory in a slice (toolstest.Memory).
type Memory = toolstest.Memory

// Config tunes a Backend; zero values take test-friendly defaults.
type Config struct {
	// DataDir holds the database (default: a temporary folder).
	DataDir string
	// HTTPClient is the client used to reach Ollama (default: Go's).
	HTTPClient *http.Client
	// LLMOptions are added after the defaults (a few quick retries).
	LLMOptions []llm.Option
	Agent      agent.Options
	// Folders are the folders granted to read_file (nil: read_file is off).
	Folders []api.FolderGrant
	// Memory is long-term memory (default: a new Memory).
	Memory *Memory
	// LongTerm replaces Memory with the app's own long-term memory
	// (backend/memory on chromem-go, embedded by the fake), so that a turn
	// reads and embeds as it does in the app; Backend.Memory then stays
	// empty.
	LongTerm bool
	// Docs is the knowledge base (default: Catalog).
	Docs []tools.Doc
	// Events receives the chat service's events (default: dropped).
	Events chat.EventSink
	// WebSearch is a SearXNG address: web search is on and goes there
	// ("": web search is off).
	WebSearch string
}

// Backend is Wayfinder's backend for one test: what backend/app's openApp builds,
// without the knowledge base and the Wails shell.
type Backend struct {
	Store  *store.Store
	Client *llm.Client
	Agent  *agent.Agent
	Chat   *chat.Service
	Memory *Memory
	// LongTerm is the app's long-term memory when Config.LongTerm is set.
	LongTerm *memory.Store
}

type discard struct{}

func (discard) Emit(string, any) {}

// New wires a Backend against the fake at host and closes it when the test
// ends (turns stopped, after-turn work finished, database closed).
func New(t testing.TB, host string, cfg Config) *Backend {
	t.Helper()
	b, err := Open(context.Background(), host, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// Open is New for callers without a testing.TB (benchmark programs).
func Open(ctx context.Context, host string, cfg Config) (*Backend, error) {
	if cfg.DataDir == "" {
		return nil, fmt.Errorf("world: Config.DataDir is required")
	}
	st, err := store.Open(ctx, cfg.DataDir, nil)
	if err != nil {
		return nil, err
	}
	if _, err := st.MarkInterrupted(ctx); err != nil {
		st.Close()
		return nil, err
	}
	opts := []llm.Option{llm.WithRetry(2, time.Millisecond), llm.WithLogger(slog.New(slog.DiscardHandler))}
	if cfg.HTTPClient != nil {
		opts = append(opts, llm.WithHTTPClient(cfg.HTTPClient))
	}
	opts = append(opts, cfg.LLMOptions...)
	client, err := llm.New(host, opts...)
	if err != nil {
		st.Close()
		return nil, err
	}
	if cfg.Memory == nil {
		cfg.Memory = &Memory{}
	}
	var mem agent.Memory = cfg.Memory
	var longTerm *memory.Store
	if cfg.LongTerm {
		if longTerm, err = memory.OpenInDataDir(ctx, st.DB(), cfg.DataDir, settings.DefaultEmbedModel, settings.DefaultEmbedModel, client, nil); err != nil {
			st.Close()
			return nil, err
		}
		mem = agent.LongTerm{Store: longTerm}
	}
	if cfg.Docs == nil {
		cfg.Docs = Catalog
	}
	docs := toolstest.NewDocs(cfg.Docs...)
	deps := tools.Deps{
		Retriever: docs, Memory: mem,
		Clock:    func() time.Time { return time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC) },
		TimeZone: "Asia/Seoul",
	}
	if cfg.Folders != nil {
		folders := cfg.Folders
		deps.Folders = func() []api.FolderGrant { return folders }
	}
	if cfg.WebSearch != "" {
		if deps.Search, err = tools.NewSearXNG(cfg.WebSearch, nil); err != nil {
			st.Close()
			return nil, err
		}
	}
	reg, err := tools.Standard(nil, deps)
	if err != nil {
		st.Close()
		return nil, err
	}
	// As backend/app: read_file is offered once a folder is granted.
	settings := api.Settings{Folders: cfg.Folders, WebSearchEnabled: cfg.WebSearch != "", WebSearchURL: cfg.WebSearch}
	ag, err := agent.New(agent.Deps{
		Model: func() (agent.Model, string) { return client, Model }, Tools: reg,
		Retriever: docs, Memory: mem, DB: st.DB(), Grants: st,
		Settings: func() api.Settings { return settings },
	}, cfg.Agent)
	if err != nil {
		st.Close()
		return nil, err
	}
	events := cfg.Events
	if events == nil {
		events = discard{}
	}
	svc := chat.New(st, ag, events, chat.Options{Classify: llm.Classify, Logger: slog.New(slog.DiscardHandler)})
	if _, err := svc.Recover(ctx); err != nil {
		ag.Close()
		st.Close()
		return nil, err
	}
	return &Backend{Store: st, Client: client, Agent: ag, Chat: svc, Memory: cfg.Memory, LongTerm: longTerm}, nil
}

// Close stops turns, lets after-turn work end and closes the database.
func (b *Backend) Close() {
	b.Chat.Shutdown()
	_ = b.Agent.Close()
	_ = b.Store.Close()
}

// Complex runs ComplexTask in a new session, approves the first plan and
// runs once every tool call that waits for approval, as `wayfinder ask
// --approve --approve-tools` does.
func (b *Backend) Complex(ctx context.Context) (api.Message, error) {
	msg, err := b.Chat.Ask(ctx, "", ComplexTask, nil)
	if err != nil {
		return msg, err
	}
	if msg.Status != api.StatusAwaitingApproval || msg.Result.Plan == nil {
		return msg, fmt.Errorf("complex task: want a plan to approve, got status %s: %q", msg.Status, msg.Content)
	}
	msg, err = b.Chat.AskDecision(ctx, msg.SessionID, api.ApprovalDecision{Action: api.ActionApprove, Version: msg.Result.Plan.Version}, nil)
	for err == nil && msg.Status == api.StatusAwaitingApproval && msg.Result.ToolCall != nil {
		msg, err = b.Chat.AskDecision(ctx, msg.SessionID, api.ApprovalDecision{Action: api.ActionRunOnce, Version: msg.Result.ToolCall.ID}, nil)
	}
	return msg, err
}

// DBPath is the database file in a data directory.
func DBPath(dataDir string) string { return filepath.Join(dataDir, store.FileName) }

// RunWithBinary is a TestMain for packages that run the wayfinder command:
// it builds the command (no desktop tags: every command but the window
// works) into a temporary folder, sets *binary to its path, runs the tests
// and exits with their code.
func RunWithBinary(m *testing.M, binary *string) {
	dir, err := os.MkdirTemp("", "wayfinder-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*binary = filepath.Join(dir, "wayfinder")
	cmd := exec.Command("go", "build", "-o", *binary, "github.com/wayfinder-app/wayfinder")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build wayfinder: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
