package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/fileperm"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/workflow"
)

// Shell is what only the desktop window can do: native dialogs and opening
// folders. Serve mode and the command line have none (nil), and the UI
// offers browser equivalents there (downloads, file inputs).
type Shell interface {
	// OpenFiles shows the files patterns match ("*.hwp") under filterName.
	OpenFiles(title, filterName string, patterns []string) ([]string, error)
	OpenFolder(title string) (string, error)
	OpenZIM(title, filterName string) (string, error)
	// SaveFile shows the files of defaultName's extension under filterName.
	SaveFile(title, defaultName, filterName string) (string, error)
	OpenPath(path string) error
}

var errNoShell = &chat.Error{Info: api.ErrorInfo{
	Code: api.ErrDesktopOnly, Message: "This works only in the desktop window.",
	Hint: "In the browser, drag files onto the page or use the download button.",
}}

func (a *App) desktop() (Shell, error) {
	a.shellMu.RLock()
	defer a.shellMu.RUnlock()
	if a.shell == nil {
		return nil, errNoShell
	}
	return a.shell, nil
}

// AttachShell is called by the desktop window once it exists.
func (a *App) AttachShell(s Shell) {
	a.shellMu.Lock()
	a.shell = s
	a.shellMu.Unlock()
}

// maxUpload bounds one uploaded file (base64 adds a third on the wire).
const maxUpload = 64 << 20

// ChooseFiles opens the native file dialog and returns the chosen paths.
func (k *KnowledgeService) ChooseFiles() ([]string, error) {
	sh, err := k.app.desktop()
	if err != nil {
		return nil, err
	}
	return sh.OpenFiles(k.app.dialogWords("dialog.importFiles"), k.app.dialogWords("dialog.documents"), documentPatterns())
}

// documentPatterns are the dialog's patterns for every kind the importer
// reads, in both cases: GTK's patterns are case-sensitive, and a camera or
// an old Windows program writes REPORT.PDF.
func documentPatterns() []string {
	var ps []string
	for _, ext := range importer.Extensions() {
		ps = append(ps, "*"+ext, "*"+strings.ToUpper(ext))
	}
	return ps
}

// dialogWords is a native dialog's words in the language the window
// speaks (the setting, else the system's).
func (a *App) dialogWords(key string) string {
	return say(key, a.lang())
}

// ChooseFolder opens the native folder dialog.
func (k *KnowledgeService) ChooseFolder() (string, error) {
	sh, err := k.app.desktop()
	if err != nil {
		return "", err
	}
	return sh.OpenFolder(k.app.dialogWords("dialog.importFolder"))
}

// Upload imports a file given by content, for drag and drop and browsers,
// which hand pages file contents but never paths, in the background like
// Import. The copy is kept in the data folder so citations keep working;
// content the library has already is not stored twice, a file of the name
// of an earlier upload replaces it, and a failed upload leaves nothing
// (knowledge.Base.Upload).
func (k *KnowledgeService) Upload(name, contentBase64 string) (string, error) {
	return k.startUpload("", name, contentBase64)
}

// startUpload checks an upload and imports it in the background, into the
// library (conversation "") or a conversation's own files; progress and
// the report arrive as events under the returned import id.
func (k *KnowledgeService) startUpload(conversation, name, contentBase64 string) (string, error) {
	name = filepath.Base(strings.TrimSpace(name))
	if name == "" || name == "." || name == ".." || name == string(filepath.Separator) {
		return "", api.NewError(api.ErrUploadNoName, "The file has no name.", "")
	}
	tooLarge := api.NewError(api.ErrUploadTooLarge, fmt.Sprintf("%s is larger than %d MB.", name, maxUpload>>20), "Import it from the desktop window, or split it.")
	// The limit is on the file's bytes: base64's padding must not count.
	padding := len(contentBase64) - len(strings.TrimRight(contentBase64, "="))
	if base64.StdEncoding.DecodedLen(len(contentBase64))-min(padding, 2) > maxUpload {
		return "", tooLarge
	}
	data, err := base64.StdEncoding.DecodeString(contentBase64)
	if err != nil {
		return "", api.NewError(api.ErrUploadDamaged, "The upload of "+name+" arrived damaged.", "Try again.")
	}
	if len(data) > maxUpload {
		return "", tooLarge
	}
	// Taken now, not when its import runs: files attached one after
	// another import side by side, and the first may end last.
	attached := time.Now()
	return k.keep(conversation, func(ctx context.Context, id string, progress func(api.ImportProgress)) api.ImportReport {
		return k.app.library.upload(ctx, id, conversation, name, bytes.NewReader(data), attached, progress)
	}), nil
}

