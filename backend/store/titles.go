package store

import (
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// TitleFrom is a conversation's title made from its first message: the
// words on one line, at most 60 characters.
func TitleFrom(text string) string {
	title := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(title) > 60 {
		title = string([]rune(title)[:60]) + "…"
	}
	return title
}

// firstUserText is the words of a conversation's first message from the
// person ("" when it has none).
func firstUserText(msgs []api.Message) string {
	for _, m := range msgs {
		if m.Role == api.RoleUser {
			return m.Content
		}
	}
	return ""
}

// migrateTitleRenamed adds sessions.title_renamed. Before it, a renamed
// title and an automatic one looked the same, so the rule is: a title
// counts as automatic (title_renamed false) when it is empty or equals
// what its first message from the person gives (TitleFrom), and as the
// person's own otherwise — including a title with no message under it.
// A person who renamed a conversation to exactly its first message's
// title loses nothing: an edit of that message re-derives the same kind
// of title, and the rule never overwrites words the person typed
// elsewhere. Rows are read one at a time and only the ids of the renamed
// ones are kept, so memory stays bounded by the number of conversations.
func migrateTitleRenamed(tx *gorm.DB) error {
	if err := tx.Exec(`ALTER TABLE sessions ADD COLUMN title_renamed BOOLEAN NOT NULL DEFAULT 0`).Error; err != nil {
		return err
	}
	rows, err := tx.Raw(`SELECT s.id, s.title, COALESCE((SELECT m.content FROM messages m
		WHERE m.session_id = s.id AND m.role = ? AND m.variant_of = '' ORDER BY m.id LIMIT 1), '')
		FROM sessions s WHERE s.title != ''`, string(api.RoleUser)).Rows()
	if err != nil {
		return err
	}
	var renamed []string
	for rows.Next() {
		var id, title, first string
		if err := rows.Scan(&id, &title, &first); err != nil {
			rows.Close()
			return err
		}
		if title != TitleFrom(first) {
			renamed = append(renamed, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for start := 0; start < len(renamed); start += 500 { // SQLite's bound on parameters
		if err := tx.Exec(`UPDATE sessions SET title_renamed = 1 WHERE id IN ?`, renamed[start:min(start+500, len(renamed))]).Error; err != nil {
			return err
		}
	}
	return nil
}
