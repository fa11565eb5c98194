package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"regexp"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/atomicfile"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// AttachmentsDir is where binary results (images, audio, blobs) are kept,
// inside the data folder: one folder per conversation, so that purging a
// conversation takes its files (ForgetConversations), each file named by
// its content's hash, so the same picture is kept once per conversation.
const AttachmentsDir = "mcp-attachments"

// MaxShownImage bounds an image the window shows (ReadImage): a larger
// one stays in the data folder, listed but not loaded into the page.
const MaxShownImage = 8 << 20

// shownImages are the types the window shows, as sniffed from the file's
// own bytes (never the server's word for it): raster images the browser
// decodes without running anything. SVG, which can hold script, is not
// one of them.
var shownImages = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

var (
	attachmentName   = regexp.MustCompile(`^[0-9a-f]{24}\.[a-z0-9]{1,10}$`)
	conversationName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	safeExt          = regexp.MustCompile(`^\.[a-z0-9]{1,10}$`)
)

// noConversation holds what a call outside any conversation saved.
const noConversation = "_none"

// ErrNotShown is an attachment the window does not show: not one of the
// image types it shows, too large, or not found.
var ErrNotShown = errors.New("MCP attachment not shown")

// attach saves binary content under the data folder, in the folder of
// the conversation ctx works for, and returns the note the model reads
// and the attachment the message shows (ok false when it was not saved).
func (m *Manager) attach(ctx context.Context, server, kind, mimeType string, data []byte) (string, api.Attachment, bool) {
	sum := sha256.Sum256(data)
	ext := ".bin"
	if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 && safeExt.MatchString(exts[len(exts)-1]) {
		ext = exts[len(exts)-1]
	}
	conv := tools.ConversationOf(ctx)
	if !conversationName.MatchString(conv) {
		conv = noConversation
	}
	dir := filepath.Join(m.dir, AttachmentsDir, conv)
	name := hex.EncodeToString(sum[:12]) + ext
	path := filepath.Join(dir, name)
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		if _, serr := os.Stat(path); serr != nil {
			err = atomicfile.Write(path, data, 0o600) // a reader never sees half of it
		}
	}
	if err != nil {
		m.opts.Logger.Warn("save an MCP attachment", "server", server, "err", err)
		return fmt.Sprintf("[%s %s, %d bytes: not saved: %v]", kind, mimeType, len(data), err), api.Attachment{}, false
	}
	a := api.Attachment{Name: name, Kind: kind, MIME: mimeType, Size: int64(len(data)), Path: path, Server: server}
	return fmt.Sprintf("[%s %s, %d bytes, saved as attachment %s]", kind, mimeType, len(data), path), a, true
}

// ReadImage reads an attachment of a conversation for the window to
// show. Only a file name as attach makes them and a conversation id are
// taken (nothing that walks the folder tree), and only an image of a type
// in shownImages, by its own bytes, of at most MaxShownImage bytes.
func ReadImage(dataDir, conversation, name string) (mimeType string, data []byte, err error) {
	if !conversationName.MatchString(conversation) || !attachmentName.MatchString(name) {
		return "", nil, fmt.Errorf("%w: %q is not the name of an attachment", ErrNotShown, name)
	}
	f, err := os.Open(filepath.Join(dataDir, AttachmentsDir, conversation, name))
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", ErrNotShown, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "", nil, fmt.Errorf("%w: %s is not a file", ErrNotShown, name)
	}
	if fi.Size() > MaxShownImage {
		return "", nil, fmt.Errorf("%w: %s is larger than %d MB", ErrNotShown, name, MaxShownImage>>20)
	}
	data, err = io.ReadAll(io.LimitReader(f, MaxShownImage+1))
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", ErrNotShown, err)
	}
	if len(data) > MaxShownImage {
		return "", nil, fmt.Errorf("%w: %s is larger than %d MB", ErrNotShown, name, MaxShownImage>>20)
	}
	mimeType = http.DetectContentType(data)
	if !shownImages[mimeType] {
		return "", nil, fmt.Errorf("%w: %s holds %s, not an image the window shows", ErrNotShown, name, mimeType)
	}
	return mimeType, data, nil
}

// ForgetConversations deletes the attachments of the conversations that
// are gone for good (not in live, which holds the deleted ones that can
// still be restored too) and of calls made outside any conversation; it
// returns how many conversations' folders it deleted.
func ForgetConversations(dataDir string, live map[string]bool) (int, error) {
	root := filepath.Join(dataDir, AttachmentsDir)
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("list the MCP attachments: %w", err)
	}
	n := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || live[e.Name()] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	if err := errors.Join(errs...); err != nil {
		return n, fmt.Errorf("delete the MCP attachments of purged conversations: %w", err)
	}
	return n, nil
}
