package agent

import (
	"strings"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A small model that prints its tool call as text instead of making it:
// the calculator runs, the JSON is never shown, and the turn takes the two
// calls of a structured call (it took four and never ran the calculator).
func TestToolCallPrintedAsText(t *testing.T) {
	printed := map[string][]string{
		"bare JSON":  {`{"name": "calculator", `, `"arguments": {"expression": "1234*5678"}}`},
		"tags":       {"<tool_call>\n", `{"name": "calculator", "parameters": {"expression": "1234*5678"}}`, "\n</tool_call>"},
		"fenced":     {"```json\n", `{"name": "calculator", "arguments": {"expression": "1234*5678"}}`, "\n```"},
		"openai":     {`{"type": "function", "function": {"name": "calculator", "arguments": "{\"expression\": \"1234*5678\"}"}}`},
		"with prose": {"계산해 볼게요.\n", `{"name": "calculator", "arguments": {"expression": "1234*5678"}}`},
	}
	for name, chunks := range printed {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			a := e.agent(Options{})
			e.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
				if last := lastMessage(req); last.Role == "tool" {
					return ollamatest.Reply{Text: "1234 × 5678 = " + last.Content}
				}
				return ollamatest.Reply{Chunks: chunks}
			})
			res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "1234*5678"})
			a.Wait()
			if got := e.chatCalls(); got != 2 || res.LLMCalls != 2 {
				t.Fatalf("model calls = %d (reported %d), want 2", got, res.LLMCalls)
			}
			if strings.Join(res.ToolsUsed, ",") != "calculator" || !strings.Contains(res.Response, "7006652") {
				t.Fatalf("tools %v, response %q", res.ToolsUsed, res.Response)
			}
			if s := out.String(); strings.Contains(s, "expression") || strings.Contains(s, "tool_call") || !strings.Contains(s, "7006652") {
				t.Fatalf("streamed %q", s)
			}
			second := e.requests(isAnswer)[1]
			if last := lastMessage(second); last.Role != "tool" || last.Content != "7006652" {
				t.Fatalf("the second call did not get the calculator's result: %+v", last)
			}
			if calls := second.Messages[len(second.Messages)-2].ToolCalls; len(calls) != 1 || calls[0].Function.Name != "calculator" {
				t.Fatalf("the call is not in the scratch pad as a structured call: %+v", second.Messages)
			}
		})
	}
}

// Text that only looks like a call is an answer: a tool that was not
// offered, or arguments the schema refuses, reach the person as written.
func TestPrintedCallThatIsNoCall(t *testing.T) {
	for name, text := range map[string]string{
		"unknown tool":  `{"name": "python", "arguments": {"code": "print(1234*5678)"}}`,
		"bad arguments": `{"name": "calculator", "arguments": {"formula": "1234*5678"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			a := e.agent(Options{})
			e.fake.On(isAnswer, ollamatest.Reply{Text: text})
			res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "1234*5678"})
			a.Wait()
			if res.LLMCalls != 1 || len(res.ToolsUsed) != 0 || len(out.kinds(api.TraceToolSelected)) != 0 {
				t.Fatalf("calls %d, tools %v", res.LLMCalls, res.ToolsUsed)
			}
			if res.Response != text || out.String() != text {
				t.Fatalf("response %q, streamed %q", res.Response, out.String())
			}
		})
	}
}
