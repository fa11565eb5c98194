// AttachStore: files attached to conversations from the message box. Each
// goes into that conversation's own part of the knowledge base (only its
// turns search it) with a progress row per file until it is in; the
// conversation's files are listed under the box, each can be added to the
// whole library.
import { parseError, type ErrorInfo } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { KBDocument } from "../api/gotypes.gen";
import { toBase64, type KnowledgeApi } from "../api/knowledge";
import type { Transport } from "../api/transport";
import { MAX_UPLOAD_BYTES } from "../knowledge/store.svelte";
import { progressOf, type FileProgress } from "../knowledge/progress";
import { failureText } from "../knowledge/reasons";
import { errorText } from "../lib/errors";
import { formatNumber, t } from "../i18n/i18n.svelte";

/** Pending is one attached file on its way in. */
export interface Pending {
  /** a key unique among this conversation's pending files */
  key: string;
  session: string;
  name: string;
  importID: string;
  progress: FileProgress | null;
  error: ErrorInfo | null;
}

/**
 * answerable says whether a question sent now can use the file: once it is
 * embedding it is in the knowledge base and found by its words (the
 * backend swaps a file in before it embeds it), and embedding with a local
 * model takes minutes; a file that failed or ended holds nothing up either.
 */
export function answerable(p: Pending): boolean {
  return !!p.error || !!p.progress?.finished || p.progress?.stage === "embedding";
}

export class AttachStore {
  /** files attached to each conversation, by session id */
  files = $state<Record<string, KBDocument[]>>({});
  pending = $state<Pending[]>([]);
  error = $state<ErrorInfo | null>(null);
  /** imports the person asked to stop, until they end */
  stopping = $state<Record<string, boolean>>({});
  private seq = 0;
  /** onsettled hears that a conversation's file finished importing (or failed). */
  onsettled: ((sessionID: string) => void) | null = null;

  constructor(private readonly api: KnowledgeApi) {}

