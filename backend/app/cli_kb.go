package app

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

func runKB(ctx context.Context, g globals, args []string, s stdio) error {
	const usage = "kb import PATH... | list | remove ID | search [--top N] [--json] [--scope documents|catalog|all] [--per-doc N] [--floor F] QUERY | extract FILE"
	if err := helpFor(args, usage, s); err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: wayfinder %s", errUsage, usage)
	}
	sub, args := args[0], args[1:]
	fs := subFlags("kb "+sub, usage, &g, s)
	top := 5
	asJSON := false
	scope, perDoc, floor := "", 0, 0.0
	if sub == "search" {
		fs.IntVar(&top, "top", top, "how many passages to show")
		fs.BoolVar(&asJSON, "json", false, "print JSON: id, source, page, score, text")
		fs.StringVar(&scope, "scope", "documents", "what to search: documents (your files), catalog (the built-in AI tools) or all")
		fs.IntVar(&perDoc, "per-doc", 0, "passages of one document at most (0: one, -1: no limit)")
		fs.Float64Var(&floor, "floor", 0, fmt.Sprintf("relevance floor, the share of the query a passage must match (0: %.2f, -1: none)", knowledge.DefaultFloor))
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	need := map[string]int{"import": -1, "list": 0, "remove": 1, "search": -1, "extract": 1}
	n, known := need[sub]
	switch {
	case !known:
		return fmt.Errorf("%w: unknown kb command %q; use wayfinder %s", errUsage, sub, usage)
	case n >= 0 && len(args) != n, n < 0 && len(args) == 0:
		return fmt.Errorf("%w: wayfinder %s", errUsage, usage)
	}
	a, err := openApp(ctx, g, "cli", cliLogger(s, g.verbose))
	if err != nil {
		return err
	}
	defer a.Close()
	switch sub {
	case "import":
		return kbImport(ctx, a, args, s)
	case "list":
		docs, err := a.library.documents(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(s.out, 2, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tTITLE\tKIND\tPAGES\tCHUNKS\tSOURCE")
		for _, d := range docs {
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%s\n", d.ID, d.Title, d.Kind, d.Pages, d.Chunks, d.Source)
		}
		return w.Flush()
	case "remove":
		kb, err := a.library.base(ctx)
		if err != nil {
			return err
		}
		if err := kb.Remove(ctx, args[0]); err != nil {
			return err
		}
		fmt.Fprintln(s.out, "removed", args[0])
		return nil
	case "search":
		sc, err := knowledge.ParseScope(scope)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		hits, err := a.library.search(ctx, strings.Join(args, " "), knowledge.SearchOptions{TopK: max(top, 1), Scope: sc, PerDoc: perDoc, Floor: floor})
		if err != nil {
			return err
		}
		if asJSON {
			return printSearchJSON(s, hits)
		}
		for i, h := range hits {
			where := h.Source
			if h.RecordID != "" && h.RecordID != h.Title {
				where += ", id " + h.RecordID
			}
			if h.Page > 0 {
				where += fmt.Sprintf(", p. %d", h.Page)
			}
			if h.Heading != "" && h.Heading != h.Title {
				where += ", § " + h.Heading
			}
			fmt.Fprintf(s.out, "%d. %s (%s) score %.4f\n   %s\n", i+1, h.Title, where, h.Score, h.Snippet)
		}
		return nil
	default: // extract
		kb, err := a.library.base(ctx)
		if err != nil {
			return err
		}
		warnings, err := kb.Extract(ctx, args[0], s.out)
		if err != nil {
			return fmt.Errorf("extract %s: %w", filepath.Base(args[0]), err)
		}
		for _, w := range warnings {
			fmt.Fprintf(s.err, "warning: %s\n", w)
		}
		return nil
	}
}

func kbImport(ctx context.Context, a *App, paths []string, s stdio) error {
	rep := a.library.importPaths(ctx, store.NewID(), paths, func(p api.ImportProgress) {
		switch p.Stage {
		case "done":
			fmt.Fprintf(s.out, "[%d/%d] %s: %d pages, %d chunks, %d embedded\n", p.FileIndex, p.FilesTotal, p.File, p.Pages, p.Chunks, p.Embedded)
			for _, w := range p.Warnings {
				fmt.Fprintf(s.out, "  warning: %s\n", w)
			}
		case "skipped":
			fmt.Fprintf(s.out, "[%d/%d] %s: unchanged, skipped\n", p.FileIndex, p.FilesTotal, p.File)
		case "failed":
			fmt.Fprintf(s.out, "[%d/%d] %s: failed: %s\n", p.FileIndex, p.FilesTotal, p.File, p.Error)
		}
	})
	if rep.Error != nil {
		return &chat.Error{Info: *rep.Error}
	}
	if err := a.addFolders(paths); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "Imported %d files (%d documents, %d chunks); %d unchanged, %d failed.\n",
		len(rep.Imported), rep.Documents, rep.Chunks, len(rep.Skipped), len(rep.Failed))
	for _, f := range rep.Failed {
		fmt.Fprintf(s.out, "  not imported: %s: %s\n", f.File, f.Error)
	}
	if len(rep.Failed) > 0 {
		return fmt.Errorf("%d file(s) could not be imported", len(rep.Failed))
	}
	return nil
}

// printSearchJSON prints one object per hit with what a script needs to
// map it back to its data: the document, the record's own id (JSON `_id`
// or `id`; "" when the file has none), the file, page and heading.
func printSearchJSON(s stdio, hits []api.SearchHit) error {
	type row struct {
		ID       string  `json:"id"` // the chunk
		DocID    string  `json:"doc_id"`
		RecordID string  `json:"record_id"`
		File     string  `json:"file"`
		Source   string  `json:"source"`
		Title    string  `json:"title"`
		Kind     string  `json:"kind"`
		Page     int     `json:"page"`
		Heading  string  `json:"heading"`
		Score    float64 `json:"score"`
		Text     string  `json:"text"`
	}
	rows := make([]row, len(hits))
	for i, h := range hits {
		rows[i] = row{h.ID, h.DocID, h.RecordID, h.File, h.Source, h.Title, h.Kind, h.Page, h.Heading, h.Score, h.Text}
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

func runMemory(ctx context.Context, g globals, args []string, s stdio) error {
	const usage = "memory list | add [--kind K] TEXT | edit [--kind K] ID TEXT | rm ID | rm --all"
	if err := helpFor(args, usage, s); err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: wayfinder %s", errUsage, usage)
	}
	sub, args := args[0], args[1:]
	fs := subFlags("memory "+sub, usage, &g, s)
	kind := fs.String("kind", "fact", "preference, fact or feedback")
	all := fs.Bool("all", false, "with rm: forget every memory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	ok := map[string]bool{"list": len(args) == 0, "add": len(args) > 0, "edit": len(args) > 1, "rm": (len(args) == 1) != *all}[sub]
	if !ok {
		return fmt.Errorf("%w: wayfinder %s", errUsage, usage)
	}
	a, err := openApp(ctx, g, "cli", cliLogger(s, g.verbose))
	if err != nil {
		return err
	}
	defer a.Close()
	m := &MemoryService{a}
	switch sub {
	case "list":
		ms, err := m.List()
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(s.out, 2, 4, 2, ' ', 0)
		// FROM: said (you asked in a conversation), reflection (drawn from
		// what you wrote), edited (written or corrected by you).
		fmt.Fprintln(w, "ID\tKIND\tFROM\tUPDATED\tTEXT")
		for _, x := range ms {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", x.ID, x.Kind, x.Origin, x.UpdatedAt.Local().Format("2006-01-02 15:04"), x.Text)
		}
		return w.Flush()
	case "add":
		x, err := m.Add(strings.Join(args, " "), api.MemoryKind(*kind))
		if err != nil {
			return err
		}
		fmt.Fprintln(s.out, "remembered", x.ID)
	case "edit":
		x, err := m.Edit(args[0], strings.Join(args[1:], " "), api.MemoryKind(*kind))
		if err != nil {
			return err
		}
		fmt.Fprintln(s.out, "updated", x.ID)
	default: // rm
		if *all {
			if err := m.DeleteAll(); err != nil {
				return err
			}
			fmt.Fprintln(s.out, "forgot every memory")
			return nil
		}
		if err := m.Delete(args[0]); err != nil {
			return err
		}
		fmt.Fprintln(s.out, "forgot", args[0])
	}
	return nil
}
