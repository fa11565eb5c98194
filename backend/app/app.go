package app

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/fileperm"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/mcp"
	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/server"
	"github.com/wayfinder-app/wayfinder/backend/settings"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/tools"
	"github.com/wayfinder-app/wayfinder/backend/version"
)

// App holds the backend for one run, whichever shell shows it.
type App struct {
	ctx     context.Context
	mode    string
	dataDir string
	log     *slog.Logger
	events  *relay
	lock    *flock.Flock // held while the app runs: one process per data folder
	// readOnly: another process owns the data folder (openReadOnly); nil
	// lock, agent and chat.
	readOnly bool
	umask    os.FileMode // the person's, for files saved outside the data folder

	store    *store.Store
	settings *settings.Store
	models   *modelClient
	memo     *llm.ContextFile // nil when read-only
	library  *library
	memory   *memory.Store
	agent    *agent.Agent
	chat     *chat.Service
	mcp      *mcp.Manager // the MCP servers of mcp.json; nil when read-only

	shellMu        sync.RWMutex
	shell          Shell  // native dialogs; nil outside the desktop window
	customWorkflow []byte // --workflow; nil: the built-in one

	// quit ends when Close begins: the status checks and downloads the app
	// started on its own end then, and Close waits for them (bg), so none
	// writes in the data folder (the models' context lengths, see
	// llm.ContextFile) or tells a window after Close returns.
	quit    context.Context
	endQuit context.CancelFunc

	bg        sync.WaitGroup // background work (imports) to wait for on close
	chatReady chan struct{}  // closed once chat is set
	pullMu    sync.Mutex
	pulls     map[string]context.CancelFunc
	imports   imports // background imports and uploads, by id, for CancelImport
}

