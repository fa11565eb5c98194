// Package sqlitesaver stores graph checkpoints in SQLite through gorm, so a
// run waiting for a person survives an app restart and a killed process
// loses at most the step in flight. It lives apart from package graph to
// keep the engine free of database dependencies.
//
// The tables follow LangGraph's SqliteSaver (checkpoints and writes, keyed
// by thread, namespace and checkpoint id) so the layout is familiar to
// anyone who has debugged one.
package sqlitesaver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"

	"github.com/wayfinder-app/wayfinder/backend/graph"
)

// checkpointRow is one row of graph_checkpoints.
type checkpointRow struct {
	ThreadID           string `gorm:"primaryKey"`
	CheckpointNS       string `gorm:"primaryKey;column:checkpoint_ns"`
	CheckpointID       string `gorm:"primaryKey"`
	ParentCheckpointID string
	Type               string
	Checkpoint         []byte // JSON: values, next tasks, creation time
	Metadata           []byte // JSON: source, step
}

func (checkpointRow) TableName() string { return "graph_checkpoints" }

// writeRow is one row of graph_writes: a pending write of a task.
type writeRow struct {
	ThreadID     string `gorm:"primaryKey"`
	CheckpointNS string `gorm:"primaryKey;column:checkpoint_ns"`
	CheckpointID string `gorm:"primaryKey"`
	TaskID       string `gorm:"primaryKey"`
	Idx          int    `gorm:"primaryKey"`
	Channel      string
	Type         string
	Value        []byte
}

func (writeRow) TableName() string { return "graph_writes" }

// deletedRow retires a thread id: DeleteThread writes it, and Put and
// PutWrites drop anything for that thread from then on.
type deletedRow struct {
	ThreadID  string `gorm:"primaryKey"`
	DeletedAt time.Time
}

func (deletedRow) TableName() string { return "graph_deleted_threads" }

// body is the checkpoint column: what is not a key or metadata.
type body struct {
	Values    json.RawMessage `json:"values"`
	Next      []graph.Task    `json:"next"`
	CreatedAt time.Time       `json:"created_at"`
}

// Saver is a graph.Checkpointer over a gorm database.
type Saver struct {
	db     *gorm.DB
	owned  bool    // opened by Open, closed by Close
	newest *newest // nil unless OnlyWriter
}

// Option configures a Saver.
type Option func(*Saver)

// OnlyWriter says the Saver is the only writer of its tables for as long
// as it lives, as in an app whose process owns its data folder. The Saver
// then keeps which threads have checkpoints, and the newest checkpoint of
// each thread it has used, in memory: a run's first read, its thread's
// newest checkpoint, costs no query.
func OnlyWriter() Option {
	return func(s *Saver) { s.newest = &newest{} }
}

var _ graph.Checkpointer = (*Saver)(nil)

