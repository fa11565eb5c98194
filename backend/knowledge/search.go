package knowledge

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/fusion"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
	"golang.org/x/text/unicode/norm"
)

// SearchOptions narrow a search. Zero values mean "the top 5 passages of
// the person's documents, one per document, above the relevance floor".
type SearchOptions struct {
	TopK    int      // number of hits; default 5
	Sources []string // keep chunks from these files or folders (absolute or relative paths)
	Kinds   []string // keep these document kinds ("pdf", "markdown", "text", "json")
	// Scope is what the search covers: the person's documents (default),
	// the built-in catalog of AI tools, or both.
	Scope Scope
	// Conversation is the conversation searching: its own files
	// (UploadToConversation) are seen with the library's; "" sees the
	// library's only.
	Conversation string
	// PerDoc is how many passages of one document the results may hold:
	// 0 means DefaultPerDoc, a negative value no limit. Two overlapping
	// chunks of one paragraph in two of five places tell the person
	// nothing new and push another document out.
	PerDoc int
	// Floor drops passages found by their words that match less than this
	// share of the query's weight (keyword.Index.QueryWeight): 0 means
	// DefaultFloor, a negative value no floor. Passages found by meaning
	// alone are kept (their similarity is not on this scale).
	Floor float64
}

// Scope is what a search covers.
type Scope string

const (
	ScopeDocuments Scope = "documents" // the person's imported files (the zero value too)
	ScopeCatalog   Scope = "catalog"   // the built-in catalog of AI tools
	ScopeAll       Scope = "all"       // both
)

// ParseScope reads a scope named by a person or a script; "" is documents.
func ParseScope(s string) (Scope, error) {
	switch sc := Scope(strings.ToLower(strings.TrimSpace(s))); sc {
	case "", ScopeDocuments:
		return ScopeDocuments, nil
	case ScopeCatalog, ScopeAll:
		return sc, nil
	}
	return "", fmt.Errorf("unknown search scope %q: use documents, catalog or all", s)
}

// DefaultPerDoc keeps one passage per document: the best one.
const DefaultPerDoc = 1

// DefaultFloor is the share of the query's weight a passage found by its
// words must match. It is set where it costs no answer on either measured
// set (README.md, "Relevance floor"): 0.2 already lost 2 of 547 Korean
// answers from the top five, 0.3 lost 5% of them. On questions the
// library can answer it cuts little; it is there for the weak tail and for
// questions the library cannot answer, whose best matches share a word or
// two with them.
const DefaultFloor = 0.15

// Hit is one retrieved passage with what a citation needs.
type Hit struct {
	ChunkID  string  `json:"chunk_id"`
	DocID    string  `json:"doc_id"`
	RecordID string  `json:"record_id,omitempty"`
	Title    string  `json:"title"`
	Source   string  `json:"source"`
	Kind     string  `json:"kind"`
	Page     int     `json:"page,omitempty"`
	Unit     string  `json:"unit"` // what Page counts: "page" or "slide" (importer.Unit)
	Heading  string  `json:"heading,omitempty"`
	Text     string  `json:"text"`
	Snippet  string  `json:"snippet"`
	Score    float64 `json:"score"`
	// Words and Meaning say which ranking found the chunk: shared words
	// (BM25) or a similar meaning (vectors); a person reads that more
	// easily than a fused score.
	Words   bool `json:"words"`
	Meaning bool `json:"meaning"`
	// Copies are the other documents this hit stands for (copiesOf): the
	// same file under another name or in another folder, whose passage
	// is shown once, here. Only those the search found are named: those
	// in its scope and under its filters.
	Copies []Copy `json:"copies,omitempty"`
}

// Citation converts a hit to the DTO replies carry.
func (h Hit) Citation() api.Source {
	return api.Source{
		ID: h.ChunkID, Title: h.Title, Source: h.Source, Page: h.Page, Unit: h.Unit,
		Heading: h.Heading, Snippet: h.Snippet, Score: h.Score,
	}
}

const defaultTopK = 5

// maxQueryRunes bounds what of a query is searched. A turn searches with
// the person's message, which may be a pasted document of up to 100,000
// characters, and the search API and `kb search` take any query: every
// word of it was a query term, 0.9 s and 1.3 GB of allocations for a 2 MB
// paste (BenchmarkSearchPastedDocument: 5 ms and 3 MB bounded), for a
// ranking no better than its ends give. A person writes the question
// before or after what they paste, so a longer query is searched by its
// first and last halves of this.
const maxQueryRunes = 2000

