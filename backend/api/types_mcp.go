// MCP servers and their tools.

package api

// MCPState is where an MCP server is in its life.
type MCPState string

const (
	MCPOff      MCPState = "off"      // switched off by the person
	MCPIdle     MCPState = "idle"     // not started yet: servers start when first needed
	MCPStarting MCPState = "starting" // being started
	MCPReady    MCPState = "ready"    // running, its tools listed
	MCPFailed   MCPState = "failed"   // did not start or stopped; Error and Stderr say why
	MCPInvalid  MCPState = "invalid"  // its entry in mcp.json has mistakes (Problems); it does not start
)

// MCPProblem is one mistake in an entry of mcp.json: Code is a case of
// "error.invalid_input.case.<code>" in frontend/src/i18n and Args its
// particulars (name, url, transport, field, line), for the window to word
// it in the person's language; Message is the English.
type MCPProblem struct {
	Code    string            `json:"code"`
	Args    map[string]string `json:"args,omitempty"`
	Message string            `json:"message"`
}

// MCPServer is one MCP server as Settings, `wayfinder mcp list` and
// `doctor` show it.
type MCPServer struct {
	Name      string `json:"name"`
	Transport string `json:"transport"` // "stdio" or "http"
	// Command is the command line of a stdio server; URL the address of an
	// HTTP one.
	Command             string   `json:"command,omitempty"`
	URL                 string   `json:"url,omitempty"`
	Enabled             bool     `json:"enabled"`
	AutoApproveReadOnly bool     `json:"auto_approve_read_only"`
	State               MCPState `json:"state"`
	// Error says why the server failed; Stderr is the end of what it wrote
	// on its standard error (the reason, more often than not).
	Error  string `json:"error,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// Reason is why it failed as a code ("mcp.reason.<code>" in
	// frontend/src/i18n; the mcp package's Reason* constants) and
	// ReasonArgs its particulars (command, url, seconds): the window
	// words them in the person's language, Error staying the detail.
	Reason     string            `json:"reason,omitempty"`
	ReasonArgs map[string]string `json:"reason_args,omitempty"`
	// RetryIn is how many seconds until a failed server is tried again.
	RetryIn int `json:"retry_in,omitempty"`
	// Problems are the mistakes of an invalid entry, each its own line.
	Problems []MCPProblem `json:"problems,omitempty"`
	Tools    []MCPTool    `json:"tools"`
}

// MCPTool is one tool of an MCP server.
type MCPTool struct {
	Name string `json:"name"` // as the server names it
	// FullName is the name the model calls it by: server__tool.
	FullName    string `json:"full_name"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	// ReadOnly: the server says the tool changes nothing (readOnlyHint).
	ReadOnly bool `json:"read_only"`
}

// MCPServerInput is a server the person adds in Settings: a command (and
// its arguments) or a URL.
type MCPServerInput struct {
	Name    string            `json:"name"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	URL     string            `json:"url"`
	Env     map[string]string `json:"env"`
}
