package app

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// allErrorCodes is every api.ErrorCode, read from its source so that a
// code added later is held to the same rule without anyone listing it.
func allErrorCodes(t *testing.T) []api.ErrorCode {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../api/types_errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []api.ErrorCode
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Type == nil || len(vs.Values) != 1 {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "ErrorCode" {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			s, _ := strconv.Unquote(lit.Value)
			codes = append(codes, api.ErrorCode(s))
		}
		return true
	})
	if len(codes) < 40 {
		t.Fatalf("only %d error codes read", len(codes))
	}
	return codes
}

// Every error the command line prints gives a next step a terminal has
// (a flag, a command, an environment variable), in English and Korean:
// never the window's Settings, even when the backend's own hint names
// them (as llm.Classify's and the settings package's do).
func TestCLIErrorsNeverPointAtTheWindow(t *testing.T) {
	window := []string{"Settings", "설정 화면", "설정에서", "설정 ›", "설정 →", "설정이나", "in the window", "창의 ", "창에서"}
	args := map[string]string{"model": "llama3.2:3b", "host": "http://127.0.0.1:11434", "path": "/data/x", "dir": "/data",
		"kind": "mood", "n": "5000", "max": "2000", "reason": "400 Bad Request", "name": "files", "url": "http://x", "file": "w.zim"}
	type tc struct {
		name string
		info api.ErrorInfo
	}
	var cases []tc
	for _, code := range allErrorCodes(t) {
		for _, hint := range []string{"Check the model chosen in Settings; updating Ollama may help.", "", "Try again."} {
			cases = append(cases, tc{string(code) + " full", api.ErrorInfo{Code: code, Message: "It failed.", Hint: hint, Args: args}},
				tc{string(code) + " bare", api.ErrorInfo{Code: code, Message: "It failed.", Hint: hint}})
		}
	}
	cases = append(cases, tc{"ollama_rejected", api.ErrorInfo{Code: api.ErrInvalidInput, Message: "Ollama refused the request: 400",
		Hint: "Check the model chosen in Settings; updating Ollama may help.", Args: map[string]string{"case": "ollama_rejected", "reason": "400"}}})
	for _, c := range cases {
		for l, lang := range []string{"en", "ko"} {
			var b bytes.Buffer
			if rc := report(&b, "ask", func() int { return l }, &api.Error{Info: c.info}); rc != 1 {
				t.Fatalf("%s %s: exit %d", c.name, lang, rc)
			}
			for _, w := range window {
				if strings.Contains(b.String(), w) {
					t.Errorf("%s %s names the window (%q):\n%s", c.name, lang, w, b.String())
				}
			}
		}
	}
}

// The errors the command line meets most say the terminal's way out: the
// address of Ollama by flag or environment, the model by flag.
func TestCLIErrorsNameTheTerminalsWayOut(t *testing.T) {
	for _, c := range []struct {
		info api.ErrorInfo
		want [2]string
	}{
		{api.ErrorInfo{Code: api.ErrOllamaUnreachable, Message: "m", Hint: "change the Ollama host in Settings.", Args: map[string]string{"host": "h"}}, [2]string{"ollama serve", "OLLAMA_HOST"}},
		{api.ErrorInfo{Code: api.ErrModelMissing, Message: "m", Hint: "h", Args: map[string]string{"model": "qwen3:8b"}}, [2]string{"ollama pull qwen3:8b", "--model"}},
		{api.ErrorInfo{Code: api.ErrModelNoTools, Message: "m", Hint: "in Settings", Args: map[string]string{"model": "gemma"}}, [2]string{"--model", "wayfinder doctor"}},
		{api.ErrorInfo{Code: api.ErrModelOutOfMemory, Message: "m", Hint: "in Settings", Args: map[string]string{"model": "big"}}, [2]string{"--model", "--fallback-model"}},
		{api.ErrorInfo{Code: api.ErrFolderNotGranted, Message: "m", Hint: "in Settings", Args: map[string]string{"path": "/x"}}, [2]string{"wayfinder folders list", "wayfinder folders add"}},
		{api.ErrorInfo{Code: api.ErrInternal, Message: "m", Hint: "Check the model chosen in Settings."}, [2]string{"wayfinder doctor", "--ollama-host"}},
	} {
		for l := range 2 {
			_, hint := errorWords(c.info, l)
			for _, w := range c.want {
				if !strings.Contains(hint, w) {
					t.Errorf("%s lang %d: %q lacks %q", c.info.Code, l, hint, w)
				}
			}
		}
	}
}
