// Package settings owns what the person configures: defaults, values saved
// in the database, and command-line overrides that win for one run without
// being saved. It also answers the onboarding question "is Ollama ready?"
// and pulls models with progress.
package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/zim"
)

// Defaults for a first start. qwen3:4b follows tool calls and writes Korean
// well at a size most laptops run; bge-m3 embeds Korean and English alike.
const (
	DefaultHost       = "http://127.0.0.1:11434"
	DefaultChatModel  = "qwen3:4b"
	DefaultEmbedModel = "bge-m3"
)

// Defaults returns the settings of a first start, reading OLLAMA_HOST like
// the ollama command does.
func Defaults() api.Settings {
	host := DefaultHost
	if env := os.Getenv("OLLAMA_HOST"); env != "" {
		if h, err := NormalizeHost(env); err == nil {
			host = h
		}
	}
	return api.Settings{
		OllamaHost:    host,
		ChatModel:     DefaultChatModel,
		EmbedModel:    DefaultEmbedModel,
		Theme:         api.ThemeSystem,
		MaxIterations: 5,
		ContextTokens: 8192,
	}
}

// NormalizeHost turns what people write for OLLAMA_HOST ("0.0.0.0",
// "localhost:11434", "http://host:port/") into a base URL.
func NormalizeHost(h string) (string, error) {
	h = strings.TrimSpace(h)
	if h == "" {
		return "", &hostError{code: "host_empty", text: "the Ollama address is empty"}
	}
	if !strings.Contains(h, "://") {
		h = "http://" + h
	}
	u, err := url.Parse(h)
	if err != nil || u.Host == "" {
		return "", &hostError{code: "host_invalid", host: h, text: fmt.Sprintf("%q is not an address like http://127.0.0.1:11434", h)}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", &hostError{code: "host_scheme", host: h, text: fmt.Sprintf("%q: the address must start with http:// or https://", h)}
	}
	host, port := u.Hostname(), u.Port()
	if host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1" // a listen address, not one to connect to
	}
	if port == "" {
		port = "11434"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return u.Scheme + "://" + host + ":" + port + strings.TrimSuffix(u.Path, "/"), nil
}

