// KnowledgeStore: the person's documents, imports in progress (one progress
// bar per file), retrieval as the agent sees it, and the built-in catalog.
import { parseError, type ErrorInfo } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { CatalogEntry, DocumentSpan, ImportReport, KBDocument, Passage, SearchHit } from "../api/gotypes.gen";
import { toBase64, type KnowledgeApi } from "../api/knowledge";
import type { Transport } from "../api/transport";
import { progressOf, type FileProgress } from "./progress";

/** Larger files are refused in the browser before they are read into memory. */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/** How long the list waits before it reloads for files that just came in, so that a folder's files are one reload. */
const LOAD_SOON_MS = 500;

export interface Upload {
  name: string;
  state: "uploading" | "sent" | "failed";
  error: ErrorInfo | null;
}

export class KnowledgeStore {
  docs = $state<KBDocument[]>([]);
  loading = $state(false);
  error = $state<ErrorInfo | null>(null);
  /** files of running and recent imports, by import id then file. */
  files = $state<Record<string, Record<string, FileProgress>>>({});
  reports = $state<ImportReport[]>([]);
  /** imports the person asked to stop, until they end */
  stopping = $state<Record<string, boolean>>({});
  /** documents whose paused meaning indexing is being resumed (by id), until the backend answers */
  resuming = $state<Record<string, boolean>>({});
  /**
   * files (by source) whose pause this window saw end: resumed here or in
   * another window, or ended by a restart of Wayfinder; their import's row
   * no longer says they wait for a Resume
   */
  unpaused = $state<Record<string, boolean>>({});
  /** Files removed from the library since this window read them in: their import rows say so. */
  removedFiles = $state<Record<string, boolean>>({});
  /**
   * files of stopped imports that had not started, by import id: said in
   * one line rather than a row each (a folder may hold thousands).
   */
  notStarted = $state<Record<string, number>>({});
  uploads = $state<Upload[]>([]);
  /**
   * documents whose meaning this window saw being indexed in the
   * background and then done (by id): their row says they are found by
   * their meaning too, rather than going quiet
   */
  meaningDone = $state<Record<string, boolean>>({});
  /**
   * meaningOff: search by meaning cannot run now (no embedding model set,
   * or it is not installed, or Ollama is away: onboarding's meaningOff, set
   * by App). A document's passages waiting to be embedded then wait for the
   * model, not for a count that moves: its row says so, with no bar.
   */
  meaningOff = $state(false);

  query = $state("");
  hits = $state<SearchHit[]>([]);
  /** hitsQuery is the query the hits answer (its words are marked in them). */
  hitsQuery = $state("");
  searching = $state(false);
  searched = $state(false);
  searchError = $state<ErrorInfo | null>(null);

  categories = $state<string[]>([]);
  category = $state("");
  catalog = $state<CatalogEntry[]>([]);
  catalogError = $state<ErrorInfo | null>(null);

  constructor(private readonly api: KnowledgeApi) {}

  listen(t: Transport): () => void {
    const offs = [
      subscribe(t, Events.Import, (p) => {
        if (p.conversation) return; // a file attached in a chat (chat/attach.svelte.ts)
        const byFile = (this.files[p.import_id] ??= {});
        if (p.stage === "stopped" && !byFile[p.file]) {
          this.notStarted[p.import_id] = (this.notStarted[p.import_id] ?? 0) + 1;
          return;
        }
        const was = byFile[p.file]?.stage;
        byFile[p.file] = progressOf(p);
        // Embedding begins once the file is in (found by its words): list
        // it now rather than minutes later, when a local model is done.
        if (p.stage === "embedding" && was !== "embedding") this.loadSoon();
      }),
      subscribe(t, Events.ImportDone, (r) => {
        if (r.conversation) return;
        delete this.stopping[r.import_id];
        this.reports = [r, ...this.reports.filter((x) => x.import_id !== r.import_id)].slice(0, 5);
        void this.load();
      }),
      // The background embedding caught up on these files: their rows stop
      // saying it comes later, and so do their documents in the list.
      subscribe(t, Events.Embedded, (ev) => {
        const done = new Set(ev.sources);
        for (const byFile of Object.values(this.files)) {
          for (const [file, p] of Object.entries(byFile)) {
            if ((p.embedLater || p.embedStopped || p.embedHandedOn) && done.has(file)) byFile[file] = { ...p, caughtUp: true };
          }
        }
        for (const d of this.docs) {
          if (d.pending && done.has(d.source)) this.settle(d, 0);
        }
      }),
      // The background embedding stored a batch: the documents it was of
      // count their passages left down, in place (no reload).
      subscribe(t, Events.Embedding, (ev) => {
        const left = new Map(ev.docs.map((d) => [d.doc_id, d.pending]));
        for (const d of this.docs) {
          const n = left.get(d.id);
          if (n === undefined || n === (d.pending ?? 0)) continue;
          // A paused file's count going down was resumed elsewhere (a
          // chat's row, another window): it is paused no more.
          if (d.embed_paused && n < (d.pending ?? 0)) this.setPaused(d.source, false);
          this.settle(d, n);
        }
      }),
      // A file's meaning indexing was paused or its pause ended elsewhere
      // (a chat's row, another window): its line and import row say so at
      // once, not at its first batch stored. Removed, or paused and not
      // listed yet, the list is loaded again.
      subscribe(t, Events.EmbedPause, (ev) => {
        const listed = this.docs.some((d) => d.source === ev.source);
        if (ev.removed || (ev.paused && !listed)) return this.loadSoon();
        if (listed) this.setPaused(ev.source, ev.paused);
      }),
      // Documents removed in another window (or another view of this
      // one) leave the list at once; a conversation's files are not in it.
      subscribe(t, Events.Removed, (ev) => {
        const gone = new Set(ev.doc_ids);
        if (ev.conversation) return;
        for (const source of ev.sources) this.removedFiles[source] = true;
        if (this.docs.some((d) => gone.has(d.id))) this.docs = this.docs.filter((d) => !gone.has(d.id));
      }),
      subscribe(t, Reconnected, () => void this.load()),
    ];
    return () => {
      offs.forEach((off) => off());
      clearTimeout(this.loadTimer);
      this.loadTimer = undefined;
    };
  }

