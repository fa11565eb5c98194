package app

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Every removal of a file is told to the windows (knowledge.removed), so
// that a chat's row of a file added to the library, and another window's
// chips of a conversation's file, say so at once: only a paused file's
// removal was told (knowledge.embed_pause), and the row of one whose
// meaning was still being indexed, or was indexed, went on saying it was
// in the library.
func TestRemovalIsTold(t *testing.T) {
	for _, tc := range []struct {
		name string
		// remove removes the conversation's file (source) and says what
		// the windows should be told.
		remove func(t *testing.T, h hungAttachment, source string) api.KnowledgeRemoved
	}{
		{"added to the library while it embeds, removed there", func(t *testing.T, h hungAttachment, source string) api.KnowledgeRemoved {
			lib, err := h.k.AddToLibrary(h.sess.ID, source)
			if err != nil || lib.EmbedPaused {
				t.Fatalf("AddToLibrary = %+v, %v; want it not paused", lib, err)
			}
			all, err := h.k.Documents()
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(all, func(d api.KBDocument) bool { return d.Source == lib.Source })
			if i < 0 {
				t.Fatalf("the library lists %+v; want %s", all, lib.Source)
			}
			if err := h.k.Remove(all[i].ID); err != nil {
				t.Fatal(err)
			}
			return api.KnowledgeRemoved{DocIDs: []string{all[i].ID}, Sources: []string{lib.Source}}
		}},
		{"removed from its conversation", func(t *testing.T, h hungAttachment, source string) api.KnowledgeRemoved {
			if err := h.k.RemoveAttached(h.sess.ID, source); err != nil {
				t.Fatal(err)
			}
			return api.KnowledgeRemoved{DocIDs: []string{}, Sources: []string{source}, Conversation: h.sess.ID}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := attachWhileEmbeddingHangs(t)
			docs, err := h.k.Attached(h.sess.ID)
			if err != nil || len(docs) != 1 {
				t.Fatalf("attached: %+v, %v", docs, err)
			}
			want := tc.remove(t, h, docs[0].Source)
			got := h.events.waitFor(t, api.EventRemoved, func(any) bool { return true }).(api.KnowledgeRemoved)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("told (-want +got):\n%s", d)
			}
			if n := h.events.count(api.EventRemoved, func(any) bool { return true }); n != 1 {
				t.Errorf("told %d times; want once", n)
			}
		})
	}
}
