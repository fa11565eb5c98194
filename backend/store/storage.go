package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Storage problems a person fixes on their own computer, told apart from
// other failures whichever layer raised them: SQLite reports its own result
// codes ("database or disk is full", "attempt to write a readonly
// database"), the OS its error numbers. Neither wording helps the person;
// DescribeStorage says which folder and what to do.
var (
	ErrDiskFull    = errors.New("the disk is full")
	ErrNotWritable = errors.New("the folder cannot be written")
)

// SQLite's primary result codes (https://sqlite.org/rescode.html); the
// extended codes keep them in their low byte.
const (
	sqliteBusy     = 5
	sqliteReadOnly = 8
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// StorageProblem returns ErrDiskFull or ErrNotWritable when err comes from a
// full disk or a folder that cannot be written, else nil.
func StorageProblem(err error) error {
	if err == nil {
		return nil
	}
	switch {
	case isDiskFull(err):
		return ErrDiskFull
	case isReadOnlyFS(err), errors.Is(err, fs.ErrPermission):
		return ErrNotWritable
	}
	// The SQLite driver's error type is matched by its method, so that this
	// package does not tie itself to the driver's import path.
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() & 0xff {
		case sqliteFull:
			return ErrDiskFull
		case sqliteReadOnly, sqliteCantOpen:
			return ErrNotWritable
		}
	}
	return nil
}

// StorageError is a database error with the folder of the database, so
// that what the person sees can name it wherever the error surfaces (the
// command line reports errors after the app is closed). OpenDB's handles
// wrap every storage problem SQLite reports in one.
type StorageError struct {
	Dir string
	Err error
}

func (e *StorageError) Error() string { return e.Err.Error() }

func (e *StorageError) Unwrap() error { return e.Err }

// wrapStorageErrors makes db's operations return their storage problems as
// *StorageError of dir.
func wrapStorageErrors(db *gorm.DB, dir string) error {
	wrap := func(tx *gorm.DB) {
		var se *StorageError
		if tx.Error != nil && StorageProblem(tx.Error) != nil && !errors.As(tx.Error, &se) {
			tx.Error = &StorageError{Dir: dir, Err: tx.Error}
		}
	}
	cb := db.Callback()
	return errors.Join(
		cb.Create().After("*").Register("wayfinder:storage_error", wrap),
		cb.Query().After("*").Register("wayfinder:storage_error", wrap),
		cb.Update().After("*").Register("wayfinder:storage_error", wrap),
		cb.Delete().After("*").Register("wayfinder:storage_error", wrap),
		cb.Row().After("*").Register("wayfinder:storage_error", wrap),
		cb.Raw().After("*").Register("wayfinder:storage_error", wrap),
	)
}

// DescribeStorage says what the person sees for a storage problem, and
// false for any other error. It names the data folder dataDir, or when
// that is "" the folder the error names itself (a database's, a file's).
// An OS error about a path outside dataDir (a document the person may not
// read, a guide saved to a full USB stick) is not the data folder's
// problem, and is left to other describers.
func DescribeStorage(err error, dataDir string) (api.ErrorInfo, bool) {
	p := errPath(err)
	if p != "" && dataDir != "" {
		if rel, rerr := filepath.Rel(dataDir, p); rerr != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return api.ErrorInfo{}, false
		}
	}
	var se *StorageError
	switch {
	case dataDir != "":
	case errors.As(err, &se):
		dataDir = se.Dir
	case p != "":
		dataDir = filepath.Dir(p)
	}
	folder := "its data folder"
	if dataDir != "" {
		folder = "its data folder " + dataDir
	}
	switch StorageProblem(err) {
	case ErrDiskFull:
		return api.ErrorInfo{
			Code:    api.ErrDiskFull,
			Message: fmt.Sprintf("The disk that holds %s is full, so Wayfinder cannot save.", folder),
			Hint:    "Free some space on that disk (empty the trash, remove large files you no longer need), then try again. What was saved before is kept.",
			Args:    dirArgs(dataDir),
		}, true
	case ErrNotWritable:
		hint := "Make the folder writable for your user account, or start Wayfinder with --data-dir set to a folder you can write to."
		if dataDir != "" {
			hint = fmt.Sprintf("Make it writable for your user account (for example `chmod -R u+rwX %q`), or start Wayfinder with --data-dir set to a folder you can write to.", dataDir)
		}
		return api.ErrorInfo{
			Code:    api.ErrDataReadOnly,
			Message: fmt.Sprintf("Wayfinder cannot write to %s: it is read-only, or it belongs to another user.", folder),
			Hint:    hint,
			Args:    dirArgs(dataDir),
		}, true
	}
	return api.ErrorInfo{}, false
}

// dirArgs names the data folder for the window's wording, when known.
func dirArgs(dir string) map[string]string {
	if dir == "" {
		return nil
	}
	return map[string]string{"dir": dir}
}

// errPath is the path an OS error is about, or "".
func errPath(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Path
	case errors.As(err, &le):
		return le.New
	}
	return ""
}
