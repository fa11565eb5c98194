package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Folder grants: which folders the read_file tool may read. The person
// grants each one explicitly (Settings, `wayfinder folders add`), sees them
// listed with what they allow, and revokes them; importing documents never
// grants anything. They live in the settings document but Save leaves them
// alone, so that a settings form opened before a grant cannot undo it.

// Grant lets read_file read the folder g.Path (made absolute; it must be an
// existing folder), or changes what it allows there when it is granted
// already. It returns the settings in effect.
func (s *Store) Grant(ctx context.Context, g api.FolderGrant) (api.Settings, error) {
	path, err := grantablePath(g.Path)
	if err != nil {
		return api.Settings{}, err
	}
	g.Path = path
	return s.changeFolders(ctx, func(cur *api.Settings) error {
		if i := slices.IndexFunc(cur.Folders, func(f api.FolderGrant) bool { return f.Path == path }); i >= 0 {
			g.GrantedAt = cur.Folders[i].GrantedAt
			cur.Folders[i] = g
		} else {
			g.GrantedAt = time.Now().UTC().Truncate(time.Second)
			cur.Folders = append(cur.Folders, g)
		}
		cur.RevokedImportFolders = slices.DeleteFunc(cur.RevokedImportFolders, func(p string) bool { return p == path })
		return nil
	})
}

// Revoke stops read_file reading a granted folder, named as listed (or in
// any spelling that makes the same absolute path). A folder listed only in
// the notice of revoked import grants leaves that notice.
func (s *Store) Revoke(ctx context.Context, path string) (api.Settings, error) {
	abs, err := filepath.Abs(path)
	if err != nil || path == "" {
		return api.Settings{}, api.NewError(api.ErrFolderNotGranted, fmt.Sprintf("%q is not a folder Wayfinder may read.", path), "See the list in Settings or with `wayfinder folders list`.").With("path", path)
	}
	return s.changeFolders(ctx, func(cur *api.Settings) error {
		n := len(cur.Folders) + len(cur.RevokedImportFolders)
		cur.Folders = slices.DeleteFunc(cur.Folders, func(f api.FolderGrant) bool { return f.Path == abs })
		cur.RevokedImportFolders = slices.DeleteFunc(cur.RevokedImportFolders, func(p string) bool { return p == abs })
		if len(cur.Folders)+len(cur.RevokedImportFolders) == n {
			return api.NewError(api.ErrFolderNotGranted, fmt.Sprintf("%s is not a folder Wayfinder may read.", abs), "See the list in Settings or with `wayfinder folders list`.").With("path", abs)
		}
		return nil
	})
}

// DismissRevokedImports clears the notice of folders that imports used to
// make readable.
func (s *Store) DismissRevokedImports(ctx context.Context) (api.Settings, error) {
	return s.changeFolders(ctx, func(cur *api.Settings) error {
		cur.RevokedImportFolders = nil
		return nil
	})
}

// changeFolders applies change to the saved settings and saves them.
func (s *Store) changeFolders(ctx context.Context, change func(*api.Settings) error) (api.Settings, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.RLock()
	next := s.saved
	s.mu.RUnlock()
	next.Folders = slices.Clone(next.Folders)
	next.RevokedImportFolders = slices.Clone(next.RevokedImportFolders)
	if err := change(&next); err != nil {
		return api.Settings{}, err
	}
	return s.commit(ctx, next)
}

// grantablePath makes path absolute and checks that it is a folder.
func grantablePath(path string) (string, error) {
	if path == "" {
		return "", api.NewError(api.ErrFolderNotFound, "Choose a folder.", "").With("case", "empty")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", api.NewError(api.ErrFolderNotFound, fmt.Sprintf("%q is not a path Wayfinder understands.", path), "Give the folder's full path.").With("case", "bad_path", "path", path)
	}
	fi, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", &api.Error{Info: api.ErrorInfo{Code: api.ErrFolderNotFound, Message: fmt.Sprintf("There is no folder %s.", abs),
			Hint: "Check the path, or choose the folder with the Choose button.", Args: map[string]string{"path": abs}}, Err: err}
	case !fi.IsDir():
		return "", api.NewError(api.ErrNotAFolder, fmt.Sprintf("%s is a file, not a folder.", abs), "Grant the folder that holds it.").With("path", abs)
	}
	return abs, nil
}

// migrateFolders handles a settings document saved before grants were
// explicit, whose "folders" list held the folders imports had made
// readable. Nobody granted those, so they are not carried over: they go to
// RevokedImportFolders, which Settings and `wayfinder folders list` show
// until the person grants them again or dismisses the notice. It reports
// whether anything changed.
func migrateFolders(raw json.RawMessage, s *api.Settings) bool {
	var legacy struct {
		Folders []string `json:"folders"`
	}
	if json.Unmarshal(raw, &legacy) != nil || len(legacy.Folders) == 0 {
		return false
	}
	for _, f := range legacy.Folders {
		granted := slices.ContainsFunc(s.Folders, func(g api.FolderGrant) bool { return g.Path == f })
		if f != "" && !granted && !slices.Contains(s.RevokedImportFolders, f) {
			s.RevokedImportFolders = append(s.RevokedImportFolders, f)
		}
	}
	return true
}
