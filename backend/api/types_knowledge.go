// The knowledge base: documents, search hits and passages, imports, the tool catalog.

package api

import "time"

// Passage is a search hit opened in the Knowledge screen's reader: its
// chunk (Text) in its document, with the text just before and after it
// (without what the chunks repeat of each other; "" at the document's ends).
type Passage struct {
	ChunkID string `json:"chunk_id"`
	DocID   string `json:"doc_id"`
	Title   string `json:"title"`
	File    string `json:"file,omitempty"`
	Kind    string `json:"kind"`
	Page    int    `json:"page,omitempty"`
	// Unit is what Page counts: "page", or "slide" for a presentation.
	Unit    string `json:"unit,omitempty"`
	Heading string `json:"heading,omitempty"`
	Before  string `json:"before"`
	Text    string `json:"text"`
	After   string `json:"after"`
	// Seq is the chunk's place in its document (from 0) and Chunks how many
	// the document has, for the reader to page through it (Span).
	Seq    int `json:"seq"`
	Chunks int `json:"chunks"`
	// Found says how a cited chunk whose document was imported again since
	// was found in the document now: "" (the cited chunk itself, the
	// document as it was), "text" (the cited text, maybe elsewhere),
	// "similar" (the chunk sharing most of its words: the text changed) or
	// "gone" (nothing like it any more: the chunk at the cited place).
	Found string `json:"found,omitempty"`
}

// DocumentSpan is a run of a document's text for the reader paging
// through it: the chunks From, From+1, ... of Total.
type DocumentSpan struct {
	DocID string     `json:"doc_id"`
	From  int        `json:"from"`
	Total int        `json:"total"`
	Parts []SpanPart `json:"parts"`
}

// SpanPart is one chunk of a DocumentSpan. Text is without what the chunk
// repeats of the one before it, so parts in a row read as the document.
type SpanPart struct {
	Seq     int    `json:"seq"`
	Page    int    `json:"page,omitempty"`
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
}

