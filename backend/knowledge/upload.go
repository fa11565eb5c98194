package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// Uploads are files given by content (dropped on the window, picked in a
// browser), which hand over bytes but never a path. The Base keeps a copy
// of each under Options.UploadDir, one per file name, so citations keep
// working:
//
//   - the same content again is not stored twice: the person is told the
//     library has it already (by its content hash, whatever its name);
//   - a file with the name of an earlier upload replaces it, in one swap;
//   - removing the last document of an upload deletes its copy;
//   - an upload that fails or is stopped (its context cancelled) while it
//     waits or is read or chunked leaves nothing: it is written to a
//     temporary folder (incomingDir) and imported from there, and moves
//     into place once it is in: swapped in, before its embedding (a stop
//     while it embeds stops only the embedding, stage.go). A crash can
//     leave that folder, or (before this version) copies of removed
//     documents: Open sweeps both.

// incomingDir holds uploads while they are imported.
const incomingDir = ".incoming"

// UploadOutcome says what became of an upload.
type UploadOutcome string

const (
	UploadAdded     UploadOutcome = "added"     // a new file in the library
	UploadReplaced  UploadOutcome = "replaced"  // an earlier upload of that name, replaced
	UploadDuplicate UploadOutcome = "duplicate" // the library has this content already
	UploadFailed    UploadOutcome = "failed"    // see Report.Failed
	UploadStopped   UploadOutcome = "stopped"   // cancelled before it was added: nothing of it was kept
)

// UploadResult is the end of one upload.
type UploadResult struct {
	Outcome UploadOutcome
	Path    string   // where the copy is kept (added, replaced)
	Same    Document // duplicate: a document with this content
	Report  Report
}

// ErrUploadName is a name no file can be kept under.
var ErrUploadName = errors.New("the file has no usable name")

// Upload imports a file given by its content under its name, with the
// progress of one file (Progress.Stage StageDuplicate, Replaced). The
// error is only for what stops it (no upload folder, the database,
// cancellation); a file that cannot be imported is an UploadFailed outcome.
func (b *Base) Upload(ctx context.Context, name string, content io.Reader, onProgress func(Progress)) (UploadResult, error) {
	return b.upload(ctx, "", name, content, time.Time{}, onProgress)
}