// keep runs an upload or an attachment by path (put) in the background,
// into the library (conversation "") or a conversation's own files, and
// returns its import id: its progress and report arrive as events under
// that id, and CancelImport stops it, whichever it is.
func (k *KnowledgeService) keep(conversation string, put func(ctx context.Context, id string, progress func(api.ImportProgress)) api.ImportReport) string {
	a := k.app
	id := store.NewID()
	ctx, done := a.imports.start(a.ctx, id)
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		defer done()
		ready := false
		rep := put(ctx, id, func(p api.ImportProgress) {
			a.events.Emit(api.EventImport, p)
			a.imports.embedsAt(id, p)
			a.library.readAgain(p)
			if conversation != "" && p.Stage == string(knowledge.StageEmbedding) && !ready {
				// The file is in and found by its words (its copy in the
				// conversation's folder): the list names a conversation not
				// titled yet after it now, not minutes later when a local
				// model has embedded it.
				ready = true
				a.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: conversation})
			}
		})
		if conversation != "" {
			// The list names a conversation not titled yet after its files.
			a.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: conversation})
		}
		a.events.Emit(api.EventImportDone, rep)
	}()
	return id
}

// Workflow returns the agent graph in effect, for the live drawing.
func (s *SettingsService) Workflow() (api.Workflow, error) {
	def, err := workflow.Parse(s.app.workflowJSON())
	if err != nil {
		return api.Workflow{}, err
	}
	out := api.Workflow{Nodes: []api.WorkflowNode{}, Edges: []api.WorkflowEdge{}}
	for _, n := range def.Nodes {
		out.Nodes = append(out.Nodes, api.WorkflowNode{ID: n.ID, Type: n.Type})
	}
	for _, e := range def.Edges {
		out.Edges = append(out.Edges, api.WorkflowEdge{Source: e.Source, Target: e.Target, Port: e.SourcePort})
	}
	return out, nil
}

// SaveTextFile asks where to save text (a guide, conversations) and writes
// it; "" means the person cancelled.
func (s *SettingsService) SaveTextFile(defaultName, content string) (string, error) {
	sh, err := s.app.desktop()
	if err != nil {
		return "", err
	}
	name := filepath.Base(defaultName)
	kind, _ := importer.KindOf(name) // markdown or json: the dialog shows files of that kind
	lang := s.app.lang()
	path, err := sh.SaveFile(say("dialog.save", lang), name, kindName(string(kind), lang))
	if err != nil || path == "" {
		return "", err
	}
	if err := fileperm.WriteShared(path, []byte(content), s.app.umask); err != nil {
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return path, nil
}

// OpenDataDir shows the data folder in the file manager.
func (s *SettingsService) OpenDataDir() error {
	sh, err := s.app.desktop()
	if err != nil {
		return err
	}
	return sh.OpenPath(s.app.dataDir)
}

// Regenerate answers the last message again; the earlier answers stay as
// variants of the new one.
func (c *ChatService) Regenerate(sessionID string) (api.SendAck, error) {
	return c.app.chat.Regenerate(c.app.ctx, sessionID)
}

// ShowVariant shows another answer to a message (one of its variants) in
// its place; later turns continue from it.
func (c *ChatService) ShowVariant(sessionID, messageID, variantID string) (api.Message, error) {
	return c.app.chat.ShowVariant(c.app.ctx, sessionID, messageID, variantID)
}

// EditLast replaces the last message and runs it.
func (c *ChatService) EditLast(sessionID, text string) (api.SendAck, error) {
	return c.app.chat.EditLast(c.app.ctx, sessionID, text)
}

// workflowJSON is the agent's workflow: the person's own file when given,
// else the one built in.
func (a *App) workflowJSON() []byte {
	if a.customWorkflow != nil {
		return a.customWorkflow
	}
	return agent.DefaultWorkflow()
}

// loadWorkflow reads a person's workflow file; the agent validates it when
// it compiles, with every problem listed.
func loadWorkflow(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the workflow file: %w", err)
	}
	if !json.Valid(b) {
		return nil, errors.New("the workflow file " + path + " is not valid JSON")
	}
	return b, nil
}
