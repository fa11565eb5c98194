package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/archive"
)

const sessionsUsage = "sessions [--json] [QUERY]"

// sessionsList is the command that shows the conversations' ids: what a
// wrong or missing `--session` points at. Without it a conversation begun
// in the window could not be continued with `ask --session` (only `ask`'s
// own last line printed an id).
const sessionsList = "wayfinder sessions"

// runSessions lists the conversations, newest first, as the sidebar does
// (QUERY searches their titles, messages and files as its search box
// does), with the ids `ask --session` and `export --session` take.
func runSessions(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("sessions", sessionsUsage, &g, s)
	asJSON := fs.Bool("json", false, "print the conversations as JSON: id, title, created_at, updated_at, message_count, pending_approval, model")
	if err := fs.Parse(args); err != nil {
		return err
	}
	query := strings.TrimSpace(strings.Join(fs.Args(), " "))
	a, err := openCLI(ctx, g, s, true)
	if err != nil {
		return err
	}
	defer a.Close()
	list, err := (&ChatService{a}).ListSessions(query)
	if err != nil {
		return err
	}
	if *asJSON {
		if list == nil {
			list = []api.Session{}
		}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	langName := cliLanguage(a.settings.Current().Language)
	lang := langIndex(langName)
	switch {
	case len(list) == 0 && query != "":
		sayLine(s.out, "", "  ", say("sessions.noMatch", lang, "query", clipped(query, echoColumns)))
		return nil
	case len(list) == 0:
		sayLine(s.out, "", "  ", say("sessions.none", lang))
		return nil
	}
	w := newTable(s.out)
	fmt.Fprintln(w, say("sessions.listHeadings", lang))
	for _, x := range list {
		title := sessionTitle(x, langName)
		if x.PendingApproval {
			title += " " + say("sessions.pending", lang)
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", x.ID, x.UpdatedAt.Local().Format("2006-01-02 15:04"), x.MessageCount, title)
	}
	return w.Flush()
}

// sessionTitle is a conversation's title on one line as the list names
// it: its own, else its files' ("a.md and b.txt"), else untitled.
func sessionTitle(x api.Session, lang string) string {
	title := strings.Join(strings.Fields(x.Title), " ")
	if title == "" {
		title = archive.FilesTitle(x.Files, lang)
	}
	if title == "" {
		title = say("sessions.untitled", langIndex(lang))
	}
	return title
}

// sessionByPrefix is the conversation whose id is id or begins with it
// (at least minIDPrefix characters): one that is not there, or a prefix
// of several, is said in the command's language and points at
// `wayfinder sessions`.
func sessionByPrefix(ctx context.Context, a *App, id string) (api.Session, error) {
	list, err := a.store.ListSessions(ctx, "")
	if err != nil {
		return api.Session{}, err
	}
	return byIDPrefix(cliLanguage(a.settings.Current().Language), "conversation", sessionsList, id, list, func(x api.Session) (string, string) {
		return x.ID, sessionTitle(x, cliLanguage(a.settings.Current().Language))
	})
}