// boundQuery is query within maxQueryRunes: its beginning and its end.
func boundQuery(query string) string {
	if len(query) <= maxQueryRunes || utf8.RuneCountInString(query) <= maxQueryRunes {
		return query
	}
	half := maxQueryRunes / 2
	head, tail := 0, len(query)
	for range half {
		_, n := utf8.DecodeRuneInString(query[head:])
		head += n
	}
	for range half {
		_, n := utf8.DecodeLastRuneInString(query[:tail])
		tail -= n
	}
	return query[:head] + "\n" + query[tail:]
}

// Search returns the best chunks for query, best first: by keyword (BM25)
// alone, or, with Options.Vectors, keyword and vector rankings fused by
// reciprocal rank fusion. Score is BM25 in the first case and the fused
// score in the second.
func (b *Base) Search(ctx context.Context, query string, opts SearchOptions) ([]Hit, error) {
	query = boundQuery(query)
	k := opts.TopK
	if k <= 0 {
		k = defaultTopK
	}
	keep, err := b.filter(opts)
	if err != nil {
		return nil, err
	}
	perDoc := opts.PerDoc
	if perDoc == 0 {
		perDoc = DefaultPerDoc
	}
	floor := opts.Floor
	if floor == 0 {
		floor = DefaultFloor
	}
	ranked := b.rank(ctx, query, k, perDoc, floor, keep)
	if len(ranked) == 0 {
		return nil, nil
	}
	ids := make([]string, len(ranked))
	for i, r := range ranked {
		ids[i] = r.ID
	}
	var rows []Chunk
	if err := b.db.WithContext(ctx).Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("search %q: load chunks: %w", query, err)
	}
	byID := make(map[string]Chunk, len(rows))
	for _, c := range rows {
		byID[c.ID] = c
	}
	docs, err := b.docsOf(ctx, rows)
	if err != nil {
		return nil, fmt.Errorf("search %q: load documents: %w", query, err)
	}
	terms, marks := b.keywords.Analyzer().Tokens(query), newMarks(query)
	hits := make([]Hit, 0, len(ranked))
	for _, r := range ranked {
		c, ok := byID[r.ID]
		m, live := docs[c.DocID]
		if !ok || !live {
			continue // removed between ranking and loading
		}
		hits = append(hits, Hit{
			ChunkID: c.ID, DocID: c.DocID, RecordID: m.RecordID, Title: m.Title, Source: m.Source, Kind: m.Kind,
			Page: c.Page, Unit: string(importer.UnitOf(m.Unit)), Heading: c.Heading, Text: c.Text, Snippet: snippet(c.Text, marks, terms), Score: r.Score,
			Words: r.words, Meaning: r.meaning, Copies: b.copyList(r.copies),
		})
	}
	return hits, nil
}

// match is a ranked chunk and the rankings that found it.
type match struct {
	Ranked
	words, meaning bool
	copies         []string // the other documents it stands for (limitPerDoc)
}

// rank returns the top k chunks, at most perDoc of one document. Both
// rankings are taken deeper than k so that fusion can promote a chunk that
// only one of them ranks high, and so that k documents remain after the
// per-document limit and the floor.
func (b *Base) rank(ctx context.Context, query string, k, perDoc int, floor float64, keep func(string) bool) []match {
	depth := max(4*k, 40)
	hits := b.keywords.Search(query, depth, keep)
	if floor > 0 && len(hits) > 0 {
		min := floor * b.keywords.QueryWeight(query)
		hits = slices.DeleteFunc(hits, func(h keyword.Hit) bool { return h.Score < min })
	}
	kw := make([]match, len(hits))
	for i, h := range hits {
		kw[i] = match{Ranked: Ranked{ID: h.ID, Score: h.Score}, words: true}
	}
	if b.opts.Vectors == nil {
		return limitPerDoc(kw, k, perDoc, b.copiesOf(ctx, kw))
	}
	vec, err := b.opts.Vectors.SearchChunks(ctx, query, depth)
	if err != nil {
		b.log.Debug("vector search unavailable; keyword results only", "err", err)
		return limitPerDoc(kw, k, perDoc, b.copiesOf(ctx, kw))
	}
	if keep != nil {
		vec = slices.DeleteFunc(vec, func(r Ranked) bool { return !keep(r.ID) })
	}
	wordIDs := make([]string, len(kw))
	for i, m := range kw {
		wordIDs[i] = m.ID
	}
	covers := func(int, string) bool { return true }
	if cov, ok := b.opts.Vectors.(vectorCoverage); ok {
		has := map[string]bool{}
		for i, ok := range cov.HasVectors(wordIDs) {
			has[wordIDs[i]] = ok
		}
		// The keyword list covers every chunk; the vector list those with
		// a vector (chunks it returned have one).
		covers = func(list int, id string) bool { return list == 0 || has[id] }
	}
	fused := fusion.RRFCovered(fusion.DefaultK, covers, wordIDs, ids(vec))
	out := make([]match, len(fused))
	for i, f := range fused {
		// Ranks says where each list had the chunk (0: not at all).
		out[i] = match{Ranked: Ranked{ID: f.ID, Score: f.Score}, words: f.Ranks[0] > 0, meaning: f.Ranks[1] > 0}
	}
	return limitPerDoc(out, k, perDoc, b.copiesOf(ctx, out))
}