// Open opens (or creates) the database at path in WAL mode. synchronous=
// NORMAL keeps every committed step across a process crash, which is the
// failure a desktop app sees, at a fraction of FULL's fsync cost.
func Open(path string, opts ...Option) (*Saver, error) {
	dsn := path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)"
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, fmt.Errorf("open checkpoint db %q: %w", path, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("open checkpoint db %q: %w", path, err)
	}
	// One connection: SQLite has one writer anyway, and this way writes
	// queue in Go instead of failing with SQLITE_BUSY.
	sqlDB.SetMaxOpenConns(1)
	s, err := New(db, opts...)
	if err != nil {
		sqlDB.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// New uses an existing database (the app's own), creating the tables. The
// engine writes from parallel nodes at once, so db should be in WAL mode
// with a busy_timeout, or limited to one open connection, as Open does.
func New(db *gorm.DB, opts ...Option) (*Saver, error) {
	if err := db.AutoMigrate(&checkpointRow{}, &writeRow{}, &deletedRow{}); err != nil {
		return nil, fmt.Errorf("migrate checkpoint tables: %w", err)
	}
	// Each write is a single INSERT, atomic on its own: gorm's wrapping
	// BEGIN/COMMIT would only add two statements per step. Prepared
	// statements skip re-parsing the same few queries every step.
	s := &Saver{db: db.Session(&gorm.Session{SkipDefaultTransaction: true, PrepareStmt: true})}
	for _, o := range opts {
		o(s)
	}
	if s.newest != nil {
		if err := s.newest.load(s.db); err != nil {
			return nil, fmt.Errorf("list checkpoint threads: %w", err)
		}
	}
	return s, nil
}

// Close closes the database if Open opened it.
func (s *Saver) Close() error {
	if !s.owned {
		return nil
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Put implements graph.Checkpointer.
func (s *Saver) Put(ctx context.Context, cp graph.Checkpoint) error {
	b, err := json.Marshal(body{Values: cp.Values, Next: cp.Next, CreatedAt: cp.CreatedAt})
	if err != nil {
		return fmt.Errorf("encode checkpoint %s: %w", cp.ID, err)
	}
	meta, err := json.Marshal(cp.Metadata)
	if err != nil {
		return fmt.Errorf("encode metadata %s: %w", cp.ID, err)
	}
	// One statement, so the step's hot path pays no extra read for the
	// deleted-thread check.
	res := s.db.WithContext(ctx).Exec(`INSERT INTO graph_checkpoints
		(thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
		SELECT ?, '', ?, ?, 'json', ?, ?
		WHERE NOT EXISTS (SELECT 1 FROM graph_deleted_threads WHERE thread_id = ?)
		ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET
		parent_checkpoint_id = excluded.parent_checkpoint_id, type = excluded.type,
		checkpoint = excluded.checkpoint, metadata = excluded.metadata`,
		cp.ThreadID, cp.ID, cp.ParentID, b, meta, cp.ThreadID)
	if res.Error != nil {
		return fmt.Errorf("save checkpoint %s: %w", cp.ID, res.Error)
	}
	if s.newest != nil && res.RowsAffected > 0 {
		s.newest.put(cp)
	}
	return nil
}

// PutWrites implements graph.Checkpointer; all writes go in one statement,
// so a task's writes and its done marker land together or not at all.
func (s *Saver) PutWrites(ctx context.Context, threadID, checkpointID string, writes []graph.PendingWrite) error {
	if len(writes) == 0 {
		return nil
	}
	rows := make([]writeRow, len(writes))
	for i, w := range writes {
		rows[i] = writeRow{ThreadID: threadID, CheckpointID: checkpointID, TaskID: w.TaskID, Idx: w.Idx,
			Channel: w.Channel, Type: "json", Value: w.Value}
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var deleted int64
		if err := tx.Model(&deletedRow{}).Where("thread_id = ?", threadID).Count(&deleted).Error; err != nil || deleted > 0 {
			return err
		}
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&rows).Error
	})
	if err != nil {
		return fmt.Errorf("save writes for %s: %w", checkpointID, err)
	}
	if s.newest != nil {
		s.newest.forget(threadID)
	}
	return nil
}

// Get implements graph.Checkpointer.
func (s *Saver) Get(ctx context.Context, threadID, checkpointID string) (graph.Saved, error) {
	if checkpointID == "" && s.newest != nil {
		return s.newest.lookup(threadID, func() (graph.Saved, error) { return s.load(ctx, threadID, "") })
	}
	return s.load(ctx, threadID, checkpointID)
}

// load reads a checkpoint and its writes from the database.
func (s *Saver) load(ctx context.Context, threadID, checkpointID string) (graph.Saved, error) {
	q := s.db.WithContext(ctx).Where("thread_id = ? AND checkpoint_ns = ''", threadID)
	if checkpointID != "" {
		q = q.Where("checkpoint_id = ?", checkpointID)
	}
	var rows []checkpointRow
	if err := q.Order("checkpoint_id DESC").Limit(1).Find(&rows).Error; err != nil {
		return graph.Saved{}, fmt.Errorf("load checkpoint of %q: %w", threadID, err)
	}
	if len(rows) == 0 {
		return graph.Saved{}, graph.ErrNoCheckpoint
	}
	out, err := s.withWrites(ctx, rows)
	if err != nil {
		return graph.Saved{}, err
	}
	return out[0], nil
}

// List implements graph.Checkpointer.
func (s *Saver) List(ctx context.Context, threadID string, limit int) ([]graph.Saved, error) {
	q := s.db.WithContext(ctx).Where("thread_id = ? AND checkpoint_ns = ''", threadID).Order("checkpoint_id DESC")
	if limit > 0 {
		q = q.Limit(limit)
	}
	var rows []checkpointRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list checkpoints of %q: %w", threadID, err)
	}
	return s.withWrites(ctx, rows)
}

