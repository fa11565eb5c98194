package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// kbUsage is each kb command's own syntax: its --help and the mistake of
// leaving out what it needs say that one, where every one of them printed
// the whole group's line ("wayfinder: wayfinder kb import PATH... | list |
// remove ID | search [--top N] …" for a search with no words).
var kbUsage = map[string]string{
	"import":  "kb import PATH...",
	"list":    "kb list",
	"remove":  "kb remove ID",
	"search":  "kb search [--top N] [--json] [--scope documents|catalog|all] [--per-doc N] [--floor F] QUERY",
	"extract": "kb extract FILE",
}

// kbMissing is the mistake of each kb command given the wrong number of
// arguments: what to give, with an example.
var kbMissing = map[string]string{
	"import":  "usage.kbImport",
	"remove":  "usage.kbRemove",
	"search":  "usage.kbSearch",
	"extract": "usage.kbExtract",
}

func runKB(ctx context.Context, g globals, args []string, s stdio) error {
	const usage = "kb import PATH... | list | remove ID | search [--top N] [--json] [--scope documents|catalog|all] [--per-doc N] [--floor F] QUERY | extract FILE"
	if err := helpFor(args, usage, s); err != nil {
		return err
	}
	if len(args) == 0 {
		return usageMistake("usage.kbWhich")
	}
	sub, args := args[0], args[1:]
	own, known := kbUsage[sub]
	if !known {
		return unknownSub("kb", sub, usage)
	}
	fs := subFlags("kb "+sub, own, &g, s)
	top := 5
	asJSON := false
	scope, perDoc, floor := "", 0, 0.0
	if sub == "search" {
		fs.IntVar(&top, "top", top, "how many passages to show")
		fs.BoolVar(&asJSON, "json", false, "print JSON: id, source, page, unit, score, text")
		fs.StringVar(&scope, "scope", "documents", "what to search: documents (your files), catalog (the built-in AI tools) or all")
		fs.IntVar(&perDoc, "per-doc", 0, "passages of one document at most (0: one, -1: no limit)")
		fs.Float64Var(&floor, "floor", 0, fmt.Sprintf("relevance floor, the share of the query a passage must match (0: %.2f, -1: none)", knowledge.DefaultFloor))
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	// A query of spaces alone searches for nothing: it is a mistake, not
	// "Nothing found for “ ”".
	if sub == "search" && strings.TrimSpace(strings.Join(args, "")) == "" {
		args = nil
	}
	need := map[string]int{"import": -1, "list": 0, "remove": 1, "search": -1, "extract": 1}[sub]
	switch {
	case sub == "list" && len(args) > 0:
		return usageMistake("usage.noArguments", "command", "kb list", "args", quotedList(args))
	case need >= 0 && len(args) != need, need < 0 && len(args) == 0:
		return usageMistake(kbMissing[sub])
	}
	sc, err := knowledge.ParseScope(scope)
	if sub == "search" && err != nil {
		return usageMistake("usage.scope", "scope", strconv.Quote(scope))
	}
	a, err := openCLI(ctx, g, s, sub != "import" && sub != "remove")
	if err != nil {
		return err
	}
	defer a.Close()
	lang := a.lang()
	switch sub {
	case "import":
		return kbImport(ctx, a, args, s)
	case "list":
		docs, err := a.library.documents(ctx)
		if err != nil {
			return err
		}
		w := newTable(s.out)
		fmt.Fprintln(w, say("kb.listHeadings", lang))
		for _, d := range docs {
			pages := "—" // a kind without pages, as the Knowledge view shows it
			if d.Pages > 0 {
				pages = counted(d.Pages, lang, unitWord(d.Unit))
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", d.ID, d.Title, kindName(d.Kind, lang), pages, d.Chunks, shownPath(d.Source))
		}
		return w.Flush()
	case "remove":
		kb, err := a.library.base(ctx)
		if err != nil {
			return err
		}
		docs, err := a.library.documents(ctx)
		if err != nil {
			return err
		}
		doc, err := byIDPrefix(cliLanguage(a.settings.Current().Language), "document", "wayfinder kb list", args[0], docs, func(d api.KBDocument) (string, string) { return d.ID, d.Title })
		if err != nil {
			return err
		}
		if err := kb.Remove(ctx, doc.ID); err != nil {
			return err
		}
		sayLine(s.out, "", "  ", say("kb.removed", lang, "id", doc.ID, "title", doc.Title))
		return nil
	case "search":
		query := strings.Join(args, " ")
		hits, err := a.library.search(ctx, query, knowledge.SearchOptions{TopK: max(top, 1), Scope: sc, PerDoc: perDoc, Floor: floor})
		if err != nil {
			return err
		}
		if asJSON {
			return printSearchJSON(s, hits)
		}
		if len(hits) == 0 {
			sayLine(s.out, "", "  ", say("kb.noHits", lang, "query", clipped(query, echoColumns)))
		}
		printHits(s.out, hits, lang, columns(s.out))
		return nil
	default: // extract
		kb, err := a.library.base(ctx)
		if err != nil {
			return err
		}
		warnings, err := kb.Extract(ctx, args[0], s.out)
		if r := reasonOf(err); r != nil {
			// Worded as kb import words it, not as the Go error.
			return fmt.Errorf("%s: %s", shownPath(args[0]), reasonLine(err.Error(), r, lang))
		}
		if err != nil {
			return fmt.Errorf("extract %s: %w", filepath.Base(args[0]), err)
		}
		for _, w := range warnings {
			sayLine(s.err, "", "  ", say("kb.warning", lang, "text", w))
		}
		return nil
	}
}

// printHits prints search hits for a person: each one's title, where it
// is and its score, then its passage, indented. On a terminal width
// columns wide each is wrapped at spaces to fit (wrapped), where a
// passage was one line the terminal cut wherever its edge fell; width 0
// keeps each on one line.
func printHits(w io.Writer, hits []api.SearchHit, lang, width int) {
	const indent = "   "
	for i, h := range hits {
		where := shownPath(h.Source)
		if h.RecordID != "" && h.RecordID != h.Title {
			where += ", " + say("kb.recordID", lang, "id", h.RecordID)
		}
		if h.Page > 0 {
			where += ", " + say("kb."+unitWord(h.Unit), lang, "page", strconv.Itoa(h.Page))
		}
		if h.Heading != "" && h.Heading != h.Title {
			where += ", § " + h.Heading
		}
		head := fmt.Sprintf("%s (%s) %s", h.Title, where, say("kb.score", lang, "score", fmt.Sprintf("%.4f", h.Score)))
		fmt.Fprintln(w, wrapped(head, width, strconv.Itoa(i+1)+". ", indent))
		fmt.Fprintln(w, wrapped(h.Snippet, width, indent, indent))
		if len(h.Copies) > 0 {
			paths := make([]string, len(h.Copies))
			for j, c := range h.Copies {
				paths[j] = shownPath(c.Source)
			}
			fmt.Fprintln(w, wrapped(say("kb.copies", lang, "paths", strings.Join(paths, ", ")), width, indent, indent))
		}
	}
}

// kbImport imports paths and says what it does, file by file and in
// sum, in the language the command speaks (cliLanguage): each file's
// failure and warning as the window words it (reasonLine).
func kbImport(ctx context.Context, a *App, paths []string, s stdio) error {
	lang := a.lang()
	// On a terminal every line is wrapped to its width at spaces, the
	// lines after the first indented under it, where the three sentences
	// of why a file was not embedded ran past the edge.
	cols := columns(s.out)
	say1 := func(first, indent, text string) { fmt.Fprintln(s.out, wrapped(text, cols, first, indent)) }
	var notes embedNotes
	var indexing indexNotes
	rep := a.library.importPaths(ctx, store.NewID(), paths, func(p api.ImportProgress) {
		at := fmt.Sprintf("[%d/%d] %s:", p.FileIndex, p.FilesTotal, shownPath(p.File))
		switch p.Stage {
		case "indexing":
			if l := indexing.line(p, lang); l != "" {
				fmt.Fprintln(s.out, at, l)
			}
		case "done":
			var parts []string
			if p.Pages > 0 {
				parts = append(parts, counted(p.Pages, lang, unitWord(p.Unit)))
			}
			parts = append(parts, counted(p.Chunks, lang, "chunk"), say("kb.embedded", lang, "n", grouped(p.Embedded)))
			say1("", "  ", at+" "+strings.Join(parts, ", "))
			for _, l := range notes.lines(p, lang) {
				say1("  ", "    ", l)
			}
			for i, w := range p.Warnings {
				var r *api.FileReason
				if i < len(p.WarningReasons) {
					r = &p.WarningReasons[i]
				}
				say1("  ", "    ", say("kb.warning", lang, "text", reasonLine(w, r, lang)))
			}
		case "skipped":
			say1("", "  ", at+" "+say("kb.skipped", lang))
		case "failed":
			say1("", "  ", at+" "+say("kb.failed", lang, "reason", reasonLine(p.Error, p.Reason, lang)))
		}
	})
	if rep.Error != nil {
		return &chat.Error{Info: *rep.Error}
	}
	// Folders with nothing in them to read: said as such, a failure,
	// where it read "Imported 0 files (0 documents, 0 chunks); 0
	// unchanged, 0 failed." and ended well.
	if len(rep.Imported)+len(rep.Skipped)+len(rep.Failed)+len(rep.Ignored)+len(rep.LeftOut)+len(rep.Stopped) == 0 {
		shown := make([]string, len(paths))
		for i, p := range paths {
			shown[i] = shownPath(p)
		}
		return errors.New(say("kb.nothingToImport", lang, "paths", strings.Join(shown, ", ")))
	}
	say1("", "  ", kbSummary(rep, lang))
	for _, f := range rep.Failed {
		say1("  ", "    ", say("kb.notImported", lang, "file", shownPath(f.File), "reason", reasonLine(f.Error, f.Reason, lang)))
	}
	// Every entry of the folders that was not read is said, with why:
	// a link out of the folder was not followed, one inside was read
	// where it leads, a pipe is not a file.
	if n := len(rep.LeftOut); n > 0 {
		sayLine(s.out, "", "  ", say("kb.notRead", lang, "entries", counted(n, lang, "entry")))
		for _, f := range rep.LeftOut {
			say1("  ", "    ", shownPath(f.File)+": "+reasonLine(f.Error, f.Reason, lang))
		}
	}
	if n := len(rep.Ignored); n > 0 {
		sayLine(s.out, "", "  ", say("kb.leftOut", lang, "files", counted(n, lang, "file")))
		const shown = 10
		for _, f := range rep.Ignored[:min(n, shown)] {
			// An old .doc or .hwp says what to save it as, as an upload does.
			if r := reasonOf(importer.Unsupported(f)); r != nil && r.Code != "unsupported" {
				say1("  ", "    ", shownPath(f)+": "+reasonLine("", r, lang))
				continue
			}
			fmt.Fprintf(s.out, "  %s\n", shownPath(f))
		}
		if n > shown {
			fmt.Fprintln(s.out, " ", say("id.more", lang, "n", strconv.Itoa(n-shown)))
		}
	}
	if n := len(rep.Stopped); n > 0 {
		// Ctrl+C: the summary above says what was imported; this, what
		// was not (the file it was on left nothing, knowledge.StageStopped).
		return fmt.Errorf("%w: %s", errStopped, say("kb.stopped", lang, "files", counted(n, lang, "file")))
	}
	if len(rep.Failed) > 0 {
		return errors.New(say("kb.couldNotImport", lang, "files", counted(len(rep.Failed), lang, "file")))
	}
	return nil
}

// kbSummary is kb import's sentence in sum, every count with its
// thousands set apart (grouped), where "unchanged" and "failed" read
// "1234" beside "파일 1,234개".
func kbSummary(rep api.ImportReport, lang int) string {
	return say("kb.imported", lang, "files", counted(len(rep.Imported), lang, "file"),
		"documents", counted(rep.Documents, lang, "document"), "chunks", counted(rep.Chunks, lang, "chunk"),
		"skipped", grouped(len(rep.Skipped)), "failed", grouped(len(rep.Failed)))
}

// embedNotes says why a file's chunks were not embedded. Each reason is
// said once, at the first file, and again only if it changes: Ollama
// being away, or hung, is one fact, not three lines after each of a
// folder's hundred files.
type embedNotes struct {
	said  string // the last reason said
	later bool   // the hung Ollama was said
}

// indexNotes says how far a large file's words are indexed, after its
// chunks are stored: seconds of CPU for tens of megabytes of text, which
// the terminal otherwise spent without a word (Ctrl+C stops it, and
// nothing of the file is kept). A file of one page of chunks is indexed
// in well under a second and says nothing; a larger one says it at the
// start and at each quarter, not at each page of 1,000.
type indexNotes struct {
	file    string
	quarter int // the last quarter said of file
}

// indexSaid is the most chunks a file may have for its indexing to go
// unsaid: one page of the backend's progress.
const indexSaid = 1000

// line is what to say of p, a file in stage "indexing"; "" for nothing.
func (n *indexNotes) line(p api.ImportProgress, lang int) string {
	if p.Chunks <= indexSaid {
		return ""
	}
	q := 4 * p.Indexed / p.Chunks
	if p.File == n.file && q <= n.quarter || q >= 4 {
		return "" // said already, or done: the file's own line follows
	}
	n.file, n.quarter = p.File, q
	return say("kb.indexing", lang, "n", grouped(p.Indexed), "chunks", counted(p.Chunks, lang, "chunk"))
}

// lines are what to say after the file of p is done, each to be indented.
func (n *embedNotes) lines(p api.ImportProgress, lang int) []string {
	if p.EmbedStopped {
		return []string{say("kb.embedStopped", lang)}
	}
	if p.EmbedLater {
		if n.later {
			return nil
		}
		n.later = true
		return []string{say("kb.embedLater", lang), say("report.nextStep", lang) + " " + say("kb.embedLaterHint", lang)}
	}
	message, hint := embedWords(p, lang)
	if message == "" || message == n.said {
		return nil
	}
	n.said = message
	out := []string{say("kb.notEmbedded", lang, "reason", message), say("kb.keywordsMeanwhile", lang)}
	if hint != "" {
		out = append(out, say("report.nextStep", lang)+" "+hint)
	}
	return out
}

// embedWords says why some of a file's chunks were not embedded and what
// to do; "" when they all were.
func embedWords(p api.ImportProgress, lang int) (message, hint string) {
	if p.EmbedError == nil || p.Embedded >= p.Chunks {
		return "", ""
	}
	return errorWords(*p.EmbedError, lang)
}

// count says "1 file", "2 files".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// minIDPrefix is the shortest start of an id the commands accept for it.
const minIDPrefix = 4

// byIDPrefix finds the one item whose id is id or starts with it, so that
// people can type the start of a 36-character id. Ids are time-ordered
// (UUIDv7), so items made close together share their first characters:
// an ambiguous prefix lists the candidates to choose from. what names the
// item ("document", a key of things), list the command that shows the
// ids; lang (cliLanguage) is the language the mistake is said in.
func byIDPrefix[T any](lang, what, list, id string, items []T, key func(T) (id, label string)) (T, error) {
	var zero T
	id = strings.TrimSpace(id)
	var found []T
	for _, it := range items {
		k, _ := key(it)
		if k == id {
			return it, nil
		}
		if strings.HasPrefix(k, id) {
			found = append(found, it)
		}
	}
	li := langIndex(lang)
	thing := things[what][0]
	if li == 1 {
		thing = things[what][2]
	}
	switch {
	case len(id) < minIDPrefix:
		return zero, fmt.Errorf("%w: %s", errUsage, say("id.short", li, "n", strconv.Itoa(minIDPrefix), "thing", thing, "list", list))
	case len(found) == 0:
		return zero, &chat.Error{Info: api.ErrorInfo{Code: api.ErrNotFound,
			Message: say("id.none", li, "thing", thing, "subject", things[what][3], "prefix", strconv.Quote(id)), Hint: say("id.none.hint", li, "list", list)}}
	case len(found) > 1:
		var b strings.Builder
		for i, it := range found {
			if i == 5 {
				b.WriteString("\n  " + say("id.more", li, "n", strconv.Itoa(len(found)-i)))
				break
			}
			k, label := key(it)
			fmt.Fprintf(&b, "\n  %s  %s", k, label)
		}
		return zero, &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput,
			Message: say("id.ambiguous", li, "prefix", strconv.Quote(id), "count", strconv.Itoa(len(found)), "things", things[what][1], "thing", thing, "list", b.String()),
			Hint:    say("id.ambiguous.hint", li, "list", list)}}
	}
	return found[0], nil
}