// limitPerDoc keeps the first k matches, skipping a document's chunks past
// its first perDoc (perDoc < 0: no limit). Matches are best first, so each
// document keeps its best chunks. Copies of one file (copies) count as one
// document, and a chunk of one is left out where the same chunk of
// another was kept: the person sees a passage once, not once per name,
// under the name copies.shown picks where it is a candidate too, and the
// match names the other copies.
func limitPerDoc(ms []match, k, perDoc int, copies copySet) []match {
	out := make([]match, 0, min(k, len(ms)))
	seen := map[string]int{}
	shown := map[string]bool{}
	var candidate map[string]bool
	if len(copies.key) > 0 {
		candidate = make(map[string]bool, len(ms))
		for _, m := range ms {
			candidate[m.ID] = true
		}
	}
	for _, m := range ms {
		if len(out) == k {
			break
		}
		doc, same := docOf(m.ID), ""
		if c, ok := copies.key[doc]; ok {
			seq := m.ID[len(doc):] // ":seq", the same chunk of any copy
			doc, same = c, c+seq
			if shown[same] {
				continue
			}
			if id := copies.shown[c] + seq; candidate[id] {
				m.ID = id
			}
			m.copies = copies.others(docOf(m.ID))
		}
		if perDoc > 0 {
			if seen[doc] == perDoc {
				continue
			}
			seen[doc]++
		}
		if same != "" {
			shown[same] = true
		}
		out = append(out, m)
	}
	return out
}

func ids(rs []Ranked) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// filter builds the keyword index's id filter from the options; nil means
// no filtering.
func (b *Base) filter(opts SearchOptions) (func(chunkID string) bool, error) {
	scope, err := ParseScope(string(opts.Scope))
	if err != nil {
		return nil, err
	}
	if len(opts.Sources) == 0 && len(opts.Kinds) == 0 && scope == ScopeAll && b.opts.UploadDir == "" {
		return nil, nil // no conversation can have files of its own
	}
	sources := make([]string, 0, len(opts.Sources))
	for _, s := range opts.Sources {
		abs, err := filepath.Abs(s)
		if err != nil {
			return nil, fmt.Errorf("source filter %q: %w", s, err)
		}
		sources = append(sources, abs)
	}
	kinds := map[string]bool{}
	for _, k := range opts.Kinds {
		kinds[k] = true
	}
	if len(sources) == 0 && len(kinds) == 0 {
		// The scope alone (every default search): the catalog's documents
		// are few and kept apart, which is several times faster per
		// candidate than the whole document table at 100k chunks.
		catalog := scope == ScopeCatalog
		if catalog || !b.docs.anySource(func(src string) bool { return b.conversationOf(src) != "" }) {
			return func(chunkID string) bool { return b.docs.isCatalog(docOf(chunkID)) == catalog }, nil
		}
		// Some conversation has files of its own: each document's source
		// says whether this search sees it.
		return func(chunkID string) bool {
			id := docOf(chunkID)
			if b.docs.isCatalog(id) {
				return false
			}
			source, _, ok := b.docs.get(id)
			return ok && b.visibleTo(source, opts.Conversation)
		}, nil
	}
	return func(chunkID string) bool {
		source, kind, ok := b.docs.get(docOf(chunkID))
		if !ok {
			return false
		}
		if len(kinds) > 0 && !kinds[kind] {
			return false
		}
		if scope != ScopeAll && (kind == KindCatalog) != (scope == ScopeCatalog) {
			return false
		}
		if !b.visibleTo(source, opts.Conversation) {
			return false
		}
		if len(sources) == 0 {
			return true
		}
		for _, s := range sources {
			if source == s || strings.HasPrefix(source, s+string(os.PathSeparator)) {
				return true
			}
		}
		return false
	}, nil
}