  private loadTimer: ReturnType<typeof setTimeout> | undefined;

  /** loadSoon reloads the list once for a burst of files (a folder's come one after another). */
  private loadSoon(): void {
    if (this.loadTimer !== undefined) return;
    this.loadTimer = setTimeout(() => {
      this.loadTimer = undefined;
      void this.load();
    }, LOAD_SOON_MS);
  }

  /** progress lists every file of every import shown, newest import first. */
  get progress(): FileProgress[] {
    return Object.values(this.files).reverse().flatMap((m) => Object.values(m));
  }

  get importing(): boolean {
    return this.progress.some((p) => !p.finished) || this.uploads.some((u) => u.state === "uploading");
  }

  /** settle sets how many of d's passages wait for their meaning; none left of some says it is done. */
  private settle(d: KBDocument, pending: number): void {
    if (d.pending && !pending) this.meaningDone[d.id] = true;
    if (pending) delete this.meaningDone[d.id];
    d.pending = pending;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const docs = await this.api.documents();
      // A document this window saw being indexed that is done now says so.
      const was = new Map(this.docs.map((d) => [d.id, d.pending ?? 0]));
      for (const d of docs) if (was.get(d.id) && !d.pending) this.meaningDone[d.id] = true;
      // A pause seen before and not now ended (a restart ends every pause),
      // unless the file is not listed at all: removed elsewhere meanwhile.
      const listed = new Set(docs.map((d) => d.source));
      const paused = new Set(docs.filter((d) => d.embed_paused).map((d) => d.source));
      for (const d of this.docs) {
        if (!listed.has(d.source)) this.removedFiles[d.source] = true;
        else if (d.embed_paused && !paused.has(d.source)) this.unpaused[d.source] = true;
      }
      for (const source of paused) delete this.unpaused[source];
      for (const source of listed) delete this.removedFiles[source];
      this.docs = docs;
      this.error = null;
    } catch (e) {
      this.error = parseError(e);
    } finally {
      this.loading = false;
    }
  }

  async importPaths(paths: string[]): Promise<void> {
    if (!paths.length) return;
    try {
      const id = await this.api.importPaths(paths);
      this.files[id] ??= {};
      this.error = null;
    } catch (e) {
      this.error = parseError(e);
    }
  }

  async chooseFiles(): Promise<void> {
    try {
      await this.importPaths(await this.api.chooseFiles());
    } catch (e) {
      this.error = parseError(e);
    }
  }

  async chooseFolder(): Promise<void> {
    try {
      const dir = await this.api.chooseFolder();
      if (dir) await this.importPaths([dir]);
    } catch (e) {
      this.error = parseError(e);
    }
  }

  /**
   * upload sends dropped or picked files' contents, one by one. dropped:
   * files dropped on the desktop window whose paths it did not tell, so
   * a file too large to send is said to be added with "Add files…" (read
   * from the disk), not from the desktop window the person is in.
   */
  async upload(files: Iterable<File>, dropped = false): Promise<void> {
    for (const f of files) {
      const u: Upload = { name: f.name, state: "uploading", error: null };
      this.uploads = [...this.uploads.filter((x) => x.name !== f.name), u];
      const row = () => this.uploads.find((x) => x.name === f.name)!;
      if (f.size > MAX_UPLOAD_BYTES) {
        // Worded where it is shown (errorText), in the language of the moment: the code, the file, its size.
        const size = String(Math.round(f.size / 1048576));
        const args: Record<string, string> = { file: f.name, size, max: String(MAX_UPLOAD_BYTES / 1048576), ...(dropped ? { case: "dropped" } : {}) };
        Object.assign(row(), { state: "failed", error: { code: "upload_too_large", message: `${f.name} is ${size} MB: larger than ${args.max} MB.`, hint: "", args } });
        continue;
      }
      try {
        const bytes = new Uint8Array(await f.arrayBuffer());
        const id = await this.api.upload(f.name, toBase64(bytes));
        this.files[id] ??= {};
        row().state = "sent";
      } catch (e) {
        Object.assign(row(), { state: "failed", error: parseError(e) });
      }
    }
    this.uploads = this.uploads.filter((x) => x.state !== "sent");
  }

  /**
   * stop asks the backend to stop an import; its events then end its
   * files with stage "stopped". The button says it is stopping meanwhile.
   */
  async stop(importID: string): Promise<void> {
    this.stopping[importID] = true;
    try {
      await this.api.cancelImport(importID);
      this.error = null;
    } catch (e) {
      delete this.stopping[importID];
      this.error = parseError(e);
    }
  }

  /**
   * setPaused marks a file's meaning indexing paused or its pause ended in
   * every document of it (a JSON file's records go on or stop together),
   * and its import's row with it, wherever the news came from: a Resume
   * here, the event, or its count going down.
   */
  private setPaused(source: string, paused: boolean): void {
    for (const d of this.docs) if (d.source === source) d.embed_paused = paused;
    if (paused) delete this.unpaused[source];
    else this.unpaused[source] = true;
  }

  /**
   * resume lets the background embedding index the meaning of a document
   * whose Stop paused it: its line counts its passages down again, as the
   * backend embeds them, and then says it is found by its meaning too.
   */
  async resume(d: KBDocument): Promise<void> {
    if (this.resuming[d.id]) return;
    this.resuming[d.id] = true;
    try {
      await this.api.resumeEmbedding(d.source);
      this.setPaused(d.source, false);
      this.error = null;
    } catch (e) {
      this.error = parseError(e);
    } finally {
      delete this.resuming[d.id];
    }
  }

  dismissUpload(name: string): void {
    this.uploads = this.uploads.filter((u) => u.name !== name);
  }

  clearFinished(): void {
    for (const [id, m] of Object.entries(this.files)) {
      if (Object.values(m).every((p) => p.finished)) {
        delete this.files[id];
        delete this.notStarted[id];
      }
    }
    this.reports = [];
  }

  async remove(id: string): Promise<boolean> {
    try {
      await this.api.remove(id);
      this.docs = this.docs.filter((d) => d.id !== id);
      return true;
    } catch (e) {
      this.error = parseError(e);
      return false;
    }
  }

  async search(q: string = this.query): Promise<void> {
    this.query = q;
    if (!q.trim()) {
      this.hits = [];
      this.searched = false;
      return;
    }
    this.searching = true;
    try {
      const hits = await this.api.search(q, 10);
      if (this.query === q) {
        this.hits = hits;
        this.hitsQuery = q;
        this.searched = true;
        this.searchError = null;
      }
    } catch (e) {
      this.searchError = parseError(e);
    } finally {
      this.searching = false;
    }
  }

  /**
   * passage opens a hit in its document: its chunk with the text around
   * it. null when it cannot be read (the reader then shows the hit alone).
   */
  async passage(hit: SearchHit): Promise<Passage | null> {
    try {
      return await this.api.passage("", hit.id);
    } catch {
      return null;
    }
  }

  /** span reads a page of a document for the reader; it rejects when it cannot. */
  span(docID: string, from: number, count: number): Promise<DocumentSpan> {
    return this.api.span("", docID, from, count);
  }

  async loadCategories(): Promise<void> {
    try {
      this.categories = await this.api.categories();
      this.catalogError = null;
      if (!this.catalog.length) await this.browse(this.category);
    } catch (e) {
      this.catalogError = parseError(e);
    }
  }

  async browse(category: string): Promise<void> {
    this.category = category;
    try {
      const entries = await this.api.catalog(category);
      if (this.category === category) this.catalog = entries;
      this.catalogError = null;
    } catch (e) {
      this.catalogError = parseError(e);
    }
  }
}