// openApp opens the data directory and wires the services. Events go to
// whatever sink the shell attaches to the relay later.
func openApp(ctx context.Context, g globals, mode string, logger *slog.Logger) (_ *App, err error) {
	dir, err := g.resolvedDataDir()
	if err != nil {
		return nil, err
	}
	// Everything created from here on is private, and so becomes what an
	// older version left readable by others (see backend/fileperm), once
	// the folder is this process's: a command that finds it held goes on
	// to read it beside its holder (openReadOnly), and must not remove or
	// chmod a thing in it.
	umask := fileperm.Restrict()
	lock, err := lockDataDir(dir)
	if err != nil {
		return nil, err
	}
	if dropped, err := server.DropOpenToken(dir); err != nil {
		logger.Warn("drop an access token others could read", "err", err)
	} else if dropped {
		logger.Warn("removed serve's access token: other users could read it; serve makes a new one at its next start")
	}
	if err := fileperm.Tighten(dir); err != nil {
		logger.Warn("make the data folder private", "err", err)
	}
	st, err := store.Open(ctx, dir, logger)
	if err != nil {
		_ = lock.Unlock()
		return nil, fmt.Errorf("open the data folder %s: %w", dir, err)
	}
	a := &App{ctx: ctx, mode: mode, dataDir: dir, umask: umask, log: logger, events: &relay{}, lock: lock, store: st, pulls: map[string]context.CancelFunc{}, chatReady: make(chan struct{})}
	a.quit, a.endQuit = context.WithCancel(ctx)
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	if n, err := st.MarkInterrupted(ctx); err != nil {
		logger.Warn("recover replies of a previous run", "err", err)
	} else if n > 0 {
		logger.Info("replies cut off by a previous run were marked interrupted", "count", n)
	}
	if err := st.PurgeDeleted(ctx, time.Now().Add(-30*24*time.Hour)); err != nil {
		logger.Warn("purge deleted sessions", "err", err)
	}
	over, err := g.overrides()
	if err != nil {
		return nil, err
	}
	if a.settings, err = settings.Load(ctx, st, over); err != nil {
		return nil, err
	}
	for _, m := range a.settings.Migrated {
		logger.Warn("settings of an older version updated", "change", m)
	}
	cur := a.settings.Current()
	// The models' context lengths of the last run: until Ollama answers,
	// prompts are fitted to them rather than to llm.DefaultNumCtx.
	a.memo = llm.OpenContextFile(filepath.Join(dir, llm.ContextFileName), logger)
	if a.models, err = newModelClient(cur, logger, a.memo); err != nil {
		return nil, err
	}
	var pace vector.Pace // background embedding waits while a turn runs
	if mode == "desktop" || mode == "serve" {
		pace = a.waitTurns
	}
	// A model given with --embed-model is tried for this run: the saved
	// model's vectors are kept as they are for the next run without it.
	saved := a.settings.Saved().EmbedModel
	if a.library, err = openLibrary(ctx, st, dir, cur.EmbedModel, saved, a.models.embedder(cur.EmbedModel), pace,
		a.events.Emit, false, logger); err != nil {
		return nil, err
	}
	if a.memory, err = memory.OpenInDataDir(ctx, st.DB(), dir, cur.EmbedModel, saved, a.models, logger); err != nil {
		return nil, err
	}
	// A memory written during a turn ("remember that …") or by reflection
	// shows up at once in an open Memory screen.
	longTerm := agent.LongTerm{Store: a.memory, Changed: func() { a.events.Emit(api.EventMemories, api.MemoriesChanged{}) }}
	reg, err := tools.Standard(logger, tools.Deps{
		Retriever: a.library, Memory: longTerm, Search: webSearch{a.settings}, Weather: &tools.OpenMeteo{},
		Wikipedia: &tools.Wikipedia{Config: func() tools.WikipediaConfig {
			s := a.settings.Current()
			if !s.WikipediaEnabled {
				return tools.WikipediaConfig{}
			}
			return tools.WikipediaConfig{ZIM: s.WikipediaZIM, Online: s.WikipediaOnline}
		}},
		Folders: func() []api.FolderGrant { return a.settings.Current().Folders },
	})
	if err != nil {
		return nil, err
	}
	if a.customWorkflow, err = loadWorkflow(g.workflow); err != nil {
		return nil, err
	}
	a.mcp = mcp.New(dir, mcp.Options{Logger: logger})
	if err := a.mcp.Err(); err != nil {
		logger.Warn("mcp.json has mistakes: the servers they are in are off until it is fixed, the others run", "err", err)
	}
	a.agent, err = agent.New(agent.Deps{
		Model: a.models.agentModel, Tools: reg, Retriever: a.library, Attached: a.library.attached, Memory: longTerm,
		DB: st.DB(), Settings: a.settings.Current, Grants: st, MCP: a.mcp, Logger: logger,
		ReadOnlyAllowed: func(server string) bool { return a.mcp.Config().Servers[server].AutoApproveReadOnly },
	}, agent.Options{Workflow: a.customWorkflow})
	if err != nil {
		return nil, fmt.Errorf("start the agent: %w", err)
	}
	if err := a.forgetPurged(ctx); err != nil {
		logger.Warn("delete the checkpoints of purged conversations", "err", err)
	}
	a.settings.Watch(func(s api.Settings) {
		if err := a.models.reconfigure(s); err != nil {
			logger.Warn("apply new Ollama settings", "err", err)
		}
		a.useEmbedModel(s.EmbedModel)
		a.bg.Go(func() {
			if err := a.memory.UseEmbedModel(a.ctx, s.EmbedModel); err != nil {
				logger.Warn("switch memory embeddings", "model", s.EmbedModel, "err", err)
			}
		})
		a.bg.Go(a.emitStatus)
	})
	a.chat = chat.New(st, a.agent, a.events, chat.Options{Classify: llm.Classify, Logger: logger})
	if n, err := a.chat.Recover(ctx); err != nil {
		logger.Warn("offer again the decisions a previous run cut short", "err", err)
	} else if n > 0 {
		logger.Info("decisions cut short by a previous run wait again", "count", n)
	}
	close(a.chatReady)
	return a, nil
}

