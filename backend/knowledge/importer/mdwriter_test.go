package importer

import (
	"strings"
	"testing"
)

// blockSink keeps the texts handed to it.
type blockSink struct{ texts []string }

func (s *blockSink) Begin(Document) error { return nil }
func (s *blockSink) Text(t string) error  { s.texts = append(s.texts, t); return nil }
func (s *blockSink) End(Document) error   { return nil }

// A paragraph without end reaches the sink in blocks of at most mdBlock,
// cut between characters, as a text file's do: the chunker took a minute
// and 500 MB over one of 64 MB.
func TestMarkdownWriterHandsOnBlocks(t *testing.T) {
	var s blockSink
	w := &mdWriter{sink: &s}
	long := strings.Repeat("가", 1<<20) // 3 MB
	if err := w.paragraph(long, 0); err != nil {
		t.Fatal(err)
	}
	if err := w.end(); err != nil {
		t.Fatal(err)
	}
	for i, b := range s.texts {
		if len(b) > mdBlock || !strings.HasPrefix(b, "가") && i < len(s.texts)-1 {
			t.Fatalf("block %d: %d bytes, starts %q", i, len(b), b[:min(len(b), 4)])
		}
	}
	if got := strings.Join(s.texts, ""); got != long+"\n\n" || len(s.texts) < 40 {
		t.Fatalf("%d blocks, %d bytes", len(s.texts), len(got))
	}
}
