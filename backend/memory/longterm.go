package memory

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/fusion"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// Kind says what a memory is.
type Kind string

const (
	KindPreference Kind = "preference"
	KindFact       Kind = "fact"
	KindFeedback   Kind = "feedback"
)

// Valid reports whether k is one of the three kinds.
func (k Kind) Valid() bool {
	return k == KindPreference || k == KindFact || k == KindFeedback
}

// MaxTextLen bounds a memory: one sentence about the person, not a document.
const MaxTextLen = 500

// Origin says where a memory came from. Every memory is the person's own
// words or was drawn from them: nothing a document, a tool or a web page
// said becomes a memory (see the agent's reflection).
type Origin string

const (
	// OriginSaid: the person asked Wayfinder to remember it, in a
	// conversation ("remember that I prefer free tools").
	OriginSaid Origin = "said"
	// OriginReflection: drawn from what the person wrote, after a turn.
	OriginReflection Origin = "reflection"
	// OriginEdited: written or corrected by the person in the Memory
	// screen or with `wayfinder memory`.
	OriginEdited Origin = "edited"
)

// rank orders origins by how directly the person stated the memory; a
// restatement keeps the most direct one.
func (o Origin) rank() int {
	switch o {
	case OriginEdited:
		return 3
	case OriginSaid:
		return 2
	case OriginReflection:
		return 1
	}
	return 0
}

// Provenance is where a new memory comes from.
type Provenance struct {
	Origin    Origin
	SessionID string // the conversation, "" when written by hand
}

// ByHand is a memory the person wrote in the Memory screen or the CLI.
func ByHand() Provenance { return Provenance{Origin: OriginEdited} }

// Said is a memory the person asked for in conversation sessionID.
func Said(sessionID string) Provenance { return Provenance{Origin: OriginSaid, SessionID: sessionID} }

// Reflected is a memory reflection drew from conversation sessionID.
func Reflected(sessionID string) Provenance {
	return Provenance{Origin: OriginReflection, SessionID: sessionID}
}

var (
	// ErrNotFound is returned for an unknown memory id.
	ErrNotFound = errors.New("memory not found")
	// ErrInvalid is returned for empty or overlong text or an unknown kind.
	ErrInvalid = errors.New("invalid memory")
)

// Memory is one thing remembered about the person.
type Memory struct {
	ID        string
	Text      string
	Kind      Kind
	Origin    Origin
	SessionID string // the conversation it came from, "" when added by hand
	CreatedAt time.Time
	UpdatedAt time.Time
}

