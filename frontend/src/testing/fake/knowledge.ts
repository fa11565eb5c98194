// FakeKnowledge adds the KnowledgeService: the library's documents, imports
// with their progress, a conversation's attached files (so it sits on top of
// the chat's sessions), search and passages, the tool catalog.
import type { CatalogEntry, DocumentSpan, ImportProgress, KBDocument, LibraryFile, SearchHit, Passage, Session } from "../../api/gotypes.gen";
import { ApiError } from "../../api/errors";
import { CATALOG } from "./catalog";
import { FakeChat } from "./chat";

export class FakeKnowledge extends FakeChat {
  docs: KBDocument[] = [];
  /** uploads by name, for duplicates and replacements as the backend tells them */
  uploads: Array<{ name: string; content: string }> = [];
  /**
   * held: imports of a file whose name starts with "slow" stop at their
   * embedding, as with a hung model, until CancelImport stops them (by id):
   * then, as the backend, the file is in (found by its words) and only its
   * embedding stops. Another file added meanwhile hands their embedding on
   * to the background (embed_handed_on), as the backend does.
   */
  held: Record<string, (why: "stopped" | "handedOn") => void> = {};

  "KnowledgeService.CancelImport"(id: string): void {
    if (!id.trim()) throw new ApiError({ code: "invalid_input", message: "Say which import to stop." });
    const stop = this.held[id];
    delete this.held[id];
    stop?.("stopped");
    const stopIndexing = this.heldIndexing[id];
    delete this.heldIndexing[id];
    stopIndexing?.();
  }
  /** heldIndexing: attached files held while their words are indexed ("words…"), until CancelImport. */
  heldIndexing: Record<string, () => void> = {};
  /** handOn ends the held imports' embedding, as a file added behind them does. */
  private handOn(): void {
    for (const [id, end] of Object.entries(this.held)) {
      delete this.held[id];
      end("handedOn");
    }
  }
  /**
   * hold stops an import's steps at its first embedding step when its file is a slow one; true when it did.
   * finish ends the import as its last step would.
   */
  private hold(id: string, name: string, step: ImportProgress, finish: () => void): boolean {
    if (!/^slow/i.test(name) || step.stage !== "embedding") return false;
    this.held[id] = (why) => {
      this.emit("knowledge.import", { ...step, stage: "done", ...(why === "stopped" ? { embed_stopped: true } : { embed_handed_on: true }) });
      finish();
    };
    return true;
  }

