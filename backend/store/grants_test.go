package store

import (
	"context"
	"testing"
)

// A grant holds for the origin it was given to (what provides the tool):
// asked with another origin it does not count; granting the tool again
// for another origin replaces it, for the same origin changes nothing;
// RevokeServer takes a server's grants and leaves the others.
func TestToolGrantsByOrigin(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	granted := func(tool, origin string) bool {
		t.Helper()
		ok, err := s.ToolGranted(ctx, tool, origin)
		must(err)
		return ok
	}
	must(s.GrantTool(ctx, "files__write_file", "files", "aaaa"))
	must(s.GrantTool(ctx, "web__fetch", "web", "cccc"))
	first, err := s.ToolGrants(ctx)
	must(err)
	for _, c := range []struct {
		tool, origin string
		want         bool
	}{
		{"files__write_file", "aaaa", true},
		{"files__write_file", "bbbb", false},
		{"files__write_file", "", false},
		{"web__fetch", "cccc", true},
	} {
		if got := granted(c.tool, c.origin); got != c.want {
			t.Errorf("ToolGranted(%s, %s) = %v, want %v", c.tool, c.origin, got, c.want)
		}
	}
	must(s.GrantTool(ctx, "files__write_file", "files", "aaaa")) // again: kept as it was
	again, err := s.ToolGrants(ctx)
	must(err)
	if len(again) != 2 || !again[0].GrantedAt.Equal(first[0].GrantedAt) {
		t.Fatalf("granting again changed the grant: %+v, was %+v", again, first)
	}
	must(s.GrantTool(ctx, "files__write_file", "files", "bbbb"))
	if granted("files__write_file", "aaaa") || !granted("files__write_file", "bbbb") {
		t.Fatal("a grant for another origin did not replace the old one")
	}
	n, err := s.RevokeServer(ctx, "files")
	must(err)
	if n != 1 || granted("files__write_file", "bbbb") || !granted("web__fetch", "cccc") {
		t.Fatalf("RevokeServer took %d grants, or the wrong ones", n)
	}
}
