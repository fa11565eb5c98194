package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// countingSearch is a web search provider that counts the searches that
// reached it.
type countingSearch struct{ n atomic.Int32 }

func (c *countingSearch) Search(_ context.Context, query string, _ int) ([]tools.WebResult, error) {
	c.n.Add(1)
	return []tools.WebResult{{Title: "Result for " + query, URL: "https://example.com/r", Snippet: "a page"}}, nil
}

// steeredWorld is an agent with Wayfinder's own tools as the app builds
// them (tools.Standard): read_file on a real folder, web_search on a
// provider that counts what reaches it.
type steeredWorld struct {
	*env
	folder   string
	search   *countingSearch
	parallel int // sub-tasks at once (Settings' parallel requests)
}

const steeredSecret = "SECRET-7f3a-TOKEN"

func newSteeredWorld(t *testing.T) *steeredWorld {
	t.Helper()
	w := &steeredWorld{env: newEnv(t), folder: t.TempDir(), search: &countingSearch{}}
	if err := os.WriteFile(filepath.Join(w.folder, "notes.md"), []byte("salary list: "+steeredSecret), 0o600); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *steeredWorld) agent(t *testing.T) *Agent {
	t.Helper()
	reg, err := tools.Standard(nil, tools.Deps{Retriever: w.docs, Memory: w.mem, Search: w.search,
		Folders: func() []api.FolderGrant { return []api.FolderGrant{{Path: w.folder}} },
		Clock:   func() time.Time { return time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Deps{
		Model: func() (Model, string) { return w.client, testModel }, Tools: reg, Retriever: w.docs, Memory: w.mem, DB: w.openDB(),
		Settings: func() api.Settings {
			return api.Settings{Folders: []api.FolderGrant{{Path: w.folder}}, WebSearchEnabled: true, ParallelRequests: w.parallel}
		},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// leaked reports whether any request the model got holds the secret: the
// file was read into a context.
func (w *steeredWorld) leaked() bool {
	for _, req := range w.fake.ChatRequests() {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, steeredSecret) {
				return true
			}
		}
	}
	return false
}

// Issue 22.2: a read_file or web_search call the model makes while text
// from outside (document passages, a retrieve_docs result) is in its
// context is held by the tools node's gate until the person decides —
// with the real tools, on both loops: nothing is read and nothing leaves
// the machine before the decision, and the call runs once after "run
// once". Without the gate, or with the flag ignored, the file is read
// and the search sent at once, and this test fails.
func TestGateHoldsSteeredCalls(t *testing.T) {
	t.Run("read_file on the answer loop", func(t *testing.T) {
		w := newSteeredWorld(t)
		w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple, NeedsDocuments: true}})
		w.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
			if last := lastMessage(req); last.Role == "tool" {
				return ollamatest.Reply{Text: "I read it."}
			}
			return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("read_file", map[string]any{"path": "notes.md"})}}
		})
		w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
		a := w.agent(t)
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: fileQuestion})
		if res.ToolCall == nil || res.ToolCall.Tool != "read_file" || res.ToolCall.Reason != api.ReasonUntrusted ||
			res.ToolCall.Arguments != `{"path":"notes.md"}` {
			t.Fatalf("the steered read_file call did not wait for the person: %+v", res)
		}
		if w.leaked() {
			t.Fatal("the file was read before the person decided")
		}
		res, _ = turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: res.ToolCall.ID}})
		if res.Response != "I read it." || !w.leaked() || len(res.ToolCalls) != 1 || res.ToolCalls[0].Decision != api.ToolDecidedOnce {
			t.Fatalf("after run once: %+v (file read: %v)", res, w.leaked())
		}
		a.Wait()
	})

	// On the recommend loop, sub-tasks one at a time and two at once:
	// each sub-task's web_search waits, one question at a time, and runs
	// once after its answer; the sub-tasks that ended are not run again.
	for _, parallel := range []int{1, 2} {
		t.Run(fmt.Sprintf("web_search on the recommend loop, %d at once", parallel), func(t *testing.T) {
			w := newSteeredWorld(t)
			w.parallel = parallel
			w.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
			w.fake.On(isPlanner, ollamatest.Reply{JSON: planOut{SubTasks: []planStep{
				{ID: "s1", Title: "영상 편집", Detail: "세로 영상 편집"}, {ID: "s2", Title: "썸네일 제작", Detail: "썸네일"}}}})
			// Wayfinder's own first search (catalog and documents) is
			// reviewed; the reviewer asks for a price, and the scout, with
			// those results in its context, searches the web.
			var mu sync.Mutex
			reviewed := map[string]int{}
			w.fake.OnFunc(isReviewer, func(req ollama.ChatRequest) ollamatest.Reply {
				id := subTaskRe.FindStringSubmatch(lastMessage(req).Content)[1]
				mu.Lock()
				reviewed[id]++
				first := reviewed[id] == 1
				mu.Unlock()
				if first {
					return ollamatest.Reply{JSON: review{Sufficient: false, Missing: "the price"}}
				}
				return ollamatest.Reply{JSON: review{Sufficient: true, Tool: "Tool " + id, Why: "good", URL: "https://example.com/" + id, Pricing: "free"}}
			})
			w.fake.OnFunc(isScout, func(req ollama.ChatRequest) ollamatest.Reply {
				if last := lastMessage(req); last.Role == "tool" {
					return ollamatest.Reply{Text: "Found a good candidate."}
				}
				id := "s1"
				for _, m := range req.Messages {
					if sm := subTaskRe.FindStringSubmatch(m.Content); m.Role == "user" && sm != nil {
						id = sm[1]
					}
				}
				return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("web_search", map[string]any{"query": "pricing " + id})}}
			})
			w.fake.On(isGuide, ollamatest.Reply{Text: "# 가이드"})
			w.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
			a := w.agent(t)
			plan, _ := turn(t, a, chat.Turn{SessionID: "s2", Text: shortsTask})
			if plan.Plan == nil {
				t.Fatalf("no plan: %+v", plan)
			}
			res, _ := turn(t, a, chat.Turn{SessionID: "s2", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}})
			var asked []string
			for res.ToolCall != nil {
				if res.ToolCall.Tool != "web_search" || res.ToolCall.Reason != api.ReasonUntrusted {
					t.Fatalf("asked about %+v", res.ToolCall)
				}
				if n := w.search.n.Load(); int(n) != len(asked) {
					t.Fatalf("%d searches reached the network after %d answers", n, len(asked))
				}
				asked = append(asked, res.ToolCall.Arguments)
				res, _ = turn(t, a, chat.Turn{SessionID: "s2", Decision: &api.ApprovalDecision{Action: api.ActionRunOnce, Version: res.ToolCall.ID}})
			}
			if want := []string{`{"query":"pricing s1"}`, `{"query":"pricing s2"}`}; !slices.Equal(asked, want) {
				t.Fatalf("asked about %v, want %v (result %+v)", asked, want, res)
			}
			if n := w.search.n.Load(); n != 2 || len(res.Recommendations) != 2 || res.Recommendations[1].Tool != "Tool s2" {
				t.Fatalf("after both answers: %d searches, %+v", n, res)
			}
			if reviewed["s1"] != 2 || reviewed["s2"] != 2 {
				t.Fatalf("a sub-task ran again: reviews %v", reviewed)
			}
			a.Wait()
			// The sub-tasks' own checkpoints went when the node was done.
			threads, err := a.saves.Checkpointer.(interface {
				Threads(context.Context) ([]string, error)
			}).Threads(context.Background())
			if err != nil || slices.ContainsFunc(threads, func(th string) bool { return strings.Contains(th, stepThreadSep) }) {
				t.Fatalf("threads left: %v, %v", threads, err)
			}
		})
	}
}
