package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/atomicfile"
	"github.com/wayfinder-app/wayfinder/backend/chat"
)

const exportUsage = "export [--format md|json] [--session ID | --all] [-o FILE [--force]]"

func runExport(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("export", exportUsage, &g, s)
	format := fs.String("format", "", "md (Markdown, to read) or json (everything, to import again); default: from -o's extension, else md")
	session := fs.String("session", "", "the conversation to export: its `ID`, or the first characters of it (wayfinder sessions lists them)")
	all := fs.Bool("all", false, "export every conversation")
	outPath := fs.String("o", "", "write to this file instead of standard output")
	force := fs.Bool("force", false, "with -o: replace FILE if it exists, without asking (needed when standard input is not a terminal)")
	lang := fs.String("lang", "", "the language of the Markdown's headings: en or ko (default: the language the command speaks)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageMistake("usage.exportArgs", "args", quotedList(fs.Args()))
	case (*session == "") == !*all:
		return usageMistake("usage.exportWhich")
	}
	if *format == "" {
		*format = formatMarkdown
		if strings.EqualFold(filepath.Ext(*outPath), ".json") {
			*format = formatJSON
		}
	}
	*format = strings.ToLower(strings.TrimPrefix(*format, "."))
	if *format == "markdown" {
		*format = formatMarkdown
	}
	if *format != formatJSON && *format != formatMarkdown {
		return usageMistake("usage.format", "format", strconv.Quote(*format))
	}
	a, err := openCLI(ctx, g, s, true)
	if err != nil {
		return err
	}
	defer a.Close()
	if *lang == "" {
		*lang = cliLanguage(a.settings.Current().Language)
	}
	var ids []string
	if *session != "" {
		sess, err := sessionByPrefix(ctx, a, *session)
		if err != nil {
			return err
		}
		ids = []string{sess.ID}
	}
	if *outPath == "" {
		_, err := a.exportTo(ctx, ids, *format, *lang, s.out)
		return err
	}
	li := a.lang()
	if st, err := os.Stat(*outPath); err == nil && st.IsDir() {
		return archiveFileError(errIsFolder, *outPath, true, li)
	} else if err == nil && st.Mode().IsRegular() && !*force {
		if err := mayReplace(ctx, s, *outPath, li); err != nil {
			return err
		}
	}
	// Written beside the target and renamed into place, so that a failed
	// export never leaves half a file where a whole one was.
	// Conversations are private: 0600.
	var n int
	err = atomicfile.WriteWith(*outPath, 0o600, func(w io.Writer) (err error) {
		n, err = a.exportTo(ctx, ids, *format, *lang, w)
		return err
	})
	if err != nil {
		return archiveFileError(err, *outPath, true, li)
	}
	sayLine(s.err, "", "  ", say("archive.exported", li, "conversations", counted(n, li, "conversation"), "path", *outPath))
	return nil
}

// mayReplace asks before export replaces a file that is there, as
// memory rm --all asks before it forgets: on a terminal a question whose
// no (or Enter, or Ctrl+C) writes nothing; elsewhere (a script, a pipe)
// a refusal that names --force, exit code 2. export used to write over
// the file without a word.
func mayReplace(ctx context.Context, s stdio, path string, lang int) error {
	if !isTerminal(s.in) {
		return usageMistake("usage.exportExists", "path", path)
	}
	return confirm(ctx, s, say("archive.replace", lang, "path", path), lang)
}

func runImport(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("import", "import FILE", &g, s)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageMistake("usage.importFile")
	}
	path := fs.Arg(0)
	if err := readableFile(path); err != nil {
		return archiveFileError(err, path, false, langIndex(cliLanguage(settingsLanguage(ctx, g))))
	}
	a, err := openCLI(ctx, g, s, false)
	if err != nil {
		return err
	}
	defer a.Close()
	res, err := importFrom(ctx, a.store, func() (io.ReadCloser, error) { return os.Open(path) })
	if err != nil {
		return err
	}
	sayLine(s.out, "", "  ", importSummary(res, a.lang()))
	return nil
}

// importSummary says what an import did in one sentence, in language
// lang.
func importSummary(r api.ImportResult, lang int) string {
	parts := []string{say("archive.new", lang, "n", grouped(r.Added))}
	if r.Copies == 1 {
		parts = append(parts, say("archive.copy", lang))
	} else if r.Copies > 1 {
		parts = append(parts, say("archive.copies", lang, "n", grouped(r.Copies)))
	}
	if r.Unchanged > 0 {
		parts = append(parts, say("archive.unchanged", lang, "n", grouped(r.Unchanged)))
	}
	return say("archive.imported", lang, "conversations", counted(r.Conversations, lang, "conversation"), "parts", strings.Join(parts, ", "))
}

// errIsFolder marks a path that names a folder where a file was meant.
var errIsFolder = errors.New("is a folder")

// readableFile checks that path is a file import can read, before the
// data folder is opened.
func readableFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return errIsFolder
	}
	return nil
}

// archiveFileError words what went wrong with the file export writes
// (writing) or import reads, in language lang, with what to do: a file or
// folder that is not there, one Wayfinder may not read or write, a folder
// where a file was meant. Go's own words ("open /x/.a.md.2705267779: no
// such file or directory") named the temporary file export writes beside
// the target, and were English in Korean too. Anything else keeps them.
func archiveFileError(err error, path string, writing bool, lang int) error {
	dir := filepath.Dir(path)
	var msg, hint string
	switch {
	case errors.Is(err, errIsFolder) && writing:
		msg, hint = say("archive.outIsFolder", lang, "path", path), say("archive.outIsFolder.hint", lang, "path", path)
	case errors.Is(err, errIsFolder):
		msg, hint = say("archive.inIsFolder", lang, "path", path), say("archive.inIsFolder.hint", lang)
	case errors.Is(err, fs.ErrNotExist) && writing:
		msg, hint = say("archive.noFolder", lang, "dir", dir, "path", path), say("archive.noFolder.hint", lang, "dir", dir)
	case errors.Is(err, fs.ErrNotExist):
		msg, hint = say("archive.noFile", lang, "path", path), say("archive.noFile.hint", lang)
	case errors.Is(err, fs.ErrPermission) && writing:
		msg, hint = say("archive.cannotWrite", lang, "dir", dir), say("archive.cannotWrite.hint", lang)
	case errors.Is(err, fs.ErrPermission):
		msg, hint = say("archive.cannotRead", lang, "path", path), say("archive.cannotRead.hint", lang)
	case writing:
		return fmt.Errorf("write %s: %w", path, err)
	default:
		return fmt.Errorf("import %s: %w", path, err)
	}
	code := api.ErrNotFound
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, errIsFolder) {
		code = api.ErrInvalidInput
	}
	return &chat.Error{Info: api.ErrorInfo{Code: code, Message: msg, Hint: hint}, Err: err}
}