// openReadOnly opens a data folder that another Wayfinder owns, for the
// commands that only read (kb list, kb search, memory list, export): the
// database through a read-only connection beside the owner's (SQLite WAL:
// each read sees the last committed transaction), the knowledge base and
// its vector file without writing them (knowledge.OpenReadOnly,
// vector.ReadOnly), the memories' rows without their vectors. Settings and
// the agent are not needed, nor started. See the README's "Beside the
// open app" for what a reader may miss.
func openReadOnly(ctx context.Context, g globals, logger *slog.Logger) (_ *App, err error) {
	dir, err := g.resolvedDataDir()
	if err != nil {
		return nil, err
	}
	st, err := store.OpenReadOnly(dir)
	if err != nil {
		return nil, fmt.Errorf("read the data folder %s: %w", dir, err)
	}
	a := &App{ctx: ctx, mode: "read", dataDir: dir, log: logger, events: &relay{}, store: st, readOnly: true,
		pulls: map[string]context.CancelFunc{}, chatReady: make(chan struct{})}
	a.quit, a.endQuit = context.WithCancel(ctx)
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	over, err := g.overrides()
	if err != nil {
		return nil, err
	}
	if a.settings, err = settings.Load(ctx, readOnlySettings{st}, over); err != nil {
		return nil, err
	}
	cur := a.settings.Current()
	if a.models, err = newModelClient(cur, logger, nil); err != nil {
		return nil, err
	}
	if a.library, err = openLibrary(ctx, st, dir, cur.EmbedModel, a.settings.Saved().EmbedModel, a.models.embedder(cur.EmbedModel), nil, nil, true, logger); err != nil {
		return nil, err
	}
	if a.memory, err = memory.OpenReadOnly(ctx, st.DB(), logger); err != nil {
		return nil, err
	}
	return a, nil
}

// overrides are the settings given on the command line; they win over the
// saved ones and are not saved.
func (g globals) overrides() (settings.Overrides, error) {
	o := settings.Overrides{ChatModel: g.model, FallbackModel: g.fallback, EmbedModel: g.embedModel, Parallel: g.parallel}
	if g.wikipediaZIM != "" {
		p, err := filepath.Abs(g.wikipediaZIM)
		if err == nil {
			err = settings.CheckZIM(p)
		}
		if err != nil {
			return o, fmt.Errorf("--wikipedia-zim: %w", err)
		}
		o.WikipediaZIM = p
	}
	if g.parallel < 0 || g.parallel > 16 {
		return o, fmt.Errorf("--parallel %d: want 1 to 16", g.parallel)
	}
	if g.ollamaHost != "" {
		var err error
		if o.OllamaHost, err = settings.NormalizeHosts(g.ollamaHost); err != nil {
			return o, fmt.Errorf("--ollama-host: %w", err)
		}
	}
	return o, nil
}

// forgetPurged deletes the agent's checkpoints of conversations purged for
// good (PurgeDeleted, above), which would otherwise keep their words.
func (a *App) forgetPurged(ctx context.Context) error {
	ids, err := a.store.SessionIDs(ctx)
	if err != nil {
		return err
	}
	n, err := a.agent.ForgetThreads(ctx, func(thread string) bool { return ids[thread] })
	if n > 0 {
		a.log.Info("deleted the checkpoints of purged conversations", "count", n)
	}
	a.forgetAttached(ids)
	if n, ferr := knowledge.ForgetPromotionsExcept(ctx, a.store.DB(), ids); ferr != nil {
		a.log.Warn("forget the files purged conversations added to the library", "err", ferr)
	} else if n > 0 {
		a.log.Info("forgot the files purged conversations added to the library", "count", n)
	}
	if n, ferr := mcp.ForgetConversations(a.dataDir, ids); ferr != nil {
		a.log.Warn("delete the MCP attachments of purged conversations", "err", ferr)
	} else if n > 0 {
		a.log.Info("deleted the MCP attachments of purged conversations", "count", n)
	}
	return err
}

// waitTurns blocks while a chat turn runs, so that background embedding
// and an import's leave Ollama and the machine to the answer the person
// waits for; waiting hears that it blocks (an import's row says so).
func (a *App) waitTurns(ctx context.Context, waiting func()) error {
	select {
	case <-a.chatReady:
	case <-ctx.Done():
		return ctx.Err()
	}
	return a.chat.WaitIdle(ctx, waiting)
}

