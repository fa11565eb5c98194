package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
	"github.com/wayfinder-app/wayfinder/backend/store"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// library is the knowledge base of one run: the person's documents and the
// built-in catalog, searched by keywords and, when an embedding model is
// there, by vectors. It opens in the background so that a large library
// never delays the window; callers wait for it through base().
type library struct {
	log     *slog.Logger
	catalog catalog.Catalog
	byID    map[string]catalog.Entry
	vectors *vector.Index
	pdf     *lazyPDF

	stop  context.CancelFunc // ends background indexing at close
	bg    sync.WaitGroup
	ready chan struct{}
	kb    *knowledge.Base
	err   error
	// emit (may be nil) tells the windows of pauses begun and ended
	// (EventEmbedPause, pause.go).
	emit func(name string, payload any)
}

// The library's vectors: those of the saved embedding model, and those of
// a model given for one run with --embed-model. A run with another model
// than the saved one embeds into triedVectors and leaves savedVectors'
// vectors as they are (vector.Mirror keeps it true to what the run deletes
// or changes), so that trying a model costs no re-embedding of the whole
// library, twice, with search by meaning off meanwhile. The next run
// without the flag removes triedVectors: disk holds the saved model's
// vectors and at most those of the last model tried.
const (
	savedVectors = "chunks.vec"
	triedVectors = "chunks.override.vec"
)

// openLibrary opens the knowledge base in the background; readOnly opens
// it beside the app that owns the data folder (knowledge.OpenReadOnly,
// vector.ReadOnly: nothing is written, the catalog is not synced). With
// pace set
// (the desktop window and serve mode, which stay open), chunks that have no
// vector yet — the catalog after its first indexing, files imported while
// Ollama was away — are embedded in the background too, pace running before
// each batch so that it can wait while the person's turn runs; so does each
// batch of an import's embedding (vector.WithPace). Short
// commands (nil pace) leave that for later rather than keep the person
// waiting. emit (may be nil) hears how the background embedding goes:
// each batch's documents with their passages still pending
// (EventEmbedding), and the files whose embedding was left to the
// background once all their passages are embedded (EventEmbedded).
// savedModel is the embedding model saved in Settings: an embedModel
// other than it is tried for this run only (triedVectors); another
// spelling of it ("bge-m3:latest" for "bge-m3", api.SameModel) is it.
func openLibrary(ctx context.Context, st *store.Store, dataDir string, embedModel, savedModel string, embed vector.Embedder, pace vector.Pace, emit func(name string, payload any), readOnly bool, log *slog.Logger) (*library, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, fmt.Errorf("load the built-in catalog: %w", err)
	}
	l := &library{
		log: log, catalog: cat, byID: map[string]catalog.Entry{},
		pdf:   &lazyPDF{cacheDir: pdfCacheDir(dataDir)},
		ready: make(chan struct{}), emit: emit,
	}
	for _, e := range cat.Entries {
		l.byID[e.ID()] = e
	}
	dir := filepath.Join(dataDir, "knowledge")
	if err := os.MkdirAll(dir, 0o700); err != nil && !readOnly {
		return nil, fmt.Errorf("create the knowledge folder: %w", err)
	}
	vopts := []vector.Option{vector.WithLogger(log)}
	if pace == nil {
		// A short command reads the vectors only if it gets to use them:
		// `kb search` while no embedding model answers needs none.
		vopts = append(vopts, vector.LoadOnUse())
	} else {
		// An import's embedding waits while the person's turn runs, as
		// the background embedding does.
		vopts = append(vopts, vector.WithPace(pace))
	}
	if readOnly {
		vopts = append(vopts, vector.ReadOnly())
	}
	if emit != nil {
		vopts = append(vopts,
			vector.WithSettled("source", func(sources []string) { emit(api.EventEmbedded, l.embeddedNow(sources)) }),
			vector.WithPendingLeft(knowledge.DocOf, func(left map[string]int) { emit(api.EventEmbedding, embeddingProgress(left)) }))
	}
	path := filepath.Join(dir, savedVectors)
	tried := savedModel != "" && !api.SameModel(embedModel, savedModel) // "bge-m3:latest" is "bge-m3"
	if tried {
		path = filepath.Join(dir, triedVectors)
	}
	switch {
	case readOnly:
	case tried:
		vopts = append(vopts, vector.Mirror(vector.OpenKept(filepath.Join(dir, savedVectors))))
	default:
		if err := os.Remove(filepath.Join(dir, triedVectors)); err == nil {
			log.Info("the vectors of an embedding model tried with --embed-model were removed", "file", triedVectors)
		} else if !errors.Is(err, fs.ErrNotExist) {
			log.Warn("remove the vectors of a tried embedding model", "err", err)
		}
	}
	l.vectors = vector.Open(path, embedModel, embed, vopts...)
	ctx, l.stop = context.WithCancel(ctx)
	go func() {
		defer close(l.ready)
		v := knowledge.Vectors{Index: l.vectors}
		opts := knowledge.Options{PDF: l.pdf, Sink: v, Vectors: v, Logger: log, UploadDir: filepath.Join(dataDir, "uploads")}
		if readOnly {
			l.kb, l.err = knowledge.OpenReadOnly(ctx, st.DB(), dir, opts)
			return
		}
		l.kb, l.err = knowledge.Open(ctx, st.DB(), dir, opts)
		if l.err != nil {
			if ctx.Err() == nil { // else a short command ended before it needed the library
				log.Error("open the knowledge base", "err", l.err)
			}
			return
		}
		if changed, err := knowledge.SyncCatalog(ctx, l.kb, cat, nil); err != nil {
			log.Warn("index the built-in catalog", "err", err)
		} else if changed {
			log.Info("built-in catalog indexed", "version", cat.Version, "entries", len(cat.Entries))
		}
		if pace != nil {
			l.bg.Go(func() { l.embedMissing(ctx, pace) })
		}
	}()
	return l, nil
}

