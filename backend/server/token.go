package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/atomicfile"
)

// TokenFile is where, in the data folder, serve keeps its access token, so
// that a browser tab left open across a restart (an update, a reboot) goes
// on working with the address it was opened with: a new token at each
// start would make every open tab say "no longer valid" and send the
// person looking for the new address.
const TokenFile = "serve-token"

// tokenBytes is the token's randomness: 24 bytes, 48 hex digits.
const tokenBytes = 24

// TokenProblem says what is wrong with a token file that serve will not use.
type TokenProblem string

const (
	// TokenOpen: other users may read (or write) the file, so the token may
	// be known to them; it is not used, and no new one is made silently,
	// because the person should know and choose (--new-token).
	TokenOpen TokenProblem = "open"
	// TokenJunk: the file does not hold a token serve made (edited, cut
	// short, another program's).
	TokenJunk TokenProblem = "junk"
	// TokenNotFile: the name is a folder, a link or a device, which serve
	// neither reads nor replaces.
	TokenNotFile TokenProblem = "not_file"
)

// TokenError is a token file serve will not use; --new-token replaces it
// (all but TokenNotFile).
type TokenError struct {
	Path    string
	Problem TokenProblem
	Mode    fs.FileMode // the file's permissions, for TokenOpen
}

func (e *TokenError) Error() string {
	switch e.Problem {
	case TokenOpen:
		return fmt.Sprintf("the access token file %s can be read by other users (permissions %04o, want 0600)", e.Path, e.Mode.Perm())
	case TokenNotFile:
		return fmt.Sprintf("the access token file %s is not a regular file", e.Path)
	default:
		return fmt.Sprintf("the access token file %s does not hold a token", e.Path)
	}
}

// ReadToken returns the access token kept in dir (TokenFile), "" when
// there is none yet (the first start: NewToken makes it). It is called
// before the data folder is opened, which makes every file in it private
// (fileperm.Tighten): a file others could read must be seen as it was
// found, as the token may be known to them. The token itself is never
// part of an error, and nothing here logs.
func ReadToken(dir string) (string, error) {
	path := filepath.Join(dir, TokenFile)
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("read the access token file: %w", err)
	case !info.Mode().IsRegular():
		return "", &TokenError{Path: path, Problem: TokenNotFile}
	case runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0:
		return "", &TokenError{Path: path, Problem: TokenOpen, Mode: info.Mode()}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read the access token file: %w", err)
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, 256))
	if err != nil {
		return "", fmt.Errorf("read the access token file: %w", err)
	}
	token := strings.TrimSpace(string(raw))
	if !validToken(token) {
		return "", &TokenError{Path: path, Problem: TokenJunk}
	}
	return token, nil
}

// DropOpenToken removes the token file when other users may read it, and
// says whether it did. Every start makes the data folder private
// (fileperm.Tighten), which would make such a file private too; serve
// would then go on accepting a token others may have read, having refused
// it only if it happened to run first. Gone, it is replaced by a new one
// at serve's next start. Anything else (no file, a private one, a folder
// or a link, which ReadToken refuses) is left as it is.
func DropOpenToken(dir string) (bool, error) {
	path := filepath.Join(dir, TokenFile)
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && (!info.Mode().IsRegular() || runtime.GOOS == "windows" || info.Mode().Perm()&0o077 == 0) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check the access token file: %w", err)
	}
	if err := os.Remove(path); err != nil {
		return false, fmt.Errorf("remove the access token file others could read: %w", err)
	}
	return true, nil
}

// NewToken makes a new access token and keeps it in dir (TokenFile), in
// place of the one there if any, so that every address given before stops
// working (a shared screen, a copied link): the first start, and
// `serve --new-token`. It is called with the data folder locked, so that
// two serves never write it at once. A folder or a link in its place is
// left alone and refused.
func NewToken(dir string) (string, error) {
	path := filepath.Join(dir, TokenFile)
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		return "", &TokenError{Path: path, Problem: TokenNotFile}
	}
	token, err := newToken()
	if err != nil {
		return "", err
	}
	if err := writeToken(dir, path, token); err != nil {
		return "", err
	}
	return token, nil
}

func newToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make an access token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// validToken: what newToken makes, 48 lower-case hex digits.
func validToken(s string) bool {
	if len(s) != 2*tokenBytes {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// writeToken writes the token to a new file readable by its owner only
// and renames it over path: a crash leaves the old token or the new one,
// never half of one, and the file is never readable by others, not even
// for a moment.
func writeToken(dir, path, token string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write the access token file: %w", err)
	}
	if err := atomicfile.Write(path, []byte(token+"\n"), 0o600); err != nil {
		return fmt.Errorf("write the access token file: %w", err)
	}
	return nil
}
