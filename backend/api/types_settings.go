// Settings, the Ollama hosts and models, and the running app.

package api

import "time"

// Theme is the colour scheme.
type Theme string

const (
	ThemeSystem Theme = "system"
	ThemeLight  Theme = "light"
	ThemeDark   Theme = "dark"
)

// Settings are what the person chooses in the settings screen. They persist
// in the database; command-line flags override them for one run.
type Settings struct {
	OllamaHost    string `json:"ollama_host"`
	ChatModel     string `json:"chat_model"`
	EmbedModel    string `json:"embed_model"`
	Language      string `json:"language"` // "" follows the OS locale; else "ko" or "en"
	Theme         Theme  `json:"theme"`
	MaxIterations int    `json:"max_iterations"`
	ContextTokens int    `json:"context_tokens"` // num_ctx sent to Ollama; 0: the model's own (up to 32768)
	// SystemPrompt is the person's own instructions for the replies they
	// read (a persona, a tone, a language): added to the system prompts of
	// the answer, the planner and the guide. "" adds nothing.
	SystemPrompt string `json:"system_prompt"`
	// Temperature of the calls that write text for the person (0 to 2);
	// nil: the model's own default. Calls that must return JSON keep 0.
	Temperature *float64 `json:"temperature"`
	// FallbackModel answers when the chat model is missing, does not fit
	// in memory or keeps failing; "" means none.
	FallbackModel string `json:"fallback_model"`
	// ParallelRequests is how many requests the Ollama server answers at
	// once (its OLLAMA_NUM_PARALLEL, which it does not tell): the sub-tasks
	// of a plan are recommended that many at a time. 0 means 1.
	ParallelRequests int    `json:"parallel_requests"`
	WebSearchEnabled bool   `json:"web_search_enabled"`
	WebSearchURL     string `json:"web_search_url"`
	// RunPythonEnabled offers the model run_python, a Starlark interpreter
	// with no file, network or clock access (off until the person opts in).
	RunPythonEnabled bool `json:"run_python_enabled"`
	// WeatherEnabled offers the model get_weather (Open-Meteo, over the
	// network; off until the person opts in).
	WeatherEnabled bool `json:"weather_enabled"`
	// WikipediaEnabled offers the model search_wikipedia, which reads
	// WikipediaZIM (a Kiwix ZIM file the person chose; "" for none) and,
	// with WikipediaOnline, asks Wikipedia's MediaWiki API over the
	// network for what the file lacks. Off until the person opts in.
	WikipediaEnabled bool   `json:"wikipedia_enabled"`
	WikipediaZIM     string `json:"wikipedia_zim"`
	WikipediaOnline  bool   `json:"wikipedia_online"`
	// Folders are the folders the person lets the read_file tool read.
	// Only SettingsService's folder methods and `wayfinder folders` change
	// them (Save keeps them as they are): importing a folder never does.
	Folders []FolderGrant `json:"folder_grants"`
	// RevokedImportFolders were readable by read_file only because they
	// had been imported, which no longer grants anything; Settings lists
	// them until the person grants them again or dismisses the notice.
	RevokedImportFolders []string `json:"revoked_import_folders,omitempty"`
}

// FolderGrant is a folder the person lets the read_file tool read, with
// what it allows there beyond ordinary files.
type FolderGrant struct {
	Path string `json:"path"` // absolute
	// AllowHidden lets read_file read hidden files and folders (names
	// starting with a dot) in this folder.
	AllowHidden bool `json:"allow_hidden"`
	// AllowSecrets lets it read files that usually hold secrets (.env*,
	// keys, .git/, .ssh/, credentials; the list is in README.md).
	AllowSecrets bool      `json:"allow_secrets"`
	GrantedAt    time.Time `json:"granted_at"`
}

// ModelInfo is a model Ollama has, with what it can do.
type ModelInfo struct {
	Name         string   `json:"name"`
	Size         int64    `json:"size"`
	Capabilities []string `json:"capabilities"` // "completion", "tools", "embedding", ...
}

// ModelState says whether a configured model is ready.
type ModelState struct {
	Name         string   `json:"name"`
	Installed    bool     `json:"installed"`
	Capabilities []string `json:"capabilities"`
}

// OllamaStatus drives onboarding: the UI shows the first problem in it and
// polls until it is gone.
type OllamaStatus struct {
	Host       string     `json:"host"`
	Reachable  bool       `json:"reachable"`
	Version    string     `json:"version"`
	ChatModel  ModelState `json:"chat_model"`
	EmbedModel ModelState `json:"embed_model"`
	Error      *ErrorInfo `json:"error,omitempty"`
	// Hosts is the state of each Ollama host when several are set
	// (ollama_host lists them separated by commas); empty with one.
	Hosts []HostStatus `json:"hosts"`
}

// HostStatus is one Ollama host of several: whether calls go to it, since
// when it is down and when it is tried again, and the models it has.
type HostStatus struct {
	URL       string    `json:"url"`
	Up        bool      `json:"up"`
	DownSince time.Time `json:"down_since,omitempty"`
	RetryAt   time.Time `json:"retry_at,omitempty"`
	Error     string    `json:"error,omitempty"`
	// Code sorts Error (ollama_unreachable: no connection, nothing listens
	// there; timeout: connected, but no answer in time; ollama_error, ...),
	// so the window can say why in the person's language; Error stays the
	// cause.
	Code     ErrorCode `json:"code,omitempty"`
	Models   []string  `json:"models"`
	InFlight int       `json:"in_flight"`
}

// AppInfo describes the running app.
type AppInfo struct {
	Version string `json:"version"`
	DataDir string `json:"data_dir"`
	Mode    string `json:"mode"` // "desktop" or "serve"
	Locale  string `json:"locale"`
}
