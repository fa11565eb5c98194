package security

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// TestServeErrorCodes (issue 22.6): what the person got wrong or asked for
// in vain comes back from serve as a 4xx with its own code, never as 500
// "internal"; the same codes reach the desktop window through describe.
func TestServeErrorCodes(t *testing.T) {
	fake := ollamatest.New(t)
	srv := startServe(t, serveOptions{ollama: fake.URL()})
	var sess api.Session
	// A conversation to rename: ask starts one; ListSessions finds it.
	var ack struct {
		api.SendAck
		api.ErrorInfo
	}
	if st := callAPI(t, srv.addr, srv.token, "ChatService/Send", &ack, "", "hello", api.SendOptions{Model: world.Model}); st != http.StatusOK {
		t.Fatalf("send: %d %+v", st, ack.ErrorInfo)
	}
	sess.ID = ack.SessionID
	tests := []struct {
		name   string
		method string
		args   []any
		status int
		code   api.ErrorCode
	}{
		{"empty memory", "MemoryService/Add", []any{"  ", "fact"}, 400, api.ErrMemoryEmpty},
		{"unknown memory kind", "MemoryService/Add", []any{"I like tea", "mood"}, 400, api.ErrMemoryKind},
		{"unknown memory id", "MemoryService/Delete", []any{"no-such-memory"}, 404, api.ErrMemoryNotFound},
		{"edit unknown memory", "MemoryService/Edit", []any{"no-such-memory", "x", "fact"}, 404, api.ErrMemoryNotFound},
		{"empty title", "ChatService/Rename", []any{sess.ID, " "}, 400, api.ErrTitleEmpty},
		{"rename unknown session", "ChatService/Rename", []any{"no-such-session", "t"}, 404, api.ErrSessionNotFound},
		{"delete unknown session", "ChatService/Delete", []any{"no-such-session"}, 404, api.ErrSessionNotFound},
		{"restore unknown session", "ChatService/Restore", []any{"no-such-session"}, 404, api.ErrSessionNotFound},
		{"remove unknown document", "KnowledgeService/Remove", []any{"no-such-document"}, 404, api.ErrDocumentNotFound},
		{"unknown category", "KnowledgeService/Catalog", []any{"nonsense"}, 400, api.ErrUnknownCategory},
		{"nothing to import", "KnowledgeService/Import", []any{[]string{" "}}, 400, api.ErrNothingToImport},
		{"invalid settings", "SettingsService/Save", []any{api.Settings{OllamaHost: "ftp://x"}}, 400, api.ErrSettingsInvalid},
		{"grant a missing folder", "SettingsService/GrantFolder", []any{"/no/such/folder", false, false}, 404, api.ErrFolderNotFound},
		{"revoke a folder never granted", "SettingsService/RevokeFolder", []any{"/tmp"}, 404, api.ErrFolderNotGranted},
		{"no model name", "SettingsService/Pull", []any{" "}, 400, api.ErrModelNameEmpty},
		{"a native dialog in the browser", "KnowledgeService/ChooseFiles", []any{}, 400, api.ErrDesktopOnly},
		{"no such method", "ChatService/Frobnicate", []any{}, 404, api.ErrNoSuchMethod},
		{"wrong arguments", "ChatService/Rename", []any{"only one"}, 400, api.ErrBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var info api.ErrorInfo
			st := callAPI(t, srv.addr, srv.token, tt.method, &info, tt.args...)
			if st != tt.status || info.Code != tt.code || info.Message == "" {
				t.Fatalf("%s: %d %+v; want %d %s", tt.method, st, info, tt.status, tt.code)
			}
		})
	}
}

// TestUploadLimitCountsBytes (issue 22.8): the upload limit is on the
// file, not on its base64 form: a file of exactly 64 MiB is accepted and
// one byte more is refused as too large (413, upload_too_large).
func TestUploadLimitCountsBytes(t *testing.T) {
	fake := ollamatest.New(t)
	srv := startServe(t, serveOptions{ollama: fake.URL()})
	const limit = 64 << 20
	for _, tt := range []struct {
		size   int
		status int
	}{{limit, http.StatusOK}, {limit + 1, http.StatusRequestEntityTooLarge}, {limit - 1, http.StatusOK}} {
		// The importer refuses the .bin afterwards; Upload's answer is what
		// is tested here.
		content := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0}, tt.size))
		var out any
		st := callAPI(t, srv.addr, srv.token, "KnowledgeService/Upload", &out, "big.bin", content)
		if st != tt.status {
			t.Errorf("a file of %d bytes: status %d (%v), want %d", tt.size, st, out, tt.status)
		}
		if info, ok := out.(map[string]any); tt.status != http.StatusOK && (!ok || info["code"] != string(api.ErrUploadTooLarge)) {
			t.Errorf("a file of %d bytes: %v, want upload_too_large", tt.size, out)
		}
	}
}
