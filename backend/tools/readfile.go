package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// MaxReadFileBytes bounds what read_file reads: the text goes into a model
// prompt, and bigger files belong in the knowledge base (kb import).
const MaxReadFileBytes = 1 << 20

// Errors of read_file that callers and tests distinguish. Their words reach
// the model and, through the trace, the person: they say what the person
// can change, never how to get around it.
var (
	ErrOutsideFolders = errors.New("path is outside the folders you let Wayfinder read")
	ErrNotText        = errors.New("not a text file")
	ErrTooLarge       = errors.New("file is too large")
	ErrHidden         = errors.New("hidden files and folders are not readable in this folder (the person can allow them for the folder in Settings)")
	ErrSecret         = errors.New("files that usually hold secrets (keys, passwords, tokens) are not readable in this folder (the person can allow them for the folder in Settings)")
	ErrLinked         = errors.New("the file has other names (hard links), so it may belong to a place outside the folder")
	ErrChanged        = errors.New("the file or a folder on its path changed while it was being opened (a link or another disk appeared)")
)

// Folders returns the folders the person granted, read at every call so
// that a folder granted or revoked in the settings counts at once.
type Folders func() []api.FolderGrant

// NewReadFile is the read_file tool. The result starts with the full path
// of the file read, so the trace shows every file the model saw.
func NewReadFile(folders Folders) *Tool {
	return &Tool{
		Name: "read_file",
		Description: "Read a text file (notes, Markdown, CSV, code) from the folders the person let Wayfinder read. " +
			"Give a path relative to such a folder, or a full path inside one.",
		Params:  []Param{{Name: "path", Type: TypeString, Required: true, Description: "file path, e.g. notes/plan.md"}},
		Timeout: 5 * time.Second,
		Outside: true,
		Reaches: true,
		Run: func(ctx context.Context, args Args) (Result, error) {
			f, err := ReadTextFile(folders(), args.String("path"), MaxReadFileBytes)
			if err != nil {
				return Result{}, err
			}
			return Result{Text: "File: " + f.Path + "\n\n" + f.Text, Said: Said{Code: api.TraceFileRead, Args: map[string]string{"path": f.Path}}}, nil
		},
	}
}

// FileText is a file read_file read.
type FileText struct {
	Path string // where it really is: absolute, links resolved
	Text string
}

