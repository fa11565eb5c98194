package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestHistorySurvivesReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	sess, err := s.CreateSession(ctx, "안녕하세요 first")
	if err != nil {
		t.Fatal(err)
	}
	user, err := s.AddMessage(ctx, api.Message{SessionID: sess.ID, Role: api.RoleUser, Content: "내 이름은 철수야", Status: api.StatusComplete})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := s.AddMessage(ctx, api.Message{SessionID: sess.ID, Role: api.RoleAssistant, Status: api.StatusStreaming})
	if err != nil {
		t.Fatal(err)
	}
	reply.Content = "반갑습니다, 철수님."
	reply.Status = api.StatusComplete
	reply.Result = &api.TurnResult{Response: reply.Content, SessionID: sess.ID, LLMCalls: 1, ToolsUsed: []string{}}
	if err := s.UpdateMessage(ctx, reply); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2 := open(t, dir)
	got, err := s2.Messages(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []api.Message{user, reply}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Fatalf("messages after reopen (-want +got):\n%s", diff)
	}
	// History is the same messages without results and errors.
	hist, err := s2.History(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	reply.Result = nil
	if diff := cmp.Diff([]api.Message{user, reply}, hist, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Fatalf("history after reopen (-want +got):\n%s", diff)
	}
	list, err := s2.ListSessions(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].MessageCount != 2 || list[0].Title != "안녕하세요 first" {
		t.Fatalf("sessions after reopen = %+v", list)
	}
}

