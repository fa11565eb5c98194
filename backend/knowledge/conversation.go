package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Files attached in a conversation are uploads kept apart from the
// library: UploadDir/.conversations/<conversation id>/<name>. Their
// documents answer only that conversation's searches (SearchOptions.
// Conversation); every other search, the library's list and other
// conversations do not see them, until the person adds one to the library
// (Promote), which moves it to UploadDir/<name>. The folder's name starts
// with a dot, so no upload's name (Upload refuses those) can clash with it.
const conversationsDir = ".conversations"

// ErrConversation is a conversation id that cannot name a folder.
var ErrConversation = errors.New("not a conversation id")

// ErrNameTaken is a file the library already has one of that name.
var ErrNameTaken = errors.New("the library has a file of that name")

// validConversation accepts the ids the store makes (UUIDs) and any other
// short id of letters, digits, '-' and '_', which cannot leave the folder.
func validConversation(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// uploadFolder is where an upload is kept: the library's folder, or a
// conversation's.
func (b *Base) uploadFolder(conversation string) (string, error) {
	if conversation == "" {
		return b.opts.UploadDir, nil
	}
	if !validConversation(conversation) {
		return "", fmt.Errorf("%w: %q", ErrConversation, conversation)
	}
	return filepath.Join(b.opts.UploadDir, conversationsDir, conversation), nil
}

// ConversationOf is the conversation a document's source belongs to; ""
// for the library.
func (b *Base) ConversationOf(source string) string {
	return b.conversationOf(source)
}

func (b *Base) conversationOf(source string) string {
	if b.opts.UploadDir == "" {
		return ""
	}
	root := filepath.Join(b.opts.UploadDir, conversationsDir) + string(filepath.Separator)
	rest, ok := strings.CutPrefix(source, root)
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, string(filepath.Separator))
	return id
}

// visibleTo says whether a search of conversation ("" for none) sees a
// document from source: the library's always, a conversation's only in it.
func (b *Base) visibleTo(source, conversation string) bool {
	c := b.conversationOf(source)
	return c == "" || c == conversation
}

// UploadToConversation is Upload into one conversation's own files: the
// same checks, progress and outcomes, a duplicate only of what that
// conversation sees (the library or its own files). attached is when the
// person attached it (zero: now): AttachedFiles lists a conversation's
// files in that order, whichever import ends first.
func (b *Base) UploadToConversation(ctx context.Context, conversation, name string, content io.Reader, attached time.Time, onProgress func(Progress)) (UploadResult, error) {
	if !validConversation(conversation) {
		return UploadResult{}, fmt.Errorf("%w: %q", ErrConversation, conversation)
	}
	return b.upload(ctx, conversation, name, content, attached, onProgress)
}

// AttachFile is UploadToConversation of a file the person chose by its
// path (the desktop window's dialog, a file dropped on the window): the
// same copy, checks, progress and outcomes, read from the file itself, so
// nothing bounds its size but the importer's own budgets (an upload's
// content crosses the bridge in base64 and is bounded there). A path that
// is not a plain file it can open fails as an import of it would (not
// found, unreadable, ErrNotRegular: a pipe is not waited on), with its
// progress ended, before anything of it is kept. A file written to, cut
// short or replaced while it is copied fails with ErrChanged, as an
// import of it does, and nothing of it is kept: the copy could be half of
// one version and half of another.
func (b *Base) AttachFile(ctx context.Context, conversation, path string, attached time.Time, onProgress func(Progress)) (UploadResult, error) {
	if !validConversation(conversation) {
		return UploadResult{}, fmt.Errorf("%w: %q", ErrConversation, conversation)
	}
	f, info, err := openRegular(path)
	if err != nil {
		if onProgress != nil {
			onProgress(Progress{File: path, FileIndex: 1, FilesTotal: 1, Stage: StageFailed, Error: err.Error(), Err: err})
		}
		return UploadResult{Outcome: UploadFailed, Report: Report{Failed: []FileError{{Path: path, Err: err}}}}, nil
	}
	defer f.Close()
	attachOpened(f)
	return b.upload(ctx, conversation, filepath.Base(path), &unchangedReader{r: io.NewSectionReader(f, 0, info.Size()), f: f, then: info}, attached, onProgress)
}