// NormalizeHosts normalises a comma-separated list of Ollama addresses
// (several hosts share the calls, see llm's pool) with NormalizeHost each,
// drops repeats and joins them with ", ". One address comes back as
// NormalizeHost returns it.
func NormalizeHosts(list string) (string, error) {
	var out []string
	for part := range strings.SplitSeq(list, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		h, err := NormalizeHost(part)
		if err != nil {
			return "", err
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		return "", &hostError{code: "host_empty", text: "the Ollama address is empty"}
	}
	if len(out) > MaxHosts {
		return "", &hostError{code: "host_many", n: len(out), text: fmt.Sprintf("%d Ollama addresses; at most %d", len(out), MaxHosts)}
	}
	return strings.Join(out, ", "), nil
}

// hostError is an Ollama address refused, with why as a code (for the
// Settings field) beside its English text.
type hostError struct {
	code, host, text string
	n                int
}

func (e *hostError) Error() string { return e.text }

// hostProblem is NormalizeHosts' refusal beside the host field.
func hostProblem(err error) problem {
	var he *hostError
	if !errors.As(err, &he) {
		return refuse("ollama_host", "host_invalid", err.Error())
	}
	switch he.code {
	case "host_many":
		return refuse("ollama_host", he.code, he.text, "n", strconv.Itoa(he.n), "max", strconv.Itoa(MaxHosts))
	case "host_empty":
		return refuse("ollama_host", he.code, he.text)
	}
	return refuse("ollama_host", he.code, he.text, "host", he.host)
}

// MaxHosts bounds the Ollama hosts: each is listed and watched.
const MaxHosts = 16

// Overrides come from command-line flags; empty fields override nothing.
type Overrides struct {
	OllamaHost    string
	ChatModel     string
	FallbackModel string
	EmbedModel    string
	Parallel      int // 0: no override
	// WikipediaZIM searches this ZIM file with search_wikipedia for one
	// run (it turns the tool on: naming the file is the person's choice).
	WikipediaZIM string
}

func (o Overrides) apply(s api.Settings) api.Settings {
	if o.OllamaHost != "" {
		s.OllamaHost = o.OllamaHost
	}
	if o.ChatModel != "" {
		s.ChatModel = o.ChatModel
	}
	if o.EmbedModel != "" {
		s.EmbedModel = o.EmbedModel
	}
	if o.FallbackModel != "" {
		s.FallbackModel = o.FallbackModel
	}
	if o.Parallel > 0 {
		s.ParallelRequests = o.Parallel
	}
	if o.WikipediaZIM != "" {
		s.WikipediaZIM, s.WikipediaEnabled = o.WikipediaZIM, true
	}
	return s
}

// unapply returns in with every field a flag overrides, and in holds as
// the flag set it, put back to its saved value: the Settings dialog sends
// back all it shows, the flags' values among them, and a save of another
// field (the language) must not make them saved (a model tried with
// --embed-model for one run would become the saved one, and the next run
// without the flag would embed everything again). A value the person
// changed is saved; the flag still decides this run.
func (o Overrides) unapply(in, saved api.Settings) api.Settings {
	if o.OllamaHost != "" && in.OllamaHost == o.OllamaHost {
		in.OllamaHost = saved.OllamaHost
	}
	if o.ChatModel != "" && in.ChatModel == o.ChatModel {
		in.ChatModel = saved.ChatModel
	}
	if o.EmbedModel != "" && in.EmbedModel == o.EmbedModel {
		in.EmbedModel = saved.EmbedModel
	}
	if o.FallbackModel != "" && in.FallbackModel == o.FallbackModel {
		in.FallbackModel = saved.FallbackModel
	}
	if o.Parallel > 0 && in.ParallelRequests == o.Parallel {
		in.ParallelRequests = saved.ParallelRequests
	}
	if o.WikipediaZIM != "" && in.WikipediaZIM == o.WikipediaZIM && in.WikipediaEnabled {
		in.WikipediaZIM, in.WikipediaEnabled = saved.WikipediaZIM, saved.WikipediaEnabled
	}
	return in
}

// Validate checks settings before they are saved; its error is an
// *Invalid that lists every value refused, beside its field.
func Validate(s api.Settings) (api.Settings, error) {
	var problems []problem
	if host, err := NormalizeHosts(s.OllamaHost); err != nil {
		problems = append(problems, hostProblem(err))
	} else {
		s.OllamaHost = host
	}
	s.ChatModel = strings.TrimSpace(s.ChatModel)
	s.EmbedModel = strings.TrimSpace(s.EmbedModel)
	s.FallbackModel = strings.TrimSpace(s.FallbackModel)
	if s.ChatModel == "" {
		problems = append(problems, refuse("chat_model", "chat_model_empty", "choose a chat model"))
	}
	if s.Language != "" && s.Language != "ko" && s.Language != "en" {
		problems = append(problems, refuse("language", "language", fmt.Sprintf("language %q is not ko or en", s.Language), "value", s.Language))
	}
	if !slices.Contains([]api.Theme{api.ThemeSystem, api.ThemeLight, api.ThemeDark}, s.Theme) {
		problems = append(problems, refuse("theme", "theme", fmt.Sprintf("theme %q is not system, light or dark", s.Theme), "value", string(s.Theme)))
	}
	if s.MaxIterations < 1 || s.MaxIterations > 20 {
		problems = append(problems, refuse("max_iterations", "range", "iterations must be between 1 and 20", "min", "1", "max", "20"))
	}
	if s.ParallelRequests < 0 || s.ParallelRequests > 16 {
		problems = append(problems, refuse("parallel_requests", "parallel", "parallel requests must be between 1 and 16 (or 0: one)", "max", "16"))
	}
	problems = append(problems, tunables(&s.SystemPrompt, s.Temperature, &s.ContextTokens, true)...)
	if s.WebSearchEnabled {
		if u, err := url.Parse(s.WebSearchURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, refuse("web_search_url", "web_url", "web search needs a SearXNG address like http://127.0.0.1:8888"))
		}
	}
	problems = append(problems, wikipedia(&s)...)
	return s, invalid(problems)
}