// base waits for the knowledge base to be open.
func (l *library) base(ctx context.Context) (*knowledge.Base, error) {
	select {
	case <-l.ready:
		return l.kb, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// embedMissing embeds the chunks the vector index lacks. It gives up
// quietly without an embedding model: keyword search serves meanwhile.
func (l *library) embedMissing(ctx context.Context, pace vector.Pace) {
	if err := l.vectors.Wait(ctx); err != nil {
		return
	}
	ids, err := l.vectors.IDs(ctx)
	if err != nil {
		return
	}
	have := make(map[string]bool, len(ids))
	for _, id := range ids {
		have[id] = true
	}
	n, err := l.kb.Reindex(ctx, func(id string) bool { return have[id] }, func(ctx context.Context) error { return pace(ctx, nil) })
	switch {
	case err != nil && ctx.Err() == nil:
		l.log.Info("passages not embedded yet; keyword search serves meanwhile", "err", err)
	case n > 0:
		l.log.Info("passages embedded", "count", n)
	}
}

// embeddedNow says which conversations the files of sources, embedded
// now, are attached to. Before the knowledge base is open (the worker
// embeds what was pending at the last close) it names none.
func (l *library) embeddedNow(sources []string) api.EmbeddingsDone {
	ev := api.EmbeddingsDone{Sources: sources}
	select {
	case <-l.ready:
	default:
		return ev
	}
	if l.kb == nil {
		return ev
	}
	for _, s := range sources {
		if c := l.kb.ConversationOf(s); c != "" && !slices.Contains(ev.Conversations, c) {
			ev.Conversations = append(ev.Conversations, c)
		}
	}
	return ev
}

// embeddingProgress is the event of the documents a background batch
// embedded passages of, in a stable order.
func embeddingProgress(left map[string]int) api.EmbeddingProgress {
	ev := api.EmbeddingProgress{Docs: make([]api.DocPending, 0, len(left))}
	for _, id := range slices.Sorted(maps.Keys(left)) {
		ev.Docs = append(ev.Docs, api.DocPending{DocID: id, Pending: left[id]})
	}
	return ev
}

// pendingSources counts the passages still to be embedded by file.
func (l *library) pendingSources() map[string]int { return l.vectors.PendingBy("source") }

// pendingDocs counts the passages still to be embedded by document.
func (l *library) pendingDocs() map[string]int {
	return knowledge.Vectors{Index: l.vectors}.PendingByDocument()
}

func (l *library) close() {
	l.stop()
	<-l.ready
	l.bg.Wait()
	if err := l.vectors.Close(); err != nil {
		l.log.Warn("close vector index", "err", err)
	}
	l.pdf.close()
}

// Search implements tools.Retriever for the agent: the person's documents
// or the catalog, never both at once; catalog passages carry the tool's URL
// so recommendations can link to it.
func (l *library) Search(ctx context.Context, query string, scope tools.Scope, topK int) ([]tools.Doc, error) {
	sc := knowledge.ScopeDocuments
	if scope == tools.ScopeCatalog {
		sc = knowledge.ScopeCatalog
	}
	hits, err := l.search(ctx, query, knowledge.SearchOptions{TopK: topK, Scope: sc, Conversation: tools.ConversationOf(ctx)})
	if err != nil {
		return nil, err
	}
	docs := make([]tools.Doc, len(hits))
	for i, h := range hits {
		docs[i] = tools.Doc{ID: h.ID, Title: h.Title, Source: h.Source, Page: h.Page, Unit: h.Unit, Heading: h.Heading, URL: h.URL,
			Text: h.Text, Score: h.Score, Catalog: h.Kind == knowledge.KindCatalog}
	}
	return docs, nil
}

func (l *library) search(ctx context.Context, query string, opts knowledge.SearchOptions) ([]api.SearchHit, error) {
	kb, err := l.base(ctx)
	if err != nil {
		return nil, err
	}
	hits, err := kb.Search(ctx, query, opts)
	if err != nil {
		return nil, fmt.Errorf("search the knowledge base: %w", err)
	}
	out := make([]api.SearchHit, len(hits))
	for i, h := range hits {
		out[i] = api.SearchHit{
			ID: h.ChunkID, DocID: h.DocID, RecordID: h.RecordID, File: filepath.Base(h.Source), Title: h.Title, Source: h.Source, Kind: h.Kind, Page: h.Page, Unit: h.Unit,
			Heading: h.Heading, Score: h.Score, Text: h.Text, Snippet: h.Snippet, Words: h.Words, Meaning: h.Meaning,
		}
		for _, c := range h.Copies {
			out[i].Copies = append(out[i].Copies, api.SearchCopy{DocID: c.DocID, File: filepath.Base(c.Source), Source: c.Source})
		}
		if h.Kind == knowledge.KindCatalog {
			out[i].Source, out[i].File = catalog.SourceName, ""
			if e, ok := l.byID[h.RecordID]; ok {
				out[i].URL = e.URL
			}
		}
	}
	return out, nil
}

func (l *library) documents(ctx context.Context) ([]api.KBDocument, error) {
	kb, err := l.base(ctx)
	if err != nil {
		return nil, err
	}
	docs, err := kb.List(ctx)
	if err != nil {
		return nil, err
	}
	// A document whose meaning is still being indexed in the background
	// says how far: found by its words now, by its meaning once done.
	pending, paused := l.pendingDocs(), l.pausedSources()
	out := make([]api.KBDocument, 0, len(docs))
	for _, d := range docs {
		if d.Source == knowledge.CatalogSource || kb.ConversationOf(d.Source) != "" {
			continue // browsed separately: by category; in their conversation
		}
		out = append(out, api.KBDocument{
			ID: d.ID, Title: d.Title, Source: d.Source, Kind: d.Kind, Size: d.FileSize,
			Pages: d.Pages, Unit: d.Unit, Chunks: d.Chunks, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
			Pending: pending[d.ID], EmbedPending: pending[d.ID] > 0, EmbedPaused: pending[d.ID] > 0 && paused[d.Source],
		})
	}
	return out, nil
}

// progressOf is the DTO of an import event.
func progressOf(id string, p knowledge.Progress) api.ImportProgress {
	ev := api.ImportProgress{
		ImportID: id, File: p.File, Stage: string(p.Stage), Pages: p.Pages, Unit: p.Unit, Chunks: p.Chunks, Indexed: p.Indexed,
		Embedded: p.Embedded, Error: p.Error, Reason: reasonOf(p.Err), FileIndex: p.FileIndex, FilesTotal: p.FilesTotal, Warnings: p.Warnings,
		Replaced: p.Replaced, DuplicateOf: p.DuplicateOf, Waiting: p.Waiting, WaitingFor: p.WaitingFor,
	}
	for _, w := range p.WarningErrs {
		r := reasonOf(w)
		if r == nil {
			r = &api.FileReason{}
		}
		ev.WarningReasons = append(ev.WarningReasons, *r)
	}
	var later *knowledge.EmbedLaterError
	switch {
	case errors.Is(p.EmbedErr, context.Canceled):
		ev.EmbedStopped = true // the person's stop, not a fault to explain
	case errors.As(p.EmbedErr, &later):
		ev.EmbedLater = true // Ollama hung: words of their own, said once
	case errors.Is(p.EmbedErr, knowledge.ErrEmbedHandedOn):
		ev.EmbedHandedOn = true // the next file is read meanwhile: not a fault
	case p.EmbedErr != nil:
		info := describe(p.EmbedErr)
		ev.EmbedError = &info
	}
	return ev
}

func newReport(id string) api.ImportReport {
	return api.ImportReport{ImportID: id, Imported: []string{}, Skipped: []string{}, Failed: []api.ImportFailure{},
		Warnings: []api.ImportFailure{}, Replaced: []string{}, Duplicates: []api.ImportFailure{}, Ignored: []string{}, LeftOut: []api.ImportFailure{}, Stopped: []string{}}
}

// addReport adds what an import reports to the DTO.
func addReport(rep *api.ImportReport, r knowledge.Report) {
	rep.Imported = append(rep.Imported, r.Imported...)
	rep.Skipped = append(rep.Skipped, r.Skipped...)
	rep.Ignored = append(rep.Ignored, r.Ignored...)
	rep.Stopped = append(rep.Stopped, r.Stopped...)
	for _, f := range r.Failed {
		rep.Failed = append(rep.Failed, api.ImportFailure{File: f.Path, Error: f.Err.Error(), Reason: reasonOf(f.Err)})
	}
	for _, f := range r.LeftOut {
		rep.LeftOut = append(rep.LeftOut, api.ImportFailure{File: f.Path, Error: f.Err.Error(), Reason: reasonOf(f.Err)})
	}
	for _, w := range r.Warnings {
		rep.Warnings = append(rep.Warnings, api.ImportFailure{File: w.Path, Error: w.Err.Error(), Reason: reasonOf(w.Err)})
	}
	rep.Documents, rep.Chunks, rep.Pages = rep.Documents+r.Documents, rep.Chunks+r.Chunks, rep.Pages+r.Pages
}

// upload imports a file given by content (see knowledge.Base.Upload),
// attached at the time given: a conversation lists its files in the order
// the person attached them.
func (l *library) upload(ctx context.Context, id, conversation, name string, content io.Reader, attached time.Time, progress func(api.ImportProgress)) api.ImportReport {
	return l.keep(ctx, id, conversation, name, progress, func(kb *knowledge.Base, onProgress func(knowledge.Progress)) (knowledge.UploadResult, error) {
		if conversation == "" {
			return kb.Upload(ctx, name, content, onProgress)
		}
		return kb.UploadToConversation(ctx, conversation, name, content, attached, onProgress)
	})
}

// attachFile imports a file by its path into a conversation's own files
// (see knowledge.Base.AttachFile).
func (l *library) attachFile(ctx context.Context, id, conversation, path string, attached time.Time, progress func(api.ImportProgress)) api.ImportReport {
	return l.keep(ctx, id, conversation, filepath.Base(path), progress, func(kb *knowledge.Base, onProgress func(knowledge.Progress)) (knowledge.UploadResult, error) {
		return kb.AttachFile(ctx, conversation, path, attached, onProgress)
	})
}

// keep runs one upload (put) and reports it: uploads by content and
// attachments by path end alike, so the window's rows treat them alike.
func (l *library) keep(ctx context.Context, id, conversation, name string, progress func(api.ImportProgress), put func(*knowledge.Base, func(knowledge.Progress)) (knowledge.UploadResult, error)) api.ImportReport {
	rep := newReport(id)
	rep.Conversation = conversation
	kb, err := l.base(ctx)
	if err != nil {
		info := describe(err)
		rep.Error = &info
		return rep
	}
	onProgress := func(p knowledge.Progress) {
		ev := progressOf(id, p)
		ev.Conversation = conversation
		progress(ev)
	}
	res, err := put(kb, onProgress)
	addReport(&rep, res.Report)
	switch res.Outcome {
	case knowledge.UploadReplaced:
		rep.Replaced = append(rep.Replaced, res.Path)
	case knowledge.UploadDuplicate:
		rep.Duplicates = append(rep.Duplicates, api.ImportFailure{File: name, Error: res.Same.Title})
	}
	setError(&rep, err)
	return rep
}

// setError says in rep why an import ended early, unless it was stopped:
// rep.Stopped says that, and stopping is no failure.
func setError(rep *api.ImportReport, err error) {
	if err == nil || errors.Is(err, context.Canceled) && len(rep.Stopped) > 0 {
		return
	}
	info := describe(err)
	rep.Error = &info
}

// importPaths imports files and folders, reporting each file's progress.
func (l *library) importPaths(ctx context.Context, id string, paths []string, progress func(api.ImportProgress)) api.ImportReport {
	rep := newReport(id)
	kb, err := l.base(ctx)
	if err != nil {
		info := describe(err)
		rep.Error = &info
		return rep
	}
	r, err := kb.Import(ctx, paths, func(p knowledge.Progress) { progress(progressOf(id, p)) })
	addReport(&rep, r)
	setError(&rep, err)
	return rep
}

func (l *library) catalogEntries(category string) []api.CatalogEntry {
	var out []api.CatalogEntry
	for _, e := range l.catalog.Entries {
		cats := make([]string, len(e.Categories))
		for i, c := range e.Categories {
			cats[i] = string(c)
		}
		if category != "" && !slices.Contains(cats, category) {
			continue
		}
		out = append(out, api.CatalogEntry{
			ID: e.ID(), Name: e.Name, Categories: cats, Tasks: e.Tasks, DescriptionEN: e.DescriptionEN,
			DescriptionKO: e.DescriptionKO, URL: e.URL, Pricing: e.PriceText("en"), PricingKO: e.PriceText("ko"), Platforms: e.Platforms,
			Languages: e.Languages, LastChecked: e.LastChecked,
		})
	}
	return out
}

// lazyPDF starts PDFium (a WebAssembly module, compiled once and cached on
// disk) at the first PDF, so that starting the app never pays for it.
type lazyPDF struct {
	cacheDir string
	once     sync.Once
	ex       *pdftext.Extractor
	err      error
}

func (p *lazyPDF) get(ctx context.Context) (*pdftext.Extractor, error) {
	p.once.Do(func() { p.ex, p.err = pdftext.New(context.WithoutCancel(ctx), p.cacheDir) })
	return p.ex, p.err
}

// ExtractReader implements importer.PDFExtractor.
func (p *lazyPDF) ExtractReader(ctx context.Context, r io.ReaderAt, size int64) ([]pdftext.Page, error) {
	ex, err := p.get(ctx)
	if err != nil {
		return nil, fmt.Errorf("start the PDF reader: %w", err)
	}
	return ex.ExtractReader(ctx, r, size)
}

func (p *lazyPDF) close() {
	if p.ex != nil {
		_ = p.ex.Close(context.Background())
	}
}

// KnowledgeService is bound to the frontend: the person's documents, the
// built-in catalog and what retrieval returns.
type KnowledgeService struct{ app *App }

// Documents lists imported documents, newest first.
func (k *KnowledgeService) Documents() ([]api.KBDocument, error) {
	return k.app.library.documents(k.app.ctx)
}

// Import adds files and folders in the background and returns the import's
// id; knowledge.import events report each file, knowledge.import_done the
// end. Importing grants read_file nothing: the person grants folders in
// Settings.
func (k *KnowledgeService) Import(paths []string) (string, error) {
	var clean []string
	for _, p := range paths {
		if p = strings.TrimSpace(p); p != "" {
			clean = append(clean, p)
		}
	}
	if len(clean) == 0 {
		return "", api.NewError(api.ErrNothingToImport, "Choose at least one file or folder to import.", "")
	}
	a := k.app
	id := store.NewID()
	ctx, done := a.imports.start(a.ctx, id)
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		defer done()
		rep := a.library.importPaths(ctx, id, clean, func(p api.ImportProgress) {
			a.events.Emit(api.EventImport, p)
			a.imports.embedsAt(id, p) // a Stop while it embeds pauses it
			a.library.readAgain(p)
		})
		a.events.Emit(api.EventImportDone, rep)
	}()
	return id, nil
}

// Remove deletes an imported document and its passages. Every window is
// told (EventRemoved), with its file once none of its documents is left,
// so that a chat's row of a file added to the library says it was removed.
func (k *KnowledgeService) Remove(docID string) error {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return err
	}
	before, err := kb.List(k.app.ctx)
	if err != nil {
		return err
	}
	if err := kb.Remove(k.app.ctx, docID); err != nil {
		return err
	}
	k.app.library.forgetPaused()
	ev := api.KnowledgeRemoved{DocIDs: []string{docID}, Sources: []string{}}
	if i := slices.IndexFunc(before, func(d knowledge.Document) bool { return d.ID == docID }); i >= 0 {
		source := before[i].Source
		if !slices.ContainsFunc(before, func(d knowledge.Document) bool { return d.Source == source && d.ID != docID }) {
			ev.Sources = append(ev.Sources, source)
		}
	}
	k.app.events.Emit(api.EventRemoved, ev)
	return nil
}

