package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Answers kept as variants. Regenerating answers the person's last message
// again: the new reply is added after the ones it had, which stay in the
// table with variant_of naming the reply shown instead. A conversation's
// line (Messages, History) holds only the shown ones; Messages attaches the
// rest to them. Choosing another variant swaps what two rows hold, so every
// row keeps its place in the line and the answer shown is always the one
// later turns continue from.

// ErrNotLast refuses to answer again a message that is not the
// conversation's last one of the person.
var ErrNotLast = errors.New("only the last message can be answered again")

// StartRerun saves reply as a new answer to user, the session's last
// message of the person (already stored), in one transaction that keeps
// the answers it had as variants of reply. A session waiting for a plan
// decision takes no rerun (ErrPlanPending).
func (s *Store) StartRerun(ctx context.Context, user, reply api.Message) error {
	sessionID := user.SessionID
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&session{}).Where("id = ? AND deleted_at IS NULL AND pending_approval = ?", sessionID, false).
			Update("updated_at", reply.CreatedAt)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return turnRefused(tx, sessionID, false)
		}
		var later int64
		if err := tx.Model(&message{}).Where("session_id = ? AND id > ? AND role = ?", sessionID, user.ID, string(api.RoleUser)).Count(&later).Error; err != nil {
			return err
		}
		if later > 0 {
			return ErrNotLast
		}
		// The answers after the message, and the variants they had, now
		// stand behind the new one.
		if err := tx.Model(&message{}).Where("session_id = ? AND id > ?", sessionID, user.ID).UpdateColumn("variant_of", reply.ID).Error; err != nil {
			return err
		}
		row, err := fromAPI(reply)
		if err != nil {
			return err
		}
		return tx.Create(&row).Error
	})
	if err != nil {
		return fmt.Errorf("answer again in session %q: %w", sessionID, err)
	}
	s.histories.change(sessionID, func(h []api.Message) []api.Message {
		h = slices.DeleteFunc(h, func(m api.Message) bool { return m.ID > user.ID })
		return append(h, asHistory(reply))
	})
	return nil
}

// ShowVariant makes the variant the answer shown in place of shownID (and
// the one later turns continue from); the answer shown so far becomes a
// variant. It returns the message now shown, with its variants.
func (s *Store) ShowVariant(ctx context.Context, sessionID, shownID, variantID string) (api.Message, error) {
	var shown message
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var other message
		if err := tx.Where("id = ? AND session_id = ? AND variant_of = ''", shownID, sessionID).Take(&shown).Error; err != nil {
			return notFound(err)
		}
		if err := tx.Where("id = ? AND session_id = ? AND variant_of = ?", variantID, sessionID, shownID).Take(&other).Error; err != nil {
			return notFound(err)
		}
		swap := func(src message) map[string]any {
			return map[string]any{"content": src.Content, "status": src.Status, "error_json": src.ErrorJSON,
				"result_json": src.Result, "created_at": src.CreatedAt, "updated_at": time.Now().UTC()}
		}
		if err := tx.Model(&message{}).Where("id = ?", other.ID).Updates(swap(shown)).Error; err != nil {
			return err
		}
		if err := tx.Model(&message{}).Where("id = ?", shown.ID).Updates(swap(other)).Error; err != nil {
			return err
		}
		shown.Content, shown.Status, shown.ErrorJSON, shown.Result, shown.CreatedAt = other.Content, other.Status, other.ErrorJSON, other.Result, other.CreatedAt
		return nil
	})
	if err != nil {
		return api.Message{}, fmt.Errorf("show another answer in session %q: %w", sessionID, err)
	}
	s.histories.change(sessionID, func(h []api.Message) []api.Message {
		if i := slices.IndexFunc(h, func(m api.Message) bool { return m.ID == shownID }); i >= 0 {
			h[i].Content, h[i].Status, h[i].CreatedAt = shown.Content, api.MessageStatus(shown.Status), shown.CreatedAt
		}
		return h
	})
	msgs, err := s.Messages(ctx, sessionID)
	if err != nil {
		return api.Message{}, err
	}
	for _, m := range msgs {
		if m.ID == shownID {
			return m, nil
		}
	}
	return api.Message{}, fmt.Errorf("show another answer: message %q: %w", shownID, ErrNotFound)
}

func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}

// withVariants puts each hidden answer under the one shown instead, oldest
// first, and returns the conversation's line.
func withVariants(rows []message) ([]api.Message, error) {
	line := make([]api.Message, 0, len(rows))
	hidden := map[string][]api.Message{}
	for _, r := range rows {
		m, err := r.toAPI()
		if err != nil {
			return nil, err
		}
		if r.VariantOf != "" {
			hidden[r.VariantOf] = append(hidden[r.VariantOf], m)
			continue
		}
		line = append(line, m)
	}
	if len(hidden) == 0 {
		return line, nil
	}
	for i := range line {
		if v := hidden[line[i].ID]; len(v) > 0 {
			sort.SliceStable(v, func(a, b int) bool { return v[a].CreatedAt.Before(v[b].CreatedAt) })
			line[i].Variants = v
		}
	}
	return line, nil
}
