package knowledge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// LinkWhy says why a link found in a folder was not imported as itself.
type LinkWhy string

// The links a folder import meets. Only the folder the person chose is
// read: a link out of it is not followed, whatever it leads to (a link
// to ~/.ssh in a shared folder must not put keys in the library).
const (
	// LinkOutside leads out of the folder being imported: not followed.
	LinkOutside LinkWhy = "outside"
	// LinkInside leads to a file or folder inside it, which the import
	// reads where it is: once, not again through the link.
	LinkInside LinkWhy = "inside"
	// LinkHidden leads inside it, to a hidden file or folder, which a
	// folder's import leaves out (.git, .env) as it does when met directly.
	LinkHidden LinkWhy = "hidden"
	// LinkLoop leads back to itself (links that point at each other).
	LinkLoop LinkWhy = "loop"
	// LinkBroken leads to nothing: its target was moved or deleted.
	LinkBroken LinkWhy = "broken"
)

// LinkError is a link in a folder being imported that was not followed:
// where it leads (Target: the resolved path, or the link's own text when
// it leads nowhere; "" for a loop) and why.
type LinkError struct {
	Target string
	Why    LinkWhy
}

func (e *LinkError) Error() string {
	switch e.Why {
	case LinkOutside:
		return fmt.Sprintf("a link to %s, outside the folder being imported: not followed, so nothing outside the folder chosen is read", e.Target)
	case LinkInside:
		return fmt.Sprintf("a link to %s, inside the folder being imported: that is read where it is, not twice", e.Target)
	case LinkHidden:
		return fmt.Sprintf("a link to %s, a hidden file or folder, which a folder's import leaves out", e.Target)
	case LinkLoop:
		return "a link that leads back to itself"
	default:
		return fmt.Sprintf("a link to %s, which does not exist", e.Target)
	}
}

// expand turns the arguments into absolute file paths, sorted, without
// duplicates; lists the files of folders that are not of a type it
// imports (hidden ones aside), and the entries of folders it does not read
// with why (links, devices, pipes). A missing path is a FileError, not a
// reason to stop. A path named on its own is read wherever it leads: the
// person chose it.
func expand(paths []string) (files, ignored []string, leftOut, errs []FileError) {
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, arg := range paths {
		abs, err := filepath.Abs(arg)
		if err != nil {
			errs = append(errs, FileError{Path: arg, Err: err})
			continue
		}
		info, err := os.Stat(abs)
		if err != nil {
			errs = append(errs, FileError{Path: arg, Err: err})
			continue
		}
		if !info.IsDir() {
			add(abs) // named explicitly: unsupported types get a clear error later
			continue
		}
		w := folderWalk{named: abs, add: add}
		w.walk()
		ignored = append(ignored, w.ignored...)
		leftOut = append(leftOut, w.leftOut...)
		errs = append(errs, w.errs...)
	}
	slices.Sort(files)
	slices.Sort(ignored)
	slices.SortFunc(leftOut, func(a, b FileError) int { return strings.Compare(a.Path, b.Path) })
	leftOut = slices.CompactFunc(leftOut, func(a, b FileError) bool { return a.Path == b.Path })
	return files, slices.Compact(ignored), leftOut, errs
}

// folderWalk lists one folder the person chose, named as they named it
// (named; perhaps through a link, which is theirs to choose). Links met
// inside are judged against the folder as it is on disk (real): a link
// is never walked through, so nothing outside the folder is read and no
// file is read twice.
type folderWalk struct {
	named, real string
	add         func(string)
	ignored     []string
	leftOut     []FileError
	errs        []FileError
}

func (w *folderWalk) walk() {
	real, err := filepath.EvalSymlinks(w.named)
	if err != nil {
		w.errs = append(w.errs, FileError{Path: w.named, Err: err})
		return
	}
	w.real = real
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		name := w.shown(p)
		if err != nil {
			w.errs = append(w.errs, FileError{Path: name, Err: err})
			return nil
		}
		if p != real && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch t := d.Type(); {
		case t.IsDir():
		case t&fs.ModeSymlink != 0:
			w.leftOut = append(w.leftOut, FileError{Path: name, Err: w.link(p)})
		case !t.IsRegular():
			w.leftOut = append(w.leftOut, FileError{Path: name, Err: ErrNotRegular})
		default:
			if _, ok := importer.KindOf(p); ok {
				w.add(name)
			} else {
				w.ignored = append(w.ignored, name)
			}
		}
		return nil
	})
	if err != nil {
		w.errs = append(w.errs, FileError{Path: w.named, Err: err})
	}
}

// shown is the path p of the folder on disk as the person named it: what
// is imported keeps the name they know, and a folder imported again by
// the same name finds its files unchanged.
func (w *folderWalk) shown(p string) string {
	rel, err := filepath.Rel(w.real, p)
	if err != nil || rel == "." {
		return w.named
	}
	return filepath.Join(w.named, rel)
}

// link says where the link at p leads and why it is not read through.
func (w *folderWalk) link(p string) *LinkError {
	// The system says a loop (ELOOP); EvalSymlinks only counts links.
	if _, err := os.Stat(p); errors.Is(err, syscall.ELOOP) {
		return &LinkError{Why: LinkLoop}
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		text, _ := os.Readlink(p)
		return &LinkError{Target: text, Why: LinkBroken}
	}
	rel, err := filepath.Rel(w.real, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &LinkError{Target: target, Why: LinkOutside}
	}
	shown := w.shown(target)
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.HasPrefix(part, ".") && part != "." {
			return &LinkError{Target: shown, Why: LinkHidden}
		}
	}
	return &LinkError{Target: shown, Why: LinkInside}
}