// Close stops running turns, imports and downloads, and closes the data.
func (a *App) Close() {
	a.endQuit()
	if a.chat != nil {
		a.chat.Shutdown()
	}
	if a.agent != nil {
		if err := a.agent.Close(); err != nil {
			a.log.Warn("close the agent", "err", err)
		}
	}
	if a.mcp != nil {
		a.mcp.Close()
	}
	// A running import ends where it is, leaving nothing half done, rather
	// than keep the window from closing while a slow model embeds.
	a.imports.stopAll()
	a.bg.Wait() // the downloads and status checks too, which quit ended
	if a.memo != nil {
		a.memo.Close() // a bound call still running (Status) notes in memory only
	}
	if a.library != nil {
		a.library.close()
	}
	if a.lock != nil && a.mode != "serve" && a.mode != "desktop" {
		// A command that exits now (kb remove, ...) gives the space it
		// freed back before it goes: the store's background loop, which
		// the window and serve mode have, would not run before it exits.
		if err := a.store.GiveBack(a.ctx, a.log); err != nil {
			a.log.Warn("give the database's free space back", "err", err)
		}
	}
	if err := a.store.Close(); err != nil {
		a.log.Warn("close database", "err", err)
	}
	if a.lock == nil {
		return // read-only: another process holds the lock
	}
	if err := a.lock.Unlock(); err != nil {
		a.log.Warn("unlock the data folder", "err", err)
	}
}

// emitStatus tells every window whether Ollama is ready now, so onboarding
// moves on at once after a new host or a finished download. Run it in bg:
// its /api/show notes the models' context lengths in the data folder, and
// Close must wait for that. Once Close has begun it tells no one: the
// check was cut short, and the window is going.
func (a *App) emitStatus() {
	ctx, cancel := context.WithTimeout(a.quit, 5*time.Second)
	defer cancel()
	st := settings.CheckStatus(ctx, a.models, a.settings.Current(), describe)
	if a.quit.Err() != nil {
		return
	}
	a.events.Emit(api.EventStatusChanged, st)
}

// AttachEvents sends the app's events to the desktop window, once it exists.
func (a *App) AttachEvents(sink chat.EventSink) { a.events.attach(sink) }

// Shutdown stops the turns in flight, when the window closes.
func (a *App) Shutdown() { a.chat.Shutdown() }

// InstanceID names the app open on its data folder (see instanceID).
func (a *App) InstanceID() string { return instanceID(a.dataDir) }

// Log is the app's logger.
func (a *App) Log() *slog.Logger { return a.log }

// relay forwards events to the shell's sink once the shell has one (the
// Wails runtime exists only after startup).
type relay struct {
	mu   sync.RWMutex
	sink chat.EventSink
}

func (r *relay) attach(s chat.EventSink) {
	r.mu.Lock()
	r.sink = s
	r.mu.Unlock()
}

func (r *relay) Emit(name string, payload any) {
	r.mu.RLock()
	s := r.sink
	r.mu.RUnlock()
	if s != nil {
		s.Emit(name, payload)
	}
}

// Describe turns any error of a bound service into what the person sees,
// naming the app's data folder in what it says about storage.
func (a *App) Describe(err error) api.ErrorInfo { return describeIn(a.dataDir, err) }

// describe is Describe where the data folder is not known.
func describe(err error) api.ErrorInfo { return describeIn("", err) }

// describeIn is Describe for the data folder dataDir ("" when unknown):
// errors that carry their own ErrorInfo keep it, a full disk or a data
// folder that cannot be written says which folder and what to do, and the
// rest is classified as a model client error.
func describeIn(dataDir string, err error) api.ErrorInfo {
	if info, ok := api.AsError(err); ok {
		return info
	}
	if info, ok := store.DescribeStorage(err, dataDir); ok {
		return info
	}
	switch {
	case errors.Is(err, knowledge.ErrNotFound):
		return api.ErrorInfo{Code: api.ErrDocumentNotFound, Message: "That document is no longer in the knowledge base.", Hint: "Refresh the list."}
	case errors.Is(err, store.ErrNotFound):
		return api.ErrorInfo{Code: api.ErrNotFound, Message: "That item no longer exists.", Hint: "Refresh the list.", Args: map[string]string{"case": "item"}}
	}
	return llm.Classify(err)
}

// ChatService is bound to the frontend: conversations and turns.
type ChatService struct{ app *App }

