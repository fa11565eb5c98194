package settings

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// A refused Save says every value that must change, each with its field
// and why in parts, so that the window says it beside that field in the
// person's language; the English text stays the error's.
func TestSaveRefusesEachField(t *testing.T) {
	ctx := context.Background()
	_, s := openStore(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "page.zim")
	if err := os.WriteFile(page, []byte("<html>not a zim file, a web page instead</html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	temp := 3.5
	for _, c := range []struct {
		name   string
		change func(*api.Settings)
		code   api.ErrorCode
		fields []api.FieldProblem
	}{
		{"several", func(in *api.Settings) {
			in.OllamaHost = "ftp://x"
			in.MaxIterations = 99
			in.Temperature = &temp
			in.WebSearchEnabled, in.WebSearchURL = true, "searx"
		}, api.ErrSettingsInvalid, []api.FieldProblem{
			{Field: "ollama_host", Code: "host_scheme", Args: map[string]string{"host": "ftp://x"}},
			{Field: "max_iterations", Code: "range", Args: map[string]string{"min": "1", "max": "20"}},
			{Field: "temperature", Code: "temperature", Args: map[string]string{"max": "2"}},
			{Field: "web_search_url", Code: "web_url"},
		}},
		{"an empty host", func(in *api.Settings) { in.OllamaHost = " , " }, api.ErrSettingsInvalid,
			[]api.FieldProblem{{Field: "ollama_host", Code: "host_empty"}}},
		{"a ZIM file alone keeps its code", func(in *api.Settings) { in.WikipediaEnabled, in.WikipediaZIM = true, page }, api.ErrZIMNotZIM,
			[]api.FieldProblem{{Field: "wikipedia_zim", Code: "zim_not_zim"}}},
		{"a ZIM file among others", func(in *api.Settings) { in.WikipediaEnabled, in.WikipediaZIM, in.ChatModel = true, "wiki.zim", " " }, api.ErrSettingsInvalid,
			[]api.FieldProblem{{Field: "chat_model", Code: "chat_model_empty"}, {Field: "wikipedia_zim", Code: "zim_relative"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := s.Current()
			c.change(&in)
			_, err := s.Save(ctx, in)
			var ae *api.Error
			if !errors.As(err, &ae) || ae.Info.Code != c.code || !errors.Is(err, ErrInvalid) || ae.Info.Message == "" {
				t.Fatalf("Save: %v, want %s", err, c.code)
			}
			if !reflect.DeepEqual(ae.Info.Fields, c.fields) {
				t.Fatalf("fields\n got %+v\nwant %+v", ae.Info.Fields, c.fields)
			}
		})
	}
	if cur := s.Current(); cur.MaxIterations == 99 || cur.OllamaHost == "ftp://x" {
		t.Fatalf("saved anyway: %+v", cur)
	}
}

// A conversation's own settings are refused field by field too.
func TestConversationSettingsRefuseEachField(t *testing.T) {
	temp, ctxTokens := -1.0, 100
	_, err := ValidateConversation(api.ConversationSettings{Temperature: &temp, ContextTokens: &ctxTokens})
	info := Refusal(err).Info
	want := []api.FieldProblem{
		{Field: "temperature", Code: "temperature", Args: map[string]string{"max": "2"}},
		{Field: "context_tokens", Code: "context", Args: map[string]string{"min": "2048", "max": "262144"}},
	}
	if info.Code != api.ErrSettingsInvalid || !reflect.DeepEqual(info.Fields, want) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("%+v", info)
	}
}
