// Package store keeps Wayfinder's sessions, messages and settings in one
// SQLite file (gorm + github.com/glebarez/sqlite, pure Go, no cgo).
//
// The database runs in WAL mode with synchronous=NORMAL: a killed process
// loses nothing that was committed, and readers never block the writer that
// streams a reply. Schema changes go through versioned migrations (see
// Migrate) so that a database written by an older Wayfinder opens in a newer
// one; other packages (knowledge, memory) keep their own migration sets in
// the same file.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/wayfinder-app/wayfinder/backend/fileperm"
)

// FileName is the database file inside the data directory.
const FileName = "wayfinder.db"

// ErrNotFound is returned when a session or message does not exist.
var ErrNotFound = errors.New("not found")

// Errors of StartTurn: the session is, or is not, waiting for a decision on
// a plan or a tool call, unlike what the turn expects.
var (
	ErrPlanPending   = errors.New("a plan is waiting for a decision")
	ErrNoPlanPending = errors.New("no plan is waiting for a decision")
	// ErrOtherPending refuses a decision for something other than what
	// the session waits for (an older plan, another tool call).
	ErrOtherPending = errors.New("the decision answers something that no longer waits")
)

// Store is the app's database. It is safe for concurrent use.
type Store struct {
	db        *gorm.DB
	path      string
	histories *histories
	models    *sessionModels
	// readOnly: opened beside the app that owns the folder (OpenReadOnly);
	// another process writes, so nothing read may be kept.
	readOnly bool
	// stopGiveBack ends giveBackLoop, which closes giveBackDone; nil when
	// no loop runs (OpenReadOnly, tests).
	stopGiveBack context.CancelFunc
	giveBackDone chan struct{}
	stopLoop     sync.Once
}

// busyTimeout is how long a statement waits for another connection's
// write lock before it fails with "database is locked".
const busyTimeout = 10 * time.Second

// Open opens (creating if needed) the database in dataDir and brings its
// schema up to date. Until Close it gives the file's free space back to
// the disk in the background (compact, giveBackLoop), saying so to log:
// the caller's logger, so that a terminal command stays quiet unless asked
// (nil: slog.Default()).
func Open(ctx context.Context, dataDir string, log *slog.Logger) (*Store, error) {
	return openWith(ctx, dataDir, defaultSpace(), log)
}

// openWith is Open with sp for giving back free space; sp.every 0 starts
// no background loop.
func openWith(ctx context.Context, dataDir string, sp space, log *slog.Logger) (*Store, error) {
	if log == nil {
		log = slog.Default()
	}
	if err := fileperm.MkdirAll(dataDir); err != nil {
		return nil, fmt.Errorf("create data directory %q: %w", dataDir, err)
	}
	path := filepath.Join(dataDir, FileName)
	db, err := OpenDB(path)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, histories: newHistories(), models: &sessionModels{byID: map[string]string{}}}
	sqlDB, err := db.DB()
	if err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	// Before the migrations, so that a new file is INCREMENTAL before its
	// first table.
	compact(ctx, sqlDB, compactUpTo, log)
	if err := Migrate(ctx, db, "store", migrations()); err != nil {
		_ = s.Close()
		return nil, err
	}
	if sp.every > 0 {
		// Not ctx: the loop lives as long as the store, not the call.
		loopCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
		s.stopGiveBack, s.giveBackDone = stop, make(chan struct{})
		go giveBackLoop(loopCtx, sqlDB, sp, log, s.giveBackDone)
	}
	return s, nil
}

// OpenDB opens a SQLite file with the pragmas every Wayfinder database uses.
// It is exported for packages and tests that keep their own tables.
//
// The file is created 0600 before SQLite opens it, and an existing one and
// its -wal and -shm are tightened to 0600: SQLite would create the database
// 0644 and gives the -wal and -shm it creates the database's own mode.
func OpenDB(path string) (*gorm.DB, error) {
	if err := fileperm.CreatePrivate(path); err != nil {
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	for _, side := range []string{"-wal", "-shm"} {
		if err := fileperm.TightenFile(path + side); err != nil {
			return nil, fmt.Errorf("open database %q: %w", path, err)
		}
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(NORMAL)", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()), "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	// Transactions take the write lock when they begin: a deferred one that
	// later needs to write fails at once with SQLITE_BUSY when another
	// connection writes (busy_timeout cannot help an upgrade), whereas an
	// immediate one waits its turn.
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{
		Logger:                 logger.Discard,
		SkipDefaultTransaction: true,
	})
	if err != nil {
		return nil, &StorageError{Dir: filepath.Dir(path), Err: fmt.Errorf("open database %q: %w", path, err)}
	}
	if err := wrapStorageErrors(db, filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	return db, nil
}

// DB exposes the gorm handle for packages that keep their own tables in the
// same file.
func (s *Store) DB() *gorm.DB { return s.db }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close stops giving back free space, in the middle of a step if need be
// (rolled back, nothing lost), and closes the database.
func (s *Store) Close() error {
	s.endLoop()
	sqlDB, err := s.db.DB()
	if err != nil {
		return fmt.Errorf("close database: %w", err)
	}
	return sqlDB.Close()
}

// endLoop stops giveBackLoop, if it runs, and waits until it ended.
func (s *Store) endLoop() {
	s.stopLoop.Do(func() {
		if s.stopGiveBack != nil {
			s.stopGiveBack()
			<-s.giveBackDone
		}
	})
}

// GiveBack gives the file's free space back to the disk now, for a
// command that exits when it is done and is called before Close: the
// background loop looks every 30 s and from 16 MB free, so `wayfinder kb
// remove` of a large document would leave its space in the file until the
// app next starts. It stops the loop, frees in steps without pausing
// (oneShotSpace) and ends within the space's limit, leaving what is left
// for the next start; only ctx ending (Ctrl+C) or a failure is an error.
// What it gave back is logged to log (a command's own logger, quiet
// unless asked).
func (s *Store) GiveBack(ctx context.Context, log *slog.Logger) error {
	return s.giveBackNow(ctx, log, oneShotSpace())
}

// giveBackNow is GiveBack with sp.
func (s *Store) giveBackNow(ctx context.Context, log *slog.Logger, sp space) error {
	if s.readOnly {
		return nil // another process owns the file
	}
	s.endLoop()
	sqlDB, err := s.db.DB()
	if err != nil {
		return fmt.Errorf("give back free space: %w", err)
	}
	pass, cancel := context.WithTimeout(ctx, sp.limit)
	defer cancel()
	err = giveBack(pass, sqlDB, sp, log)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		log.Info("database: free space partly given back; the rest is given back at the next start", "limit", sp.limit)
		return nil
	}
	return err
}

// IntegrityCheck runs SQLite's own consistency check; crash tests use it.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	var res string
	if err := s.db.WithContext(ctx).Raw("PRAGMA integrity_check").Scan(&res).Error; err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("integrity check: %s", res)
	}
	return nil
}