func TestListSessionsSearch(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	a, _ := s.CreateSession(ctx, "Leave policy")
	b, _ := s.CreateSession(ctx, "유튜브 쇼츠")
	if _, err := s.AddMessage(ctx, api.Message{SessionID: b.ID, Role: api.RoleUser, Content: "카페 홍보 영상 100%", Status: api.StatusComplete}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{b.ID, a.ID}},
		{"leave", []string{a.ID}},
		{"쇼츠", []string{b.ID}},
		{"카페", []string{b.ID}},   // matches message text
		{"100%", []string{b.ID}}, // % is literal, not a wildcard
		{"_", nil},               // _ is literal too
		{"nothing like this", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := s.ListSessions(ctx, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, g := range got {
				ids = append(ids, g.ID)
			}
			if diff := cmp.Diff(tt.want, ids); diff != "" {
				t.Fatalf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeleteRestorePurge(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	sess, _ := s.CreateSession(ctx, "to delete")
	if _, err := s.AddMessage(ctx, api.Message{SessionID: sess.ID, Role: api.RoleUser, Content: "hi", Status: api.StatusComplete}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, sess.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted session still visible: %v", err)
	}
	if err := s.DeleteSession(ctx, sess.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
	restored, err := s.RestoreSession(ctx, sess.ID)
	if err != nil || restored.MessageCount != 1 {
		t.Fatalf("restore = %+v, %v", restored, err)
	}
	if err := s.DeleteSession(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.PurgeDeleted(ctx, time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RestoreSession(ctx, sess.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("restore after purge: %v", err)
	}
	msgs, err := s.Messages(ctx, sess.ID)
	if err != nil || len(msgs) != 0 {
		t.Fatalf("messages of purged session = %v, %v (want none: cascade)", msgs, err)
	}
}

func TestRenameAndPendingApproval(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	sess, _ := s.CreateSession(ctx, "old")
	if _, err := s.RenameSession(ctx, sess.ID, "  "); err == nil {
		t.Fatal("empty title accepted")
	}
	got, err := s.RenameSession(ctx, sess.ID, "새 제목")
	if err != nil || got.Title != "새 제목" {
		t.Fatalf("rename = %+v, %v", got, err)
	}
	if err := s.SetPendingApproval(ctx, sess.ID, true); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Session(ctx, sess.ID)
	if !got.PendingApproval {
		t.Fatal("pending approval not stored")
	}
	if _, err := s.RenameSession(ctx, "missing", "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("rename missing: %v", err)
	}
}

func TestMarkInterrupted(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	sess, _ := s.CreateSession(ctx, "t")
	m, _ := s.AddMessage(ctx, api.Message{SessionID: sess.ID, Role: api.RoleAssistant, Content: "half a rep", Status: api.StatusStreaming})
	n, err := s.MarkInterrupted(ctx)
	if err != nil || n != 1 {
		t.Fatalf("MarkInterrupted = %d, %v", n, err)
	}
	msgs, _ := s.Messages(ctx, sess.ID)
	if msgs[0].ID != m.ID || msgs[0].Status != api.StatusInterrupted || msgs[0].Content != "half a rep" {
		t.Fatalf("after recovery: %+v", msgs[0])
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	in := api.Settings{ChatModel: "qwen3:4b", Language: "ko", Theme: api.ThemeDark}
	var out api.Settings
	if ok, err := s.LoadSettings(ctx, &out); ok || err != nil {
		t.Fatalf("fresh load = %v, %v", ok, err)
	}
	if err := s.SaveSettings(ctx, in); err != nil {
		t.Fatal(err)
	}
	in.ChatModel = "llama3.2:3b"
	if err := s.SaveSettings(ctx, in); err != nil { // second save updates
		t.Fatal(err)
	}
	if ok, err := s.LoadSettings(ctx, &out); !ok || err != nil {
		t.Fatalf("load = %v, %v", ok, err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Fatalf("settings (-want +got):\n%s", diff)
	}
}

// OpenReadOnly sees what an open store saved, while it writes, creates
// nothing where there is no database, and cannot write.
func TestOpenReadOnlyBesideAnOpenStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := OpenReadOnly(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no database: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("reading created the database: %v", err)
	}
	s := open(t, dir)
	in := api.Settings{ChatModel: "qwen3:4b", Language: "ko"}
	if err := s.SaveSettings(ctx, in); err != nil {
		t.Fatal(err)
	}
	sess, err := s.CreateSession(ctx, "first")
	if err != nil {
		t.Fatal(err)
	}
	r, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out api.Settings
	if ok, err := r.LoadSettings(ctx, &out); !ok || err != nil || !cmp.Equal(out, in) {
		t.Fatalf("beside the open store: %+v, %v, %v; want %+v", out, ok, err, in)
	}
	// The owner goes on writing; the reader sees each committed change.
	if _, err := s.AddMessage(ctx, api.Message{SessionID: sess.ID, Role: api.RoleUser, Content: "hello", Status: api.StatusComplete}); err != nil {
		t.Fatal(err)
	}
	if msgs, err := r.Messages(ctx, sess.ID); err != nil || len(msgs) != 1 {
		t.Fatalf("reader after the owner's write: %v %v", msgs, err)
	}
	if _, err := r.CreateSession(ctx, "nope"); err == nil {
		t.Fatal("a read-only store wrote a session")
	}
}

func TestMigrate(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(t.TempDir() + "/m.db")
	if err != nil {
		t.Fatal(err)
	}
	var ran []int
	mk := func(v int, fail bool) Migration {
		return Migration{Version: v, Name: "m", Up: func(tx *gorm.DB) error {
			if fail {
				return errors.New("boom")
			}
			ran = append(ran, v)
			return tx.Exec("CREATE TABLE t" + string(rune('0'+v)) + " (x INT)").Error
		}}
	}
	if err := Migrate(ctx, db, "x", []Migration{mk(1, false), mk(2, false)}); err != nil {
		t.Fatal(err)
	}
	// Re-running applies only the new one; a failing one is rolled back and named.
	err = Migrate(ctx, db, "x", []Migration{mk(1, false), mk(2, false), mk(3, false), mk(4, true)})
	if err == nil || !strings.Contains(err.Error(), "version 4") {
		t.Fatalf("failing migration error = %v", err)
	}
	if diff := cmp.Diff([]int{1, 2, 3}, ran); diff != "" {
		t.Fatalf("ran (-want +got):\n%s", diff)
	}
	if err := Migrate(ctx, db, "y", []Migration{mk(2, false), mk(1, false)}); err == nil {
		t.Fatal("decreasing versions accepted")
	}
}

func TestIntegrityCheck(t *testing.T) {
	s := open(t, t.TempDir())
	if err := s.IntegrityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentMigrations: packages migrate their own sets at the same
// time on one file (the knowledge base opens in the background while memory
// migrates); none may fail with "database is locked".
func TestConcurrentMigrations(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/c.db"
	// The file exists in WAL mode first, as the app's store makes it before
	// the others open it: eight connections switching a new file to WAL at
	// once can get SQLITE_BUSY, which no busy timeout waits out.
	first, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	if sqlDB, err := first.DB(); err == nil {
		t.Cleanup(func() { sqlDB.Close() })
	}
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			db, err := OpenDB(path)
			if err != nil {
				errs <- err
				return
			}
			defer func() {
				if sqlDB, err := db.DB(); err == nil {
					sqlDB.Close()
				}
			}()
			set := string(rune('a' + i%4)) // two processes per set
			var ms []Migration
			for v := 1; v <= 5; v++ {
				table := set + string(rune('0'+v))
				ms = append(ms, Migration{Version: v, Name: table, Up: func(tx *gorm.DB) error {
					if err := tx.Exec("CREATE TABLE t_" + table + " (x INT)").Error; err != nil {
						return err
					}
					return tx.Exec("INSERT INTO t_" + table + " VALUES (1)").Error
				}})
			}
			errs <- Migrate(ctx, db, set, ms)
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestHistorySeesEveryChange: the history a turn reads, kept in memory
// after the first read, matches the database after every kind of write.
func TestHistorySeesEveryChange(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	session := NewID()
	var last api.Message
	steps := []struct {
		name  string
		write func() error
	}{
		{"first turn", func() (err error) {
			var user api.Message
			user, last = NewTurn(session, "안녕")
			return s.StartTurn(ctx, "t", user, last)
		}},
		{"reply saved", func() error {
			last.Content, last.Status = "반가워요", api.StatusComplete
			return s.UpdateMessage(ctx, last)
		}},
		{"second turn", func() (err error) {
			var user api.Message
			user, last = NewTurn(session, "날씨는?")
			return s.StartTurn(ctx, "", user, last)
		}},
		{"partial reply saved", func() error {
			last.Content = "맑"
			return s.UpdateMessage(ctx, last)
		}},
		{"marked interrupted after a crash", func() error {
			_, err := s.MarkInterrupted(ctx)
			return err
		}},
		{"message added", func() (err error) {
			last, err = s.AddMessage(ctx, api.Message{SessionID: session, Role: api.RoleAssistant, Content: "메모", Status: api.StatusComplete})
			return err
		}},
		{"update without a session id", func() error {
			m := last
			m.SessionID, m.Content = "", "고친 메모"
			return s.UpdateMessage(ctx, m)
		}},
		{"last turn removed to regenerate", func() error {
			h, err := s.History(ctx, session)
			if err != nil {
				return err
			}
			_, err = s.DeleteMessagesFrom(ctx, session, h[2].ID)
			return err
		}},
		{"purged", func() error {
			if err := s.DeleteSession(ctx, session); err != nil {
				return err
			}
			return s.PurgeDeleted(ctx, time.Now().Add(time.Hour))
		}},
	}
	for _, step := range steps {
		if _, err := s.History(ctx, session); err != nil { // kept from here on
			t.Fatal(err)
		}
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got, err := s.History(ctx, session)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.readHistory(ctx, session)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("after %s: kept history differs from the database (-db +kept):\n%s", step.name, diff)
		}
	}
}

// A history read that a write overtook is not kept.
func TestHistoriesKeepNoStaleRead(t *testing.T) {
	h := newHistories()
	_, writes, _ := h.get("s")
	h.change("s", func(m []api.Message) []api.Message { return m })
	h.keep("s", writes, []api.Message{{ID: "old"}})
	if _, _, ok := h.get("s"); ok {
		t.Fatal("a read older than a write was kept")
	}
}

// An imported conversation keeps its ids, times, plan flag and model; an
// id taken by a live or deleted conversation, or by a message, stores
// nothing.
func TestImportSession(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	at := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	sess := api.Session{ID: "imported", Title: "가져온 대화", CreatedAt: at, UpdatedAt: at.Add(time.Hour), PendingApproval: true, Model: "qwen3:4b"}
	msgs := []api.Message{
		{ID: "m1", Role: api.RoleUser, Content: "안녕", Status: api.StatusComplete, CreatedAt: at},
		{ID: "m2", Role: api.RoleAssistant, Content: "Here is a plan.", Status: api.StatusAwaitingApproval, CreatedAt: at,
			Result: &api.TurnResult{Plan: &api.PlanApproval{Round: 1, SubTasks: []api.SubTask{{ID: "a", Title: "A"}}}}},
	}
	if err := s.ImportSession(ctx, sess, msgs); err != nil {
		t.Fatal(err)
	}
	got, err := s.Session(ctx, "imported")
	sess.MessageCount = 2
	if err != nil || !cmp.Equal(got, sess) {
		t.Fatalf("session %+v %v, want %+v", got, err, sess)
	}
	back, err := s.Messages(ctx, "imported")
	if err != nil || len(back) != 2 || back[1].Result.Plan.SubTasks[0].Title != "A" || !back[0].CreatedAt.Equal(at) || back[0].SessionID != "imported" {
		t.Fatalf("messages %+v %v", back, err)
	}
	other := api.Session{ID: "other", CreatedAt: at, UpdatedAt: at}
	if err := s.ImportSession(ctx, other, []api.Message{{ID: "m2", Role: api.RoleUser, Status: api.StatusComplete, CreatedAt: at}}); !errors.Is(err, ErrExists) {
		t.Fatalf("a taken message id: %v", err)
	}
	if err := s.DeleteSession(ctx, "imported"); err != nil {
		t.Fatal(err)
	}
	if err := s.ImportSession(ctx, sess, nil); !errors.Is(err, ErrExists) {
		t.Fatalf("the id of a deleted conversation: %v", err)
	}
	if _, err := s.Session(ctx, "other"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a refused import left a session: %v", err)
	}
}

// A conversation keeps its own settings across a reopen; setting none
// clears them; the sidebar lists them and keeps its order.
func TestSessionSettings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	sess, err := s.CreateSession(ctx, "tuned")
	if err != nil {
		t.Fatal(err)
	}
	prompt, temp, numCtx := "짧게 답해", 0.4, 16384
	cs := api.ConversationSettings{SystemPrompt: &prompt, Temperature: &temp, ContextTokens: &numCtx}
	got, err := s.SetSessionSettings(ctx, sess.ID, cs)
	if err != nil || !cmp.Equal(got.Settings, &cs) || !got.UpdatedAt.Equal(sess.UpdatedAt) {
		t.Fatalf("SetSessionSettings = %+v, %v", got, err)
	}
	s.Close()
	s = open(t, dir)
	if read, err := s.SessionSettings(ctx, sess.ID); err != nil || !cmp.Equal(read, &cs) {
		t.Fatalf("after reopening: %+v %v", read, err)
	}
	if list, _ := s.ListSessions(ctx, ""); len(list) != 1 || !cmp.Equal(list[0].Settings, &cs) {
		t.Fatalf("sidebar: %+v", list)
	}
	if got, err = s.SetSessionSettings(ctx, sess.ID, api.ConversationSettings{}); err != nil || got.Settings != nil {
		t.Fatalf("cleared: %+v %v", got, err)
	}
	if read, _ := s.SessionSettings(ctx, sess.ID); read != nil {
		t.Fatalf("cleared settings read back: %+v", read)
	}
	s.DeleteSession(ctx, sess.ID)
	if _, err := s.SetSessionSettings(ctx, sess.ID, cs); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a deleted conversation: %v", err)
	}
}

// A decision closes the reply that asked even when that reply's result
// cannot be read back: the person can still decide.
func TestDecisionOnAnUnreadableReply(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	user, reply := NewTurn("s1", "make a video")
	if err := s.StartTurn(ctx, "video", user, reply); err != nil {
		t.Fatal(err)
	}
	reply.Status, reply.Content = api.StatusAwaitingApproval, "Here is a plan — approve, edit or revise it."
	reply.Result = &api.TurnResult{Plan: &api.PlanApproval{Version: "v1", Round: 1, SubTasks: []api.SubTask{{ID: "a", Title: "A"}}}}
	if err := s.EndTurn(ctx, reply, "v1", false); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Exec("UPDATE messages SET result_json = ? WHERE id = ?", "{not json", reply.ID).Error; err != nil {
		t.Fatal(err)
	}
	d := &api.ApprovalDecision{Action: api.ActionApprove, Version: "v1"}
	user2, reply2 := NewTurn("s1", "✓ Approved the plan.")
	user2.Decision = d
	if err := s.StartTurn(ctx, "", user2, reply2); err != nil {
		t.Fatalf("the decision was refused: %v", err)
	}
	var status string
	if err := s.db.Raw("SELECT status FROM messages WHERE id = ?", reply.ID).Scan(&status).Error; err != nil || status != string(api.StatusComplete) {
		t.Fatalf("the reply that asked is %q (%v), want complete", status, err)
	}
}

// A new name is no activity: a renamed conversation keeps its time and its
// place in the list, where a rename dated it now and moved it to the top.
func TestRenameKeepsActivityTime(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for i, id := range []string{"older", "newer"} {
		if err := s.ImportSession(ctx, api.Session{ID: id, Title: id, CreatedAt: at, UpdatedAt: at.Add(time.Duration(i) * time.Hour)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.RenameSession(ctx, "older", "이름을 바꾼 대화")
	if err != nil {
		t.Fatal(err)
	}
	if !got.UpdatedAt.Equal(at) || got.Title != "이름을 바꾼 대화" {
		t.Errorf("renamed: %q at %v, want its time %v", got.Title, got.UpdatedAt, at)
	}
	list, err := s.ListSessions(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, x := range list {
		order = append(order, x.ID)
	}
	if !cmp.Equal(order, []string{"newer", "older"}) {
		t.Errorf("order after the rename: %v, want newer then older", order)
	}
}

// A reader beside an owner that is still setting up a set of tables
// waits for the set's migrations, and gives up waiting after its
// patience without an error (it then reads what is there).
func TestAwaitMigrated(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	owner := open(t, dir)
	ms := []Migration{
		{Version: 1, Name: "things", Up: func(tx *gorm.DB) error { return tx.Exec("CREATE TABLE things (id TEXT)").Error }},
		{Version: 2, Name: "more things", Up: func(tx *gorm.DB) error { return tx.Exec("ALTER TABLE things ADD COLUMN name TEXT").Error }},
	}
	r, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	start := time.Now()
	if err := AwaitMigrated(ctx, r.DB(), "late", ms, 100*time.Millisecond); err != nil || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("nothing migrated: %v after %v; want nil after its patience", err, time.Since(start))
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		if err := Migrate(ctx, owner.DB(), "late", ms); err != nil {
			t.Error(err)
		}
	}()
	if err := AwaitMigrated(ctx, r.DB(), "late", ms, time.Minute); err != nil {
		t.Fatal(err)
	}
	if !r.DB().Migrator().HasColumn("things", "name") {
		t.Fatal("AwaitMigrated returned before the owner's last migration")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := AwaitMigrated(cancelled, r.DB(), "never", ms, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
}