// wikipedia checks search_wikipedia's settings: a ZIM file is a full path
// to a file that opens as one, so a wrong choice is said when it is made
// rather than at the model's first call.
func wikipedia(s *api.Settings) []problem {
	s.WikipediaZIM = strings.TrimSpace(s.WikipediaZIM)
	var problems []problem
	if p := s.WikipediaZIM; p != "" {
		if err := CheckZIM(p); err != nil {
			problems = append(problems, refuse("wikipedia_zim", string(zimCode(err)), err.Error()))
		}
	}
	if s.WikipediaEnabled && s.WikipediaZIM == "" && !s.WikipediaOnline {
		problems = append(problems, refuse("wikipedia_zim", "wiki_source", "Wikipedia needs a ZIM file or online search"))
	}
	return problems
}

// errZIMRelative is a ZIM file named without its full path.
var errZIMRelative = errors.New("the Wikipedia file must be a full path")

// CheckZIM says why path cannot be search_wikipedia's ZIM file, or nil.
func CheckZIM(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%w (like /home/me/wikipedia_ko.zim), not %q", errZIMRelative, path)
	}
	a, err := zim.Open(path)
	if err != nil {
		return fmt.Errorf("the Wikipedia file %s cannot be used: %w", path, err)
	}
	return a.Close()
}

// Limits of what people tune, globally and per conversation.
const (
	MinContextTokens = 2048
	MaxContextTokens = 262144
	MaxTemperature   = 2.0
	// MaxSystemPrompt bounds the person's instructions: they are sent with
	// every answer, and a long one crowds out the conversation.
	MaxSystemPrompt = 4000
)

// tunables checks the system prompt (trimmed in place), the temperature
// and the context size; with zeroCtx a context size of 0 (the model's
// own) is allowed too.
func tunables(prompt *string, temp *float64, numCtx *int, zeroCtx bool) []problem {
	var problems []problem
	if prompt != nil {
		*prompt = strings.TrimSpace(*prompt)
		if n := utf8.RuneCountInString(*prompt); n > MaxSystemPrompt {
			problems = append(problems, refuse("system_prompt", "prompt_too_long", fmt.Sprintf("the system prompt is %d characters long; the limit is %d", n, MaxSystemPrompt),
				"n", strconv.Itoa(n), "max", strconv.Itoa(MaxSystemPrompt)))
		}
	}
	if temp != nil && (math.IsNaN(*temp) || *temp < 0 || *temp > MaxTemperature) {
		problems = append(problems, refuse("temperature", "temperature", fmt.Sprintf("temperature must be between 0 and %g", MaxTemperature), "max", strconv.FormatFloat(MaxTemperature, 'g', -1, 64)))
	}
	if numCtx != nil && !(zeroCtx && *numCtx == 0) && (*numCtx < MinContextTokens || *numCtx > MaxContextTokens) {
		msg := fmt.Sprintf("context size must be between %d and %d tokens", MinContextTokens, MaxContextTokens)
		code := "context"
		if zeroCtx {
			msg += " (or 0: the model's own)"
			code = "context_or_zero"
		}
		problems = append(problems, refuse("context_tokens", code, msg, "min", strconv.Itoa(MinContextTokens), "max", strconv.Itoa(MaxContextTokens)))
	}
	return problems
}

// ValidateConversation checks one conversation's settings before they are
// saved; empty fields follow the global settings.
func ValidateConversation(cs api.ConversationSettings) (api.ConversationSettings, error) {
	if problems := tunables(cs.SystemPrompt, cs.Temperature, cs.ContextTokens, false); len(problems) > 0 {
		return cs, invalid(problems)
	}
	return cs, nil
}