  listen(transport: Transport): () => void {
    const offs = [
      subscribe(transport, Events.Import, (p) => {
        const row = this.rowOf(p.import_id, p.conversation, [p.file]);
        if (row) row.progress = progressOf(p);
      }),
      subscribe(transport, Events.ImportDone, (r) => {
        const files = [...(r.imported ?? []), ...(r.failed ?? []).map((f) => f.file), ...(r.duplicates ?? []).map((f) => f.file), ...(r.stopped ?? [])];
        const row = this.rowOf(r.import_id, r.conversation, files);
        delete this.stopping[r.import_id];
        if (!row) return;
        if (r.stopped?.length) {
          // Stopped by the person: the row says nothing was added until dismissed.
          const base = row.progress ?? { key: row.key, importID: r.import_id, file: row.name, pages: 0, unit: "page", chunks: 0, error: "", reason: null, replaced: false, embedStopped: false, embedLater: false, waiting: false, filesTotal: 1, duplicateOf: "", warnings: [], warningReasons: [] };
          row.progress = { ...base, stage: "stopped", finished: true, percent: 0 };
          this.onsettled?.(row.session);
          return;
        }
        const f = r.failed?.[0];
        if (f || r.error) {
          // The file's reason in the person's language; an import that
          // failed as a whole (the knowledge base unavailable) keeps its
          // error, which the banner words by its code.
          row.error = f ? { code: "invalid_input", message: t("attach.failed", { file: row.name, reason: failureText(f.error, f.reason) }), hint: "" } : r.error!;
          this.onsettled?.(row.session);
          return;
        }
        const duplicate = !!r.duplicates?.length && !!row.progress;
        if (duplicate) row.progress = { ...row.progress!, stage: "duplicate", duplicateOf: r.duplicates![0]!.error, finished: true, percent: 100 };
        // A file left to be embedded later keeps its row, which says so,
        // until dismissed. Another goes once the list has it, so that the
        // conversation's examples, named after it, do not flicker.
        const note = duplicate || !!row.progress?.embedLater;
        void this.load(row.session).then(() => {
          if (!note) this.pending = this.pending.filter((x) => x.key !== row.key);
          this.onsettled?.(row.session);
        });
      }),
      subscribe(transport, Reconnected, () => {
        for (const sid of Object.keys(this.files)) void this.settle(sid);
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  /**
   * rowOf finds the pending file an event is about: by its import id, or,
   * when the events outrun Attach's answer, as the first file of that
   * conversation and name still waiting for its id.
   */
  private rowOf(importID: string, conversation: string | undefined, files: string[]): Pending | undefined {
    const byID = this.pending.find((x) => x.importID === importID);
    if (byID || !conversation) return byID;
    const names = new Set(files.map(base));
    const row = this.pending.find((x) => !x.importID && x.session === conversation && names.has(x.name));
    if (row) row.importID = importID;
    return row;
  }

  /**
   * ready names a conversation's files that a question can use: those in
   * it and those found by their words while they embed (the backend names
   * the conversation after them then too), for its examples.
   */
  ready(sessionID: string): string[] {
    const here = this.of(sessionID);
    const names = here.files.map((d) => base(d.source));
    for (const p of here.pending) {
      if (!p.error && (p.progress?.stage === "embedding" || p.progress?.stage === "done")) names.push(p.name);
    }
    return [...new Set(names)];
  }

  /** of lists what a conversation holds and what is on its way. */
  of(sessionID: string): { files: KBDocument[]; pending: Pending[] } {
    return { files: this.files[sessionID] ?? [], pending: this.pending.filter((p) => p.session === sessionID) };
  }

  async load(sessionID: string): Promise<void> {
    if (!sessionID) return;
    try {
      this.files[sessionID] = await this.api.attached(sessionID);
    } catch (e) {
      this.error = parseError(e);
    }
  }

  /**
   * settle reloads a conversation's files after the event stream came
   * back: a file whose import ended while it was away is listed now, and
   * its row goes, so that Send, which waits for rows on their way, does
   * not wait for an event that was lost.
   */
  private async settle(sessionID: string): Promise<void> {
    await this.load(sessionID);
    const names = new Set((this.files[sessionID] ?? []).map((d) => base(d.source)));
    this.pending = this.pending.filter((p) => p.session !== sessionID || !!p.error || !names.has(p.name));
  }

  /** attach sends files one by one; each shows its own progress. */
  async attach(sessionID: string, files: Iterable<File>): Promise<void> {
    for (const f of files) {
      const row: Pending = { key: `${++this.seq}`, session: sessionID, name: f.name, importID: "", progress: null, error: null };
      this.pending = [...this.pending, row];
      const live = () => this.pending.find((x) => x.key === row.key);
      if (f.size > MAX_UPLOAD_BYTES) {
        const message = t("attach.tooLarge", { file: f.name, size: formatNumber(Math.round(f.size / 1048576)), max: MAX_UPLOAD_BYTES / 1048576 });
        Object.assign(live()!, { error: { code: "upload_too_large", message, hint: "" } });
        continue;
      }
      try {
        const bytes = new Uint8Array(await f.arrayBuffer());
        const id = await this.api.attach(sessionID, f.name, toBase64(bytes));
        const r = live();
        if (r && !r.importID) r.importID = id;
      } catch (e) {
        const r = live();
        // Said in the person's language: the error's title by its code.
        const err = parseError(e);
        if (r) r.error = { ...err, message: t("attach.failed", { file: f.name, reason: errorText(err).title }) };
      }
    }
  }

  /** stop asks the backend to stop a file's import (its Stop button). */
  async stop(importID: string): Promise<void> {
    this.stopping[importID] = true;
    try {
      await this.api.cancelImport(importID);
    } catch (e) {
      delete this.stopping[importID];
      this.error = parseError(e);
    }
  }

  dismiss(key: string): void {
    this.pending = this.pending.filter((p) => p.key !== key);
  }

  /** addToLibrary moves a file from the conversation to the whole library. */
  async addToLibrary(sessionID: string, doc: KBDocument): Promise<boolean> {
    this.error = null;
    try {
      await this.api.addToLibrary(sessionID, doc.source);
      await this.load(sessionID);
      return true;
    } catch (e) {
      this.error = parseError(e);
      return false;
    }
  }
}

function base(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
