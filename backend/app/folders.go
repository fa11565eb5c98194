package app

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Folders the read_file tool may read: granted, listed and revoked by the
// person only (see backend/settings/folders.go).

// GrantFolder lets read_file read a folder, or changes what it allows
// there; it returns the settings in effect.
func (s *SettingsService) GrantFolder(path string, allowHidden, allowSecrets bool) (api.Settings, error) {
	return s.app.settings.Grant(s.app.ctx, api.FolderGrant{Path: path, AllowHidden: allowHidden, AllowSecrets: allowSecrets})
}

// RevokeFolder stops read_file reading a folder.
func (s *SettingsService) RevokeFolder(path string) (api.Settings, error) {
	return s.app.settings.Revoke(s.app.ctx, path)
}

// DismissRevokedFolders clears the notice about folders that imports used
// to make readable.
func (s *SettingsService) DismissRevokedFolders() (api.Settings, error) {
	return s.app.settings.DismissRevokedImports(s.app.ctx)
}

// ChooseFolder opens the native folder dialog to pick a folder to grant.
func (s *SettingsService) ChooseFolder() (string, error) {
	sh, err := s.app.desktop()
	if err != nil {
		return "", err
	}
	return sh.OpenFolder(s.app.dialogWords("dialog.grantFolder"))
}

// ChooseZIM opens the native file dialog to pick the ZIM file
// search_wikipedia reads; "" when cancelled. Save checks the file.
func (s *SettingsService) ChooseZIM() (string, error) {
	sh, err := s.app.desktop()
	if err != nil {
		return "", err
	}
	return sh.OpenZIM(s.app.dialogWords("dialog.zim"), s.app.dialogWords("dialog.zimFiles"))
}

func runFolders(ctx context.Context, g globals, args []string, s stdio) error {
	const usage = "folders list [--json] | add [--hidden] [--secrets] PATH | remove PATH"
	if err := helpFor(args, usage, s); err != nil {
		return err
	}
	if len(args) == 0 {
		return usageMistake("usage.foldersWhich")
	}
	sub, args := args[0], args[1:]
	if sub != "list" && sub != "add" && sub != "remove" {
		return unknownSub("folders", sub, usage)
	}
	fs := subFlags("folders "+sub, usage, &g, s)
	hidden := fs.Bool("hidden", false, "with add: let read_file read hidden files and folders (.name) there too")
	secrets := fs.Bool("secrets", false, "with add: let read_file read files that usually hold secrets (.env, keys, .git, .ssh; see README) there too")
	asJSON := fs.Bool("json", false, "with list: print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	switch {
	case sub == "list" && len(args) > 0:
		return usageMistake("usage.noArguments", "command", "folders list", "args", quotedList(args))
	case sub != "list" && len(args) != 1:
		return usageMistake("usage.foldersPath", "command", sub)
	}
	a, err := openApp(ctx, g, "cli", cliLogger(s, g.verbose))
	if err != nil {
		return err
	}
	defer a.Close()
	svc := &SettingsService{a}
	lang := a.lang()
	switch sub {
	case "add":
		cur, err := svc.GrantFolder(args[0], *hidden, *secrets)
		if err != nil {
			return err
		}
		abs, _ := filepath.Abs(args[0])
		for _, f := range cur.Folders {
			if f.Path == abs {
				sayLine(s.out, "", "  ", say("folders.added", lang, "path", f.Path, "allows", allows(f, lang)))
			}
		}
		return nil
	case "remove":
		if _, err := svc.RevokeFolder(args[0]); err != nil {
			return err
		}
		sayLine(s.out, "", "  ", say("folders.removed", lang, "path", args[0]))
		return nil
	}
	cur := a.settings.Current()
	if *asJSON {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Folders []api.FolderGrant `json:"folders"`
			Revoked []string          `json:"revoked_import_folders"`
		}{append([]api.FolderGrant{}, cur.Folders...), append([]string{}, cur.RevokedImportFolders...)})
	}
	if len(cur.Folders) == 0 {
		sayLine(s.out, "", "  ", say("folders.none", lang))
	} else {
		w := newTable(s.out)
		fmt.Fprintln(w, say("folders.listHeadings", lang))
		for _, f := range cur.Folders {
			fmt.Fprintf(w, "%s\t%s\t%s\n", f.Path, allows(f, lang), f.GrantedAt.Local().Format("2006-01-02 15:04"))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if len(cur.RevokedImportFolders) > 0 {
		fmt.Fprintln(s.out)
		sayLine(s.out, "", "  ", say("folders.revokedImports", lang))
		for _, p := range cur.RevokedImportFolders {
			fmt.Fprintln(s.out, "  "+p)
		}
		sayLine(s.out, "", "  ", say("folders.grantAgain", lang))
	}
	return nil
}

// allows says in words, in language lang, what a grant lets read_file
// read.
func allows(f api.FolderGrant, lang int) string {
	switch {
	case f.AllowHidden && f.AllowSecrets:
		return say("folders.allowsAll", lang)
	case f.AllowHidden:
		return say("folders.allowsHidden", lang)
	case f.AllowSecrets:
		return say("folders.allowsSecrets", lang)
	}
	return say("folders.allowsFiles", lang)
}