// Search shows what retrieval returns for a query.
func (k *KnowledgeService) Search(query string, topK int) ([]api.SearchHit, error) {
	if strings.TrimSpace(query) == "" {
		return []api.SearchHit{}, nil
	}
	return k.app.library.search(k.app.ctx, query, knowledge.SearchOptions{TopK: min(max(topK, 1), 50)})
}

// Passage opens a search hit or a cited source: its chunk with the text
// around it in its document (the Knowledge reader). sessionID is the
// conversation it is opened from ("" for the Knowledge screen): a file
// attached to that conversation opens, another conversation's does not.
// source is the file a cited chunk came from and cited its text as the
// reply cited it (its snippet; both "" for a search hit): when its
// document was imported again since, the cited text is looked for in the
// document now and the chunk holding it, else the one most like it, else
// the one at the same place opens instead (ChunkID says which, Found how).
func (k *KnowledgeService) Passage(sessionID, chunkID, source, cited string) (api.Passage, error) {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return api.Passage{}, err
	}
	p, err := kb.PassageNow(k.app.ctx, sessionID, chunkID, source, cited)
	if err != nil {
		return api.Passage{}, err
	}
	out := api.Passage{ChunkID: p.Chunk.ID, DocID: p.Doc.ID, Title: p.Doc.Title, File: filepath.Base(p.Doc.Source), Kind: p.Doc.Kind,
		Page: p.Chunk.Page, Unit: p.Doc.Unit, Heading: p.Chunk.Heading, Text: p.Chunk.Text, Seq: p.Chunk.Seq, Chunks: p.Doc.Chunks, Found: string(p.Found)}
	if p.Doc.Kind == knowledge.KindCatalog {
		out.File = ""
	}
	if p.Before != nil {
		// What the chunk repeats of the one before is shown once, in the chunk.
		repeated := len(p.Chunk.Text) - len(kb.WithoutOverlap(*p.Before, *p.Chunk))
		out.Before = p.Before.Text[:len(p.Before.Text)-repeated]
	}
	if p.After != nil {
		out.After = kb.WithoutOverlap(*p.Chunk, *p.After)
	}
	return out, nil
}