// ListSessions returns conversations, newest first, filtered by query. A
// conversation made by attaching files and not titled by a message yet
// comes with its files' names (Session.Files), which the list calls it
// by and a query finds it by.
func (c *ChatService) ListSessions(query string) ([]api.Session, error) {
	s, err := c.app.store.ListSessions(c.app.ctx, query)
	if err != nil {
		return nil, err
	}
	c.app.withFiles(s)
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return s, nil
	}
	every, err := c.app.store.ListSessions(c.app.ctx, "")
	if err != nil {
		return nil, err
	}
	c.app.withFiles(every)
	found := make(map[string]bool, len(s))
	for _, x := range s {
		found[x.ID] = true
	}
	for _, x := range every {
		if !found[x.ID] && slices.ContainsFunc(x.Files, func(f string) bool { return strings.Contains(strings.ToLower(f), q) }) {
			s = append(s, x)
		}
	}
	// In the store's order: most recently used first.
	slices.SortStableFunc(s, func(a, b api.Session) int {
		if d := b.UpdatedAt.Compare(a.UpdatedAt); d != 0 {
			return d
		}
		return strings.Compare(b.ID, a.ID)
	})
	return s, nil
}

// withFiles gives each conversation not titled yet (no title, no message)
// the names of its attached files.
func (a *App) withFiles(list []api.Session) {
	for i := range list {
		if list[i].Title != "" || list[i].MessageCount > 0 {
			continue
		}
		files, err := knowledge.AttachedFiles(a.uploadDir(), list[i].ID)
		if err != nil {
			a.log.Warn("list the files of a conversation", "session", list[i].ID, "err", err)
		}
		list[i].Files = files
	}
}

// Messages returns one conversation.
func (c *ChatService) Messages(sessionID string) ([]api.Message, error) {
	m, err := c.app.store.Messages(c.app.ctx, sessionID)
	return m, err
}

// Send starts a turn; "" as sessionID starts a new conversation, with
// opts.Model as its chat model ("" for the default).
func (c *ChatService) Send(sessionID, text string, opts api.SendOptions) (api.SendAck, error) {
	if err := checkModelName(opts.Model); err != nil {
		return api.SendAck{}, err
	}
	ack, err := c.app.chat.SendWith(c.app.ctx, sessionID, text, opts)
	return ack, err
}

// Create starts an empty conversation, with model as its chat model (""
// for the default): files attached in a new chat need a conversation to
// belong to before its first message, which then titles it.
func (c *ChatService) Create(model string) (api.Session, error) {
	if err := checkModelName(model); err != nil {
		return api.Session{}, err
	}
	s, err := c.app.store.CreateSession(c.app.ctx, "")
	if err != nil {
		return api.Session{}, err
	}
	if model = strings.TrimSpace(model); model != "" {
		if s, err = c.app.store.SetSessionModel(c.app.ctx, s.ID, model); err != nil {
			return api.Session{}, err
		}
	}
	c.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: s.ID})
	return s, nil
}

// SetModel sets the chat model a conversation's turns use from now on; ""
// goes back to the default chat model of the settings.
func (c *ChatService) SetModel(sessionID, model string) (api.Session, error) {
	if err := checkModelName(model); err != nil {
		return api.Session{}, err
	}
	s, err := c.app.store.SetSessionModel(c.app.ctx, sessionID, model)
	if err == nil {
		c.app.log.Info("conversation model set", "session", sessionID, "model", s.Model)
		c.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	}
	return s, err
}

// SetSettings sets a conversation's own system prompt, temperature and
// context size (nil fields follow Settings; all nil: none of its own).
func (c *ChatService) SetSettings(sessionID string, cs api.ConversationSettings) (api.Session, error) {
	cs, err := settings.ValidateConversation(cs)
	if err != nil {
		return api.Session{}, settings.Refusal(err)
	}
	s, err := c.app.store.SetSessionSettings(c.app.ctx, sessionID, cs)
	if err == nil {
		c.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	}
	return s, err
}

// checkModelName refuses what cannot be an Ollama model name, before it is
// kept with a conversation.
func checkModelName(name string) error {
	if len(name) > 200 || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput, Message: "That is not a model name.", Hint: "Choose a model from the list.",
			Args: map[string]string{"case": "model_name"}}}
	}
	return nil
}

