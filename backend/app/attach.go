package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
)

// Attach imports a file given by its content (attached or dropped on the
// message box) into one conversation's own files: that conversation's
// searches and retrieve_docs see it, no other conversation and not the
// library, until AddToLibrary. It returns the import id; progress and
// the report arrive as Upload's do.
func (k *KnowledgeService) Attach(sessionID, name, contentBase64 string) (string, error) {
	if _, err := k.app.store.Session(k.app.ctx, sessionID); err != nil {
		return "", err
	}
	return k.startUpload(sessionID, name, contentBase64)
}

// ChooseAttachments opens the native file dialog to attach files to a
// conversation (the message box's paperclip in the desktop window): the
// documents Wayfinder reads, under a title in the window's language. It
// returns the chosen paths, none when the person cancelled; AttachPath
// then takes each. The browser's file chooser of the desktop window's
// webview would show every file, in the system's language, and hand the
// page each file's whole content to send back in base64.
func (k *KnowledgeService) ChooseAttachments() ([]string, error) {
	sh, err := k.app.desktop()
	if err != nil {
		return nil, err
	}
	return sh.OpenFiles(k.app.dialogWords("dialog.attachFiles"), k.app.dialogWords("dialog.documents"), documentPatterns())
}

// AttachPath imports a file by its path (chosen in ChooseAttachments'
// dialog, or dropped on the desktop window) into one conversation's own
// files, as Attach does one given by content: the same copy kept, rows,
// progress, Stop and report, under the import id it returns. Its size is
// bounded only by the importer's own budgets, not by Attach's, which is
// the content's crossing of the bridge in base64. It is the person's
// file, as a path given to Import is, and grants nothing: read_file still
// reads only folders granted in Settings. A file that is missing, not
// plain or of a kind Wayfinder does not read fails in its report, as an
// upload of it would.
func (k *KnowledgeService) AttachPath(sessionID, path string) (string, error) {
	if _, err := k.app.store.Session(k.app.ctx, sessionID); err != nil {
		return "", err
	}
	path = strings.TrimSpace(path)
	if !filepath.IsAbs(path) {
		// The window's working folder means nothing to the person.
		return "", api.NewError(api.ErrInvalidInput, fmt.Sprintf("%q is not a full path to a file.", path), "Choose the file with the paperclip.")
	}
	path = filepath.Clean(path)
	attached := time.Now() // as startUpload's
	return k.keep(sessionID, func(ctx context.Context, id string, progress func(api.ImportProgress)) api.ImportReport {
		return k.app.library.attachFile(ctx, id, sessionID, path, attached, progress)
	}), nil
}

// uploadDir is where the library keeps uploads, conversations' files under
// it (knowledge.Options.UploadDir).
func (a *App) uploadDir() string { return filepath.Join(a.dataDir, "uploads") }

// Attached lists the documents of a conversation's own files.
func (k *KnowledgeService) Attached(sessionID string) ([]api.KBDocument, error) {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return nil, err
	}
	docs, err := kb.ConversationDocuments(k.app.ctx, sessionID)
	if errors.Is(err, knowledge.ErrConversation) {
		return nil, &chat.Error{Info: api.ErrorInfo{Code: api.ErrNotFound, Message: "That conversation no longer exists.", Args: map[string]string{"case": "conversation"}}}
	}
	if err != nil {
		return nil, err
	}
	// A file whose embedding was left to the background says so, so that
	// a reopened conversation shows it as the window that attached it did.
	pending, byDoc, paused := k.app.library.pendingSources(), k.app.library.pendingDocs(), k.app.library.pausedSources()
	out := make([]api.KBDocument, len(docs))
	for i, d := range docs {
		out[i] = api.KBDocument{ID: d.ID, Title: d.Title, Source: d.Source, Kind: d.Kind, Size: d.FileSize,
			Pages: d.Pages, Unit: d.Unit, Chunks: d.Chunks, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
			EmbedPending: pending[d.Source] > 0, Pending: byDoc[d.ID], EmbedPaused: pending[d.Source] > 0 && paused[d.Source]}
	}
	return out, nil
}