// attachOpened is called with the file AttachFile opened, before it is
// copied: the tests change the file there, as a person saving it while
// it is copied would.
var attachOpened = func(*os.File) {}

// unchangedReader reads a file as it was opened (its size then, so one
// that grows is not read without end) and, at its end, fails with
// ErrChanged if the file is no longer so (changed): what import checks
// after reading a file, checked after copying one.
type unchangedReader struct {
	r    io.Reader
	f    *os.File
	then fs.FileInfo
}

func (u *unchangedReader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	if errors.Is(err, io.EOF) {
		if cerr := changed(u.f, u.then); cerr != nil {
			return n, cerr
		}
	}
	return n, err
}

// ConversationDocuments lists the documents of a conversation's own files,
// in the order they were attached (AttachedFiles), so that the list under
// the composer keeps the order of the title and of the person's choice.
func (b *Base) ConversationDocuments(ctx context.Context, conversation string) ([]Document, error) {
	if !validConversation(conversation) {
		return nil, fmt.Errorf("%w: %q", ErrConversation, conversation)
	}
	folder, _ := b.uploadFolder(conversation)
	prefix := folder + string(filepath.Separator)
	var docs []Document
	err := b.db.WithContext(ctx).Where("source >= ? AND source < ? AND NOT staged", prefix, folder+string(rune(filepath.Separator+1))).
		Order("created_at, id").Find(&docs).Error
	if err != nil {
		return nil, fmt.Errorf("list the files of conversation %s: %w", conversation, err)
	}
	attached := map[string]time.Time{} // by source; a file gone meanwhile sorts first, as the database has it
	for _, d := range docs {
		if _, ok := attached[d.Source]; !ok {
			if info, err := os.Stat(d.Source); err == nil {
				attached[d.Source] = info.ModTime()
			} else {
				attached[d.Source] = time.Time{}
			}
		}
	}
	slices.SortStableFunc(docs, func(x, y Document) int { return attached[x.Source].Compare(attached[y.Source]) })
	return docs, nil
}

// AttachedFiles names the files kept for a conversation under uploadDir,
// in the order they were attached: each copy's modification time is when
// the person attached it (upload), not when its import ended. It reads the folder, not the database,
// so the conversation list can name a conversation after its files without
// waiting for the library to open; a file is there only once its import
// succeeded (an upload is imported from incomingDir and moved in after).
func AttachedFiles(uploadDir, conversation string) ([]string, error) {
	if !validConversation(conversation) {
		return nil, fmt.Errorf("%w: %q", ErrConversation, conversation)
	}
	entries, err := os.ReadDir(filepath.Join(uploadDir, conversationsDir, conversation))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the files of conversation %s: %w", conversation, err)
	}
	type file struct {
		name string
		at   time.Time
	}
	var files []file
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		files = append(files, file{e.Name(), info.ModTime()})
	}
	sort.SliceStable(files, func(i, j int) bool {
		if !files[i].at.Equal(files[j].at) {
			return files[i].at.Before(files[j].at)
		}
		return files[i].name < files[j].name
	})
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.name
	}
	return names, nil
}

