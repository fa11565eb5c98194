package security

import (
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// TestReadFileInsideAddedFolder is the positive control of
// TestReadFileStaysInAddedFolders: a file inside an added folder must be
// readable through the agent. It found that no toolset offered read_file;
// the answer loop now does once a folder is added.
func TestReadFileInsideAddedFolder(t *testing.T) {
	allowed, _ := folders(t)
	reqs := askReadFile(t, allowed, "notes.txt")
	for _, r := range reqs {
		if m := world.Last(r); m.Role == "tool" && strings.Contains(m.Content, notes) {
			return
		}
	}
	t.Fatal("read_file(notes.txt) inside the added folder did not return the note")
}