// attached names a conversation's own files for the agent, which searches
// them for every message of that conversation. A conversation it cannot
// list has none: the turn goes on as the router decided.
func (l *library) attached(ctx context.Context, conversation string) []string {
	kb, err := l.base(ctx)
	if err != nil {
		return nil
	}
	docs, err := kb.ConversationDocuments(ctx, conversation)
	if err != nil {
		if !errors.Is(err, knowledge.ErrConversation) {
			l.log.Warn("list a conversation's files", "conversation", conversation, "err", err)
		}
		return nil
	}
	names := make([]string, len(docs))
	for i, d := range docs {
		names[i] = d.Title
	}
	return names
}

// AddToLibrary makes a conversation's file (source, as Attached lists it)
// part of the whole library, without importing it again; it returns where
// the file is kept now, and whether its meaning is still being indexed.
//
// A file still embedding is in and found by its words: it joins the
// library at once, not when a local model has embedded it minutes later
// (the import holds the knowledge base's write lock until then). Its
// import stops, which leaves every passage not embedded yet to the vector
// index's background embedding (knowledge: a stop while a file embeds),
// and the embedding goes on there, in the library. A new version of the
// file being read is waited for (knowledge.Promote: only its reading),
// and it is what joins the library.
func (k *KnowledgeService) AddToLibrary(sessionID, source string) (api.LibraryFile, error) {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return api.LibraryFile{}, err
	}
	if kb.ConversationOf(source) == sessionID {
		if err := k.stopEmbedding(source); err != nil {
			return api.LibraryFile{}, err
		}
	}
	moved, err := kb.Promote(k.app.ctx, sessionID, source)
	switch {
	case errors.Is(err, knowledge.ErrNameTaken):
		return api.LibraryFile{}, &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput,
			Message: "The library already has a file named " + filepath.Base(source) + ".",
			Hint:    "Rename the file and attach it again, or remove the library's file first.",
			Args:    map[string]string{"case": "name_taken", "file": filepath.Base(source)}}}
	case errors.Is(err, os.ErrNotExist):
		return api.LibraryFile{}, notAttached(source)
	case err != nil:
		return api.LibraryFile{}, err
	}
	// A conversation named after its files is named after one fewer.
	k.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	// A file whose embedding the person stopped stays paused there
	// (vector.Index.Relabel moves the pause), and says so.
	// Other windows are told it is paused under its new name, so that
	// their Knowledge screen lists it paused, with Resume.
	to := moved.Source
	left := k.app.library.pendingSources()[to]
	paused := left > 0 && k.app.library.pausedSources()[to]
	if paused {
		k.app.library.tell(api.EmbedPauseChanged{Source: to, Paused: true})
	}
	// Its record's id and documents (Promote kept it), which bring its row
	// back after a reload; its passages, for "N of M passages left".
	out := api.LibraryFile{ID: moved.ID, Source: to, EmbedPending: left > 0, EmbedPaused: paused, Pending: left, Chunks: moved.Chunks, DocIDs: moved.DocIDs}
	// Every window with the conversation open makes its row (the desktop
	// window and serve's tabs alike: the same events).
	k.app.events.Emit(api.EventAddedToLibrary, api.AddedToLibrary{SessionID: sessionID, File: out})
	return out, nil
}