// snippetRunes is the length of a snippet: about three lines in the UI.
const snippetRunes = 240

// snippet cuts a window of the text around the first word the window
// marks (marks.go), so the person sees why the chunk matched, the word
// marked, or around an index term of a Latin word found before it (a stem,
// "polici", finds "policies", which the window does not mark), as before;
// where neither is found, around a Korean word's first bigram found. The
// bigrams come last: they are pieces of a word, and an early "위임 사항"
// would otherwise take the window from the letter-spaced title "위 임 장"
// the index found.
func snippet(text string, marks marks, terms []string) string {
	text = collapseSpace(norm.NFC.String(text))
	if utf8.RuneCountInString(text) <= snippetRunes {
		return text
	}
	at, _ := marks.next(text, 0)
	if at >= 0 {
		at = utf8.RuneCountInString(text[:at])
	}
	lower := strings.ToLower(text)
	first := func(hangulTerms bool) int {
		found := -1
		for _, t := range terms {
			if isHangulTerm(t) != hangulTerms {
				continue
			}
			if i := strings.Index(lower, t); i >= 0 && (found < 0 || i < found) {
				found = i
			}
		}
		if found < 0 {
			return -1
		}
		return utf8.RuneCountInString(lower[:found])
	}
	if i := first(false); i >= 0 && (at < 0 || i < at) {
		at = i
	}
	if at < 0 {
		at = first(true)
	}
	r := []rune(text)
	start := 0
	if at > 0 {
		start = max(0, at-snippetRunes/4)
	}
	start = min(start, len(r)-snippetRunes)
	out := string(r[start : start+snippetRunes])
	if start > 0 {
		out = "…" + out
	}
	if start+snippetRunes < len(r) {
		out += "…"
	}
	return out
}

// collapseSpace shows text on one line for a snippet, its ends trimmed,
// without making a mark that the text does not have: a gap of one space or
// line break (what the marks allow between two syllables, breakLen) becomes
// one space, and any wider gap — two spaces, a blank line, a tab — two
// spaces, which no mark spans. Collapsing every gap to one space made "위
// \n\n임\n\n장" read "위 임 장", marked by the window and cut around as
// though the text held the word.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsSpace(r) {
				break
			}
			j += size
		}
		switch {
		case i == 0 || j == len(s):
		case breakLen(s[i:j]) == j-i:
			b.WriteByte(' ')
		default:
			b.WriteString("  ")
		}
		i = j
	}
	return b.String()
}

// Extract writes the text of one file as Wayfinder reads it to w, as it
// reads it, without storing anything (for `wayfinder kb extract`), and
// returns the warnings an import would give.
func (b *Base) Extract(ctx context.Context, path string, w io.Writer) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("extract %q: %w", path, err)
	}
	defer f.Close()
	out := &extractor{w: bufio.NewWriter(w)}
	warnings, err := importer.Importer{PDF: b.opts.PDF}.Read(ctx, path, f, out)
	if ferr := out.w.Flush(); err == nil {
		err = ferr
	}
	var words []string
	for _, w := range warnings {
		words = append(words, w.Error())
	}
	return words, err
}

// extractor is the importer.Sink of Extract: page and heading lines, then
// the text.
type extractor struct {
	w    *bufio.Writer
	tail byte // the last byte written
}

func (e *extractor) Begin(d importer.Document) error {
	for _, p := range d.Parts {
		if p.Page > 0 {
			e.line(fmt.Sprintf("--- %s %d ---", importer.UnitOf(string(d.Unit)), p.Page))
		}
		if p.Heading != "" {
			e.line("# " + p.Heading)
		}
		e.line(strings.TrimRight(p.Text, "\n"))
	}
	return nil
}

func (e *extractor) line(s string) {
	e.write(s)
	e.write("\n")
}

func (e *extractor) write(s string) {
	if s != "" {
		e.w.WriteString(s)
		e.tail = s[len(s)-1]
	}
}

func (e *extractor) Text(text string) error {
	e.write(text)
	return nil
}

func (e *extractor) End(importer.Document) error {
	if e.tail != '\n' && e.tail != 0 {
		e.write("\n")
	}
	return nil
}