// Decide answers the plan a conversation waits on: approve (optionally with
// an edited list of sub-tasks), revise with feedback, or cancel.
func (c *ChatService) Decide(sessionID string, decision api.ApprovalDecision) (api.SendAck, error) {
	return c.app.chat.Decide(c.app.ctx, sessionID, decision)
}

// Stop ends the reply being written in a conversation.
func (c *ChatService) Stop(sessionID string) error {
	c.app.chat.Stop(sessionID)
	return nil
}

// Rename retitles a conversation.
func (c *ChatService) Rename(sessionID, title string) (api.Session, error) {
	s, err := c.app.store.RenameSession(c.app.ctx, sessionID, title)
	if err == nil {
		c.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	}
	return s, err
}

// Delete hides a conversation; Restore undoes it.
func (c *ChatService) Delete(sessionID string) error {
	c.app.chat.Stop(sessionID)
	err := c.app.store.DeleteSession(c.app.ctx, sessionID)
	if err == nil {
		c.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	}
	return err
}

// Restore brings back a deleted conversation.
func (c *ChatService) Restore(sessionID string) (api.Session, error) {
	s, err := c.app.store.RestoreSession(c.app.ctx, sessionID)
	if err == nil {
		c.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	}
	return s, err
}

// Attachment gives the window a tool's picture of a conversation (an MCP
// tool's image result) as a data: URL, so the same call works in the
// window and in the browser. Only a PNG, JPEG, GIF or WebP image, as its
// own bytes say, of at most 8 MB, named as Wayfinder names them, is given
// (mcp.ReadImage); anything else is an invalid_input error.
func (c *ChatService) Attachment(sessionID, name string) (api.AttachmentImage, error) {
	mt, data, err := mcp.ReadImage(c.app.dataDir, sessionID, name)
	if err != nil {
		return api.AttachmentImage{}, &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput,
			Message: "This attachment cannot be shown here.", Hint: "It stays in the data folder, under " + mcp.AttachmentsDir + ".",
			Args: map[string]string{"case": "attachment_hidden", "dir": mcp.AttachmentsDir}}, Err: err}
	}
	return api.AttachmentImage{MIME: mt, DataURL: "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data)}, nil
}

// SettingsService is bound to the frontend: settings, onboarding, models.
type SettingsService struct{ app *App }

// Get returns the settings in effect.
func (s *SettingsService) Get() (api.Settings, error) { return s.app.settings.Current(), nil }

// Save validates and stores settings.
func (s *SettingsService) Save(in api.Settings) (api.Settings, error) {
	out, err := s.app.settings.Save(s.app.ctx, in)
	return out, err
}

// ToolGrants lists the tools the person allowed to run without asking
// ("always for this tool" in the approval dialog).
func (s *SettingsService) ToolGrants() ([]api.ToolGrant, error) {
	return s.app.store.ToolGrants(s.app.ctx)
}

// RevokeToolGrant takes "always" back: the tool asks again.
func (s *SettingsService) RevokeToolGrant(tool string) error {
	return s.app.store.RevokeTool(s.app.ctx, tool)
}

// Status says whether Ollama answers and has the configured models.
func (s *SettingsService) Status() (api.OllamaStatus, error) {
	ctx, cancel := context.WithTimeout(s.app.quit, 5*time.Second)
	defer cancel()
	return settings.CheckStatus(ctx, s.app.models, s.app.settings.Current(), describe), nil
}

// CheckNow is Status when the person asks for it ("Check now"): with
// several hosts, those that are down are probed now, not when their wait
// runs out, since the person may just have started Ollama there. The
// window's own checks every few seconds use Status, which keeps the waits.
func (s *SettingsService) CheckNow() (api.OllamaStatus, error) {
	s.app.models.RetryNow()
	return s.Status()
}

// Models lists what Ollama has, with capabilities.
func (s *SettingsService) Models() ([]api.ModelInfo, error) {
	ctx, cancel := context.WithTimeout(s.app.quit, 10*time.Second)
	defer cancel()
	m, err := s.app.models.Models(ctx)
	return m, err
}