// Promote adds a file of a conversation to the library: its copy moves to
// the library's folder and its documents, unchanged (no second import),
// become everyone's. A library file of the same name is not replaced:
// ErrNameTaken says so.
//
// It takes its turn as an import does, and joins their queue while it
// waits: a file embedding in line hands its embedding on to the
// background (embedlater.go) rather than keep the person waiting for
// minutes, so that Promote waits at most for a file being read — a new
// version of this very file, say, which it then adds, found by its words.
//
// It returns the conversation's record of the move (Promotions lists it
// too): where the file is kept now (Source), its id, the documents it
// became and their passages.
func (b *Base) Promote(ctx context.Context, conversation, source string) (Promotion, error) {
	if err := b.writable(); err != nil {
		return Promotion{}, err
	}
	if !validConversation(conversation) || b.conversationOf(source) != conversation {
		return Promotion{}, fmt.Errorf("add %q to the library: %w", source, os.ErrNotExist)
	}
	leave := b.embedQ.join()
	defer leave()
	b.uploads.Lock()
	defer b.uploads.Unlock()
	b.write.Lock()
	defer b.write.Unlock()
	var docs []Document
	if err := b.db.WithContext(ctx).Where("source = ? AND NOT staged", source).Find(&docs).Error; err != nil {
		return Promotion{}, fmt.Errorf("add %q to the library: %w", source, err)
	}
	if len(docs) == 0 {
		return Promotion{}, fmt.Errorf("add %q to the library: %w", source, os.ErrNotExist)
	}
	target := filepath.Join(b.opts.UploadDir, filepath.Base(source))
	var taken int64
	if err := b.db.WithContext(ctx).Model(&Document{}).Where("source = ?", target).Count(&taken).Error; err != nil {
		return Promotion{}, fmt.Errorf("add %q to the library: %w", source, err)
	}
	if _, err := os.Lstat(target); taken > 0 || err == nil {
		return Promotion{}, fmt.Errorf("add %s to the library: %w", filepath.Base(source), ErrNameTaken)
	}
	// The file moves first: if the database then fails, it goes back, and
	// the documents still point at it.
	if err := os.Rename(source, target); err != nil {
		return Promotion{}, fmt.Errorf("add %s to the library: %w", filepath.Base(source), err)
	}
	// Its passages in the vector index move with it, vectors and those
	// still waiting for theirs alike: the background embedding then
	// finishes the library's file, and says so of the library's file.
	// Moved inside the transaction, so that a failure to write them keeps
	// the file where it was.
	mover, _ := b.opts.Sink.(SourceMover)
	movedVectors := false
	var record Promotion
	err := b.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Document{}).Where("source = ?", source).Update("source", target).Error; err != nil {
			return err
		}
		// Kept, so that the conversation says where it went after a reload.
		var err error
		if record, err = recordPromotion(tx, conversation, target, docs); err != nil {
			return err
		}
		if mover == nil {
			return nil
		}
		if err := mover.MoveSource(ctx, source, target); err != nil {
			return fmt.Errorf("move its passages in the vector index: %w", err)
		}
		movedVectors = true
		return nil
	})
	if err != nil {
		if movedVectors { // the commit failed after them
			if merr := mover.MoveSource(context.WithoutCancel(ctx), target, source); merr != nil {
				b.log.Warn("a promoted file's passages not moved back in the vector index", "file", source, "err", merr)
			}
		}
		if rerr := os.Rename(target, source); rerr != nil {
			b.log.Warn("a promoted file not moved back", "file", target, "err", rerr)
		}
		return Promotion{}, fmt.Errorf("add %s to the library: %w", filepath.Base(source), err)
	}
	for _, d := range docs {
		b.docs.add(d.ID, target, d.Kind)
	}
	_ = os.Remove(filepath.Dir(source)) // the conversation's folder, if that was its last file
	return record, nil
}

// ForgetConversation removes a conversation's own files and their
// documents (the conversation is gone for good).
func (b *Base) ForgetConversation(ctx context.Context, conversation string) (int, error) {
	docs, err := b.ConversationDocuments(ctx, conversation)
	if err != nil {
		return 0, err
	}
	if err := b.writable(); err != nil {
		return 0, err
	}
	leave := b.embedQ.join() // as Remove
	defer leave()
	b.uploads.Lock()
	defer b.uploads.Unlock()
	b.write.Lock()
	defer b.write.Unlock()
	n := 0
	for _, d := range docs {
		k, err := b.deleteDocs(ctx, "source = ?", d.Source)
		n += k
		if err != nil {
			return n, fmt.Errorf("forget the files of conversation %s: %w", conversation, err)
		}
	}
	b.saveKeywords(ctx)
	if err := b.forgetPromotions(ctx, conversation); err != nil {
		return n, fmt.Errorf("forget the files conversation %s added to the library: %w", conversation, err)
	}
	folder, _ := b.uploadFolder(conversation)
	if err := os.RemoveAll(folder); err != nil {
		b.log.Warn("the files of a forgotten conversation not deleted", "folder", folder, "err", err)
	}
	return n, nil
}
