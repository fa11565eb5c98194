package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/archive"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// Export formats.
const (
	formatJSON     = "json"
	formatMarkdown = "md"
)

// exportTo writes the conversations ids (every live one, newest first,
// when ids is empty) to w as JSON (archive.Writer) or Markdown in lang,
// one conversation at a time. It returns how many it wrote. A
// conversation made only of attached files is titled after them in the
// Markdown, as the window names it (withFiles).
func (a *App) exportTo(ctx context.Context, ids []string, format, lang string, w io.Writer) (int, error) {
	st := a.store
	if len(ids) == 0 {
		all, err := st.ListSessions(ctx, "")
		if err != nil {
			return 0, err
		}
		for _, s := range all {
			ids = append(ids, s.ID)
		}
	}
	var out interface {
		Add(archive.Conversation) error
		Close() error
	}
	switch format {
	case formatJSON:
		out = archive.NewWriter(w)
	case formatMarkdown:
		out = archive.NewMarkdownWriter(w, lang, time.Local, time.Now()).WithLines(agent.Line)
	default:
		return 0, fmt.Errorf("%w: unknown export format %q: use md or json", errUsage, format)
	}
	for _, id := range ids {
		sess, err := st.Session(ctx, id)
		if err != nil {
			return 0, err
		}
		one := []api.Session{sess}
		a.withFiles(one)
		sess = one[0]
		msgs, err := st.Messages(ctx, id)
		if err != nil {
			return 0, err
		}
		if err := out.Add(archive.FromAPI(sess, msgs)); err != nil {
			return 0, fmt.Errorf("export: %w", err)
		}
	}
	return len(ids), out.Close()
}

// importFrom imports an export into the store. It reads the file twice
// (open is called for each reading): first to check all of it, so that a
// file with a problem anywhere stores nothing, then to store each
// conversation. A conversation whose id, or a message's, is taken is
// skipped when what is stored is the same, and stored as a copy under new
// ids when it differs (the one stored was continued after the export, or
// deleted).
func importFrom(ctx context.Context, st *store.Store, open func() (io.ReadCloser, error)) (api.ImportResult, error) {
	res := api.ImportResult{Sessions: []string{}}
	read := func(fn func(archive.Conversation) error) (int, error) {
		r, err := open()
		if err != nil {
			return 0, err
		}
		defer r.Close()
		return archive.Read(r, archive.DefaultLimits, fn)
	}
	if _, err := read(func(archive.Conversation) error { return ctx.Err() }); err != nil {
		return res, importError(err)
	}
	_, err := read(func(c archive.Conversation) error {
		id, outcome, err := importOne(ctx, st, c)
		if err != nil {
			return err
		}
		res.Conversations++
		switch outcome {
		case importedNew:
			res.Added++
		case importedCopy:
			res.Copies++
		case importedSame:
			res.Unchanged++
		}
		res.Sessions = append(res.Sessions, id)
		return nil
	})
	if err != nil {
		return res, importError(err)
	}
	return res, nil
}

type importOutcome int

const (
	importedNew importOutcome = iota
	importedCopy
	importedSame
)

// importOne stores one conversation and returns its id in the store.
func importOne(ctx context.Context, st *store.Store, c archive.Conversation) (string, importOutcome, error) {
	if c.PendingApproval {
		// The plan's working state (the agent's checkpoint) is not part of
		// an export, so it cannot be decided here: the plan stays in the
		// transcript, and the task is sent again to plan it anew.
		c.PendingApproval = false
		if last := len(c.Messages) - 1; last >= 0 && c.Messages[last].Status == api.StatusAwaitingApproval {
			c.Messages[last].Status = api.StatusComplete
		}
	}
	err := st.ImportSession(ctx, c.Session(), c.APIMessages())
	if !errors.Is(err, store.ErrExists) {
		return c.ID, importedNew, err
	}
	if same, err := stored(ctx, st, c); err != nil || same {
		return c.ID, importedSame, err
	}
	c.ID = store.NewID()
	// New ids given in the order of the old ones: the store lists a
	// conversation by id, and orders answers of equal time by it.
	var all []*archive.Message
	for i := range c.Messages {
		all = append(all, &c.Messages[i])
		for j := range c.Messages[i].Variants {
			all = append(all, &c.Messages[i].Variants[j])
		}
	}
	slices.SortStableFunc(all, func(a, b *archive.Message) int { return strings.Compare(a.ID, b.ID) })
	for _, m := range all {
		m.ID = store.NewID()
		if r := m.Result; r != nil {
			cp := *r
			cp.SessionID = c.ID
			m.Result = &cp
		}
	}
	return c.ID, importedCopy, st.ImportSession(ctx, c.Session(), c.APIMessages())
}

