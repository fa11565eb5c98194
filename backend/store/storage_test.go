package store

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// TestDescribeStorage: a full disk and a data folder that cannot be
// written, as SQLite and the OS really report them, become messages that
// name the folder and say what to do instead of SQLite's own words.
func TestDescribeStorage(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// SQLite's SQLITE_FULL, as on a full disk: the database may not grow.
	db := s.DB().Session(&gorm.Session{})
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(1) // the pragma is per connection
	if err := db.Exec("PRAGMA max_page_count = 40").Error; err != nil {
		t.Fatal(err)
	}
	var full error
	for i := 0; i < 1000 && full == nil; i++ {
		_, full = s.CreateSession(ctx, strings.Repeat("가", 190))
	}
	if full == nil || !strings.Contains(full.Error(), "full") {
		t.Fatalf("the database never filled up: %v", full)
	}

	// SQLite's SQLITE_READONLY: a write through a read-only connection.
	q := url.Values{"mode": {"ro"}}
	ro, err := gorm.Open(sqlite.Open("file:"+filepath.Join(dir, FileName)+"?"+q.Encode()), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	readOnly := (&Store{db: ro}).SaveSettings(ctx, map[string]string{"a": "b"})
	if readOnly == nil {
		t.Fatal("a read-only connection wrote")
	}
	(&Store{db: ro}).Close()

	cases := []struct {
		name string
		err  error
		code api.ErrorCode
	}{
		{"sqlite full", full, api.ErrDiskFull},
		{"sqlite read-only", readOnly, api.ErrDataReadOnly},
		{"ENOSPC", &fs.PathError{Op: "write", Path: filepath.Join(dir, "memory", "x.gob"), Err: syscall.ENOSPC}, api.ErrDiskFull},
		{"EROFS", &fs.PathError{Op: "open", Path: dir, Err: syscall.EROFS}, api.ErrDataReadOnly},
		{"EACCES", &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.EACCES}, api.ErrDataReadOnly},
	}
	if runtime.GOOS == "linux" {
		_, err := func() (int, error) {
			f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				return 0, err
			}
			defer f.Close()
			return f.Write([]byte("x"))
		}()
		cases = append(cases, struct {
			name string
			err  error
			code api.ErrorCode
		}{"a real ENOSPC from /dev/full", &fs.PathError{Op: "write", Path: filepath.Join(dir, "y.gob"), Err: errors.Unwrap(err)}, api.ErrDiskFull})
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			info, ok := DescribeStorage(tt.err, dir)
			if !ok || info.Code != tt.code {
				t.Fatalf("DescribeStorage(%v) = %+v, %v; want %s", tt.err, info, ok, tt.code)
			}
			if !strings.Contains(info.Message, dir) || info.Hint == "" {
				t.Fatalf("the message does not name the folder or say what to do: %+v", info)
			}
			if info.Args["dir"] != dir {
				t.Fatalf("the folder is not sent apart for the window to word: %+v", info.Args)
			}
			for _, raw := range []string{"database or disk is full", "readonly database", "(13)", "(8)"} {
				if strings.Contains(info.Message+info.Hint, raw) {
					t.Fatalf("SQLite's own words reach the person: %+v", info)
				}
			}
		})
	}
	// The command line describes errors after the app is closed: the
	// store's own errors name their folder.
	if info, ok := DescribeStorage(full, ""); !ok || !strings.Contains(info.Message, dir) {
		t.Errorf("without the data folder given: %+v", info)
	}
	outside := &fs.PathError{Op: "open", Path: filepath.Join(filepath.Dir(dir), "elsewhere", "doc.md"), Err: syscall.EACCES}
	for _, other := range []error{errors.New("boom"), ErrNotFound, context.Canceled, outside} {
		if info, ok := DescribeStorage(other, dir); ok {
			t.Errorf("DescribeStorage(%v) = %+v, want false", other, info)
		}
	}
}
