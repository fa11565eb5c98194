package tools_test

import (
	"context"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// The agent runs the model's tool calls through a registry: results come
// back in call order, and failures become observations instead of errors.
func ExampleRegistry_RunAll() {
	reg, err := tools.NewRegistry(nil, tools.NewCalculator())
	if err != nil {
		panic(err)
	}
	outs := reg.RunAll(context.Background(), []tools.Call{
		{Name: "calculator", Args: map[string]any{"expression": "123 * 456"}},
		{Name: "calculator", Args: map[string]any{"expression": "1/0"}},
		{Name: "python", Args: map[string]any{"code": "print(1)"}},
	})
	for _, o := range outs {
		fmt.Println(o.Result.Text)
	}
	// Output:
	// 56088
	// Error: calculator: no finite result: "1/0" is infinite (division by zero or a number too large)
	// Error: unknown tool "python"; available tools: calculator
}
