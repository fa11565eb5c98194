package settings

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

func TestNormalizeHost(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"http://127.0.0.1:11434", "http://127.0.0.1:11434", ""},
		{"localhost:11434", "http://localhost:11434", ""},
		{"0.0.0.0", "http://127.0.0.1:11434", ""},
		{"http://gpu-box:8080/", "http://gpu-box:8080", ""},
		{"https://ollama.example/proxy/", "https://ollama.example:11434/proxy", ""},
		{"[::1]:11434", "http://[::1]:11434", ""},
		{"", "", "empty"},
		{"ftp://x", "", "http://"},
		{"http://", "", "not an address"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NormalizeHost(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestNormalizeHosts(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"localhost", "http://localhost:11434", ""},
		{"gpu1, gpu2:8080 ,gpu1,", "http://gpu1:11434, http://gpu2:8080", ""},
		{"0.0.0.0,http://[::1]:11434/", "http://127.0.0.1:11434, http://[::1]:11434", ""},
		{" , ", "", "empty"},
		{"gpu1,ftp://x", "", "http://"},
		{strings.Repeat("h,", 16) + "a,b,c,d,e,f,g,i,j,k,l,m,n,o,p,q,r", "", "at most 16"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NormalizeHosts(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	// Settings save the list normalised.
	s := Defaults()
	s.OllamaHost = "gpu1,gpu2"
	v, err := Validate(s)
	if err != nil || v.OllamaHost != "http://gpu1:11434, http://gpu2:11434" {
		t.Fatalf("validated %q, %v", v.OllamaHost, err)
	}
}

func TestDefaultsReadOllamaHost(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "0.0.0.0:9999")
	if got := Defaults().OllamaHost; got != "http://127.0.0.1:9999" {
		t.Fatalf("host = %q", got)
	}
}

func TestValidate(t *testing.T) {
	ok := Defaults()
	wiki, err := filepath.Abs(filepath.Join("..", "zim", "testdata", "wiki.zim"))
	if err != nil {
		t.Fatal(err)
	}
	notZIM := filepath.Join(t.TempDir(), "notes.zim")
	os.WriteFile(notZIM, []byte(strings.Repeat("not a ZIM file\n", 10)), 0o600)
	tests := []struct {
		name   string
		change func(*api.Settings)
		err    string
	}{
		{"defaults", func(*api.Settings) {}, ""},
		{"no model", func(s *api.Settings) { s.ChatModel = " " }, "chat model"},
		{"language", func(s *api.Settings) { s.Language = "fr" }, "language"},
		{"theme", func(s *api.Settings) { s.Theme = "pink" }, "theme"},
		{"iterations", func(s *api.Settings) { s.MaxIterations = 0 }, "iterations"},
		{"context", func(s *api.Settings) { s.ContextTokens = 100 }, "context"},
		{"web search without url", func(s *api.Settings) { s.WebSearchEnabled = true }, "SearXNG"},
		{"web search", func(s *api.Settings) { s.WebSearchEnabled = true; s.WebSearchURL = "http://127.0.0.1:8888" }, ""},
		{"two problems", func(s *api.Settings) { s.Language = "fr"; s.MaxIterations = 99 }, "language \"fr\" is not ko or en; iterations"},
		{"temperature below 0", func(s *api.Settings) { s.Temperature = ptr(-0.1) }, "temperature must be between 0 and 2"},
		{"temperature above 2", func(s *api.Settings) { s.Temperature = ptr(2.01) }, "temperature must be between 0 and 2"},
		{"temperature 0 and 2", func(s *api.Settings) { s.Temperature = ptr(2.0) }, ""},
		{"context above the range", func(s *api.Settings) { s.ContextTokens = 300000 }, "between 2048 and 262144 tokens (or 0: the model's own)"},
		{"context 0: the model's own", func(s *api.Settings) { s.ContextTokens = 0 }, ""},
		{"system prompt", func(s *api.Settings) { s.SystemPrompt = "  Be brief.  " }, ""},
		{"wikipedia with a zim file", func(s *api.Settings) { s.WikipediaEnabled = true; s.WikipediaZIM = " " + wiki + " " }, ""},
		{"wikipedia online only", func(s *api.Settings) { s.WikipediaEnabled = true; s.WikipediaOnline = true }, ""},
		{"wikipedia with nothing", func(s *api.Settings) { s.WikipediaEnabled = true }, "Wikipedia needs a ZIM file or online search"},
		{"wikipedia relative path", func(s *api.Settings) { s.WikipediaZIM = "wiki.zim" }, "must be a full path"},
		{"wikipedia missing file", func(s *api.Settings) { s.WikipediaZIM = wiki + ".gone" }, "cannot be used: open"},
		{"wikipedia not a zim", func(s *api.Settings) { s.WikipediaZIM = notZIM }, "notes.zim cannot be used: not a ZIM file"},
		{"system prompt too long", func(s *api.Settings) { s.SystemPrompt = strings.Repeat("가", 4001) }, "the system prompt is 4001 characters long; the limit is 4000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok
			tt.change(&s)
			_, err := Validate(s)
			if (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestStoreOverridesAndPersistence(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := Load(ctx, db, Overrides{ChatModel: "flag-model"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []api.Settings
	s.Watch(func(cur api.Settings) { seen = append(seen, cur) })
	in := s.Current()
	if in.ChatModel != "flag-model" {
		t.Fatalf("override not applied: %q", in.ChatModel)
	}
	in.ChatModel, in.Language = "saved-model", "ko"
	cur, err := s.Save(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if cur.ChatModel != "flag-model" || cur.Language != "ko" || len(seen) != 1 {
		t.Fatalf("after save: %+v (watch calls %d)", cur, len(seen))
	}
	if _, err := s.Save(ctx, api.Settings{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("invalid save: %v", err)
	}
	// --wikipedia-zim turns search_wikipedia on with that file for the run.
	if got := (Overrides{WikipediaZIM: "/w.zim"}).apply(api.Settings{WikipediaOnline: true}); !got.WikipediaEnabled || got.WikipediaZIM != "/w.zim" || !got.WikipediaOnline {
		t.Fatalf("wikipedia override: %+v", got)
	}
	// A new run without the flag sees the saved model.
	s2, err := Load(ctx, db, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s2.Current(); got.ChatModel != "saved-model" || got.Language != "ko" {
		t.Fatalf("reloaded: %+v", got)
	}
}

type fakeOllama struct {
	version    string
	models     []api.ModelInfo
	versionErr error
}

func (f fakeOllama) Version(context.Context) (string, error)         { return f.version, f.versionErr }
func (f fakeOllama) Models(context.Context) ([]api.ModelInfo, error) { return f.models, nil }

func TestCheckStatus(t *testing.T) {
	s := Defaults()
	s.ChatModel, s.EmbedModel = "qwen3:4b", "bge-m3"
	describe := func(err error) api.ErrorInfo {
		return api.ErrorInfo{Code: api.ErrOllamaUnreachable, Message: err.Error(), Hint: "ollama serve"}
	}
	tests := []struct {
		name      string
		o         fakeOllama
		code      api.ErrorCode
		hint      string
		reachable bool
	}{
		{"down", fakeOllama{versionErr: errors.New("connection refused")}, api.ErrOllamaUnreachable, "ollama serve", false},
		{"no model", fakeOllama{version: "0.34.4"}, api.ErrModelMissing, "ollama pull qwen3:4b", true},
		{"no tools", fakeOllama{version: "0.34.4", models: []api.ModelInfo{{Name: "qwen3:4b", Capabilities: []string{"completion"}}}}, api.ErrModelNoTools, "tools", true},
		{"ready", fakeOllama{version: "0.34.4", models: []api.ModelInfo{
			{Name: "qwen3:4b", Capabilities: []string{"completion", "tools"}},
			{Name: "bge-m3:latest", Capabilities: []string{"embedding"}},
		}}, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := CheckStatus(context.Background(), tt.o, s, describe)
			if st.Reachable != tt.reachable {
				t.Fatalf("reachable = %v", st.Reachable)
			}
			if tt.code == "" {
				if st.Error != nil || !st.EmbedModel.Installed {
					t.Fatalf("status = %+v", st)
				}
				return
			}
			if st.Error == nil || st.Error.Code != tt.code || !strings.Contains(st.Error.Hint, tt.hint) {
				t.Fatalf("error = %+v, want %s with hint %q", st.Error, tt.code, tt.hint)
			}
			if tt.code != api.ErrOllamaUnreachable && st.Error.Args["model"] != "qwen3:4b" {
				t.Fatalf("args = %v: the window names the model in the person's language from them", st.Error.Args)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// A conversation's own settings: each set field checked, 0 is no context
// size of a conversation's own (leave it unset to follow the global one).
func TestValidateConversation(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   api.ConversationSettings
		err  string
	}{
		{"none", api.ConversationSettings{}, ""},
		{"all", api.ConversationSettings{SystemPrompt: ptr(" 해적처럼 말해 "), Temperature: ptr(0.0), ContextTokens: ptr(4096)}, ""},
		{"temperature", api.ConversationSettings{Temperature: ptr(3.0)}, "temperature must be between 0 and 2"},
		{"context 0", api.ConversationSettings{ContextTokens: ptr(0)}, "context size must be between 2048 and 262144 tokens"},
		{"context small", api.ConversationSettings{ContextTokens: ptr(512)}, "context size must be between 2048 and 262144 tokens"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := ValidateConversation(tt.in)
			if (tt.err == "") != (err == nil) || (err != nil && (!strings.Contains(err.Error(), tt.err) || !errors.Is(err, ErrInvalid))) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
			if err == nil && out.SystemPrompt != nil && *out.SystemPrompt != strings.TrimSpace(*out.SystemPrompt) {
				t.Fatalf("not trimmed: %q", *out.SystemPrompt)
			}
		})
	}
}

// A ZIM file that cannot be used is refused on save with a code per
// reason (the window words each in the person's language), and nothing is
// saved.
func TestSaveRefusesABadZIM(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := Load(ctx, db, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	whole, err := os.ReadFile(filepath.Join("..", "zim", "testdata", "wiki.zim"))
	if err != nil {
		t.Fatal(err)
	}
	good, cut, page := filepath.Join(dir, "위키.zim"), filepath.Join(dir, "cut.zim"), filepath.Join(dir, "page.zim")
	os.WriteFile(good, whole, 0o600)
	os.WriteFile(cut, whole[:len(whole)/3], 0o600)
	os.WriteFile(page, []byte(strings.Repeat("<html>Sign in to download</html>", 5)), 0o600)
	cases := []struct {
		path string
		code api.ErrorCode
	}{
		{"wiki.zim", api.ErrZIMRelative},
		{filepath.Join(dir, "gone.zim"), api.ErrZIMMissing},
		{page, api.ErrZIMNotZIM},
		{dir, api.ErrZIMNotZIM},
		{cut, api.ErrZIMDamaged},
		{good, ""},
	}
	for _, c := range cases {
		in := s.Current()
		in.WikipediaEnabled, in.WikipediaZIM = true, c.path
		cur, err := s.Save(ctx, in)
		var ae *api.Error
		switch {
		case c.code == "":
			if err != nil || cur.WikipediaZIM != good {
				t.Fatalf("%s: %+v, %v", c.path, cur.WikipediaZIM, err)
			}
		case !errors.As(err, &ae) || ae.Info.Code != c.code || !errors.Is(err, ErrInvalid):
			t.Fatalf("%s: %v, want %s", c.path, err, c.code)
		case s.Current().WikipediaZIM != "":
			t.Fatalf("%s: saved anyway", c.path)
		}
	}
}

// hostsOllama is an Ollama of several hosts that counts the calls made.
type hostsOllama struct {
	fakeOllama
	hosts    []api.HostStatus
	noneUp   error
	versions *int
}

func (h hostsOllama) Version(ctx context.Context) (string, error) {
	*h.versions++
	return h.fakeOllama.Version(ctx)
}

func (h hostsOllama) HostStates(context.Context) ([]api.HostStatus, error) { return h.hosts, h.noneUp }

// When no host of several is up, the status says so from the hosts'
// listing and makes no call: a call would probe a host early, and the
// window checks every few seconds while nothing answers.
func TestCheckStatusWithNoHostUp(t *testing.T) {
	describe := func(err error) api.ErrorInfo {
		return api.ErrorInfo{Code: api.ErrOllamaUnreachable, Message: err.Error()}
	}
	down := []api.HostStatus{{URL: "http://a:11434", Code: api.ErrOllamaUnreachable}, {URL: "http://b:11434", Code: api.ErrOllamaUnreachable}}
	var versions int
	o := hostsOllama{fakeOllama{version: "0.34.4"}, down, errors.New("list: no Ollama host answers: connection refused"), &versions}
	st := CheckStatus(context.Background(), o, Defaults(), describe)
	if st.Reachable || st.Error == nil || !strings.Contains(st.Error.Message, "no Ollama host answers") || len(st.Hosts) != 2 {
		t.Fatalf("status %+v", st)
	}
	if versions != 0 {
		t.Errorf("asked the version %d times with no host up", versions)
	}
	// One host up: the status asks as before.
	o.hosts[1].Up, o.noneUp = true, nil
	if st := CheckStatus(context.Background(), o, Defaults(), describe); !st.Reachable || versions != 1 {
		t.Errorf("with a host up: reachable %v, %d version calls", st.Reachable, versions)
	}
}

// TestSaveLeavesFlagsUnsaved: the Settings dialog sends back every value
// it shows, a flag's among them; saving another field (the language) keeps
// each overridden field's saved value, so that a run with flags changes
// nothing saved, while a value the person changed in the dialog is saved.
func TestSaveLeavesFlagsUnsaved(t *testing.T) {
	flags := Overrides{OllamaHost: "http://127.0.0.1:9999", ChatModel: "flag-chat", EmbedModel: "flag-embed", FallbackModel: "flag-fallback", Parallel: 3}
	tests := []struct {
		name   string
		change func(s *api.Settings)
		want   func(saved api.Settings) api.Settings // from the saved settings before
	}{
		{"only the language changed", func(s *api.Settings) { s.Language = "ko" }, func(saved api.Settings) api.Settings {
			saved.Language = "ko"
			return saved
		}},
		{"the chat model changed too", func(s *api.Settings) { s.Language, s.ChatModel = "ko", "picked" }, func(saved api.Settings) api.Settings {
			saved.Language, saved.ChatModel = "ko", "picked"
			return saved
		}},
		{"the embedding model changed", func(s *api.Settings) { s.EmbedModel = "nomic-embed-text" }, func(saved api.Settings) api.Settings {
			saved.EmbedModel = "nomic-embed-text"
			return saved
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := store.Open(ctx, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			plain, err := Load(ctx, db, Overrides{})
			if err != nil {
				t.Fatal(err)
			}
			in := plain.Current()
			in.ChatModel, in.FallbackModel, in.ParallelRequests = "saved-chat", "saved-fallback", 2
			if _, err := plain.Save(ctx, in); err != nil {
				t.Fatal(err)
			}
			s, err := Load(ctx, db, flags)
			if err != nil {
				t.Fatal(err)
			}
			before := s.Saved()
			shown := s.Current()
			tt.change(&shown)
			cur, err := s.Save(ctx, shown)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want(before)
			got := s.Saved()
			if got.OllamaHost != want.OllamaHost || got.ChatModel != want.ChatModel || got.EmbedModel != want.EmbedModel ||
				got.FallbackModel != want.FallbackModel || got.ParallelRequests != want.ParallelRequests || got.Language != want.Language {
				t.Errorf("saved %+v\nwant  %+v", got, want)
			}
			if cur.ChatModel != flags.ChatModel || cur.EmbedModel != flags.EmbedModel {
				t.Errorf("in effect after the save: chat %q, embedding %q; the flags decide this run", cur.ChatModel, cur.EmbedModel)
			}
		})
	}
}
