package agent_test

import (
	"context"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// printer is a chat.Output that prints the streamed reply.
type printer struct{}

func (printer) Text(s string)        { fmt.Print(s) }
func (printer) Trace(api.TraceEvent) {}

// A calculator question against a scripted model on loopback: the model
// asks for the calculator, reads its exact result and answers, in two
// model calls.
func Example() {
	fake, err := ollamatest.Start("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer fake.Close()
	fake.Script(
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "calculator", Args: map[string]any{"expression": "123 * 456"}}}},
		ollamatest.Reply{Text: "123 × 456 = 56088"},
	)
	client, err := llm.New(fake.URL())
	if err != nil {
		panic(err)
	}
	reg, err := tools.Standard(nil, tools.Deps{})
	if err != nil {
		panic(err)
	}
	a, err := agent.New(agent.Deps{
		Model: func() (agent.Model, string) { return client, "llama3.2:3b" },
		Tools: reg,
	}, agent.Options{})
	if err != nil {
		panic(err)
	}
	defer a.Close()

	res, err := a.Respond(context.Background(), chat.Turn{SessionID: "demo", Text: "123 * 456 계산해줘"}, printer{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("\nllm calls: %d, tools: %v\n", res.LLMCalls, res.ToolsUsed)
	// Output:
	// 123 × 456 = 56088
	// llm calls: 2, tools: [calculator]
}