// Threads lists the threads that have checkpoints, so that those whose
// owner is gone can be deleted.
func (s *Saver) Threads(ctx context.Context) ([]string, error) {
	if s.newest != nil {
		return s.newest.list(), nil
	}
	ids, err := threadIDs(s.db.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("list threads: %w", err)
	}
	return ids, nil
}

func threadIDs(db *gorm.DB) ([]string, error) {
	var ids []string
	err := db.Model(&checkpointRow{}).Distinct("thread_id").Order("thread_id").Pluck("thread_id", &ids).Error
	return ids, err
}

// DeleteThread implements graph.ThreadDeleter: checkpoints and writes go
// in one transaction, so a thread is never left half deleted, and the id
// is retired in the same transaction.
func (s *Saver) DeleteThread(ctx context.Context, threadID string) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		tomb := deletedRow{ThreadID: threadID, DeletedAt: time.Now()}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&tomb).Error; err != nil {
			return err
		}
		if err := tx.Where("thread_id = ?", threadID).Delete(&writeRow{}).Error; err != nil {
			return err
		}
		return tx.Where("thread_id = ?", threadID).Delete(&checkpointRow{}).Error
	})
	if err != nil {
		return fmt.Errorf("delete thread %q: %w", threadID, err)
	}
	if s.newest != nil {
		s.newest.deleted(threadID)
	}
	return nil
}

func (s *Saver) withWrites(ctx context.Context, rows []checkpointRow) ([]graph.Saved, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.CheckpointID
	}
	var writes []writeRow
	err := s.db.WithContext(ctx).
		Where("thread_id = ? AND checkpoint_ns = '' AND checkpoint_id IN ?", rows[0].ThreadID, ids).
		Order("task_id, idx").Find(&writes).Error
	if err != nil {
		return nil, fmt.Errorf("load writes: %w", err)
	}
	byCP := map[string][]graph.PendingWrite{}
	for _, w := range writes {
		byCP[w.CheckpointID] = append(byCP[w.CheckpointID],
			graph.PendingWrite{TaskID: w.TaskID, Idx: w.Idx, Channel: w.Channel, Value: w.Value})
	}
	out := make([]graph.Saved, len(rows))
	for i, r := range rows {
		var b body
		if err := json.Unmarshal(r.Checkpoint, &b); err != nil {
			return nil, fmt.Errorf("decode checkpoint %s: %w", r.CheckpointID, err)
		}
		var meta graph.Metadata
		if err := json.Unmarshal(r.Metadata, &meta); err != nil {
			return nil, fmt.Errorf("decode metadata %s: %w", r.CheckpointID, err)
		}
		out[i] = graph.Saved{
			Checkpoint: graph.Checkpoint{ThreadID: r.ThreadID, ID: r.CheckpointID, ParentID: r.ParentCheckpointID,
				Values: b.Values, Next: b.Next, Metadata: meta, CreatedAt: b.CreatedAt},
			Writes: byCP[r.CheckpointID],
		}
	}
	return out, nil
}