// stored reports whether the store holds c as it is.
func stored(ctx context.Context, st *store.Store, c archive.Conversation) (bool, error) {
	sess, err := st.Session(ctx, c.ID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil // deleted, or only a message id is taken
	}
	if err != nil {
		return false, err
	}
	msgs, err := st.Messages(ctx, c.ID)
	if err != nil {
		return false, err
	}
	a, err := json.Marshal(archive.FromAPI(sess, msgs))
	if err != nil {
		return false, err
	}
	b, err := json.Marshal(c)
	return bytes.Equal(a, b), err
}

// importError says what was wrong with the file in words the person can
// act on; nothing was stored. The English sentence stays the Message; the
// archive's case and its particulars go in Args, for the window and the
// command line to word it in the person's language
// ("error.import_invalid.case.<case>"), the raw words of the JSON decoder
// only as the muted "reason".
func importError(err error) error {
	var args map[string]string
	if p := (*archive.Problem)(nil); errors.As(err, &p) {
		args = maps.Clone(p.Args)
		args["case"] = p.Case
	}
	switch {
	case errors.Is(err, archive.ErrNotArchive):
		return &chat.Error{Info: api.ErrorInfo{Code: api.ErrImportNotExport,
			Message: "This file cannot be imported: it is " + strings.Replace(err.Error(), ": it is", ":", 1) + ".",
			Hint:    "Import a file made by `wayfinder export --format json` or by Export in the window; Markdown exports are for reading and cannot be imported.",
			Args:    args}}
	case errors.Is(err, archive.ErrInvalid):
		return &chat.Error{Info: api.ErrorInfo{Code: api.ErrImportInvalid,
			Message: "This file cannot be imported: " + strings.TrimPrefix(err.Error(), archive.ErrInvalid.Error()+": ") + ".",
			Hint:    "Nothing was imported. Export the conversations again, or correct the file where the message says.",
			Args:    args}}
	}
	return err
}

// Export writes conversations (every one when sessionIDs is empty) as
// Markdown ("md") or JSON ("json"), for the window to save or download;
// lang is the UI's language, for the Markdown's headings.
func (c *ChatService) Export(sessionIDs []string, format, lang string) (api.ExportFile, error) {
	var b strings.Builder
	n, err := c.app.exportTo(c.app.ctx, sessionIDs, format, lang, &b)
	if err != nil {
		return api.ExportFile{}, err
	}
	name := "wayfinder-conversations-" + time.Now().Format("2006-01-02")
	if len(sessionIDs) == 1 && n == 1 {
		sess, err := c.app.store.Session(c.app.ctx, sessionIDs[0])
		if err != nil {
			return api.ExportFile{}, err
		}
		one := []api.Session{sess}
		c.app.withFiles(one)
		title := sess.Title
		if title == "" {
			title = archive.FilesTitle(one[0].Files, lang)
		}
		name = fileName(title)
	}
	return api.ExportFile{Name: name + "." + format, Content: b.String()}, nil
}

// Import reads a JSON export given by content (a file the person chose in
// the window) and stores its conversations (see importFrom).
func (c *ChatService) Import(content string) (api.ImportResult, error) {
	if len(content) > maxUpload {
		return api.ImportResult{}, &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput,
			Message: fmt.Sprintf("The file is larger than %d MB.", maxUpload>>20), Hint: "Import it with `wayfinder import FILE` while the app is closed.",
			Args: map[string]string{"case": "import_too_large", "mb": strconv.Itoa(maxUpload >> 20)}}}
	}
	res, err := importFrom(c.app.ctx, c.app.store, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(content)), nil })
	if res.Conversations > 0 {
		c.app.events.Emit(api.EventSessions, api.SessionsChanged{})
	}
	return res, err
}

// fileName turns a title into a file name (Korean kept), as the window's
// guide export does.
func fileName(title string) string {
	f := strings.Map(func(r rune) rune {
		if r < 0x20 || strings.ContainsRune(`\/:*?"<>|`, r) {
			return ' '
		}
		return r
	}, title)
	f = strings.Join(strings.Fields(f), "-")
	if r := []rune(f); len(r) > 60 {
		f = string(r[:60])
	}
	if f = strings.Trim(f, "-."); f == "" {
		f = "wayfinder-conversation"
	}
	return f
}