// Pull downloads a model in the background; progress arrives as
// models.pull_progress events, the last one with done=true.
func (s *SettingsService) Pull(model string) error {
	model = strings.TrimSpace(model)
	if model == "" {
		return api.NewError(api.ErrModelNameEmpty, "Name the model to download, e.g. "+settings.DefaultChatModel, "").With("model", settings.DefaultChatModel)
	}
	a := s.app
	a.pullMu.Lock()
	if a.pulls[model] != nil {
		a.pullMu.Unlock()
		return nil // already downloading; progress keeps coming
	}
	// Close ends the download (quit) and waits for its last event.
	ctx, cancel := context.WithCancel(a.quit)
	a.pulls[model] = cancel
	a.pullMu.Unlock()
	a.bg.Go(func() {
		defer func() {
			cancel()
			a.pullMu.Lock()
			delete(a.pulls, model)
			a.pullMu.Unlock()
		}()
		err := a.models.Pull(ctx, model, func(p api.PullProgress) { a.events.Emit(api.EventPullProgress, p) })
		last := api.PullProgress{Model: model, Status: "success", Done: true}
		var missed *llm.MissedHosts
		switch {
		case errors.As(err, &missed) && ctx.Err() == nil:
			// Downloaded on the hosts that answered: the model works.
			last.Missed = missed.Hosts
			a.log.Warn("model not downloaded on every Ollama host", "model", model, "err", err)
		case err != nil && ctx.Err() != nil:
			// Cancelled (CancelPull, or the app closing): Ollama keeps
			// what it downloaded and a later pull resumes from there.
			last.Status, last.Cancelled = "cancelled", true
		case err != nil:
			info := describe(err)
			last.Status, last.Error = "error", &info
		}
		a.events.Emit(api.EventPullProgress, last)
		a.emitStatus()
	})
	return nil
}

// CancelPull stops a download Pull started; the last progress event says
// it was cancelled. A model that is not downloading is not an error.
func (s *SettingsService) CancelPull(model string) error {
	a := s.app
	a.pullMu.Lock()
	cancel := a.pulls[strings.TrimSpace(model)]
	a.pullMu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

// DeleteModel removes a model from Ollama, for good (the window asks
// first). Conversations that used it keep their messages; sending in them
// waits until another model is chosen or it is downloaded again.
func (s *SettingsService) DeleteModel(model string) error {
	model = strings.TrimSpace(model)
	if err := checkModelName(model); err != nil || model == "" {
		return &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput, Message: "Name the model to delete.", Args: map[string]string{"case": "delete_model_name"}}}
	}
	ctx, cancel := context.WithTimeout(s.app.ctx, 30*time.Second)
	defer cancel()
	if err := s.app.models.Delete(ctx, model); err != nil {
		return err
	}
	s.app.log.Info("model deleted", "model", model)
	s.app.bg.Go(s.app.emitStatus)
	return nil
}

// Info describes the running app.
func (s *SettingsService) Info() (api.AppInfo, error) {
	return api.AppInfo{Version: version.Current().Version, DataDir: s.app.dataDir, Mode: s.app.mode, Locale: osLocale()}, nil
}

// Ready is called by the frontend once it has mounted and received Info: the
// version it got back proves a full round trip through the bindings. The log
// line is what the desktop smoke test and the startup benchmark wait for.
func (s *SettingsService) Ready(gotVersion string) error {
	if want := version.Current().Version; gotVersion != want {
		return fmt.Errorf("frontend reported version %q, backend is %q", gotVersion, want)
	}
	s.app.log.Info("frontend ready", "mode", s.app.mode, "version", gotVersion)
	return nil
}

// Services are the values bound to the frontend, by name: the desktop
// window binds them (window.go.app.ChatService…), serve mode dispatches
// POST /api/ChatService/… to them.
func (a *App) Services() map[string]any {
	return map[string]any{
		"ChatService":      &ChatService{a},
		"SettingsService":  &SettingsService{a},
		"KnowledgeService": &KnowledgeService{a},
		"MemoryService":    &MemoryService{a},
		"MCPService":       &MCPService{a},
	}
}

// osLocale is the person's language from the environment ("ko", "en", ...).
func osLocale() string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := os.Getenv(v); l != "" && l != "C" && l != "POSIX" {
			lang, _, _ := strings.Cut(l, "_")
			lang, _, _ = strings.Cut(lang, ".")
			return strings.ToLower(lang)
		}
	}
	return "en"
}