// Span reads a document from its chunk numbered from, count chunks (at
// most knowledge.MaxSpan): the reader pages through a document of any size
// this way, a few dozen kilobytes at a time. sessionID is as in Passage.
func (k *KnowledgeService) Span(sessionID, docID string, from, count int) (api.DocumentSpan, error) {
	kb, err := k.app.library.base(k.app.ctx)
	if err != nil {
		return api.DocumentSpan{}, err
	}
	s, err := kb.Span(k.app.ctx, sessionID, docID, from, count)
	if err != nil {
		return api.DocumentSpan{}, err
	}
	out := api.DocumentSpan{DocID: s.Doc.ID, From: s.From, Total: s.Doc.Chunks, Parts: make([]api.SpanPart, len(s.Chunks))}
	for i, c := range s.Chunks {
		out.Parts[i] = api.SpanPart{Seq: c.Seq, Page: c.Page, Heading: c.Heading, Text: c.Text}
	}
	return out, nil
}

// Catalog lists the built-in catalog, optionally one category.
func (k *KnowledgeService) Catalog(category string) ([]api.CatalogEntry, error) {
	if category != "" && !isCatalogCategory(category) {
		return nil, api.NewError(api.ErrUnknownCategory, fmt.Sprintf("Unknown category %q.", category), "Choose a category from the list.").With("category", category)
	}
	return k.app.library.catalogEntries(category), nil
}

// Categories lists the catalog's categories in display order.
func (k *KnowledgeService) Categories() ([]string, error) {
	var out []string
	for _, c := range catalog.Categories() {
		out = append(out, string(c))
	}
	return out, nil
}

// pdfCacheDir is where PDFium's compiled code is kept: the OS cache folder,
// shared by every data folder (compiling takes seconds, loading a fraction),
// else the data folder.
func pdfCacheDir(dataDir string) string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "wayfinder", "pdfium")
	}
	return filepath.Join(dataDir, "cache", "pdfium")
}

// isCatalogCategory reports whether name is a catalog category.
func isCatalogCategory(name string) bool {
	for _, c := range catalog.Categories() {
		if strings.EqualFold(string(c), name) {
			return true
		}
	}
	return false
}