// KBDocument is an imported document in the knowledge list.
type KBDocument struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Source    string    `json:"source"`
	Kind      string    `json:"kind"`
	Size      int64     `json:"size"`
	Pages     int       `json:"pages"`
	Unit      string    `json:"unit,omitempty"` // what Pages counts: "page", or "slide" for a presentation
	Chunks    int       `json:"chunks"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// EmbedPending: passages of the file wait for their embedding in the
	// background (the vector index's pending list): it is found by its
	// words now and by its meaning once that is done (EventEmbedded).
	// Set by a conversation's attachments (Attached).
	EmbedPending bool `json:"embed_pending,omitempty"`
	// Pending is how many of the document's Chunks (passages) wait for
	// their embedding in the background: it is found by its words, and
	// by its meaning once none does (EventEmbeddingProgress counts them
	// down). Set by the library's list (Documents) and Attached.
	Pending int `json:"pending,omitempty"`
	// EmbedPaused: the person stopped the file's embedding, and its
	// Pending passages wait until ResumeEmbedding (or the next start of
	// Wayfinder) instead of being embedded in the background.
	EmbedPaused bool `json:"embed_paused,omitempty"`
}

// LibraryFile is a conversation's file added to the library
// (AddToLibrary): where it is kept now, and whether its meaning is still
// being indexed in the background there (its passages pending in the
// vector index, as KBDocument.EmbedPending), so that the window says so
// and then, at EventEmbedded naming Source, that it is done.
type LibraryFile struct {
	Source       string `json:"source"`
	EmbedPending bool   `json:"embed_pending,omitempty"`
	// EmbedPaused: the person stopped its embedding in the chat, and the
	// pause goes with it to the library: its Pending passages of Chunks
	// wait for ResumeEmbedding(Source), as KBDocument.EmbedPaused.
	EmbedPaused bool `json:"embed_paused,omitempty"`
	Pending     int  `json:"pending,omitempty"`
	Chunks      int  `json:"chunks,omitempty"`
	// ID is the conversation's record of the addition, kept with the
	// library, so that its row comes back after a reload or a restart
	// (AddedToLibrary) until the person dismisses it (DismissAdded).
	ID int64 `json:"id,omitempty"`
	// DocIDs are the documents the file became (a file of records or an
	// archive is several); Removed are those of them removed from the
	// library since, on the Knowledge screen one by one: all of them, and
	// the file is gone from the library. A file read again there since is
	// the documents it is now.
	DocIDs  []string `json:"doc_ids"`
	Removed []string `json:"removed,omitempty"`
}

// SearchHit is one passage retrieval returned, as the knowledge search box
// and `wayfinder kb search --json` show it.
type SearchHit struct {
	ID    string `json:"id"`     // the chunk: "<doc_id>:<seq>"
	DocID string `json:"doc_id"` // the document (Documents lists it)
	// RecordID is the record's own id in its file (JSON `_id`/`id`), so a
	// script can map a hit back to its data; "" when the file has none.
	RecordID string `json:"record_id,omitempty"`
	// File is the file's name (Source is its full path); "" for the
	// built-in catalog.
	File    string  `json:"file,omitempty"`
	Title   string  `json:"title"`
	Source  string  `json:"source"`
	Kind    string  `json:"kind"`
	Page    int     `json:"page,omitempty"`
	Unit    string  `json:"unit,omitempty"` // what Page counts: "page", or "slide" for a presentation
	Heading string  `json:"heading,omitempty"`
	URL     string  `json:"url,omitempty"`
	Score   float64 `json:"score"`
	Text    string  `json:"text"`
	Snippet string  `json:"snippet"`
	Words   bool    `json:"words"`   // found by shared words
	Meaning bool    `json:"meaning"` // found by a similar meaning (vectors)
	// Copies are the other documents the hit stands for, the first added
	// first: the same file under another name or in another folder (or
	// the same record of such a copy), whose passage is shown once, here.
	Copies []SearchCopy `json:"copies,omitempty"`
}

// SearchCopy is another place a search hit's file is kept: the same bytes
// as the hit's, imported under another name or from another folder.
type SearchCopy struct {
	DocID  string `json:"doc_id"` // the document (Documents lists it)
	File   string `json:"file"`   // its file's name
	Source string `json:"source"` // its file's full path
}

// ImportProgress reports one file of an import.
type ImportProgress struct {
	ImportID string `json:"import_id"`
	File     string `json:"file"`
	Stage    string `json:"stage"` // waiting, reading, chunking, indexing, embedding, done, skipped, duplicate, failed, stopped (CancelImport: nothing of the file was added)
	Pages    int    `json:"pages"`
	Unit     string `json:"unit,omitempty"` // what Pages counts: "page" or "slide"
	Chunks   int    `json:"chunks"`
	Indexed  int    `json:"indexed,omitempty"` // in stage "indexing": how many of Chunks have their words indexed for keyword search
	Embedded int    `json:"embedded"`
	Error    string `json:"error,omitempty"`
	// Reason is Error in parts, when the window can word it.
	Reason     *FileReason `json:"reason,omitempty"`
	FileIndex  int         `json:"file_index"`
	FilesTotal int         `json:"files_total"`
	// Warnings say what was imported but not as it was (invalid bytes
	// replaced, with their lines); WarningReasons are the same in parts
	// (one for each; an empty Code where the window has no words of its
	// own).
	Warnings       []string     `json:"warnings,omitempty"`
	WarningReasons []FileReason `json:"warning_reasons,omitempty"`
	// Replaced: an upload took the place of an earlier one of its name.
	Replaced bool `json:"replaced,omitempty"`
	// DuplicateOf names the document that already has the content of an
	// upload in stage "duplicate" (which was not stored again).
	DuplicateOf string `json:"duplicate_of,omitempty"`
	// EmbedError says why Embedded is short of Chunks (Ollama unreachable,
	// the embedding model missing): keyword search finds those chunks, and
	// they are embedded once the model answers.
	EmbedError *ErrorInfo `json:"embed_error,omitempty"`
	// EmbedStopped: the import was stopped while the file embedded. The
	// file is in and found by its words; its passages not embedded yet
	// are the vector index's background embedding's (Reindex's at the
	// next start where none runs, as after `wayfinder kb add`).
	EmbedStopped bool `json:"embed_stopped,omitempty"`
	// EmbedLater: Ollama did not answer an embedding of this import (or of
	// one queued with it) in time, so the file was not embedded now. It is
	// in and found by its words; its chunks are embedded in the
	// background. Every file of the queue says it; say it once.
	EmbedLater bool `json:"embed_later,omitempty"`
	// EmbedHandedOn: another file was added while this one embedded, so
	// its embedding went on in the background and the next file was read
	// at once (a person attaching two files asks about both without
	// waiting for the first's embedding). It is in and found by its words.
	EmbedHandedOn bool `json:"embed_handed_on,omitempty"`
	// Waiting: the file's embedding waits before its next batch while the
	// person's chat turn runs, so that the answer has Ollama to itself;
	// it goes on (an event with Waiting false) when the turn ends.
	Waiting bool `json:"waiting,omitempty"`
	// WaitingFor names, in stage "waiting", the file (its name) the import
	// holding the library reads now, which this one waits for; a later
	// event names the next as that import goes on. "" while what holds
	// the library is no file being read (a removal).
	WaitingFor string `json:"waiting_for,omitempty"`
	// Conversation is the conversation a file is attached to
	// (KnowledgeService.Attach); "" for the library's imports.
	Conversation string `json:"conversation,omitempty"`
}

// FileReason says why a file was not imported, or what was not imported as
// it was, in parts the window words in the person's language (Error keeps
// the English sentence). Code is pdf_limit (with Limit: memory, open_time,
// page_time, pages, page_chars, text_bytes; Page when one page crossed it;
// Max the limit: "384 MB", a count, or seconds for the times),
// pdf_encrypted, pdf_no_text, pdf_damaged; office_damaged,
// office_encrypted (a password, an EPUB's DRM, an HWP file's DRM),
// office_limit (a Word, PowerPoint, Excel, HWP, HWPX, OpenDocument or
// EPUB file that unpacks past Max MB of XML or records, or past its limits
// of parts, records and nesting);
// legacy_doc, legacy_hwp, legacy_ppt, legacy_xls (an old binary format:
// .doc, HWP 3, .ppt, .xls; save it as .docx, .hwpx, .pptx, .xlsx);
// html_limit (a web page with one tag or run of text over Max MB);
// unsupported (not a kind Wayfinder reads), empty (no text), binary (binary data, the first junk
// on Line), encoding (invalid sequences of an unknown encoding, from
// Line), json_invalid (broken at Line), json_unfinished (the record that
// begins on Line never ends), json_too_deep (the record from Line nests
// deeper than Max levels), json_record_too_large (a record
// from Line over Max MB), json_too_many_values (a record from Line of so
// many values that parsed it would take over Max MB), json_text_too_large (a
// record from Line whose text written out as "key: value" lines would pass Max MB), too_slow (reading took more than Max seconds),
// too_large (the file is over Max MB), too_many_chunks (the file would
// add more than Max chunks), too_many_words (the file's passages hold
// more than Max different words), not_regular (a device, pipe or
// socket, not a file), changed (written to or cut short while it was
// read), not_found (no such file, or a link to nothing), unreadable (no
// permission, or links that loop), path_too_long (a path longer than the
// system opens); for an entry of a folder that was not read
// (ImportReport.LeftOut), link_outside (a link out of the folder chosen,
// not followed), link_inside (a link to Target in the same folder, which
// is imported where it is, once), link_hidden (a link to Target, a hidden
// file or folder), link_loop (a link that leads back to itself),
// link_broken (a link to Target, which does not exist), not_regular;
// and, for a warning, replaced (Count invalid characters replaced with
// U+FFFD on Lines, "3, 7"; More when on later lines too);
// broken_off_paragraph, broken_off_sheet, broken_off_slide,
// broken_off_row (a body of one part that breaks: Count of them read
// whole and imported, the last one's name or beginning in Lines);
// index_lost_sheet, index_lost_chapter (an index of parts missing or
// useless, Lines naming it: Count parts read from the archive);
// records_too_large (Count JSON Lines records over Max MB left out, on
// Lines; More when on later lines too); records_too_many_values (as
// records_too_large, of records over Max MB parsed); records_text_too_large
// (as records_too_large, of records whose text written out is over Max MB); archive_salvaged (a ZIP-based
// file cut short or without its directory: Count parts read from their
// own headers, the last, Lines, up to the cut when it is cut);
// repeated_chapter, repeated_slide, repeated_section, repeated_sheet,
// repeated_part (an index naming a part more than once: each read once,
// the Count repeats left out, the parts named again in Lines; More when
// there were more); repeated_slide_stopped, repeated_sheet_stopped (as
// repeated_slide, repeated_sheet, and past Count repeats the file was
// read no further);
// cut_in_chapter (a book cut short inside the chapter Lines, which others
// follow: its first Count paragraphs imported, and the chapters after it);
// long_token_chapter (a book's chapter Lines holding Target, a <script>,
// <style>, tag or data: URI, over Max MB: it is left out, the rest read);
// long_text_chapter (as long_token_chapter, of a run of text: past its
// first Max MB left out); partly_chapter (the chapter Lines could not be
// read to its end, what was read of it before imported).
type FileReason struct {
	Code  string `json:"code"`
	Limit string `json:"limit,omitempty"`
	Page  int    `json:"page,omitempty"`
	Max   string `json:"max,omitempty"`
	Line  int64  `json:"line,omitempty"`
	Count int64  `json:"count,omitempty"`
	Lines string `json:"lines,omitempty"`
	More  bool   `json:"more,omitempty"`
	// Target is where a link leads (the link_ codes).
	Target string `json:"target,omitempty"`
}

// ImportFailure is a file that could not be imported, and why.
type ImportFailure struct {
	File   string      `json:"file"`
	Error  string      `json:"error"`
	Reason *FileReason `json:"reason,omitempty"`
}

// ImportReport sums up an import when it ends.
type ImportReport struct {
	ImportID string          `json:"import_id"`
	Imported []string        `json:"imported"`
	Skipped  []string        `json:"skipped"`
	Failed   []ImportFailure `json:"failed"`
	Warnings []ImportFailure `json:"warnings"` // imported files, each with one warning
	Replaced []string        `json:"replaced"` // uploads that replaced an earlier one of their name
	// Duplicates are uploads the library had already (Error is the title
	// of the document that has the content).
	Duplicates []ImportFailure `json:"duplicates"`
	// Ignored are files found in the folders that are not of a type
	// Wayfinder imports (importer.Extensions).
	Ignored []string `json:"ignored"`
	// LeftOut are the entries found in the folders that were not read,
	// each with why (Reason: the link_ codes, not_regular): a link out of
	// the folder is not followed, a link inside it is read where it
	// leads, once; a device or pipe is not a file.
	LeftOut []ImportFailure `json:"left_out"`
	// Stopped are the files not added because the import was stopped
	// (KnowledgeService.CancelImport, or the app closing): the one it was
	// on, whose rows and vectors were dropped, and those not started.
	Stopped []string `json:"stopped"`
	// Conversation: as in ImportProgress.
	Conversation string     `json:"conversation,omitempty"`
	Documents    int        `json:"documents"`
	Chunks       int        `json:"chunks"`
	Pages        int        `json:"pages"`
	Error        *ErrorInfo `json:"error,omitempty"` // the whole import stopped
}

// CatalogEntry is a tool of the built-in catalog.
type CatalogEntry struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Categories    []string `json:"categories"`
	Tasks         []string `json:"tasks"`
	DescriptionEN string   `json:"description_en"`
	DescriptionKO string   `json:"description_ko"`
	URL           string   `json:"url"`
	Pricing       string   `json:"pricing"`    // in English
	PricingKO     string   `json:"pricing_ko"` // in Korean
	Platforms     []string `json:"platforms"`
	Languages     []string `json:"languages"`
	LastChecked   string   `json:"last_checked"`
}
