package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// migrateApprovals adds what versioned decisions and tool approvals need:
// the version a session waits for, the decision a person's message made,
// and the tools the person allowed for good.
func migrateApprovals(tx *gorm.DB) error {
	for _, q := range []string{
		`ALTER TABLE sessions ADD COLUMN pending_version TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE messages ADD COLUMN decision_json TEXT NOT NULL DEFAULT ''`,
		`CREATE TABLE tool_grants (
			tool TEXT PRIMARY KEY,
			server TEXT NOT NULL DEFAULT '',
			granted_at DATETIME NOT NULL)`,
	} {
		if err := tx.Exec(q).Error; err != nil {
			return err
		}
	}
	return nil
}

// EndTurn saves a turn's final reply. waitingFor is the version of the
// decision the reply asks for ("" when none); with it, or when the turn
// carried out a decision (decided), the session's waiting state changes in
// the same transaction, so a reply is never stored waiting while the
// session is not, nor the other way round, whenever the process dies.
func (s *Store) EndTurn(ctx context.Context, reply api.Message, waitingFor string, decided bool) error {
	if waitingFor == "" && !decided {
		return s.UpdateMessage(ctx, reply)
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&session{}).Where("id = ? AND deleted_at IS NULL", reply.SessionID).Updates(map[string]any{
			"pending_approval": waitingFor != "", "pending_version": waitingFor, "updated_at": time.Now().UTC(),
		})
		if res.Error != nil {
			return res.Error
		}
		return s.updateMessage(tx, reply)
	})
	if err != nil {
		return fmt.Errorf("end the turn of session %q: %w", reply.SessionID, err)
	}
	s.noteUpdate(reply)
	return nil
}

// Cut is a decision whose turn a killed process cut short: the session no
// longer waits, yet the turn that carried the decision out never ended.
type Cut struct {
	SessionID string
	Version   string               // what the decision answered
	Decision  api.ApprovalDecision // as the person made it, edits included
	Reply     api.Message          // the turn's reply, marked interrupted
}

// CutDecisions lists the decisions whose turns never ended. Run it after
// MarkInterrupted, when no turn runs.
func (s *Store) CutDecisions(ctx context.Context) ([]Cut, error) {
	var sessions []session
	if err := s.db.WithContext(ctx).Where("deleted_at IS NULL AND pending_approval = ? AND pending_version <> ''", false).
		Find(&sessions).Error; err != nil {
		return nil, fmt.Errorf("find cut decisions: %w", err)
	}
	var out []Cut
	for _, sess := range sessions {
		var rows []message
		if err := s.db.WithContext(ctx).Where("session_id = ?", sess.ID).Order("id DESC").Limit(2).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("find the cut decision of %q: %w", sess.ID, err)
		}
		c := Cut{SessionID: sess.ID, Version: sess.PendingVersion}
		if len(rows) == 2 && rows[0].Role == string(api.RoleAssistant) && rows[1].Decision != "" {
			var err error
			if c.Reply, err = rows[0].toAPI(); err != nil {
				return nil, err
			}
			if err := json.Unmarshal([]byte(rows[1].Decision), &c.Decision); err != nil {
				return nil, fmt.Errorf("decode the cut decision of %q: %w", sess.ID, err)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Awaiting returns what the session waits for, or nil when it waits for
// nothing: the newest reply, which asks for it.
func (s *Store) Awaiting(ctx context.Context, sessionID string) (*api.Awaiting, error) {
	var sess session
	err := s.db.WithContext(ctx).Where("id = ? AND deleted_at IS NULL", sessionID).Take(&sess).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("session %q: %w", sessionID, ErrNotFound)
	}
	if err != nil || !sess.PendingApproval {
		return nil, err
	}
	var row message
	err = s.db.WithContext(ctx).Where("session_id = ? AND role = ?", sessionID, api.RoleAssistant).Order("id DESC").Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load what session %q waits for: %w", sessionID, err)
	}
	m, err := row.toAPI()
	if err != nil || m.Status != api.StatusAwaitingApproval || m.Result == nil {
		return nil, err
	}
	return &api.Awaiting{MessageID: m.ID, Plan: m.Result.Plan, ToolCall: m.Result.ToolCall}, nil
}

// GrantTool remembers that the person allowed a tool to run without
// asking ("always for this tool"). origin names exactly what provides the
// tool (an MCP server's command or URL, hashed): the grant holds for it
// only, and granting the tool again for another origin replaces it.
func (s *Store) GrantTool(ctx context.Context, tool, server, origin string) error {
	tool = strings.TrimSpace(tool)
	if tool == "" {
		return errors.New("grant a tool: no tool named")
	}
	row := toolGrant{Tool: tool, Server: server, Origin: origin, GrantedAt: time.Now().UTC()}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "tool"}},
		Where:     clause.Where{Exprs: []clause.Expression{clause.Neq{Column: clause.Column{Table: "excluded", Name: "origin"}, Value: clause.Column{Table: "tool_grants", Name: "origin"}}}},
		DoUpdates: clause.AssignmentColumns([]string{"server", "origin", "granted_at"}),
	}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("grant tool %q: %w", tool, err)
	}
	return nil
}

// RevokeTool takes a grant back: the tool asks again.
func (s *Store) RevokeTool(ctx context.Context, tool string) error {
	res := s.db.WithContext(ctx).Where("tool = ?", tool).Delete(&toolGrant{})
	if res.Error != nil {
		return fmt.Errorf("revoke tool %q: %w", tool, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("revoke tool %q: %w", tool, ErrNotFound)
	}
	return nil
}

// RevokeServer takes back the grants of a server's tools (it was removed
// or now runs another program): its tools ask again.
func (s *Store) RevokeServer(ctx context.Context, server string) (int, error) {
	if server == "" {
		return 0, errors.New("revoke the grants of a server: no server named")
	}
	res := s.db.WithContext(ctx).Where("server = ?", server).Delete(&toolGrant{})
	if res.Error != nil {
		return 0, fmt.Errorf("revoke the grants of server %q: %w", server, res.Error)
	}
	return int(res.RowsAffected), nil
}

// ToolGranted reports whether the person allowed the tool for good, as
// provided by origin: a grant given to another origin (a server of the
// same name that ran another program) does not count.
func (s *Store) ToolGranted(ctx context.Context, tool, origin string) (bool, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&toolGrant{}).Where("tool = ? AND origin = ?", tool, origin).Count(&n).Error; err != nil {
		return false, fmt.Errorf("read the grant of tool %q: %w", tool, err)
	}
	return n > 0, nil
}

// ToolGrants lists the tools allowed for good, in the order they were.
func (s *Store) ToolGrants(ctx context.Context) ([]api.ToolGrant, error) {
	var rows []toolGrant
	if err := s.db.WithContext(ctx).Order("granted_at, tool").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list tool grants: %w", err)
	}
	out := make([]api.ToolGrant, len(rows))
	for i, r := range rows {
		out[i] = api.ToolGrant{Tool: r.Tool, Server: r.Server, GrantedAt: r.GrantedAt}
	}
	return out, nil
}

type toolGrant struct {
	Tool      string `gorm:"primaryKey"`
	Server    string
	Origin    string
	GrantedAt time.Time
}
