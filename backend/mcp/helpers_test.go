package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// helperEnv makes the test binary an MCP server over stdio instead of
// running tests: the servers the tests talk to are real processes.
const helperEnv = "WAYFINDER_MCP_HELPER"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(helperEnv); mode {
	case "":
		os.Exit(m.Run())
	case "good":
		if err := testServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "startfail":
		fmt.Fprintln(os.Stderr, "fatal: cannot open /nonexistent/db: permission denied")
		os.Exit(3)
	case "silent": // runs, never says hello
		time.Sleep(time.Minute)
		os.Exit(0)
	case "malformed", "flood":
		rawServer(mode)
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		os.Exit(2)
	}
}

// helper is the mcp.json entry of a helper server.
func helper(mode string, env ...string) Server {
	e := map[string]string{helperEnv: mode}
	for i := 0; i+1 < len(env); i += 2 {
		e[env[i]] = env[i+1]
	}
	return Server{Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: e}
}

var objectSchema = map[string]any{"type": "object", "properties": map[string]any{
	"text": map[string]any{"type": "string", "description": "what to say back"},
	"n":    map[string]any{"type": "integer"},
}}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func args(req *sdk.CallToolRequest) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &m)
	return m
}

// testServer is a well-behaved server with tools that misbehave on
// purpose: huge output, an error, a hang, a crash, an image.
func testServer(opts ...*sdk.ServerOptions) *sdk.Server {
	var o *sdk.ServerOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "helper", Version: "1"}, o)
	add := func(t *sdk.Tool, h sdk.ToolHandler) {
		t.InputSchema = objectSchema
		s.AddTool(t, h)
	}
	add(&sdk.Tool{Name: "echo", Description: "Says the text back. " + strings.Repeat("Long words about echoing. ", 40)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("echo: " + fmt.Sprint(args(req)["text"])), nil
		})
	add(&sdk.Tool{Name: "peek", Description: "Reads nothing harmful.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("peeked"), nil })
	add(&sdk.Tool{Name: "huge", Description: "Returns n bytes."},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			n, _ := args(req)["n"].(float64)
			return text(strings.Repeat("x", int(n))), nil
		})
	add(&sdk.Tool{Name: "fail", Description: "Always fails."},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "disk is full"}}}, nil
		})
	add(&sdk.Tool{Name: "hang", Description: "Never answers."},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			<-ctx.Done()
			time.Sleep(time.Hour) // ignores the cancellation, like a stuck server
			return nil, ctx.Err()
		})
	add(&sdk.Tool{Name: "crash", Description: "Exits mid-call."},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "panic: crash requested")
			os.Exit(2)
			return nil, nil
		})
	add(&sdk.Tool{Name: "image", Description: "Returns a picture."},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a dot:"},
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nfake")}}}, nil
		})
	add(&sdk.Tool{Name: "structured", Description: "Returns only structured content."},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: map[string]any{"temp": 21}}, nil
		})
	return s
}

// rawServer speaks JSON-RPC by hand to send what the SDK never would: a
// malformed result, or a 10 MiB line.
func rawServer(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	reply := func(id json.RawMessage, result string) {
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result)
		out.Flush()
	}
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		switch req.Method {
		case "initialize":
			reply(req.ID, `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`)
		case "tools/list":
			reply(req.ID, `{"tools":[{"name":"bad","description":"Misbehaves.","inputSchema":{"type":"object"}},{"name":"odd.name with spaces","inputSchema":"not a schema"}]}`)
		case "tools/call":
			if mode == "flood" {
				reply(req.ID, `{"content":[{"type":"text","text":"`+strings.Repeat("y", 10<<20)+`"}]}`)
				continue
			}
			reply(req.ID, `{"content":[{"type":"image","data":"%%% not base64 %%%","mimeType":"image/png"}]}`)
		default:
			reply(req.ID, `{}`)
		}
	}
}

// newHTTPServer serves testServer over Streamable HTTP on a random port.
func newHTTPServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := testServer()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}