// Saver persists the settings document.
type Saver interface {
	LoadSettings(ctx context.Context, v any) (bool, error)
	SaveSettings(ctx context.Context, v any) error
}

// zimCode is why CheckZIM refused a file, as the code the window words.
func zimCode(err error) api.ErrorCode {
	switch {
	case errors.Is(err, errZIMRelative):
		return api.ErrZIMRelative
	case errors.Is(err, fs.ErrNotExist):
		return api.ErrZIMMissing
	case errors.Is(err, zim.ErrNotZIM):
		return api.ErrZIMNotZIM
	case errors.Is(err, zim.ErrCorrupt):
		return api.ErrZIMDamaged
	}
	return api.ErrZIMUnreadable
}

// Store holds the current settings in memory, backed by the database.
type Store struct {
	db        Saver
	overrides Overrides

	writeMu sync.Mutex // serialises read-modify-save, so no change undoes another
	mu      sync.RWMutex
	saved   api.Settings
	watches []func(api.Settings)
	// Migrated lists what Load changed in a document saved by an older
	// version, for the log.
	Migrated []string
}

// Load reads saved settings (or the defaults) and applies the overrides.
// A document saved by an older version is brought up to date and saved
// again when db accepts it (a read-only Saver keeps the result in memory,
// and the next Load migrates again).
func Load(ctx context.Context, db Saver, o Overrides) (*Store, error) {
	s := Defaults()
	var raw json.RawMessage
	found, err := db.LoadSettings(ctx, &raw)
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, overrides: o, saved: s}
	if !found {
		return st, nil
	}
	if err := json.Unmarshal(raw, &st.saved); err != nil {
		return nil, fmt.Errorf("decode settings: %w", err)
	}
	if migrateFolders(raw, &st.saved) {
		st.Migrated = append(st.Migrated, fmt.Sprintf("folders that imports had made readable by read_file are no longer readable until granted: %s",
			strings.Join(st.saved.RevokedImportFolders, ", ")))
		_ = db.SaveSettings(ctx, st.saved)
	}
	return st, nil
}

// Current returns the settings in effect: saved values under the overrides.
func (s *Store) Current() api.Settings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.overrides.apply(s.saved)
}

// Saved returns the settings as saved, without the overrides: what a run
// without flags would use. The app keeps the saved embedding model's
// vectors apart from those of a model given for one run.
func (s *Store) Saved() api.Settings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.saved
}

// Watch calls f after every successful save with the settings in effect.
func (s *Store) Watch(f func(api.Settings)) {
	s.mu.Lock()
	s.watches = append(s.watches, f)
	s.mu.Unlock()
}

// Save validates and stores new settings and returns those in effect. The
// folder grants are kept as they are: only Grant and Revoke change them.
func (s *Store) Save(ctx context.Context, in api.Settings) (api.Settings, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.RLock()
	saved := s.saved
	s.mu.RUnlock()
	in, err := Validate(s.overrides.unapply(in, saved))
	if err != nil {
		return api.Settings{}, Refusal(err)
	}
	in.Folders, in.RevokedImportFolders = saved.Folders, saved.RevokedImportFolders
	return s.commit(ctx, in)
}

// commit saves next, makes it current and tells the watchers; the caller
// holds writeMu.
func (s *Store) commit(ctx context.Context, next api.Settings) (api.Settings, error) {
	if err := s.db.SaveSettings(ctx, next); err != nil {
		return api.Settings{}, err
	}
	s.mu.Lock()
	s.saved = next
	watches := slices.Clone(s.watches)
	s.mu.Unlock()
	cur := s.Current()
	for _, f := range watches {
		f(cur)
	}
	return cur, nil
}

// ErrInvalid marks settings the person must correct.
var ErrInvalid = errors.New("invalid settings")