// unitWord is the word the command's lines count a document's pages in:
// "slide" for a presentation's, else "page" (cli_words' count.* and kb.*).
func unitWord(unit string) string {
	if unit == "slide" {
		return "slide"
	}
	return "page"
}

// printSearchJSON prints one object per hit with what a script needs to
// map it back to its data: the document, the record's own id (JSON `_id`
// or `id`; "" when the file has none), the file, page (and its unit:
// "page" or "slide") and heading, and the copies of its file the hit
// stands for (their documents and files; [] when none), whose passage is
// not listed again.
func printSearchJSON(s stdio, hits []api.SearchHit) error {
	type row struct {
		ID       string           `json:"id"` // the chunk
		DocID    string           `json:"doc_id"`
		RecordID string           `json:"record_id"`
		File     string           `json:"file"`
		Source   string           `json:"source"`
		Title    string           `json:"title"`
		Kind     string           `json:"kind"`
		Page     int              `json:"page"`
		Unit     string           `json:"unit"`
		Heading  string           `json:"heading"`
		Score    float64          `json:"score"`
		Text     string           `json:"text"`
		Copies   []api.SearchCopy `json:"copies"`
	}
	rows := make([]row, len(hits))
	for i, h := range hits {
		rows[i] = row{h.ID, h.DocID, h.RecordID, h.File, h.Source, h.Title, h.Kind, h.Page, h.Unit, h.Heading, h.Score, h.Text, h.Copies}
		if rows[i].Copies == nil {
			rows[i].Copies = []api.SearchCopy{} // a list a script can loop over, even empty
		}
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

func runMemory(ctx context.Context, g globals, args []string, s stdio) error {
	const usage = "memory list | add [--kind K] TEXT | edit [--kind K] ID TEXT | rm ID | rm --all [--yes]"
	if err := helpFor(args, usage, s); err != nil {
		return err
	}
	if len(args) == 0 {
		return usageMistake("usage.memoryWhich")
	}
	sub, args := args[0], args[1:]
	if !slices.Contains([]string{"list", "add", "edit", "rm"}, sub) {
		return unknownSub("memory", sub, usage)
	}
	fs := subFlags("memory "+sub, usage, &g, s)
	kind := fs.String("kind", "fact", "preference, fact or feedback")
	all := fs.Bool("all", false, "with rm: forget every memory (asks first in a terminal)")
	yes := fs.Bool("yes", false, "with rm --all: do not ask (needed when standard input is not a terminal)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	// Each command given the wrong arguments says what it takes, as kb's
	// do, not memory's whole syntax.
	ok := map[string]bool{"list": len(args) == 0, "add": strings.TrimSpace(strings.Join(args, "")) != "", "edit": len(args) > 1, "rm": (len(args) == 1) != *all}[sub]
	switch {
	case ok:
	case sub == "list":
		return usageMistake("usage.noArguments", "command", "memory list", "args", quotedList(args))
	default:
		return usageMistake("usage.memory" + strings.ToUpper(sub[:1]) + sub[1:])
	}
	a, err := openCLI(ctx, g, s, sub == "list")
	if err != nil {
		return err
	}
	defer a.Close()
	m := &MemoryService{a}
	lang := a.lang()
	// edit and rm take the start of an id too.
	pick := func(id string) (api.Memory, error) {
		ms, err := m.List()
		if err != nil {
			return api.Memory{}, err
		}
		return byIDPrefix(cliLanguage(a.settings.Current().Language), "memory", "wayfinder memory list", id, ms, func(x api.Memory) (string, string) { return x.ID, x.Text })
	}
	switch sub {
	case "list":
		ms, err := m.List()
		if err != nil {
			return err
		}
		w := newTable(s.out)
		// FROM: said (you asked in a conversation), reflection (drawn from
		// what you wrote), edited (written or corrected by you).
		fmt.Fprintln(w, say("memory.listHeadings", lang))
		for _, x := range ms {
			kind, origin := string(x.Kind), string(x.Origin)
			if words, ok := cliText["memory.kind."+kind]; ok {
				kind = words[lang]
			}
			if words, ok := cliText["memory.origin."+origin]; ok {
				origin = words[lang]
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", x.ID, kind, origin, x.UpdatedAt.Local().Format("2006-01-02 15:04"), x.Text)
		}
		return w.Flush()
	case "add":
		x, err := m.Add(strings.Join(args, " "), api.MemoryKind(*kind))
		if err != nil {
			return err
		}
		sayLine(s.out, "", "  ", say("memory.remembered", lang, "id", x.ID))
	case "edit":
		x, err := pick(args[0])
		if err != nil {
			return err
		}
		if x, err = m.Edit(x.ID, strings.Join(args[1:], " "), api.MemoryKind(*kind)); err != nil {
			return err
		}
		sayLine(s.out, "", "  ", say("memory.updated", lang, "id", x.ID))
	default: // rm
		if *all {
			ms, err := m.List()
			if err != nil {
				return err
			}
			if len(ms) == 0 {
				sayLine(s.out, "", "  ", say("memory.none", lang))
				return nil
			}
			if !*yes {
				if err := confirm(ctx, s, say("memory.confirmAll", lang, "memories", counted(len(ms), lang, "memory")), lang); err != nil {
					return err
				}
			}
			if err := m.DeleteAll(); err != nil {
				return err
			}
			sayLine(s.out, "", "  ", say("memory.forgotAll", lang, "memories", counted(len(ms), lang, "memory")))
			return nil
		}
		x, err := pick(args[0])
		if err != nil {
			return err
		}
		if err := m.Delete(x.ID); err != nil {
			return err
		}
		sayLine(s.out, "", "  ", say("memory.forgot", lang, "id", x.ID, "text", x.Text))
	}
	return nil
}