type memoryRow struct {
	ID        string `gorm:"primaryKey"`
	Text      string
	Norm      string
	Kind      string
	Origin    string
	SessionID string
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (memoryRow) TableName() string { return "memories" }

func (r memoryRow) memory() Memory {
	return Memory{ID: r.ID, Text: r.Text, Kind: Kind(r.Kind), Origin: Origin(r.Origin), SessionID: r.SessionID,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// Thresholds for treating a new memory as a restatement of an old one.
const (
	// DuplicateCosine: embeddings this close say the same thing in other
	// words ("커피를 좋아한다" / "커피를 좋아함").
	DuplicateCosine = 0.92
	// DuplicateJaccard is the term-overlap stand-in when no vectors exist.
	DuplicateJaccard = 0.8
	// minVectorScore drops vector hits too far from the query to be worth
	// prompt tokens; exhaustive search always returns k results otherwise.
	minVectorScore = 0.45
	// healRetry spaces attempts to embed memories that lack a vector after
	// embedding failed, so a down Ollama costs a search one failed call per
	// minute at most.
	healRetry = time.Minute
)

// Store is the long-term memory: rows in SQLite (the record the person sees
// and edits) and, when an embedding model is configured, their vectors in a
// chromem-go collection. A memory's vector is deleted before its row and
// written after it, so an interruption can leave a memory without a vector
// (embedded again later) but never a vector the person cannot see; Open
// removes any such vector all the same. It is safe for concurrent use.
type Store struct {
	db     *gorm.DB
	logger *slog.Logger
	now    func() time.Time

	// vec is the memory vectors once opened (nil: none yet), replaced
	// only by UseEmbedModel, under switching; vectors says whether they
	// are in use.
	vec atomic.Pointer[Vectors]
	// none: the embedding model is "None (keyword search only)" since the
	// vectors were opened; they are not searched or embedded into, but a
	// memory forgotten or reworded loses its vector there all the same.
	none atomic.Bool
	// vecDir and embed open the vectors when an embedding model is chosen
	// after a start without one (OpenInDataDir; "": never, as Open and
	// OpenReadOnly).
	vecDir    string
	embed     Embedder
	switching sync.Mutex // serialises UseEmbedModel

	mu        sync.Mutex // serialises writes so two restatements cannot both be added
	healAfter time.Time  // under mu: no embedding retry before this

	// all is every memory with its terms, most recently changed first, so
	// that the search every turn makes neither reads the table nor splits
	// each memory into terms again (9 ms a turn at 1,000 memories). Writes
	// replace it under mu after the table changed; this process is the
	// only one with the data folder open, so nothing else changes the rows.
	all atomic.Pointer[[]indexed]
}

// indexed is a memory as Search ranks it.
type indexed struct {
	row   memoryRow
	terms map[string]struct{}
}

// Open migrates the tables and reconciles vec (which may be nil) with the
// rows: vectors without a row are deleted, and rows without a vector, or
// with one made from older text or by another embedding model, are embedded
// now (a failure is logged; Search retries). vec comes from
// NewChromemVectors and needs no closing: chromem writes every change
// through to disk. Failures that do not stop it are said to log (nil:
// slog.Default()).
func Open(ctx context.Context, db *gorm.DB, vec *Vectors, log *slog.Logger) (*Store, error) {
	if err := Migrate(ctx, db); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	s := &Store{db: db, logger: log, now: func() time.Time { return time.Now().UTC() }}
	if vec != nil {
		s.vec.Store(vec)
	}
	rows, err := s.rows(ctx, "")
	if err != nil {
		return nil, err
	}
	all := make([]indexed, len(rows))
	for i, r := range rows {
		all[i] = indexed{r, terms(r.Text)}
	}
	s.all.Store(&all)
	if vec != nil {
		stale, err := s.staleVectors(ctx, vec)
		if err != nil {
			return nil, fmt.Errorf("reconcile memory vectors: %w", err)
		}
		if err := vec.put(ctx, stale); err != nil {
			s.logger.Warn("embed memories", "count", len(stale), "err", err)
		}
	}
	return s, nil
}

// OpenReadOnly reads the memories of a data folder another process (the
// open app) owns, for listing them: the rows through db, a read-only
// connection, without a migration or vectors (chromem-go's files may be
// half written by their owner, and a list needs none). Changes fail.
func OpenReadOnly(ctx context.Context, db *gorm.DB, log *slog.Logger) (*Store, error) {
	if log == nil {
		log = slog.Default()
	}
	s := &Store{db: db, logger: log, now: func() time.Time { return time.Now().UTC() }}
	rows, err := s.rows(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("read long-term memory: %w", err)
	}
	all := make([]indexed, len(rows))
	for i, r := range rows {
		all[i] = indexed{r, terms(r.Text)}
	}
	s.all.Store(&all)
	return s, nil
}

// OpenInDataDir opens long-term memory as the app keeps it: the rows in
// db, the vectors of model in the data folder's "memory" folder. saved is
// the embedding model saved in Settings: when model is another, tried for
// this run, saved's vectors are kept for the next run rather than deleted,
// and the collection of a model tried before is deleted by the next run
// with another model, so the folder holds at most two models' vectors.
//
// No model (Settings' "None (keyword search only)") opens the memories
// without vectors, searched by their words: Settings offers it, and it is no
// reason for Wayfinder not to start.
func OpenInDataDir(ctx context.Context, db *gorm.DB, dataDir, model, saved string, e Embedder, log *slog.Logger) (*Store, error) {
	var vecs *Vectors
	if strings.TrimSpace(model) != "" {
		var err error
		if vecs, err = newVectors(filepath.Join(dataDir, "memory"), model, saved, e, log); err != nil {
			return nil, fmt.Errorf("open long-term memory: %w", err)
		}
	}
	s, err := Open(ctx, db, vecs, log)
	if err != nil {
		return nil, fmt.Errorf("open long-term memory: %w", err)
	}
	s.vecDir, s.embed = filepath.Join(dataDir, "memory"), e
	return s, nil
}

// vectors are the memory vectors in use: nil when there are none (no
// embedding model) or the model is now none, and search is by words.
func (s *Store) vectors() *Vectors {
	if s.none.Load() {
		return nil
	}
	return s.vec.Load()
}

// staleVectors deletes the vectors of memories that no longer exist and
// returns the memories whose vector is missing or out of date.
func (s *Store) staleVectors(ctx context.Context, vec *Vectors) ([]vecDoc, error) {
	rows, err := s.rows(ctx, "")
	if err != nil {
		return nil, err
	}
	want := make(map[string]string, len(rows))
	for _, r := range rows {
		want[r.ID] = r.Text
	}
	ids, err := vec.sync(ctx, want)
	if err != nil {
		return nil, err
	}
	docs := make([]vecDoc, len(ids))
	for i, id := range ids {
		docs[i] = vecDoc{ID: id, Text: want[id]}
	}
	return docs, nil
}

// heal embeds memories left without a vector by an embedding failure. Search
// calls it after a vector search (which usually means Ollama answers again);
// after a failure it waits healRetry before trying again.
func (s *Store) heal(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	vec := s.vectors()
	if vec == nil || s.now().Before(s.healAfter) {
		return
	}
	stale, err := s.staleVectors(ctx, vec)
	if err == nil {
		err = vec.put(ctx, stale)
	}
	if err != nil {
		s.healAfter = s.now().Add(healRetry)
		s.logger.Warn("embed memories without vectors", "err", err)
	}
}

// UseEmbedModel switches the memory vectors to model when the person
// changes the embedding model: the old vectors are dropped, as the two
// models' vectors cannot be compared, and every memory is embedded again
// (a failure is logged, and Search retries later). Until then search ranks
// by keywords alone.
//
// The change takes effect at once in both directions, where it waited for
// a restart: a model chosen after a start with "None (keyword search
// only)" opens the vectors now (those a model left in the folder are
// reused as at a start); "" (None) stops searching and embedding them,
// and the next model embeds only what changed meanwhile.
func (s *Store) UseEmbedModel(ctx context.Context, model string) error {
	s.switching.Lock()
	defer s.switching.Unlock()
	if strings.TrimSpace(model) == "" {
		s.none.Store(true)
		return nil
	}
	var changed bool
	if vec := s.vec.Load(); vec != nil {
		var err error
		if changed, err = vec.useModel(model, ""); err != nil {
			return err
		}
	} else {
		if s.vecDir == "" {
			return nil // opened without a data folder's vectors: keyword search only
		}
		vec, err := newVectors(s.vecDir, model, "", s.embed, s.logger)
		if err != nil {
			return fmt.Errorf("open memory vectors: %w", err)
		}
		s.vec.Store(vec)
		changed = true
	}
	if wasNone := s.none.Swap(false); !changed && !wasNone {
		return nil
	}
	s.mu.Lock()
	s.healAfter = time.Time{}
	s.mu.Unlock()
	s.heal(ctx)
	return nil
}

func validate(text string, kind Kind) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "", invalid(api.ErrMemoryEmpty, "The memory is empty.", "Write what Wayfinder should remember.")
	case utf8.RuneCountInString(text) > MaxTextLen:
		n := utf8.RuneCountInString(text)
		return "", invalid(api.ErrMemoryTooLong, fmt.Sprintf("The memory is %d characters long; at most %d fit.", n, MaxTextLen), "Keep it to one or two sentences.",
			"n", strconv.Itoa(n), "max", strconv.Itoa(MaxTextLen))
	case !kind.Valid():
		return "", invalid(api.ErrMemoryKind, fmt.Sprintf("%q is not a kind of memory.", kind), "Use preference, fact or feedback.", "kind", string(kind))
	}
	return text, nil
}

// invalid is an ErrInvalid with what the person sees.
// kv are the particulars the window words it with (api.Error.With).
func invalid(code api.ErrorCode, msg, hint string, kv ...string) error {
	e := &api.Error{Info: api.ErrorInfo{Code: code, Message: msg, Hint: hint}, Err: ErrInvalid}
	if len(kv) > 0 {
		e = e.With(kv...)
	}
	return e
}

// notFound is an ErrNotFound with what the person sees.
func notFound(id string) error {
	return &api.Error{Info: api.ErrorInfo{Code: api.ErrMemoryNotFound, Message: fmt.Sprintf("There is no memory %s; it may have been deleted.", id),
		Hint: "Refresh the list of memories."}, Err: ErrNotFound}
}

// Add remembers text, or, when an existing memory says the same (same
// normalised text, embeddings at least DuplicateCosine alike, or without
// vectors term overlap at least DuplicateJaccard), updates that memory with
// the new wording and kind, keeping the more direct of the two origins.
// created is false for an update.
func (s *Store) Add(ctx context.Context, text string, kind Kind, from Provenance) (m Memory, created bool, err error) {
	text, err = validate(text, kind)
	if err != nil {
		return Memory{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	dup, err := s.findDuplicate(ctx, text)
	if err != nil {
		return Memory{}, false, err
	}
	now := s.now()
	if from.Origin.rank() == 0 {
		return Memory{}, false, fmt.Errorf("%w: origin %q is not said, reflection or edited", ErrInvalid, from.Origin)
	}
	row := memoryRow{ID: store.NewID(), Text: text, Norm: normalize(text), Kind: string(kind), Origin: string(from.Origin),
		SessionID: from.SessionID, CreatedAt: now, UpdatedAt: now}
	db := s.db.WithContext(ctx)
	if dup != nil {
		row.ID, row.CreatedAt = dup.ID, dup.CreatedAt
		if from.SessionID == "" {
			row.SessionID = dup.SessionID
		}
		if old := Origin(dup.Origin); old.rank() > from.Origin.rank() {
			row.Origin = dup.Origin
		}
		err = db.Save(&row).Error
	} else {
		err = db.Create(&row).Error
	}
	if err != nil {
		return Memory{}, false, fmt.Errorf("save memory: %w", err)
	}
	s.changed(&row, "")
	s.putVector(ctx, row)
	return row.memory(), dup == nil, nil
}

// findDuplicate returns the memory text restates, or nil.
func (s *Store) findDuplicate(ctx context.Context, text string) (*memoryRow, error) {
	var same []memoryRow
	if err := s.db.WithContext(ctx).Where("norm = ?", normalize(text)).Limit(1).Find(&same).Error; err != nil {
		return nil, fmt.Errorf("look for duplicate memory: %w", err)
	}
	if len(same) > 0 {
		return &same[0], nil
	}
	if vec := s.vectors(); vec != nil {
		hits, err := vec.query(ctx, text, 1)
		if err == nil {
			if len(hits) > 0 && hits[0].Score >= DuplicateCosine {
				return s.row(ctx, hits[0].ID)
			}
			return nil, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// No vectors right now: compare terms instead.
	}
	t := terms(text)
	for _, m := range *s.all.Load() {
		if jaccard(t, m.terms) >= DuplicateJaccard {
			return &m.row, nil
		}
	}
	return nil, nil
}

// changed brings the in-memory copy up to date after a write: r was added
// or updated (nil: none), the memory gone was deleted ("": none).
func (s *Store) changed(r *memoryRow, gone string) {
	old := *s.all.Load()
	next := make([]indexed, 0, len(old)+1)
	if r != nil {
		next = append(next, indexed{*r, terms(r.Text)})
		gone = r.ID
	}
	for _, m := range old {
		if m.row.ID != gone {
			next = append(next, m)
		}
	}
	// The table's order: updated_at DESC, id DESC.
	slices.SortStableFunc(next, func(a, b indexed) int {
		if c := b.row.UpdatedAt.Compare(a.row.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.row.ID, a.row.ID)
	})
	s.all.Store(&next)
}

// putVector stores the memory's vector. A failure is logged, not returned:
// the row is the memory, and Search embeds it later (heal).
func (s *Store) putVector(ctx context.Context, r memoryRow) {
	vec := s.vectors()
	if vec != nil {
		err := vec.put(ctx, []vecDoc{{ID: r.ID, Text: r.Text}})
		if err == nil {
			return
		}
		s.logger.Warn("embed memory", "id", r.ID, "err", err)
	} else if vec = s.vec.Load(); vec == nil {
		return
	}
	// A vector of the old wording must not keep answering for the new
	// one, nor stay on disk while the model is none.
	if err := vec.remove(ctx, r.ID); err != nil {
		s.logger.Warn("delete outdated memory vector", "id", r.ID, "err", err)
	}
}

func (s *Store) row(ctx context.Context, id string) (*memoryRow, error) {
	var r memoryRow
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("read memory %s: %w", id, err)
	}
	return &r, nil
}

// rows returns memories, newest change first, optionally of one kind.
func (s *Store) rows(ctx context.Context, kind Kind) ([]memoryRow, error) {
	q := s.db.WithContext(ctx).Order("updated_at DESC, id DESC")
	if kind != "" {
		q = q.Where("kind = ?", string(kind))
	}
	var rows []memoryRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list memories: %w", err)
	}
	return rows, nil
}

// List returns every memory, most recently changed first.
func (s *Store) List(ctx context.Context) ([]Memory, error) {
	rows, err := s.rows(ctx, "")
	if err != nil {
		return nil, err
	}
	out := make([]Memory, len(rows))
	for i, r := range rows {
		out[i] = r.memory()
	}
	return out, nil
}

// Get returns one memory.
func (s *Store) Get(ctx context.Context, id string) (Memory, error) {
	r, err := s.row(ctx, id)
	if err != nil {
		return Memory{}, err
	}
	return r.memory(), nil
}

// Edit replaces a memory's text and kind, and its vector; the memory is
// the person's own writing from then on.
func (s *Store) Edit(ctx context.Context, id, text string, kind Kind) (Memory, error) {
	text, err := validate(text, kind)
	if err != nil {
		return Memory{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.row(ctx, id)
	if err != nil {
		return Memory{}, err
	}
	r.Text, r.Norm, r.Kind, r.Origin, r.UpdatedAt = text, normalize(text), string(kind), string(OriginEdited), s.now()
	if err := s.db.WithContext(ctx).Save(r).Error; err != nil {
		return Memory{}, fmt.Errorf("edit memory %s: %w", id, err)
	}
	s.changed(r, "")
	s.putVector(ctx, *r)
	return r.memory(), nil
}

// Delete forgets one memory: its vector, then its row.
func (s *Store) Delete(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if vec := s.vec.Load(); vec != nil { // in use or not: a forgotten text leaves the folder
		if err := vec.remove(ctx, id); err != nil {
			return fmt.Errorf("delete vector of memory %s: %w", id, err)
		}
	}
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&memoryRow{})
	if res.Error != nil {
		return fmt.Errorf("delete memory %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return notFound(id)
	}
	s.changed(nil, id)
	return nil
}

// DeleteAll forgets everything: the vector collection is deleted with its
// folder, so no forgotten text stays on disk, then every row.
func (s *Store) DeleteAll(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if vec := s.vec.Load(); vec != nil {
		if err := vec.clear(); err != nil {
			return fmt.Errorf("delete all memory vectors: %w", err)
		}
	}
	if err := s.db.WithContext(ctx).Where("1 = 1").Delete(&memoryRow{}).Error; err != nil {
		return fmt.Errorf("delete all memories: %w", err)
	}
	s.all.Store(&[]indexed{})
	return nil
}

// Search returns up to k memories relevant to query, best first: the keyword
// ranking (term overlap, so "커피" finds "커피를 좋아한다") fused by RRF with
// the vector ranking when vectors are available. An empty query returns the
// k most recent memories.
func (s *Store) Search(ctx context.Context, query string, k int) ([]Memory, error) {
	if k <= 0 {
		return nil, nil
	}
	all := *s.all.Load()
	if strings.TrimSpace(query) == "" {
		out := make([]Memory, min(k, len(all)))
		for i := range out {
			out[i] = all[i].row.memory()
		}
		return out, nil
	}
	byID := make(map[string]memoryRow, len(all))
	for _, m := range all {
		byID[m.row.ID] = m.row
	}
	lists := [][]string{keywordRanking(query, all)}
	if vec := s.vectors(); vec != nil {
		hits, err := vec.query(ctx, query, k)
		switch {
		case err == nil:
			var ids []string
			for _, h := range hits {
				if h.Score >= minVectorScore {
					ids = append(ids, h.ID)
				}
			}
			lists = append(lists, ids)
			if vec.count() < len(all) {
				s.heal(ctx)
			}
		case ctx.Err() != nil:
			return nil, ctx.Err()
		default:
			s.logger.Debug("memory search without vectors", "err", err)
		}
	}
	var out []Memory
	for _, f := range fusion.RRF(fusion.DefaultK, lists...) {
		if r, ok := byID[f.ID]; ok {
			out = append(out, r.memory())
		}
		if len(out) == k {
			break
		}
	}
	return out, nil
}

// keywordRanking orders the memories sharing terms with query: most query
// terms covered first, then the more specific memory (higher Jaccard).
func keywordRanking(query string, all []indexed) []string {
	q := terms(query)
	type scored struct {
		id       string
		covered  int
		jacc     float64
		position int
	}
	var hits []scored
	for i, m := range all {
		if n := overlap(q, m.terms); n > 0 {
			hits = append(hits, scored{m.row.ID, n, jaccard(q, m.terms), i})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int {
		if a.covered != b.covered {
			return b.covered - a.covered
		}
		if a.jacc != b.jacc {
			if a.jacc > b.jacc {
				return -1
			}
			return 1
		}
		return a.position - b.position
	})
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return ids
}

// WithinBudget keeps memories, in order, while their estimated tokens fit in
// budget; load_context uses it so memories never crowd out the conversation.
func WithinBudget(mems []Memory, budget int) []Memory {
	used := 0
	for i, m := range mems {
		used += EstimateTokens(m.Text) + 4 // "- [kind] " and the newline
		if used > budget {
			return mems[:i]
		}
	}
	return mems
}

// MigrationSet names this package's migrations in the shared database.
const MigrationSet = "memory"

func migrations() []store.Migration {
	return []store.Migration{
		{Version: 1, Name: "long-term memories", Up: func(tx *gorm.DB) error {
			for _, q := range []string{
				`CREATE TABLE memories (
					id TEXT PRIMARY KEY,
					text TEXT NOT NULL,
					norm TEXT NOT NULL,
					kind TEXT NOT NULL,
					session_id TEXT NOT NULL DEFAULT '',
					created_at DATETIME NOT NULL,
					updated_at DATETIME NOT NULL)`,
				`CREATE INDEX memories_norm ON memories(norm)`,
				`CREATE INDEX memories_updated ON memories(updated_at)`,
			} {
				if err := tx.Exec(q).Error; err != nil {
					return err
				}
			}
			return nil
		}},
		// Before origins were recorded, a memory with a conversation came
		// from reflection and one without was added by hand (write_memory
		// was offered to no model).
		{Version: 2, Name: "memory origins", Up: func(tx *gorm.DB) error {
			for _, q := range []string{
				`ALTER TABLE memories ADD COLUMN origin TEXT NOT NULL DEFAULT ''`,
				`UPDATE memories SET origin = CASE WHEN session_id <> '' THEN 'reflection' ELSE 'edited' END`,
			} {
				if err := tx.Exec(q).Error; err != nil {
					return err
				}
			}
			return nil
		}},
	}
}

// Migrate brings the memory tables up to date; Open calls it.
func Migrate(ctx context.Context, db *gorm.DB) error {
	return store.Migrate(ctx, db, MigrationSet, migrations())
}
