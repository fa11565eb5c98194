package ollamatest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// fast is a profile quick enough for tests: what is checked is the cache
// and the accounting, not the wall clock.
func fast(slots int) Profile {
	return Profile{Name: "test", PrefillTPS: 1e6, GenTPS: 1e5, ParallelSlowdown: 0.1, Slots: slots}
}

func chatReq(msgs ...api.Message) api.ChatRequest {
	f := false
	return api.ChatRequest{Model: "llama3.2:3b", Messages: msgs, Stream: &f}
}

func sys(s string) api.Message  { return api.Message{Role: "system", Content: s} }
func usr(s string) api.Message  { return api.Message{Role: "user", Content: s} }
func asst(s string) api.Message { return api.Message{Role: "assistant", Content: s} }

const longSystem = "You are a careful assistant that answers in full sentences and never guesses. " +
	"The person runs a small café in Seoul and wants to market it online with short videos."

func call(t *testing.T, c *api.Client, req api.ChatRequest) api.ChatResponse {
	t.Helper()
	var out api.ChatResponse
	if err := c.Chat(context.Background(), &req, func(r api.ChatResponse) error { out = r; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// One slot keeps the prompt it evaluated and the reply it generated, as
// Ollama's runner does: a prompt that extends them evaluates only what is
// new; a prompt with another beginning evaluates everything again (the
// FACTS measurement on the real server: 608 ms cold, 1.9 ms repeated,
// 35 ms extended, 642 ms after another prefix).
func TestPrefixCacheOneSlot(t *testing.T) {
	p := fast(1)
	p.PrefillTPS = 1e4 // slow enough for prompt_eval_duration to show
	srv := New(t, WithProfile(p), WithDefaultReply(Reply{Text: "Make three short videos."}))
	c := client(t, srv)
	first := chatReq(sys(longSystem), usr("What should I do first?"))
	r1 := call(t, c, first)
	again := call(t, c, first)
	extended := call(t, c, chatReq(sys(longSystem), usr("What should I do first?"), asst("Make three short videos."), usr("And then?")))
	other := call(t, c, chatReq(sys("A different beginning. "+longSystem), usr("What should I do first?")))

	st := srv.Stats()
	if len(st) != 4 {
		t.Fatalf("stats: %d calls, want 4", len(st))
	}
	if st[0].Cached != 0 || st[0].Evaluated != st[0].Prompt {
		t.Errorf("cold call: cached %d of %d", st[0].Cached, st[0].Prompt)
	}
	if st[1].Evaluated != 1 {
		t.Errorf("repeated prompt evaluated %d tokens, want 1 (the last is always evaluated)", st[1].Evaluated)
	}
	if st[2].Cached < st[0].Prompt+st[0].Generated {
		t.Errorf("extended prompt: cached %d, want at least the first prompt and its reply (%d + %d)", st[2].Cached, st[0].Prompt, st[0].Generated)
	}
	if st[3].Cached > 5 {
		t.Errorf("another beginning: %d tokens cached, want only the role marker", st[3].Cached)
	}
	// Ollama reports the whole prompt as prompt_eval_count even on a hit;
	// the duration shows the reuse.
	if r1.PromptEvalCount != again.PromptEvalCount || again.PromptEvalDuration >= r1.PromptEvalDuration {
		t.Errorf("repeated: count %d vs %d, duration %v vs %v", again.PromptEvalCount, r1.PromptEvalCount, again.PromptEvalDuration, r1.PromptEvalDuration)
	}
	if extended.PromptEvalCount <= r1.PromptEvalCount || other.PromptEvalDuration < r1.PromptEvalDuration {
		t.Errorf("extended count %d, other duration %v (cold %v)", extended.PromptEvalCount, other.PromptEvalDuration, r1.PromptEvalDuration)
	}
}

// System messages are hoisted to the top and tools follow them, as
// Ollama's Qwen template renders a request: a second system message
// after the history changes the prompt's beginning, and so does a
// different set of tools.
func TestRenderHoistsSystemAndTools(t *testing.T) {
	srv := New(t, WithProfile(fast(1)))
	c := client(t, srv)
	call(t, c, chatReq(sys(longSystem), usr("one"), usr("two")))
	call(t, c, chatReq(sys(longSystem), usr("one"), sys("late"), usr("two")))
	withTools := chatReq(sys(longSystem), usr("one"), usr("two"))
	withTools.Tools = api.Tools{{Type: "function", Function: api.ToolFunction{Name: "calculator", Description: "adds"}}}
	call(t, c, withTools)
	st := srv.Stats()
	sysTokens := len(EstimateTokenizer{}.Encode("<|im_start|>system\n" + longSystem))
	// Only the system text is shared (give or take the tokens where it
	// ends), never the messages after it.
	for i, what := range []string{"", "a late system message", "tools"} {
		if i > 0 && (st[i].Cached < sysTokens-2 || st[i].Cached > sysTokens+3) {
			t.Errorf("%s: cached %d, want the first system text only (%d)", what, st[i].Cached, sysTokens)
		}
	}
}

// With several slots a prompt goes to the slot that holds its beginning;
// one that shares only part of it gets the least recently used slot with
// the shared part copied in (Ollama's findBestCacheSlot).
func TestPrefixCacheSeveralSlots(t *testing.T) {
	srv := New(t, WithProfile(fast(2)), WithDefaultReply(Reply{Text: "ok"}))
	c := client(t, srv)
	a := chatReq(sys(longSystem), usr("Sub-task s1: write the script"))
	b := chatReq(sys(longSystem), usr("Sub-task s2: edit the video"))
	call(t, c, a)
	call(t, c, b)
	call(t, c, chatReq(sys(longSystem), usr("Sub-task s1: write the script"), asst("ok"), usr("more")))
	st := srv.Stats()
	if st[1].Slot == st[0].Slot {
		t.Errorf("the second prompt reused slot %d; want the other slot with the prefix copied", st[0].Slot)
	}
	if st[1].Cached == 0 || st[1].Cached >= st[1].Prompt {
		t.Errorf("shared system prompt: cached %d of %d", st[1].Cached, st[1].Prompt)
	}
	if st[2].Slot != st[0].Slot || st[2].Cached < st[0].Prompt {
		t.Errorf("the extension went to slot %d with %d cached; want slot %d with at least %d", st[2].Slot, st[2].Cached, st[0].Slot, st[0].Prompt)
	}
}

// One slot serves one call at a time: the others wait in line, which the
// stats show; four slots serve four at once.
func TestSlotsQueue(t *testing.T) {
	for _, tc := range []struct {
		slots      int
		wantQueued bool
	}{{1, true}, {4, false}} {
		p := Profile{Name: "test", PrefillTPS: 1e6, GenTPS: 200, Slots: tc.slots}
		srv := New(t, WithProfile(p), WithDefaultReply(Reply{Text: "one two three four five six"}))
		c := client(t, srv)
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() { call(t, c, chatReq(sys(longSystem), usr(string(rune('a'+i))))) })
		}
		wg.Wait()
		var queued time.Duration
		slots := map[int]bool{}
		for _, s := range srv.Stats() {
			queued += s.Queued
			slots[s.Slot] = true
		}
		// Six words at 200 tokens/s are 30 ms or more a call.
		if got := queued > 40*time.Millisecond; got != tc.wantQueued {
			t.Errorf("%d slots: queued %v in all", tc.slots, queued)
		}
		if len(slots) != tc.slots {
			t.Errorf("%d slots: calls ran in %d slots", tc.slots, len(slots))
		}
	}
}

// The real tokenizer, when scripts/qwen-tokenizer.sh has fetched it
// (make test does): Qwen3's own ids for two known strings.
func TestQwenTokenizer(t *testing.T) {
	path := os.Getenv("WAYFINDER_QWEN_TOKENIZER")
	if path == "" {
		t.Skip("WAYFINDER_QWEN_TOKENIZER not set (scripts/qwen-tokenizer.sh prints the path; make test sets it)")
	}
	tk, err := LoadTokenizer(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want []int32
	}{
		{"Hello world! How are you?", []int32{9707, 1879, 0, 2585, 525, 498, 30}},
		{"<|im_start|>system\nYou are Wayfinder's router.<|im_end|>\n", []int32{151644, 8948, 198, 2610, 525, 12149, 33339, 594, 9273, 13, 151645, 198}},
	} {
		if got := tk.Encode(tc.text); !equal(got, tc.want) {
			t.Errorf("Encode(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	if n := len(tk.Encode("카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어")); n != 20 {
		t.Errorf("Korean sentence: %d tokens, want 20", n)
	}
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEstimateTokenizer(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Hello world! How are you?", 8},
		{"카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어", 24},
		{"", 0},
	} {
		if got := len(EstimateTokenizer{}.Encode(tc.text)); got != tc.want {
			t.Errorf("%q: %d tokens, want %d", tc.text, got, tc.want)
		}
	}
}