// AddedToLibrary lists the files a conversation added to the library,
// oldest first, each as it is there now: indexing its meaning, paused,
// done, or some or all of its documents removed since. A reloaded window,
// or one reopened after a restart, says of them what the window that
// added them said.
func (k *KnowledgeService) AddedToLibrary(sessionID string) ([]api.LibraryFile, error) {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return nil, err
	}
	ps, err := kb.Promotions(k.app.ctx, sessionID)
	if err != nil {
		return nil, err
	}
	pending, paused := k.app.library.pendingSources(), k.app.library.pausedSources()
	out := make([]api.LibraryFile, len(ps))
	for i, p := range ps {
		f := api.LibraryFile{ID: p.ID, Source: p.Source, DocIDs: p.DocIDs, Chunks: p.Chunks}
		if len(p.Left) > 0 {
			f.Pending = pending[p.Source]
			f.EmbedPending = f.Pending > 0
			f.EmbedPaused = f.EmbedPending && paused[p.Source]
		}
		left := make(map[string]bool, len(p.Left))
		for _, id := range p.Left {
			left[id] = true
		}
		for _, id := range p.DocIDs {
			if !left[id] {
				f.Removed = append(f.Removed, id)
			}
		}
		out[i] = f
	}
	return out, nil
}

// DismissAdded forgets a conversation's record of a file it added to the
// library (id as AddedToLibrary gives it): the person dismissed its row,
// which does not come back. The file stays in the library.
func (k *KnowledgeService) DismissAdded(sessionID string, id int64) error {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return err
	}
	return kb.ForgetPromotion(k.app.ctx, sessionID, id)
}

// RemoveAttached takes a file (source, as Attached lists it) out of a
// conversation: its documents, its passages and its copy are deleted. A
// file still embedding goes at once, as with AddToLibrary.
func (k *KnowledgeService) RemoveAttached(sessionID, source string) error {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return err
	}
	if sessionID == "" || kb.ConversationOf(source) != sessionID {
		return notAttached(source)
	}
	if err := k.stopEmbedding(source); err != nil {
		return err
	}
	n, err := kb.RemoveSource(k.app.ctx, source)
	if err != nil {
		return err
	}
	k.app.library.forgetPaused()
	if n == 0 {
		return notAttached(source)
	}
	// A conversation named after its files is named after one fewer.
	k.app.events.Emit(api.EventSessions, api.SessionsChanged{SessionID: sessionID})
	// Another window's chips and rows of the file go at once.
	k.app.events.Emit(api.EventRemoved, api.KnowledgeRemoved{DocIDs: []string{}, Sources: []string{source}, Conversation: sessionID})
	return nil
}

// stopEmbedding stops the import embedding source, if one does, and waits
// for it to end: the file is in, found by its words, and its passages not
// embedded yet are left to the vector index's background embedding.
func (k *KnowledgeService) stopEmbedding(source string) error {
	ended := k.app.imports.stopEmbedding(source)
	if ended == nil {
		return nil
	}
	select {
	case <-ended:
		return nil
	case <-k.app.ctx.Done():
		return k.app.ctx.Err()
	}
}

// notAttached says a conversation's file is not there (any more).
func notAttached(source string) error {
	return &chat.Error{Info: api.ErrorInfo{Code: api.ErrNotFound, Message: filepath.Base(source) + " is no longer attached to this conversation.", Hint: "Refresh the list.",
		Args: map[string]string{"case": "attachment", "file": filepath.Base(source)}}}
}

// forgetAttached deletes, in the background, the attached files (and
// their documents) of conversations purged for good: the folder exists
// only once a file was attached, so most starts open no knowledge base.
func (a *App) forgetAttached(live map[string]bool) {
	entries, _ := os.ReadDir(filepath.Join(a.uploadDir(), ".conversations"))
	var gone []string
	for _, e := range entries {
		if e.IsDir() && !live[e.Name()] {
			gone = append(gone, e.Name())
		}
	}
	if len(gone) == 0 {
		return
	}
	a.bg.Go(func() {
		kb, err := a.library.base(a.ctx)
		if err != nil {
			a.log.Warn("the attached files of purged conversations not deleted", "err", err)
			return
		}
		for _, id := range gone {
			if n, err := kb.ForgetConversation(a.ctx, id); err != nil {
				a.log.Warn("delete the attached files of a purged conversation", "conversation", id, "err", err)
			} else {
				a.log.Info("deleted the attached files of a purged conversation", "conversation", id, "documents", n)
			}
		}
	})
}