// upload is Upload into the library (conversation "") or into one
// conversation's own files (conversation.go), attached at the time given
// (zero: now), which its copy keeps as its modification time.
func (b *Base) upload(ctx context.Context, conversation, name string, content io.Reader, attached time.Time, onProgress func(Progress)) (UploadResult, error) {
	if attached.IsZero() {
		attached = time.Now()
	}
	if onProgress == nil {
		onProgress = func(Progress) {}
	}
	dir := b.opts.UploadDir
	if dir == "" {
		return UploadResult{}, errors.New("upload: no upload folder")
	}
	name = uploadName(name)
	if name == "" || name == "." || name == ".." || name == string(filepath.Separator) || strings.HasPrefix(name, ".") {
		return UploadResult{}, ErrUploadName
	}
	folder, err := b.uploadFolder(conversation)
	if err != nil {
		return UploadResult{}, err
	}
	if err := b.writable(); err != nil {
		return UploadResult{}, err
	}
	target := filepath.Join(folder, name)
	p := Progress{File: target, FileIndex: 1, FilesTotal: 1}
	// cancelled ends an upload stopped by ctx (the person, or the app
	// closing) before it was added: StageStopped, and nothing kept.
	cancelled := func(err error) (UploadResult, error) {
		p.Stage, p.Error, p.Err = StageStopped, "", nil
		onProgress(p)
		return UploadResult{Outcome: UploadStopped, Report: Report{Stopped: []string{target}}}, err
	}
	// fail ends an upload the file is to blame for; stop one that
	// something else stopped (the disk, the database, cancellation). Both
	// tell the progress, so its bar ends.
	fail := func(err error) (UploadResult, error) {
		p.Stage, p.Error, p.Err = StageFailed, err.Error(), err
		onProgress(p)
		return UploadResult{Outcome: UploadFailed, Report: Report{Failed: []FileError{{Path: target, Err: err}}}}, nil
	}
	stop := func(err error) (UploadResult, error) {
		if ctx.Err() != nil {
			return cancelled(ctx.Err())
		}
		p.Stage, p.Error, p.Err = StageFailed, err.Error(), err
		onProgress(p)
		return UploadResult{Outcome: UploadFailed}, err
	}
	if _, ok := importer.KindOf(name); !ok {
		return fail(importer.Unsupported(name))
	}

	// The copy is written and hashed before the upload takes its turn:
	// a file the library has already is said so at once, without joining
	// the queue, where it would hand on the embedding of the file
	// embedding in line (embedlater.go) for nothing, and wait behind it.
	tmpDir, err := os.MkdirTemp(filepath.Join(dir, incomingDir), "up-")
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(filepath.Join(dir, incomingDir), 0o700); err == nil {
			tmpDir, err = os.MkdirTemp(filepath.Join(dir, incomingDir), "up-")
		}
	}
	if err != nil {
		return stop(fmt.Errorf("keep the uploaded file: %w", err))
	}
	defer func() {
		os.RemoveAll(tmpDir)                           // after a success the file has moved out
		_ = os.Remove(filepath.Join(dir, incomingDir)) // only if no other upload uses it
	}()
	tmp := filepath.Join(tmpDir, name)
	hash, err := writeHashed(tmp, content)
	if errors.Is(err, ErrChanged) {
		return fail(err) // AttachFile's file, saved while it was copied
	}
	if err != nil {
		return stop(fmt.Errorf("keep the uploaded file: %w", err))
	}
	duplicate := func() (UploadResult, bool, error) {
		same, err := b.sameContent(ctx, hash, conversation)
		if err != nil || same.ID == "" {
			return UploadResult{}, false, err
		}
		p.Stage, p.DuplicateOf = StageDuplicate, same.Title
		onProgress(p)
		return UploadResult{Outcome: UploadDuplicate, Same: same}, true, nil
	}
	if res, dup, err := duplicate(); err != nil {
		return stop(fmt.Errorf("upload %s: %w", name, err))
	} else if dup {
		return res, nil
	}

	leave := b.embedQ.join()
	defer leave()
	if err := b.waitFor(ctx, &b.uploads, p, onProgress); err != nil {
		return cancelled(err)
	}
	defer b.uploads.Unlock()
	defer leave()
	p.Stage = StageReading
	onProgress(p)
	// Again in its turn: an upload of the same content may have come in
	// while this one waited.
	if res, dup, err := duplicate(); err != nil {
		return stop(fmt.Errorf("upload %s: %w", name, err))
	} else if dup {
		return res, nil
	}
	sources, err := b.uploadSources(ctx)
	if err != nil {
		return stop(fmt.Errorf("upload %s: %w", name, err))
	}
	var earlier []string // the current layout keeps uploads/NAME, earlier versions uploads/ID/NAME
	for _, s := range sources {
		if filepath.Base(s) == name && b.conversationOf(s) == conversation {
			earlier = append(earlier, s)
		}
	}

	if err := b.waitFor(ctx, &b.write, p, onProgress); err != nil {
		return cancelled(err)
	}
	defer b.write.Unlock()
	defer b.reading.set("")
	var rep Report
	var st importState
	defer b.afterImport(ctx, &st)
	done := p
	placed := false
	// place moves the copy where it is kept. The file is in once it is
	// swapped in, before its embedding (stage.go: a stop while it embeds
	// keeps it), so its copy goes into place then: a conversation is
	// named after its files from its folder (AttachedFiles), and a
	// question asked while a local model embeds for minutes should find
	// the conversation called after the file it asks about.
	place := func() {
		if placed {
			return
		}
		placed = true
		err := os.MkdirAll(folder, 0o700)
		if err == nil {
			if cerr := os.Chtimes(tmp, attached, attached); cerr != nil {
				b.log.Warn("uploaded file keeps the time it was copied; its conversation may list it out of order", "file", target, "err", cerr)
			}
			err = os.Rename(tmp, target)
		}
		if err != nil {
			// The documents are in; without their copy they still answer searches.
			b.log.Warn("uploaded file not kept; its documents stay searchable", "file", target, "err", err)
		}
	}
	err = b.importOne(ctx, target, tmp, p, func(q Progress) {
		switch q.Stage {
		case StageDone:
			q.Replaced = len(earlier) > 0
			done = q
			return // sent once the copy is in place
		case StageEmbedding:
			place()
		}
		onProgress(q)
	}, &rep, &st)
	if err != nil {
		res, err := stop(err)
		rep.Stopped = append(rep.Stopped, res.Report.Stopped...)
		res.Report = rep
		return res, err
	}
	if len(rep.Imported) == 0 {
		return UploadResult{Outcome: UploadFailed, Report: rep}, nil
	}
	// The file is in (a stop while it embedded stopped only the embedding):
	// its copy and the versions it replaces are settled whatever ctx does.
	ctx = context.WithoutCancel(ctx)
	place()
	for _, old := range earlier {
		if old == target {
			continue
		}
		if _, err := b.deleteDocs(ctx, "source = ?", old); err != nil {
			b.log.Warn("remove the replaced upload", "file", old, "err", err)
		}
		b.dropUpload(old)
	}
	onProgress(done)
	res := UploadResult{Outcome: UploadAdded, Path: target, Report: rep}
	if len(earlier) > 0 {
		res.Outcome = UploadReplaced
	}
	return res, nil
}