  "KnowledgeService.Documents"(): KBDocument[] {
    return structuredClone(this.docs);
  }
  "KnowledgeService.Upload"(name: string, contentBase64: string): string {
    // As the backend: a duplicate is found before it joins the queue, so it hands no embedding on.
    if (!contentBase64 || !this.uploads.some((u) => u.content === contentBase64)) this.handOn();
    const id = this.id("imp");
    const size = Math.floor((contentBase64.length * 3) / 4);
    // As the backend: a PDF has pages, a presentation slides (4 of either here).
    const deck = /\.pptx$/i.test(name);
    const pdf = /\.pdf$/i.test(name) || deck;
    const unit = deck ? "slide" : "page";
    const p = (stage: string, extra: Partial<ImportProgress> = {}): ImportProgress => ({ import_id: id, file: name, stage, pages: pdf ? 4 : 0, unit, chunks: 0, embedded: 0, file_index: 0, files_total: 1, ...extra });
    const report = { import_id: id, imported: [] as string[], skipped: [], failed: [], warnings: [], replaced: [] as string[], duplicates: [] as { file: string; error: string }[], documents: 0, chunks: 0, pages: 0 };
    // As the backend: the same content is one document, the same name replaces.
    const same = contentBase64 ? this.uploads.find((u) => u.content === contentBase64) : undefined;
    const earlier = this.uploads.find((u) => u.name === name);
    // As the backend: it may wait its turn behind a file being read (waitsFor).
    const waits = this.waitsFor.map((f) => p("waiting", { waiting_for: f }));
    this.waitsFor = [];
    let steps: ImportProgress[];
    if (same) {
      waits.length = 0;
      // As the backend: found before it takes a turn, so it neither waits nor reads.
      steps = [p("duplicate", { duplicate_of: same.name })];
      report.duplicates.push({ file: name, error: same.name });
    } else {
      const warnings = /\.txt$/i.test(name) ? ["2 invalid characters replaced with \uFFFD (lines 3, 7)"] : undefined;
      const warning_reasons = warnings ? [{ code: "replaced", count: 2, lines: "3, 7" }] : undefined;
      steps = [p("reading"), p("chunking", { chunks: 12 }), p("embedding", { chunks: 12, embedded: 6 }), p("embedding", { chunks: 12, embedded: 12 }), p("done", { chunks: 12, embedded: 12, replaced: !!earlier, warnings, warning_reasons })];
      Object.assign(report, { imported: [name], documents: 1, chunks: 12, pages: pdf ? 4 : 0 });
      if (earlier) {
        report.replaced.push(name);
        this.docs = this.docs.filter((d) => d.source !== name);
        earlier.content = contentBase64;
      } else {
        this.uploads.push({ name, content: contentBase64 });
      }
    }
    steps = [...waits, ...steps];
    let i = 0;
    let added = false;
    // As the backend: a file is swapped in, listed and found by its words, before it is embedded.
    const add = () => {
      if (same || added) return;
      added = true;
      const now = new Date().toISOString();
      this.docs.push({ id: this.id("doc"), title: name, source: name, kind: deck ? "pptx" : pdf ? "pdf" : "markdown", size, pages: pdf ? 4 : 0, unit, chunks: 12, created_at: now, updated_at: now });
    };
    const tick = () => {
      const step = steps[i++];
      if (!step) {
        add();
        this.emit("knowledge.import_done", report);
        return;
      }
      if (step.stage === "embedding") add();
      this.emit("knowledge.import", step);
      if (step.stage === "waiting") {
        this.paused.push(() => setTimeout(tick, 0));
        return;
      }
      if (this.hold(id, name, step, () => ((i = steps.length), tick()))) {
        // As the backend: the person's Stop while it embeds pauses the
        // passages not embedded yet (until ResumeEmbedding).
        const stop = this.held[id]!;
        this.held[id] = (why) => {
          const d = this.docs.find((x) => x.source === name);
          if (d && why === "stopped") Object.assign(d, { pending: 6, embed_paused: true });
          stop(why);
          if (d && why === "stopped") this.emit("knowledge.embed_pause", { source: name, paused: true });
        };
        return;
      }
      setTimeout(tick, this.opts.stepDelayMs ?? 0);
    };
    setTimeout(tick, 0);
    return id;
  }
  /**
   * waitsFor, when set, makes the next Attach wait its turn first, as the
   * backend's does behind an import being read: one "waiting" event naming
   * each file in turn (waiting_for), each held until goOn.
   */
  waitsFor: string[] = [];
  private paused: Array<() => void> = [];
  /** goOn lets a waiting attachment go on to its next step. */
  goOn(): void {
    this.paused.shift()?.();
  }
  /** attached: each conversation's own files, as the backend keeps them apart from docs. */
  attached: Record<string, KBDocument[]> = {};
  "KnowledgeService.Attach"(sid: string, name: string, contentBase64: string): string {
    if (!this.sessions.some((s) => s.id === sid)) throw new ApiError({ code: "not_found", message: "That item no longer exists." });
    this.handOn();
    const id = this.id("imp");
    const p = (stage: string, extra: Partial<ImportProgress> = {}): ImportProgress => ({ import_id: id, file: name, stage, pages: 0, chunks: 0, embedded: 0, file_index: 1, files_total: 1, conversation: sid, ...extra });
    const bad = !/\.(pdf|md|markdown|txt|text|json|jsonl)$/i.test(name);
    // A file whose name starts with "hung" meets an embedding model that
    // does not answer in time, with an earlier file of the queue: it is
    // left to the background at once, found by its words (embed_later).
    const hung = /^hung/i.test(name);
    // A file whose name starts with "words" is large: it stops while its
    // words are indexed (stage "indexing") until CancelImport, which ends
    // it as the backend does: nothing of it is kept.
    const words = /^words/i.test(name);
    const waits = this.waitsFor.map((f) => p("waiting", { waiting_for: f }));
    this.waitsFor = [];
    const steps = [...waits, ...(bad
      ? [p("reading"), p("failed", { error: "this kind of file is not supported", reason: { code: "unsupported" } })]
      : words
        ? [p("reading"), p("chunking", { chunks: 34796 }), p("indexing", { chunks: 34796, indexed: 8000 })]
        : hung
        ? [p("reading"), p("chunking", { chunks: 4 }), p("done", { chunks: 4, embedded: 0, embed_later: true })]
        : [p("reading"), p("chunking", { chunks: 4 }), p("embedding", { chunks: 4, embedded: 2 }), p("done", { chunks: 4, embedded: 4 })])];
    let i = 0;
    let added = false;
    // As the backend: Add to library waits for a new version being read to be in.
    const source = `/data/uploads/.conversations/${sid}/${name}`;
    let isIn = () => {};
    if (!bad) this.incoming[source] = new Promise<void>((r) => (isIn = r));
    // As the backend: a file is in (listed, its copy in the conversation's
    // folder, which names the conversation) once it is swapped in, before
    // its embedding; the list is told then and at the end.
    const add = () => {
      if (bad || added) return;
      added = true;
      const now = new Date().toISOString();
      // Its passages wait in the vector index's pending list (embed_pending) until embedLaterDone.
      // A new version replaces the file of its name.
      this.attached[sid] = (this.attached[sid] ?? []).filter((d) => d.source !== source);
      this.attached[sid].push({ id: this.id("doc"), title: name, source, kind: "markdown", size: contentBase64.length, pages: 0, chunks: 4, created_at: now, updated_at: now, ...(hung ? { embed_pending: true } : {}) });
      delete this.incoming[source];
      isIn();
    };
    const tick = () => {
      const step = steps[i++];
      if (!step) {
        add();
        if (!bad) this.emit("chat.sessions", { session_id: sid });
        this.emit("knowledge.import_done", { import_id: id, conversation: sid, imported: bad ? [] : [name], skipped: [], failed: bad ? [{ file: name, error: "this kind of file is not supported", reason: { code: "unsupported" } }] : [], warnings: [], replaced: [], duplicates: [], ignored: [], documents: bad ? 0 : 1, chunks: bad ? 0 : 4, pages: 0 });
        return;
      }
      const ready = step.stage === "embedding" && !added;
      if (ready) add();
      this.emit("knowledge.import", step);
      if (step.stage === "indexing") {
        this.heldIndexing[id] = () => {
          this.emit("knowledge.import", { ...step, stage: "stopped", chunks: 0, indexed: 0 });
          this.emit("knowledge.import_done", { import_id: id, conversation: sid, imported: [], skipped: [], failed: [], warnings: [], replaced: [], duplicates: [], ignored: [], stopped: [name], documents: 0, chunks: 0, pages: 0 });
        };
        return;
      }
      if (step.stage === "waiting") {
        this.paused.push(() => setTimeout(tick, 0));
        return;
      }
      if (ready) this.emit("chat.sessions", { session_id: sid });
      if (this.hold(id, name, step, () => ((i = steps.length), tick()))) {
        // As the backend: a stop while it embeds keeps the file, its
        // passages not embedded yet pending in the background embedding.
        const stop = this.held[id]!;
        const source = `/data/uploads/.conversations/${sid}/${name}`;
        this.heldSources[id] = source;
        this.held[id] = (why) => {
          delete this.heldSources[id];
          const d = this.attached[sid]?.find((x) => x.source === source);
          // The person's Stop pauses it (until ResumeEmbedding); a hand-on does not.
          if (d) Object.assign(d, { embed_pending: true, pending: 2 }, why === "stopped" && !this.unpaused ? { embed_paused: true } : {});
          stop(why);
          if (d?.embed_paused) this.emit("knowledge.embed_pause", { source, paused: true });
        };
        return;
      }
      setTimeout(tick, this.opts.stepDelayMs ?? 0);
    };
    setTimeout(tick, 0);
    return id;
  }
  /**
   * embedLaterDone is the vector index's worker catching up: every attached
   * file whose embedding was left to the background is embedded now, and
   * the windows are told (knowledge.embedded), as the backend does.
   */
  embedLaterDone(): void {
    const sources: string[] = [];
    const conversations: string[] = [];
    // The library's files (added from a chat while their meaning was indexed) too.
    // A paused file's passages wait for ResumeEmbedding, as the backend's.
    for (const d of this.docs) {
      if (!d.pending || d.embed_paused) continue;
      delete d.pending;
      sources.push(d.source);
    }
    for (const [sid, docs] of Object.entries(this.attached)) {
      for (const d of docs) {
        if (!d.embed_pending || d.embed_paused) continue;
        delete d.embed_pending;
        delete d.pending;
        sources.push(d.source);
        if (!conversations.includes(sid)) conversations.push(sid);
      }
    }
    if (sources.length) this.emit("knowledge.embedded", { sources, conversations });
  }
  /** ListSessions: a conversation no message has titled comes with its files' names, and is found by them, as the backend's. */
  override "ChatService.ListSessions"(query: string): Session[] {
    const q = query.toLowerCase();
    const named = this.sessions.map((s) => {
      const files = !s.title && !s.message_count ? (this.attached[s.id] ?? []).map((d) => d.source.split("/").pop()!) : [];
      return files.length ? { ...s, files } : s;
    });
    const found = new Set(super["ChatService.ListSessions"](query).map((s) => s.id));
    return named.filter((s) => found.has(s.id) || (!!q && !!s.files?.some((f) => f.toLowerCase().includes(q)))).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  }
  /** unpaused: a Stop does not pause (the backend before pausing, or AddToLibrary's stop) */
  unpaused = false;
  /** ResumeEmbedding, as the backend: the file's paused passages are embedded from now (embedLaterDone). */
  "KnowledgeService.ResumeEmbedding"(source: string): void {
    if (!source.trim()) throw new ApiError({ code: "invalid_input", message: "Say which file to index." });
    let was = false;
    for (const d of [...this.docs, ...Object.values(this.attached).flat()]) {
      if (d.source !== source) continue;
      was ||= !!d.embed_paused;
      delete d.embed_paused;
    }
    // Every window is told, as the backend tells them.
    if (was) this.emit("knowledge.embed_pause", { source, paused: false });
  }
  "KnowledgeService.Attached"(sid: string): KBDocument[] {
    return structuredClone(this.attached[sid] ?? []);
  }
  /** incoming: attached files on their way in (by source), until they are in */
  private incoming: Record<string, Promise<void>> = {};
  /** heldSources: the attached file each held import embeds, by import id */
  heldSources: Record<string, string> = {};
  /** libraryGate, when set, holds AddToLibrary's answer until it resolves (its busy state, in a test) */
  libraryGate: Promise<void> | null = null;
  /**
   * AddToLibrary, as the backend: a file still embedding joins the library
   * at once, its import stopped (its embedding goes on in the background,
   * which it says: embed_pending, until embedLaterDone).
   */
  async "KnowledgeService.AddToLibrary"(sid: string, source: string): Promise<LibraryFile> {
    const reading = this.incoming[source];
    if (reading) {
      // A new version is being read: once it is in, it joins the library,
      // its embedding handed on to the background (the backend's Promote
      // waits in the queue, so the new version does not embed in line).
      await reading;
      const d = this.attached[sid]?.find((x) => x.source === source);
      if (d) d.embed_pending = true;
    }
    if (this.libraryGate) await this.libraryGate;
    this.unpaused = true; // its embedding goes on in the library
    for (const [id, s] of Object.entries(this.heldSources)) if (s === source) this["KnowledgeService.CancelImport"](id);
    this.unpaused = false;
    const docs = (this.attached[sid] ?? []).filter((d) => d.source === source);
    const doc = docs[0];
    if (!doc) throw new ApiError({ code: "not_found", message: "It is no longer attached to this conversation." });
    this.attached[sid] = this.attached[sid]!.filter((d) => d.source !== source);
    const to = `/data/uploads/${source.split("/").pop()}`;
    // A file its Stop paused stays paused in the library, with what it had left.
    let n = 0;
    for (const d of docs) {
      const { embed_pending: pending, embed_paused: paused, pending: left, ...rest } = d;
      this.docs.push({ ...rest, source: to, ...(pending ? { pending: left ?? d.chunks } : {}), ...(pending && paused ? { embed_paused: true } : {}) });
      n += pending ? (left ?? d.chunks) : 0;
    }
    const pending = !!doc.embed_pending;
    const paused = pending && !!doc.embed_paused;
    const chunks = docs.reduce((k, d) => k + d.chunks, 0);
    if (paused) this.emit("knowledge.embed_pause", { source: to, paused: true });
    // Kept with the library, as the backend keeps it, for a reloaded window.
    const record = { id: ++this.promotions, sid, source: to, docIDs: docs.map((d) => d.id) };
    this.promoted.push(record);
    const file: LibraryFile = { source: to, id: record.id, doc_ids: [...record.docIDs], ...(pending ? { embed_pending: true } : {}), ...(paused ? { embed_paused: true, pending: n, chunks } : {}) };
    // Every window is told, before this one's answer, as the backend may.
    this.emit("knowledge.added", { session_id: sid, file: { ...file, doc_ids: [...record.docIDs] } });
    return file;
  }
  /** promoted: the files conversations added to the library, as the backend's records */
  promoted: { id: number; sid: string; source: string; docIDs: string[] }[] = [];
  private promotions = 0;
  /** AddedToLibrary, as the backend: each record as the library has its file now. */
  "KnowledgeService.AddedToLibrary"(sid: string): LibraryFile[] {
    return this.promoted
      .filter((p) => p.sid === sid)
      .map((p) => {
        const mine = this.docs.filter((d) => d.source === p.source);
        let ids = p.docIDs;
        if (mine.length && !ids.some((id) => mine.some((d) => d.id === id))) ids = mine.map((d) => d.id); // read again since
        const left = mine.filter((d) => ids.includes(d.id));
        const pending = left.reduce((k, d) => k + (d.pending ?? 0), 0);
        const paused = pending > 0 && left.some((d) => d.embed_paused);
        const removed = ids.filter((id) => !left.some((d) => d.id === id));
        return { id: p.id, source: p.source, doc_ids: [...ids], chunks: left.reduce((k, d) => k + d.chunks, 0), ...(pending ? { embed_pending: true, pending } : {}), ...(paused ? { embed_paused: true } : {}), ...(removed.length ? { removed } : {}) };
      });
  }
  /** DismissAdded, as the backend: the conversation's record goes; the file stays. */
  "KnowledgeService.DismissAdded"(sid: string, id: number): void {
    this.promoted = this.promoted.filter((p) => !(p.sid === sid && p.id === id));
  }
  /**
   * restart, as a backend started again while the window stays: every
   * pause ends (it lives in memory), and the event stream comes back.
   */
  restart(): void {
    for (const d of [...this.docs, ...Object.values(this.attached).flat()]) delete d.embed_paused;
    this.emit("transport.reconnected", null);
  }
  /** RemoveAttached, as the backend: a file still embedding goes at once, its import stopped. */
  "KnowledgeService.RemoveAttached"(sid: string, source: string): void {
    for (const [id, s] of Object.entries(this.heldSources)) if (s === source) this["KnowledgeService.CancelImport"](id);
    const doc = (this.attached[sid] ?? []).find((d) => d.source === source);
    if (!doc) throw new ApiError({ code: "not_found", message: "It is no longer attached to this conversation." });
    this.attached[sid] = this.attached[sid]!.filter((d) => d.source !== source);
    this.emit("chat.sessions", { session_id: sid });
    this.emit("knowledge.removed", { doc_ids: [], sources: [source], conversation: sid });
  }
  "KnowledgeService.Import"(paths: string[]): string {
    return this["KnowledgeService.Upload"](paths[0] ?? "file.md", "");
  }
  "KnowledgeService.ChooseFiles"(): string[] {
    return ["/home/you/정책.pdf"];
  }
  /** chosenAttachments are what the native dialog of the 📎 returns (desktop); none is a cancelled dialog. */
  chosenAttachments: string[] = ["/home/you/출장규정.md"];
  "KnowledgeService.ChooseAttachments"(): string[] {
    return this.chosenAttachments;
  }
  /** AttachPath, as the backend: the file read by its path, attached as Attach does its content (no upload bound). */
  "KnowledgeService.AttachPath"(sid: string, path: string): string {
    return this["KnowledgeService.Attach"](sid, path.split("/").pop() ?? path, "");
  }
  "KnowledgeService.ChooseFolder"(): string {
    return "/home/you/notes";
  }
  /**
   * Remove, as the backend: a paused file removed ends its pause, and the
   * windows are told it was removed; every removal is told (knowledge.removed),
   * naming the file once none of its documents is left.
   */
  "KnowledgeService.Remove"(id: string): void {
    const gone = this.docs.find((d) => d.id === id);
    this.docs = this.docs.filter((d) => d.id !== id);
    const last = !!gone && !this.docs.some((d) => d.source === gone.source);
    if (gone?.embed_paused && last) {
      this.emit("knowledge.embed_pause", { source: gone.source, paused: false, removed: true });
    }
    this.emit("knowledge.removed", { doc_ids: [id], sources: last ? [gone!.source] : [] });
  }
  "KnowledgeService.Search"(query: string, topK: number): SearchHit[] {
    const q = query.toLowerCase();
    const hits: SearchHit[] = [];
    for (const d of this.docs) {
      const file = d.source.split(/[\\/]/).pop();
      const record_id = d.kind === "json" ? "r-1024" : undefined;
      hits.push({ id: `${d.id}:1`, doc_id: d.id, record_id, file, title: d.title, source: d.source, kind: d.kind, page: d.pages ? 2 : undefined, unit: d.unit, heading: "연차 휴가", score: 0.82, words: true, meaning: true, text: "연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>", snippet: "연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>" });
    }
    for (const e of CATALOG) {
      if (`${e.name} ${e.description_en} ${e.description_ko} ${e.categories.join(" ")}`.toLowerCase().includes(q)) {
        hits.push({ id: `cat-${e.id}`, doc_id: "catalog", title: e.name, source: "catalog", kind: "catalog", url: e.url, score: 0.5, words: false, meaning: true, text: e.description_ko, snippet: `${e.description_en} ${e.description_ko}` });
      }
    }
    return hits.slice(0, topK);
  }
  /** texts: a chunk's text by its id, where a test wants other words than chunkText's. */
  texts: Record<string, string> = {};
  /**
   * chunkText: a document's chunk 1 is the hit of Search; the others are numbered paragraphs. Trimmed, as the
   * backend stores a chunk (chunk.Split).
   */
  private chunkText(docID: string, seq: number): string {
    return (this.texts[`${docID}:${seq}`] ?? (seq === 1 ? "연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>" : `문단 ${seq}: 휴가 규정의 한 부분입니다.`)).trim();
  }
  /** readable: a library document, or one of sid's own files (never another conversation's), as the backend's. */
  private readable(sid: string, docID: string): KBDocument | undefined {
    return this.docs.find((x) => x.id === docID) ?? (sid ? this.attached[sid]?.find((x) => x.id === docID) : undefined);
  }
  /**
   * Passage: a chunk of a library document or of sid's own files; a cited chunk of a document imported again since
   * (another id, the same source) is looked for in the one now by its text, cited, as the backend's PassageNow: the
   * chunk holding that text (or its start, for a snippet cut with "…"), else the one holding at least half of its
   * terms (counted alike: the backend weighs a rare word over a common one), else the one at its place ("gone").
   */
  "KnowledgeService.Passage"(sid: string, chunkID: string, source: string, cited = ""): Passage {
    let [id, n] = [chunkID.slice(0, chunkID.lastIndexOf(":")), Number(chunkID.slice(chunkID.lastIndexOf(":") + 1))];
    let d = this.readable(sid, id);
    let found = "";
    if (!d && source && n >= 0) {
      d = [...this.docs, ...(this.attached[sid] ?? [])].find((x) => x.source === source && x.chunks > 0);
      if (d) [n, found] = this.locate(d, n, cited);
    }
    if (!d || !(n >= 0 && n < d.chunks)) throw new ApiError({ code: "document_not_found", message: "That document is no longer in the knowledge base." });
    const file = d.source.split(/[\\/]/).pop();
    return { chunk_id: `${d.id}:${n}`, doc_id: d.id, title: d.title, file, kind: d.kind, unit: d.unit, heading: "연차 휴가", before: "휴가 규정의 앞부분입니다. ", text: this.chunkText(d.id, n), after: " 병가는 따로 정합니다.", seq: n, chunks: d.chunks, ...(found ? { found } : {}) };
  }
  /** locate: where the backend's locate finds cited in d now, and how ("text", "similar", "gone"); ties to the nearest seq. */
  private locate(d: KBDocument, seq: number, cited: string): [number, string] {
    const norm = (s: string) => s.normalize("NFC").replace(/\s+/g, " ").trim();
    let want = norm(cited);
    if (want.endsWith("…")) want = want.slice(0, -1).trimEnd();
    const place = Math.min(seq, d.chunks - 1);
    if (!want) return [place, "gone"];
    const need = terms(want);
    let exact = -1, similar = -1, share = 0;
    const nearer = (s: number, than: number) => than < 0 || Math.abs(s - seq) < Math.abs(than - seq);
    for (let s = 0; s < d.chunks; s++) {
      const got = norm(this.chunkText(d.id, s));
      if (got.includes(want)) {
        if (nearer(s, exact)) exact = s;
        continue;
      }
      const has = terms(got);
      const f = [...need].filter((t) => has.has(t)).length / need.size;
      if (f > share || (f === share && nearer(s, similar))) [similar, share] = [s, f];
    }
    if (exact >= 0) return [exact, "text"];
    return similar >= 0 && share >= 0.5 ? [similar, "similar"] : [place, "gone"];
  }
  /** Span: numbered paragraphs around chunkText's, a page per 10. */
  "KnowledgeService.Span"(sid: string, docID: string, from: number, count: number): DocumentSpan {
    const d = this.readable(sid, docID);
    if (!d) throw new ApiError({ code: "document_not_found", message: "That document is no longer in the knowledge base." });
    const parts = [];
    for (let seq = Math.max(0, from); seq < Math.min(from + Math.min(count, 64), d.chunks); seq++) {
      // As the backend's Span: a chunk after one of its own section (the same page and heading) is without the
      // words it repeats of that one, which leaves the space before the rest; a section's first starts bare.
      const text = (seq % 10 === 0 ? "" : " ") + this.chunkText(d.id, seq);
      parts.push({ seq, page: Math.floor(seq / 10) + 1, heading: seq < 20 ? "연차 휴가" : "병가", text });
    }
    return { doc_id: d.id, from: Math.max(0, from), total: d.chunks, parts };
  }
  "KnowledgeService.Categories"(): string[] {
    return [...new Set(CATALOG.flatMap((e) => e.categories))].sort();
  }
  "KnowledgeService.Catalog"(category: string): CatalogEntry[] {
    return CATALOG.filter((e) => !category || e.categories.includes(category));
  }
}

/** terms: as the backend's eachTerm, words lower-cased and Hangul, Han and kana in pairs of syllables. */
function terms(s: string): Set<string> {
  const out = new Set<string>();
  const syll = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
  const pieces = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|(?:(?![\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{Mn}])+/gu;
  for (const piece of s.toLowerCase().match(pieces) ?? []) {
    const chars = [...piece];
    if (!syll.test(chars[0]!) || chars.length < 2) out.add(piece);
    else for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  }
  return out;
}
