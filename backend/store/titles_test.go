package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// turn saves a finished turn with the person's text in a session ("" for
// newTitle: an existing one) and returns the person's message id.
func turn(t *testing.T, s *Store, sessionID, newTitle, text string) string {
	t.Helper()
	user, reply := NewTurn(sessionID, text)
	if err := s.StartTurn(context.Background(), newTitle, user, reply); err != nil {
		t.Fatal(err)
	}
	return user.ID
}

// edit does what Save and resend does to a conversation's last message:
// removes it and what followed, and sends text in its place.
func edit(t *testing.T, s *Store, sessionID, messageID, text string) {
	t.Helper()
	if _, err := s.DeleteMessagesFrom(context.Background(), sessionID, messageID); err != nil {
		t.Fatal(err)
	}
	turn(t, s, sessionID, "", text)
}

func title(t *testing.T, s *Store, id string) string {
	t.Helper()
	got, err := s.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got.Title
}

// Editing the only message of a conversation titles it after the new
// words, unless the person renamed it; an edit of a later message never
// touches the title.
func TestEditingTheFirstMessageRetitles(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	for _, c := range []struct {
		name, rename, want string
		second             bool
	}{
		{name: "automatic", want: "부산 인구는?"},
		{name: "renamed", rename: "인구 조사", want: "인구 조사"},
		{name: "later message", second: true, want: "서울 인구는?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := NewID()
			first := turn(t, s, id, TitleFrom("서울 인구는?"), "서울 인구는?")
			if c.rename != "" {
				if _, err := s.RenameSession(ctx, id, c.rename); err != nil {
					t.Fatal(err)
				}
			}
			last := first
			if c.second {
				last = turn(t, s, id, "", "그럼 대구는?")
			}
			edit(t, s, id, last, "  부산\n인구는?  ")
			if got := title(t, s, id); got != c.want {
				t.Errorf("title %q, want %q", got, c.want)
			}
		})
	}
	// A conversation made before its first message (files attached in a
	// new chat) is titled by it, and again by its edit.
	sess, err := s.CreateSession(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	first := turn(t, s, sess.ID, "", "a.md 요약")
	if got := title(t, s, sess.ID); got != "a.md 요약" {
		t.Fatalf("title %q", got)
	}
	edit(t, s, sess.ID, first, "a.md 세 줄 요약")
	if got := title(t, s, sess.ID); got != "a.md 세 줄 요약" {
		t.Errorf("after the edit: title %q", got)
	}
}

// A database from before title_renamed: a title counts as automatic when
// it is empty or what its first message gives, and as the person's
// otherwise (also with no message under it); the migration runs once.
func TestTitleRenamedMigration(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := OpenDB(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db, "store", migrations()[:6]); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("가나다 ", 30)
	now := time.Now().UTC()
	msgs := map[string]string{}
	for _, row := range []struct{ id, title, first string }{
		{"auto", "서울 인구는?", "서울   인구는?"},
		{"long", TitleFrom(long), long},
		{"renamed", "인구 조사", "서울 인구는?"},
		{"empty", "", ""},
		{"bare", "손으로 지은 제목", ""},
	} {
		if err := db.Exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)`, row.id, row.title, now, now).Error; err != nil {
			t.Fatal(err)
		}
		if row.first == "" {
			continue
		}
		user, reply := NewTurn(row.id, row.first)
		for _, m := range []struct{ id, role, content string }{{user.ID, "user", user.Content}, {reply.ID, "assistant", "답"}} {
			if err := db.Exec(`INSERT INTO messages (id, session_id, role, content, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'complete', ?, ?)`,
				m.id, row.id, m.role, m.content, now, now).Error; err != nil {
				t.Fatal(err)
			}
		}
		msgs[row.id] = user.ID
	}
	sqlDB, _ := db.DB()
	_ = sqlDB.Close()

	s := open(t, dir)
	for id, want := range map[string]string{"auto": "새 질문", "long": "새 질문", "renamed": "인구 조사", "empty": "새 질문", "bare": "손으로 지은 제목"} {
		if m, ok := msgs[id]; ok {
			edit(t, s, id, m, "새 질문")
		} else {
			turn(t, s, id, "", "새 질문")
		}
		if got := title(t, s, id); got != want {
			t.Errorf("%s: title %q, want %q", id, got, want)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	open(t, dir) // reopening runs nothing again
}

// An imported conversation's title is judged as the migration judges an
// old one: automatic when it is its first message's, else the person's.
func TestImportedTitlesKeepTheirKind(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for id, c := range map[string]struct{ title, want string }{
		"auto":    {"서울 인구는?", "새 질문"},
		"renamed": {"인구 조사", "인구 조사"},
	} {
		first := id + "-m1"
		msgs := []api.Message{
			{ID: first, Role: api.RoleUser, Content: "서울 인구는?", Status: api.StatusComplete, CreatedAt: at},
			{ID: id + "-m2", Role: api.RoleAssistant, Content: "답", Status: api.StatusComplete, CreatedAt: at},
		}
		if err := s.ImportSession(ctx, api.Session{ID: id, Title: c.title, CreatedAt: at, UpdatedAt: at}, msgs); err != nil {
			t.Fatal(err)
		}
		edit(t, s, id, first, "새 질문")
		if got := title(t, s, id); got != c.want {
			t.Errorf("%s: title %q, want %q", id, got, c.want)
		}
	}
}