// sameContent finds a document of the content hash where an upload to
// conversation ("" for the library) sees it: the library's copy, or this
// conversation's own; none has no ID.
func (b *Base) sameContent(ctx context.Context, hash, conversation string) (Document, error) {
	var sames []Document
	err := b.db.WithContext(ctx).Where("file_hash = ? AND NOT staged", hash).Order("created_at").Limit(100).Find(&sames).Error
	if err != nil {
		return Document{}, err
	}
	for _, d := range sames {
		if b.visibleTo(d.Source, conversation) {
			return d, nil
		}
	}
	return Document{}, nil
}

// writeHashed writes r to path and returns the sha256 of what it wrote.
func writeHashed(path string, r io.Reader) (string, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	_, err = io.Copy(f, io.TeeReader(r, h))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return hex.EncodeToString(h.Sum(nil)), err
}

// uploadSources lists the sources of documents kept under the upload
// folder.
func (b *Base) uploadSources(ctx context.Context) ([]string, error) {
	prefix := b.opts.UploadDir + string(filepath.Separator)
	// A range on the indexed column instead of LIKE, which would need
	// escaping and scan the table: every path under prefix sorts between
	// it and prefix with its last byte (the separator) incremented.
	end := prefix[:len(prefix)-1] + string(rune(prefix[len(prefix)-1]+1))
	var sources []string
	err := b.db.WithContext(ctx).Model(&Document{}).Distinct("source").
		Where("source >= ? AND source < ?", prefix, end).Pluck("source", &sources).Error
	if err != nil {
		return nil, fmt.Errorf("list uploads: %w", err)
	}
	return sources, nil
}

// dropUpload deletes a kept upload's copy, and its folder if that was
// one of the earlier layout's, now empty.
func (b *Base) dropUpload(path string) {
	dir := b.opts.UploadDir
	if dir == "" || !strings.HasPrefix(path, dir+string(filepath.Separator)) {
		return
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		b.log.Warn("delete the copy of a removed upload", "file", path, "err", err)
	}
	if parent := filepath.Dir(path); parent != dir {
		_ = os.Remove(parent) // only if empty
	}
}

// dropUploadsOf deletes the copies of uploads among sources that no
// document uses any more. Callers hold b.write.
func (b *Base) dropUploadsOf(ctx context.Context, sources []string) {
	for _, s := range sources {
		if b.opts.UploadDir == "" || !strings.HasPrefix(s, b.opts.UploadDir+string(filepath.Separator)) {
			continue
		}
		var left int64
		if err := b.db.WithContext(ctx).Model(&Document{}).Where("source = ?", s).Count(&left).Error; err != nil || left > 0 {
			continue
		}
		b.dropUpload(s)
	}
}

// sweepUploads removes what an interrupted upload left (incomingDir) and
// copies no document uses (removed before removing deleted them).
func (b *Base) sweepUploads(ctx context.Context) {
	dir := b.opts.UploadDir
	if dir == "" {
		return
	}
	if err := os.RemoveAll(filepath.Join(dir, incomingDir)); err != nil {
		b.log.Warn("remove interrupted uploads", "err", err)
	}
	sources, err := b.uploadSources(ctx)
	if err != nil {
		b.log.Warn("uploads not checked for leftovers", "err", err)
		return
	}
	used := map[string]bool{}
	for _, s := range sources {
		used[s] = true
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || used[path] {
			return nil
		}
		b.log.Info("deleting an uploaded file no document uses", "file", path)
		b.dropUpload(path)
		return nil
	})
}

// maxNameBytes is the longest file name the common file systems keep
// (ext4, APFS, NTFS: 255 bytes or UTF-16 units; bytes are the stricter).
const maxNameBytes = 255

// uploadName is the name an upload is kept under: the last element of
// what the browser or the window sent, with what a file system refuses
// made usable, so that a name no program on this computer wrote (a
// browser can send any) fails no upload with an error of the disk: control
// characters (a NUL, a newline) and, on Windows, the characters it
// forbids become "_", and a name over 255 bytes is shortened before its
// extension, on a character's boundary.
func uploadName(name string) string {
	name = filepath.Base(strings.TrimSpace(name))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || runtime.GOOS == "windows" && strings.ContainsRune(`<>:"|?*`, r) {
			return '_'
		}
		return r
	}, name)
	if len(name) <= maxNameBytes {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 32 {
		ext = ""
	}
	base := name[:maxNameBytes-len(ext)]
	for len(base) > 0 && !utf8.ValidString(base) {
		base = base[:len(base)-1]
	}
	return base + ext
}
