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
)

// MaxReadFileBytes bounds what read_file reads: the text goes into a model
// prompt, and bigger files belong in the knowledge base (kb import).
const MaxReadFileBytes = 1 << 20

// Errors of read_file that callers and tests distinguish.
var (
	ErrOutsideFolders = errors.New("path is outside the folders you added")
	ErrNotText        = errors.New("not a text file")
	ErrTooLarge       = errors.New("file is too large")
)

// Folders returns the folders the person added, read at every call so that
// a folder added or removed in the settings counts at once.
type Folders func() []string

// NewReadFile is the read_file tool.
func NewReadFile(folders Folders) *Tool {
	return &Tool{
		Name: "read_file",
		Description: "Read a text file (notes, Markdown, CSV, code) from the folders the person added to Wayfinder. " +
			"Give a path relative to such a folder, or a full path inside one.",
		Params:  []Param{{Name: "path", Type: TypeString, Required: true, Description: "file path, e.g. notes/plan.md"}},
		Timeout: 5 * time.Second,
		Outside: true,
		Reaches: true,
		Run: func(ctx context.Context, args Args) (Result, error) {
			text, err := ReadTextFile(folders(), args.String("path"), MaxReadFileBytes)
			if err != nil {
				return Result{}, err
			}
			return Result{Text: text}, nil
		},
	}
}

// ReadTextFile reads path if and only if it lies inside one of folders,
// symlinks resolved: "../" escapes, absolute paths elsewhere and links that
// point outside are refused. The open itself goes through os.Root on the
// resolved path, which re-checks containment at open time, so a link swapped
// in between the check and the read still cannot escape.
func ReadTextFile(folders []string, path string, maxBytes int64) (string, error) {
	path = strings.TrimSpace(path)
	if path == "" || strings.ContainsRune(path, 0) {
		return "", fmt.Errorf("%w: empty or malformed path", ErrInvalidArgs)
	}
	if len(folders) == 0 {
		return "", fmt.Errorf("read %q: %w (no folders added yet; add one in Settings)", path, ErrOutsideFolders)
	}
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if part == ".." {
			return "", fmt.Errorf("read %q: %w (\"..\" is not allowed)", path, ErrOutsideFolders)
		}
	}
	folder, rel, err := locate(folders, path)
	if err != nil {
		return "", err
	}
	// Open the resolved location: os.Root refuses absolute symlinks even
	// when they point inside, and the check above already vetted the target.
	folder, rel, err = resolve(folder, rel)
	if err != nil {
		return "", fmt.Errorf("read %q: %w", path, err)
	}

	root, err := os.OpenRoot(folder)
	if err != nil {
		return "", fmt.Errorf("open folder %q: %w", folder, err)
	}
	defer root.Close()
	// Stat before Open: opening a FIFO or device would block or misbehave.
	fi, err := root.Stat(rel)
	if err != nil {
		return "", fmt.Errorf("read %q: %w", path, err)
	}
	switch {
	case fi.IsDir():
		return "", fmt.Errorf("%w: %q is a folder; give the path of a file in it", ErrInvalidArgs, path)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("read %q: %w (not a regular file)", path, ErrNotText)
	case fi.Size() > maxBytes:
		return "", fmt.Errorf("read %q: %w (%d bytes; the limit is %d; import it into the knowledge base instead)", path, ErrTooLarge, fi.Size(), maxBytes)
	}
	f, err := root.Open(rel)
	if err != nil {
		return "", fmt.Errorf("read %q: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return "", fmt.Errorf("read %q: %w", path, err)
	}
	if int64(len(data)) > maxBytes {
		return "", fmt.Errorf("read %q: %w (the limit is %d bytes)", path, ErrTooLarge, maxBytes)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return "", fmt.Errorf("read %q: %w (binary or not UTF-8)", path, ErrNotText)
	}
	return string(data), nil
}

// locate finds which added folder path belongs to and the path relative to
// it. A relative path is tried in each folder in order.
func locate(folders []string, path string) (folder, rel string, err error) {
	if filepath.IsAbs(path) {
		p := filepath.Clean(path)
		for _, f := range folders {
			for _, base := range folderForms(f) {
				if r, ok := within(base, p); ok {
					return base, r, nil
				}
			}
		}
		return "", "", fmt.Errorf("read %q: %w", path, ErrOutsideFolders)
	}
	rel = filepath.Clean(path)
	for _, f := range folders {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		if _, err := os.Lstat(filepath.Join(abs, rel)); err == nil {
			return abs, rel, nil
		}
	}
	return "", "", fmt.Errorf("read %q: %w (looked in the folders you added)", path, fs.ErrNotExist)
}

// folderForms are the spellings of an added folder an absolute path may
// use: as added, and with symlinks resolved (/tmp vs /private/tmp on macOS).
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
// outside the folder's real location, with a message that says so (os.Root
// would refuse too, but with a less helpful error). It returns the real
// folder and the file's real path relative to it.
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
