package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// Copy is another document a hit stands for: the same bytes under another
// name or in another folder ("report (1).pdf" beside "report.pdf"), or the
// same record of such a copy of a JSON file. The hit shows its passage
// once; Copies say where else the person keeps it.
type Copy struct {
	DocID  string `json:"doc_id"`
	Source string `json:"source"` // absolute path of the file
}

// copySet says which candidates of a search are copies of one file.
type copySet struct {
	key   map[string]string // a copy's document id → what its copies share
	shown map[string]string // that → the copy whose name a hit shows
	// members are the candidates' documents of each key, the first added
	// first: what a hit of that key names as its copies.
	members map[string][]string
}

// others are the copies of doc among the search's candidates, the first
// added first, doc itself left out; nil when it has none.
func (c copySet) others(doc string) []string {
	k, ok := c.key[doc]
	if !ok {
		return nil
	}
	var out []string
	for _, id := range c.members[k] {
		if id != doc {
			out = append(out, id)
		}
	}
	return out
}

// copyList names the documents of ids, those still there.
func (b *Base) copyList(ids []string) []Copy {
	var out []Copy
	for _, id := range ids {
		if source, _, ok := b.docs.get(id); ok {
			out = append(out, Copy{DocID: id, Source: source})
		}
	}
	return out
}

// maxRecordChunks bounds the chunks of a record without an id whose text
// is compared with a copy's (recordKeys): a record is a few chunks, and a
// search loads the text of those it compares. A longer one is not paired.
const maxRecordChunks = 64

// copiesOf maps each document of ms that is a copy of a file (the same
// bytes under another name or in another folder: "report.pdf" and
// "report (1).pdf") to a key its copies share: its content hash, kind and,
// for a record of a JSON file, the record's id and title, or, for a record
// without an id, its title and text (recordKeys). A file's documents are
// read the same way from the same bytes, so the copies' chunks of one seq
// hold the same text. Only documents of different files are copies: where
// one file has two documents of a key (a JSON Lines file repeating a
// record, id and all), the key is ambiguous and nothing of it is paired.
// Nothing is stored: a copy removed or changed stops being one at the next
// search. A hit shows the copy with the shortest name, then the first
// added: the one the others were copied from ("report.pdf", not "report
// (1).pdf", "report - 복사본.pdf" or "Copy of report.pdf"), where it used to
// be whichever ranked first.
func (b *Base) copiesOf(ctx context.Context, ms []match) copySet {
	if len(ms) < 2 {
		return copySet{}
	}
	ids := make([]string, 0, len(ms))
	seen := map[string]bool{}
	for _, m := range ms {
		if d := docOf(m.ID); !seen[d] {
			seen[d] = true
			ids = append(ids, d)
		}
	}
	if len(ids) < 2 {
		return copySet{}
	}
	var docs []Document
	err := b.db.WithContext(ctx).Select("id", "file_hash", "kind", "record_id", "title", "source", "chunks", "created_at").
		Where("id IN ? AND file_hash <> ''", ids).Order("created_at, id").Find(&docs).Error
	if err != nil {
		b.log.Debug("copies not told apart in this search", "err", err)
		return copySet{}
	}
	records := b.recordKeys(ctx, docs)
	key := make(map[string]string, len(docs))
	members := map[string][]string{}
	sources := map[string]map[string]bool{}
	ambiguous := map[string]bool{}
	shown := map[string]Document{}
	for _, d := range docs {
		k := d.FileHash + "\x00" + d.Kind
		switch {
		case d.Kind == KindCatalog:
			continue // one source
		case d.Kind == string(importer.KindJSON) && d.RecordID == "":
			r, ok := records[d.ID]
			if !ok {
				continue
			}
			k += "\x00\x00" + r
		case d.Kind == string(importer.KindJSON):
			k += "\x00" + d.RecordID + "\x00" + d.Title
		}
		if sources[k] == nil {
			sources[k] = map[string]bool{}
		}
		if sources[k][d.Source] {
			ambiguous[k] = true // two of one file: not copies, and not told apart
			continue
		}
		sources[k][d.Source] = true
		key[d.ID] = k
		members[k] = append(members[k], d.ID)
		if first, ok := shown[k]; !ok || nameLen(d) < nameLen(first) { // docs are oldest first
			shown[k] = d
		}
	}
	for id, k := range key {
		if len(members[k]) < 2 || ambiguous[k] {
			delete(key, id) // no copy among the candidates, or not one pair
			delete(members, k)
			delete(shown, k)
		}
	}
	set := copySet{key: key, shown: make(map[string]string, len(shown)), members: members}
	for k, d := range shown {
		set.shown[k] = d.ID
	}
	return set
}

// recordKeys says, of the records without an id among docs that have a
// copy among them (another file of their content hash), what the record
// is: its place and its text. Such a record has nothing of its own to be
// matched by, and a copy's records are the same records in the same order
// read from the same bytes: the same record of a copy has the same title
// (its own, or "<file> #n" for an untitled one: n is its place, the file's
// name is left out) and the same text. The text is compared whole, as a
// digest of its chunks, for records of at most maxRecordChunks chunks.
func (b *Base) recordKeys(ctx context.Context, docs []Document) map[string]string {
	files := map[string]map[string]bool{} // content hash → sources
	for _, d := range docs {
		if files[d.FileHash] == nil {
			files[d.FileHash] = map[string]bool{}
		}
		files[d.FileHash][d.Source] = true
	}
	var want []string
	for _, d := range docs {
		if d.Kind == string(importer.KindJSON) && d.RecordID == "" && len(files[d.FileHash]) > 1 && d.Chunks <= maxRecordChunks {
			want = append(want, d.ID)
		}
	}
	if len(want) == 0 {
		return nil
	}
	var rows []Chunk
	if err := b.db.WithContext(ctx).Select("doc_id", "seq", "text").Where("doc_id IN ?", want).Order("doc_id, seq").Find(&rows).Error; err != nil {
		b.log.Debug("records without an id not paired in this search", "err", err)
		return nil
	}
	sums := map[string][]byte{}
	for i := 0; i < len(rows); {
		h := sha256.New()
		j := i
		for ; j < len(rows) && rows[j].DocID == rows[i].DocID; j++ {
			h.Write([]byte(rows[j].Text))
			h.Write([]byte{0})
		}
		sums[rows[i].DocID] = h.Sum(nil)
		i = j
	}
	out := make(map[string]string, len(sums))
	for _, d := range docs {
		if sum, ok := sums[d.ID]; ok {
			out[d.ID] = placeTitle(d) + "\x00" + hex.EncodeToString(sum)
		}
	}
	return out
}

// placeTitle is a record's title without its file's name where the
// importer named an untitled record after its file ("notes #3": "#3"), so
// that the same record of "notes copy.jsonl" ("notes copy #3") has the same.
func placeTitle(d Document) string {
	name := strings.TrimSuffix(filepath.Base(d.Source), filepath.Ext(d.Source))
	if rest, ok := strings.CutPrefix(d.Title, name+" #"); ok {
		return "#" + rest
	}
	return d.Title
}

// nameLen is how long a copy's file name is, in characters.
func nameLen(d Document) int {
	return utf8.RuneCountInString(filepath.Base(d.Source))
}
