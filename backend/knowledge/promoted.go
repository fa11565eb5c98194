package knowledge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
)

// Promotion is a conversation's file added to the library (Promote),
// kept with the knowledge base so that the conversation can say so after
// a reload or a restart, as the window that added it did: where the file
// went, and which of the documents it became the library still has (the
// Knowledge screen removes documents one by one; a JSON file or an
// archive is several).
type Promotion struct {
	ID           int64
	Conversation string
	// Source is where the file is kept in the library.
	Source string
	// DocIDs are the documents the file was when it was added.
	DocIDs []string
	// Left are those of DocIDs the library still has, in the same order.
	// A file read again in the library since is the documents it is now.
	Left []string
	// Chunks counts the passages of the Left documents.
	Chunks    int
	CreatedAt time.Time
}

// promotion is Promotion's row: the documents as a JSON array.
type promotion struct {
	ID           int64  `gorm:"primaryKey;autoIncrement"`
	Conversation string `gorm:"index"`
	Source       string
	DocIDs       string
	CreatedAt    time.Time
}

func (promotion) TableName() string { return "kb_promoted" }

// promotionsMigration makes the table of promotions (a frozen copy of the
// row, as Migrations' others).
func promotionsMigration(tx *gorm.DB) error {
	type kbPromoted struct {
		ID           int64  `gorm:"primaryKey;autoIncrement"`
		Conversation string `gorm:"index"`
		Source       string
		DocIDs       string
		CreatedAt    time.Time
	}
	return tx.Table("kb_promoted").AutoMigrate(&kbPromoted{})
}

// recordPromotion writes, in Promote's transaction, that conversation
// added the documents to the library as target, and returns the record as
// Promotions would list it then (all of its documents left), so that
// Promote's caller need not read them all again to find it.
func recordPromotion(tx *gorm.DB, conversation, target string, docs []Document) (Promotion, error) {
	ids := make([]string, len(docs))
	chunks := 0
	for i, d := range docs {
		ids[i] = d.ID
		chunks += d.Chunks
	}
	raw, err := json.Marshal(ids)
	if err != nil {
		return Promotion{}, err
	}
	row := promotion{Conversation: conversation, Source: target, DocIDs: string(raw)}
	if err := tx.Create(&row).Error; err != nil {
		return Promotion{}, err
	}
	return Promotion{ID: row.ID, Conversation: conversation, Source: target, DocIDs: ids, Left: slices.Clone(ids), Chunks: chunks, CreatedAt: row.CreatedAt}, nil
}

// Promotions lists the files a conversation added to the library, oldest
// first, each with the documents of it the library still has (none: it
// was removed from the library since).
func (b *Base) Promotions(ctx context.Context, conversation string) ([]Promotion, error) {
	var rows []promotion
	if err := b.db.WithContext(ctx).Where("conversation = ?", conversation).Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list the files conversation %s added to the library: %w", conversation, err)
	}
	out := make([]Promotion, 0, len(rows))
	for _, r := range rows {
		p := Promotion{ID: r.ID, Conversation: r.Conversation, Source: r.Source, CreatedAt: r.CreatedAt, Left: []string{}}
		if err := json.Unmarshal([]byte(r.DocIDs), &p.DocIDs); err != nil {
			return nil, fmt.Errorf("read the documents of %s added to the library: %w", r.Source, err)
		}
		// The file's documents now: those of DocIDs left, or, when none
		// is but the file has documents, all of them (it was read again
		// since, a new version in place of the old, not removed).
		var docs []Document
		err := b.db.WithContext(ctx).Select("id", "chunks").Where("source = ? AND NOT staged", r.Source).Order("created_at, id").Find(&docs).Error
		if err != nil {
			return nil, fmt.Errorf("list the documents of %s: %w", r.Source, err)
		}
		chunks := make(map[string]int, len(docs))
		for _, d := range docs {
			chunks[d.ID] = d.Chunks
		}
		for _, id := range p.DocIDs {
			if n, ok := chunks[id]; ok {
				p.Left = append(p.Left, id)
				p.Chunks += n
			}
		}
		if len(p.Left) == 0 && len(docs) > 0 {
			p.DocIDs = nil
			for _, d := range docs {
				p.DocIDs = append(p.DocIDs, d.ID)
				p.Chunks += d.Chunks
			}
			p.Left = p.DocIDs
		}
		out = append(out, p)
	}
	return out, nil
}

// ForgetPromotion deletes a conversation's record of a file it added to
// the library (the person dismissed its row); the file stays where it is.
// One already gone is no error.
func (b *Base) ForgetPromotion(ctx context.Context, conversation string, id int64) error {
	if err := b.db.WithContext(ctx).Where("id = ? AND conversation = ?", id, conversation).Delete(&promotion{}).Error; err != nil {
		return fmt.Errorf("forget a file added to the library: %w", err)
	}
	return nil
}

// forgetPromotions deletes the records of a conversation forgotten for good.
func (b *Base) forgetPromotions(ctx context.Context, conversation string) error {
	return b.db.WithContext(ctx).Where("conversation = ?", conversation).Delete(&promotion{}).Error
}

// ForgetPromotionsExcept deletes the records of the conversations not in
// live (purged for good), from the app's database db: a conversation
// whose files all went to the library has no folder left for
// ForgetConversation to find, so its records are dropped by id. Before the
// library was first opened there is no table, and nothing to drop.
func ForgetPromotionsExcept(ctx context.Context, db *gorm.DB, live map[string]bool) (int, error) {
	if !db.Migrator().HasTable(promotion{}.TableName()) {
		return 0, nil
	}
	var convs []string
	if err := db.WithContext(ctx).Model(&promotion{}).Distinct("conversation").Pluck("conversation", &convs).Error; err != nil {
		return 0, fmt.Errorf("list the conversations that added files to the library: %w", err)
	}
	var gone []string
	for _, c := range convs {
		if !live[c] {
			gone = append(gone, c)
		}
	}
	if len(gone) == 0 {
		return 0, nil
	}
	res := db.WithContext(ctx).Where("conversation IN ?", gone).Delete(&promotion{})
	if res.Error != nil {
		return 0, fmt.Errorf("forget the files purged conversations added to the library: %w", res.Error)
	}
	return int(res.RowsAffected), nil
}