// ReadTextFile reads path if and only if it lies inside one of the granted
// folders and the folder's grant allows it:
//
//   - "../" escapes, absolute paths elsewhere and symlinks that point
//     outside are refused (links that stay inside are followed);
//   - hidden files and folders (".name") need the grant's AllowHidden, and
//     the names that usually hold secrets (see isSecret) its AllowSecrets,
//     whether they are named directly or reached through a link;
//   - a file with more than one hard link is refused: one of its other names
//     may be outside the folder, and nothing says which is the original;
//   - the file is opened first, one path element at a time without
//     following any link (O_NOFOLLOW), and everything is checked on the
//     opened file itself (fstat), so swapping a link, a hard link or a FIFO
//     in between a check and the read gains nothing. A folder on the way
//     that is another disk mounted inside is refused too.
func ReadTextFile(grants []api.FolderGrant, path string, maxBytes int64) (FileText, error) {
	path = strings.TrimSpace(path)
	if path == "" || strings.ContainsRune(path, 0) {
		return FileText{}, fmt.Errorf("%w: empty or malformed path", ErrInvalidArgs)
	}
	if len(grants) == 0 {
		return FileText{}, fmt.Errorf("read %q: %w (no folders granted yet; the person grants them in Settings)", path, ErrOutsideFolders)
	}
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if part == ".." {
			return FileText{}, fmt.Errorf("read %q: %w (\"..\" is not allowed)", path, ErrOutsideFolders)
		}
	}
	grant, folder, rel, err := locate(grants, path)
	if err != nil {
		return FileText{}, err
	}
	if err := allowed(grant, rel); err != nil {
		return FileText{}, fmt.Errorf("read %q: %w", path, err)
	}
	folder, rel, err = resolve(folder, rel)
	if err != nil {
		return FileText{}, fmt.Errorf("read %q: %w", path, err)
	}
	if err := allowed(grant, rel); err != nil { // a link's target counts too
		return FileText{}, fmt.Errorf("read %q: %w", path, err)
	}
	f, err := openBeneath(folder, rel)
	if err != nil {
		return FileText{}, fmt.Errorf("read %q: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return FileText{}, fmt.Errorf("read %q: %w", path, err)
	}
	switch {
	case fi.IsDir():
		return FileText{}, fmt.Errorf("%w: %q is a folder; give the path of a file in it", ErrInvalidArgs, path)
	case !fi.Mode().IsRegular():
		return FileText{}, fmt.Errorf("read %q: %w (not a regular file)", path, ErrNotText)
	case fi.Size() > maxBytes:
		return FileText{}, fmt.Errorf("read %q: %w (%d bytes; the limit is %d; import it into the knowledge base instead)", path, ErrTooLarge, fi.Size(), maxBytes)
	}
	if n, err := linkCount(f, fi); err != nil {
		return FileText{}, fmt.Errorf("read %q: %w", path, err)
	} else if n > 1 {
		return FileText{}, fmt.Errorf("read %q: %w", path, ErrLinked)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return FileText{}, fmt.Errorf("read %q: %w", path, err)
	}
	if int64(len(data)) > maxBytes {
		return FileText{}, fmt.Errorf("read %q: %w (the limit is %d bytes)", path, ErrTooLarge, maxBytes)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return FileText{}, fmt.Errorf("read %q: %w (binary or not UTF-8)", path, ErrNotText)
	}
	return FileText{Path: filepath.Join(folder, rel), Text: string(data)}, nil
}

// locate finds which granted folder path belongs to and the path relative
// to it. A relative path is tried in each folder in order.
func locate(grants []api.FolderGrant, path string) (api.FolderGrant, string, string, error) {
	if filepath.IsAbs(path) {
		p := filepath.Clean(path)
		for _, g := range grants {
			for _, base := range folderForms(g.Path) {
				if r, ok := within(base, p); ok {
					return g, base, r, nil
				}
			}
		}
		return api.FolderGrant{}, "", "", fmt.Errorf("read %q: %w", path, ErrOutsideFolders)
	}
	rel := filepath.Clean(path)
	for _, g := range grants {
		abs, err := filepath.Abs(g.Path)
		if err != nil {
			continue
		}
		if _, err := os.Lstat(filepath.Join(abs, rel)); err == nil {
			return g, abs, rel, nil
		}
	}
	return api.FolderGrant{}, "", "", fmt.Errorf("read %q: %w (looked in the folders the person granted)", path, fs.ErrNotExist)
}

// folderForms are the spellings of a granted folder an absolute path may
// use: as granted, and with symlinks resolved (/tmp vs /private/tmp on macOS).
func folderForms(f string) []string {
	abs, err := filepath.Abs(f)
	if err != nil {
		return nil
	}
	forms := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		forms = append(forms, real)
	}
	return forms
}

// within reports whether p lies inside base and returns it relative to base.
func within(base, p string) (string, bool) {
	r, err := filepath.Rel(base, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return r, true
}

// resolve follows symlinks and refuses a file whose real location is
// outside the folder's real location, with a message that says so. It
// returns the real folder and the file's real path relative to it, which
// openBeneath then opens without following any link.
func resolve(folder, rel string) (realFolder, realRel string, err error) {
	realFolder, err = filepath.EvalSymlinks(folder)
	if err != nil {
		return "", "", err
	}
	realFile, err := filepath.EvalSymlinks(filepath.Join(folder, rel))
	if err != nil {
		return "", "", err
	}
	realRel, ok := within(realFolder, realFile)
	if !ok {
		return "", "", fmt.Errorf("%w (it is a link to a place outside)", ErrOutsideFolders)
	}
	return realFolder, realRel, nil
}
