package mcp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// A picture a tool returns is saved in its conversation's folder (owner
// only), listed on the result for the message to show, readable for the
// window only as an image sniffed from its bytes, by its name alone, and
// deleted with its conversation.
func TestAttachments(t *testing.T) {
	m := newManager(t, map[string]Server{"h": helper("good")}, Options{})
	reg := registry(t, m)
	o := reg.Run(tools.WithConversation(context.Background(), "conv-1"), tools.Call{Name: "h__image"})
	if o.Err != nil || len(o.Result.Attachments) != 1 {
		t.Fatalf("saved: %+v %v", o.Result, o.Err)
	}
	a := o.Result.Attachments[0]
	want := filepath.Join(m.dir, AttachmentsDir, "conv-1", a.Name)
	if a.Path != want || a.MIME != "image/png" || a.Kind != "image" || a.Size != 12 || a.Server != "h" || !bytes.Contains([]byte(o.Result.Text), []byte(want)) {
		t.Fatalf("attachment %+v, observation %q", a, o.Result.Text)
	}
	if runtime.GOOS != "windows" {
		for path, mode := range map[string]os.FileMode{want: 0o600, filepath.Dir(want): 0o700} {
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != mode {
				t.Errorf("%s: %v %v, want %v", path, fi.Mode().Perm(), err, mode)
			}
		}
	}

	mt, data, err := ReadImage(m.dir, "conv-1", a.Name)
	if err != nil || mt != "image/png" || string(data) != "\x89PNG\r\n\x1a\nfake" {
		t.Fatalf("served: %q %q %v", mt, data, err)
	}
	// What the window is refused: text that says it is a PNG, an image over
	// the cap, names that walk the folder tree, another conversation's.
	dir := filepath.Join(m.dir, AttachmentsDir, "conv-1")
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("aaaaaaaaaaaaaaaaaaaaaaaa.png", []byte("<svg onload=alert(1)></svg>"))
	write("bbbbbbbbbbbbbbbbbbbbbbbb.png", append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, MaxShownImage)...))
	if err := os.WriteFile(filepath.Join(m.dir, "secret.png"), []byte("\x89PNG\r\n\x1a\nsecret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ conv, name string }{
		{"conv-1", "aaaaaaaaaaaaaaaaaaaaaaaa.png"},
		{"conv-1", "bbbbbbbbbbbbbbbbbbbbbbbb.png"},
		{"conv-1", "../../secret.png"},
		{"..", "secret.png"},
		{"conv-1/..", a.Name},
		{"conv-2", a.Name},
		{"", a.Name},
		{"conv-1", ""},
	} {
		if _, _, err := ReadImage(m.dir, c.conv, c.name); !errors.Is(err, ErrNotShown) {
			t.Errorf("ReadImage(%q, %q) = %v, want refused", c.conv, c.name, err)
		}
	}

	// Outside a conversation, and in another one.
	if o := reg.Run(context.Background(), tools.Call{Name: "h__image"}); len(o.Result.Attachments) != 1 {
		t.Fatalf("outside a conversation: %+v", o.Result)
	}
	if o := reg.Run(tools.WithConversation(context.Background(), "conv-2"), tools.Call{Name: "h__image"}); len(o.Result.Attachments) != 1 {
		t.Fatalf("conversation 2: %+v", o.Result)
	}
	n, err := ForgetConversations(m.dir, map[string]bool{"conv-1": true})
	if err != nil || n != 2 {
		t.Fatalf("cleaned %d, %v; want conv-2 and the calls outside any", n, err)
	}
	left, _ := filepath.Glob(filepath.Join(m.dir, AttachmentsDir, "*"))
	if len(left) != 1 || filepath.Base(left[0]) != "conv-1" {
		t.Fatalf("left %v", left)
	}
	if n, err := ForgetConversations(t.TempDir(), nil); n != 0 || err != nil {
		t.Fatalf("no attachments folder: %d %v", n, err)
	}
}
