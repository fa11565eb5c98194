// AttachStore: files attached to conversations from the message box. Each
// goes into that conversation's own part of the knowledge base (only its
// turns search it) with a progress row per file until it is in; the
// conversation's files are listed under the box, each can be added to the
// whole library.
import { untrack } from "svelte";
import { parseError, type ErrorInfo } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { KBDocument, LibraryFile } from "../api/gotypes.gen";
import { toBase64, type KnowledgeApi } from "../api/knowledge";
import type { Transport } from "../api/transport";
import { MAX_UPLOAD_BYTES } from "../knowledge/store.svelte";
import { progressOf, type FileProgress } from "../knowledge/progress";
import { failureText } from "../knowledge/reasons";
import { errorText } from "../lib/errors";
import { formatNumber, t, type MessageKey } from "../i18n/i18n.svelte";

/** Pending is one attached file on its way in. */
export interface Pending {
  /** a key unique among this conversation's pending files */
  key: string;
  session: string;
  name: string;
  importID: string;
  progress: FileProgress | null;
  error: ErrorInfo | null;
  /**
   * a note made from the conversation's attachments (a reopened
   * conversation, a reload): the file is in, its embedding still pending
   * in the background; why is not known any more
   */
  restored?: boolean;
  /**
   * a note that the file joined the library (Add to library): its chip
   * went from the conversation's list, and the row says where; "embedding"
   * when its embedding goes on there, in the background, "embedded" once
   * the backend says that is done (knowledge.embedded naming movedTo),
   * "removed" once it was removed from the library (the Knowledge screen,
   * here or in another window): no conversation finds it any more
   */
  moved?: "added" | "embedding" | "embedded" | "removed";
  /** the person resumed the meaning indexing its Stop paused (its row's Resume) */
  resumed?: boolean;
  /**
   * the conversation's list was loaded after the file's import ended, so
   * that it, not the import's last event, says whether it is paused
   */
  listed?: boolean;
  /** a listing said its meaning indexing was paused */
  sawPaused?: boolean;
  /** where a moved file is kept in the library */
  movedTo?: string;
  /**
   * a moved file whose embedding the person had stopped: paused in the
   * library too, with its passages left of all, until Resume (here or in
   * the Knowledge screen) or the next start of Wayfinder
   */
  movedPaused?: { left: number; total: number };
  /** the backend's record of the move (LibraryFile.id), which brings the row back after a reload until dismissed */
  movedID?: number;
  /** the documents the moved file became (a file of records or an archive is several) */
  movedDocs?: string[];
  /**
   * those of movedDocs removed from the library since (the Knowledge
   * screen removes documents one by one): the row says how many while
   * some are left, and that the file was removed once none is, when the
   * Knowledge screen no longer lists any of it either
   */
  movedGone?: string[];
}

/**
 * fromRecord is the row of a file a conversation added to the library, as
 * the backend keeps it (a reload, a window opened again): removed once
 * none of its documents is left, else paused, indexing or in.
 */
export function fromRecord(key: string, session: string, f: LibraryFile): Pending {
  const gone = f.removed ?? [];
  const docs = f.doc_ids ?? [];
  const row: Pending = { key, session, name: base(f.source), importID: "", progress: null, error: null, movedTo: f.source, movedID: f.id, movedDocs: docs, movedGone: gone };
  if (docs.length && gone.length >= docs.length) return { ...row, moved: "removed" };
  if (f.embed_paused) return { ...row, moved: "embedding", movedPaused: { left: f.pending ?? 0, total: f.chunks ?? 0 } };
  return { ...row, moved: f.embed_pending ? "embedding" : "added" };
}

/**
 * Meaning is what a note row says of a file found by its words whose
 * embedding went to the background: "later" (Ollama did not answer in
 * time), "stopped" (the person stopped its embedding: the backend keeps
 * the file and pauses its passages not embedded yet, which wait for the
 * row's Resume or the next start of Wayfinder), "pending" (a reopened conversation's file, for a reason no
 * longer known), "embedded" (the background embedding is done: it is
 * found by its meaning too), "unpaused" (it was paused, and its pause
 * ended without this row's Resume: Wayfinder restarted, or it was resumed
 * in another window; its meaning is being indexed).
 */
export type Meaning = "later" | "stopped" | "handedOn" | "pending" | "embedded" | "unpaused";

/**
 * movedWords is what the row of a file that joined the library says (its
 * paused state aside, which counts its passages). One in and embedded reads
 * the same whether its indexing ended before it was added ("added") or
 * after, in this window ("embedded"): a reload, or another window, knows
 * only that it is in. While search by meaning cannot run (meaningOff: no
 * embedding model answers, or none is set) a file in, or one whose meaning
 * waits, is found by its words only, and its row says so: it said "by its
 * words and by its meaning", or that its meaning was being indexed, where
 * nothing was.
 */
export function movedWords(moved: NonNullable<Pending["moved"]>, meaningOff: boolean): MessageKey {
  if (moved === "removed") return "attach.addedToLibraryRemoved";
  if (meaningOff) return "attach.addedToLibraryWords";
  return moved === "embedding" ? "attach.addedToLibraryEmbedding" : "attach.addedToLibrary";
}

/**
 * answerable says whether a question sent now can use the file: once it is
 * embedding it is in the knowledge base and found by its words (the
 * backend swaps a file in before it embeds it), and embedding with a local
 * model takes minutes; a file that failed or ended holds nothing up either.
 */
export function answerable(p: Pending): boolean {
  return !!p.restored || !!p.moved || !!p.error || !!p.progress?.finished || p.progress?.stage === "embedding";
}

export class AttachStore {
  /** files attached to each conversation, by session id */
  files = $state<Record<string, KBDocument[]>>({});
  pending = $state<Pending[]>([]);
  error = $state<ErrorInfo | null>(null);
  /** imports the person asked to stop, until they end */
  stopping = $state<Record<string, boolean>>({});
  /** files being added to the library (by source), until the backend answers */
  adding = $state<Record<string, boolean>>({});
  /** files being removed from their conversation (by source), until the backend answers */
  removing = $state<Record<string, boolean>>({});
  /** files whose paused meaning indexing is being resumed (by source), until the backend answers */
  resuming = $state<Record<string, boolean>>({});
  private seq = 0;
  /** loads started, by session: an answer older than the last one started is stale */
  private loads: Record<string, number> = {};
  /** note rows the person dismissed (session and file name), not made again by a reload */
  private dismissed = new Set<string>();
  /**
   * meaningOff: search by meaning cannot run now (the backend's status,
   * onboarding's meaningOff), so the rows of files added to the library
   * say they are found by their words (movedWords).
   */
  meaningOff = $state(false);
  /** onsettled hears that a conversation's file finished importing (or failed). */
  onsettled: ((sessionID: string) => void) | null = null;

  constructor(private readonly api: KnowledgeApi) {}

  listen(transport: Transport): () => void {
    const offs = [
      subscribe(transport, Events.Import, (p) => {
        const row = this.rowOf(p.import_id, p.conversation, [p.file]);
        if (!row) return;
        const embedding = row.progress?.stage === "embedding";
        row.progress = progressOf(p);
        // It is in and found by its words: the conversation lists it now,
        // so that it can join the library at once, not when it is embedded.
        if (!embedding && p.stage === "embedding") void this.load(row.session);
      }),
      subscribe(transport, Events.ImportDone, (r) => {
        const files = [...(r.imported ?? []), ...(r.failed ?? []).map((f) => f.file), ...(r.duplicates ?? []).map((f) => f.file), ...(r.stopped ?? [])];
        const row = this.rowOf(r.import_id, r.conversation, files);
        delete this.stopping[r.import_id];
        if (!row) return;
        if (r.stopped?.length) {
          // Stopped by the person: the row says nothing was added until dismissed.
          const base = row.progress ?? { key: row.key, importID: r.import_id, file: row.name, pages: 0, unit: "page", chunks: 0, indexed: 0, error: "", reason: null, replaced: false, embedStopped: false, embedLater: false, embedHandedOn: false, caughtUp: false, waiting: false, waitingFor: "", filesTotal: 1, duplicateOf: "", warnings: [], warningReasons: [] };
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
        // A file left to be embedded later, whose embedding the person
        // stopped or handed on to the background for the next file (it
        // stays, found by its words, the rest embedded in the background),
        // keeps its row, which says so, until dismissed.
        // Another goes once the list has it, so that the conversation's
        // examples, named after it, do not flicker.
        const note = duplicate || !!row.progress?.embedLater || !!row.progress?.embedStopped || !!row.progress?.embedHandedOn;
        void this.load(row.session).then(() => {
          if (!note) this.pending = this.pending.filter((x) => x.key !== row.key);
          this.onsettled?.(row.session);
        });
      }),
      // The background embedding caught up: the conversations named
      // (and any this window lists a file of) are loaded again, and their
      // files' rows say they are found by their meaning too.
      subscribe(transport, Events.Embedded, (ev) => {
        const sources = new Set(ev.sources);
        // A file added to the library while its meaning was indexed says it is done, there.
        for (const p of this.pending) {
          if (p.moved === "embedding" && p.movedTo && sources.has(p.movedTo)) Object.assign(p, { moved: "embedded", movedPaused: undefined });
        }
        const sids = new Set(ev.conversations ?? []);
        for (const [sid, docs] of Object.entries(this.files)) if (docs.some((d) => sources.has(d.source))) sids.add(sid);
        for (const sid of sids) if (sid in this.files || this.pending.some((p) => p.session === sid)) void this.load(sid);
      }),
      // Passages left, by document, after a batch or a change of model
      // (every passage waits for the new one, a paused file's too): the
      // rows' "N of M passages left" follow, in place. A paused file that
      // joined the library moves again only if it was resumed elsewhere
      // (the Knowledge screen, another window): its row asks the library.
      subscribe(transport, Events.Embedding, (ev) => {
        const left = new Map(ev.docs.map((d) => [d.doc_id, d.pending]));
        const resumed = new Set<string>();
        for (const [sid, docs] of Object.entries(this.files)) {
          for (const d of docs) {
            const n = left.get(d.id);
            if (n === undefined || n === (d.pending ?? 0)) continue;
            // A paused file's count going down was resumed in another
            // window: the list, asked again, says so.
            if (d.embed_paused && n < (d.pending ?? 0)) resumed.add(sid);
            d.pending = n;
          }
        }
        for (const sid of resumed) void this.load(sid);
        void this.refreshMoved();
      }),
      // A file's meaning indexing was paused or its pause ended (a Resume
      // or Stop in another window or view, the file read in again or
      // removed): its rows say so at once, not at its first batch stored.
      subscribe(transport, Events.EmbedPause, (ev) => {
        for (const p of this.pending) {
          if (!p.moved || p.movedTo !== ev.source) continue;
          if (ev.removed) Object.assign(p, { moved: "removed", movedPaused: undefined });
          else if (!ev.paused && p.movedPaused) Object.assign(p, { moved: "embedding", movedPaused: undefined });
        }
        if (ev.paused) void this.refreshMoved();
        for (const [sid, docs] of Object.entries(this.files)) if (docs.some((d) => d.source === ev.source)) void this.load(sid);
      }),
      // A file was removed, here or in another window: a row of it added
      // to the library says it was removed from there (whether its
      // meaning was paused, being indexed or indexed); one taken out of
      // its conversation leaves that conversation's chips and rows.
      subscribe(transport, Events.Removed, (ev) => {
        const sources = new Set(ev.sources);
        const docs = new Set(ev.doc_ids);
        for (const p of this.pending) {
          if (!p.moved || !p.movedTo) continue;
          // Some of its documents: the row counts them; the last, or the file: it is gone.
          const gone = (p.movedDocs ?? []).filter((id) => docs.has(id) || p.movedGone?.includes(id));
          if (gone.length) p.movedGone = gone;
          if (sources.has(p.movedTo) || (p.movedDocs?.length && gone.length >= p.movedDocs.length)) Object.assign(p, { moved: "removed", movedPaused: undefined });
        }
        const sid = ev.conversation;
        if (!sid) return;
        const names = new Set(ev.sources.map(base));
        this.pending = this.pending.filter((p) => !(p.session === sid && names.has(p.name) && !p.error && !p.moved));
        if (sid in this.files) void this.load(sid);
      }),
      // A conversation's file joined the library, in this window or
      // another: a window with the conversation open makes its row and
      // drops its chip (the one that added it does the same with the
      // answer, whichever of the two comes first); one that has not opened
      // it asks for its rows when it does (loadAdded).
      subscribe(transport, Events.AddedToLibrary, (ev) => {
        const sid = ev.session_id;
        if (!(sid in this.files) && !this.askedAdded.has(sid)) return;
        if (ev.file.id !== undefined && this.dismissedAdded.has(ev.file.id)) return;
        this.placeMoved(fromRecord(`m${++this.seq}`, sid, ev.file));
        if (sid in this.files) void this.load(sid);
      }),
      subscribe(transport, Reconnected, () => {
        for (const sid of Object.keys(this.files)) void this.settle(sid);
        // Events may have been lost meanwhile: every row of a file added
        // to the library asks whether it is still there.
        void this.refreshMoved(true);
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
    const row = this.pending.find((x) => !x.importID && !x.restored && !x.moved && x.session === conversation && names.has(x.name));
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

  /**
   * meaning says what a note row tells of its file's search by meaning, as
   * the conversation's attachments last said (null: the row is no note). A
   * file not listed yet, or with passages pending, is not embedded yet.
   */
  meaning(p: Pending): Meaning | null {
    const background = p.progress?.embedLater || p.progress?.embedStopped || p.progress?.embedHandedOn;
    if (p.error || p.moved || !(p.restored || (p.progress?.finished && background))) return null;
    const docs = (this.files[p.session] ?? []).filter((d) => base(d.source) === p.name);
    if (docs.length && docs.every((d) => !d.embed_pending)) return "embedded";
    // Paused by the person's Stop (here, or in a window reopened since):
    // it waits for Resume. Resumed, its meaning comes in the background.
    // Once listed after its end, the list says whether it still waits: a
    // restart of Wayfinder ends a pause, and the window open across it
    // says what happens now.
    if (!p.resumed && (docs.some((d) => d.embed_paused) || (p.progress?.embedStopped && !p.listed))) return "stopped";
    if (!p.resumed && (p.progress?.embedStopped || p.sawPaused)) return "unpaused";
    return p.restored || p.resumed ? "pending" : p.progress?.embedHandedOn ? "handedOn" : "later";
  }

  /** passagesLeft counts a row's file's passages, and those still waiting for their meaning, as last listed. */
  passagesLeft(p: Pending): { left: string; total: string } {
    const docs = (this.files[p.session] ?? []).filter((d) => base(d.source) === p.name);
    const sum = (f: (d: KBDocument) => number) => formatNumber(docs.reduce((n, d) => n + f(d), 0));
    return { left: sum((d) => d.pending ?? 0), total: sum((d) => d.chunks) };
  }

  /** of lists what a conversation holds and what is on its way. */
  of(sessionID: string): { files: KBDocument[]; pending: Pending[] } {
    return { files: this.files[sessionID] ?? [], pending: this.pending.filter((p) => p.session === sessionID) };
  }

  async load(sessionID: string): Promise<void> {
    if (!sessionID) return;
    void this.loadAdded(sessionID);
    // Only the last load started is taken: one started before a file left
    // for the library may answer after it, and would list it again.
    const n = (this.loads[sessionID] = (this.loads[sessionID] ?? 0) + 1);
    // Not tracked: an effect that loads must not run again as rows change.
    const ended = untrack(() => this.pending.filter((p) => p.session === sessionID && p.progress?.finished));
    let docs: KBDocument[];
    try {
      docs = await this.api.attached(sessionID);
    } catch (e) {
      if (this.loads[sessionID] === n) this.error = parseError(e);
      return;
    }
    if (this.loads[sessionID] !== n) return;
    this.files[sessionID] = docs;
    const paused = new Set(docs.filter((d) => d.embed_paused).map((d) => base(d.source)));
    for (const p of ended) p.listed = true;
    for (const p of this.pending) if (p.session === sessionID && paused.has(p.name)) p.sawPaused = true;
    // A file whose embedding is still pending says so in a reopened
    // conversation too, in a row of its own, as it did when attached.
    const rows = new Set(this.pending.filter((p) => p.session === sessionID).map((p) => p.name));
    for (const name of new Set(docs.filter((d) => d.embed_pending).map((d) => base(d.source)))) {
      if (rows.has(name) || this.dismissed.has(`${sessionID}\u0000${name}`)) continue;
      this.pending = [...this.pending, { key: `r${++this.seq}`, session: sessionID, name, importID: "", progress: null, error: null, restored: true }];
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
    this.pending = this.pending.filter((p) => p.session !== sessionID || !!p.error || !!this.meaning(p) || !names.has(p.name));
  }

  /** attach sends files one by one; each shows its own progress. */
  async attach(sessionID: string, files: Iterable<File>): Promise<void> {
    for (const f of files) {
      if (f.size > MAX_UPLOAD_BYTES) {
        const message = t("attach.tooLarge", { file: f.name, size: formatNumber(Math.round(f.size / 1048576)), max: MAX_UPLOAD_BYTES / 1048576 });
        this.addRow(sessionID, f.name).error = { code: "upload_too_large", message, hint: "" };
        continue;
      }
      await this.send(sessionID, f.name, async () => this.api.attach(sessionID, f.name, toBase64(new Uint8Array(await f.arrayBuffer()))));
    }
  }

  /**
   * addRow makes the row of a file being attached: the file again, its
   * own row says how it goes, not an older note (one that says it is
   * paused would lie: reading it again resumes it).
   */
  private addRow(sessionID: string, name: string): Pending {
    const row: Pending = { key: `${++this.seq}`, session: sessionID, name, importID: "", progress: null, error: null };
    const note = (p: Pending) => p.session === sessionID && p.name === name && (p.restored || !!this.meaning(p));
    this.pending = [...this.pending.filter((p) => !note(p)), row];
    return this.pending[this.pending.length - 1]!;
  }

  /**
   * send attaches one file (start asks the backend, by content or by
   * path) under its row: the import id it answers, or why it failed, said
   * in the person's language (the error's title by its code).
   */
  private async send(sessionID: string, name: string, start: () => Promise<string>): Promise<void> {
    const key = this.addRow(sessionID, name).key;
    const live = () => this.pending.find((x) => x.key === key);
    try {
      const id = await start();
      const r = live();
      if (r && !r.importID) r.importID = id;
    } catch (e) {
      const err = parseError(e);
      const r = live();
      if (r) r.error = { ...err, message: t("attach.failed", { file: name, reason: errorText(err).title }) };
    }
  }

  /**
   * choose opens the desktop window's native dialog for files to attach:
   * titled in the app's language and showing the documents Wayfinder
   * reads, where the webview's own chooser shows every file. It returns
   * the chosen paths, none when the person cancelled or it failed (the
   * banner says why).
   */
  async choose(): Promise<string[]> {
    this.error = null;
    try {
      return await this.api.chooseAttachments();
    } catch (e) {
      this.error = parseError(e);
      return [];
    }
  }

  /**
   * attachPaths attaches files by their paths (the desktop window's dialog,
   * or files dropped on it), each with its row as attach makes, and the
   * same events after: the backend reads each file itself, so no upload
   * bound applies, only the importer's own.
   */
  async attachPaths(sessionID: string, paths: string[]): Promise<void> {
    for (const path of paths) await this.send(sessionID, base(path), () => this.api.attachPath(sessionID, path));
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

  /**
   * resume lets the background embedding index the meaning of a file whose
   * Stop paused it (its row's Resume): its row then says its meaning comes
   * in the background, and that it is found by it once that is done.
   */
  async resume(p: Pending): Promise<void> {
    const source = (this.files[p.session] ?? []).find((d) => base(d.source) === p.name)?.source;
    if (!source || this.resuming[source]) return;
    this.resuming[source] = true;
    this.error = null;
    try {
      await this.api.resumeEmbedding(source);
      p.resumed = true;
      await this.load(p.session);
    } catch (e) {
      this.error = parseError(e);
    } finally {
      delete this.resuming[source];
    }
  }

  /**
   * resumeMoved lets the background embedding index the meaning of a file
   * that joined the library paused (its row's Resume): the row then says
   * its meaning is indexed there, and that it is done once it is.
   */
  async resumeMoved(p: Pending): Promise<void> {
    const source = p.movedTo;
    if (!source || this.resuming[source]) return;
    this.resuming[source] = true;
    this.error = null;
    try {
      await this.api.resumeEmbedding(source);
      p.movedPaused = undefined;
    } catch (e) {
      this.error = parseError(e);
    } finally {
      delete this.resuming[source];
    }
  }

  /** whether a library listing for the rows of paused moved files is on its way */
  private refreshing = false;
  /** whether every moved row asks again once the listing on its way is in (the stream came back meanwhile) */
  private refreshAgain = false;

  /**
   * refreshMoved asks the library how the paused files that joined it are
   * now (after the event stream came back: Wayfinder may have restarted,
   * which ends a pause; or as something embeds: one may have been resumed
   * elsewhere), so that their rows do not say "paused" while it goes on.
   */
  private async refreshMoved(all = false): Promise<void> {
    // all: every row of a moved file (the event stream came back: one
    // removed meanwhile says so), else the paused ones.
    const asks = (p: Pending) => !!p.movedPaused || (all && !!p.moved && p.moved !== "removed");
    if (this.refreshing) {
      this.refreshAgain ||= all; // asked when the answer on its way comes
      return;
    }
    if (!this.pending.some(asks)) return;
    this.refreshing = true;
    // Rows made while the library answers are not in its answer.
    const rows = new Set(this.pending.filter(asks).map((p) => p.key));
    try {
      const docs = await this.api.documents();
      for (const p of this.pending) {
        if (!rows.has(p.key) || !asks(p)) continue;
        const mine = docs.filter((d) => d.source === p.movedTo);
        // Its documents removed meanwhile, one by one; none of them listed
        // but the file is: it was read again since, and is what is listed.
        if (p.movedDocs?.length && mine.length) {
          if (!mine.some((d) => p.movedDocs!.includes(d.id))) p.movedDocs = mine.map((d) => d.id);
          const gone = p.movedDocs.filter((id) => !mine.some((d) => d.id === id));
          p.movedGone = gone.length ? gone : undefined;
        }
        if (!p.movedPaused) {
          if (!mine.length) Object.assign(p, { moved: "removed" }); // removed from the library meanwhile
          continue;
        }
        const sum = (f: (d: KBDocument) => number) => mine.reduce((n, d) => n + f(d), 0);
        if (!mine.length) Object.assign(p, { moved: "removed", movedPaused: undefined }); // removed from the library meanwhile
        else if (mine.some((d) => d.embed_paused)) p.movedPaused = { left: sum((d) => d.pending ?? 0), total: sum((d) => d.chunks) };
        else Object.assign(p, { movedPaused: undefined, moved: mine.some((d) => d.pending) ? "embedding" : "embedded" });
      }
    } catch {
      // The next event or reconnection asks again.
    } finally {
      this.refreshing = false;
      if (this.refreshAgain) {
        this.refreshAgain = false;
        void this.refreshMoved(true);
      }
    }
  }

  dismiss(key: string): void {
    const row = this.pending.find((p) => p.key === key);
    if (row && this.meaning(row)) this.dismissed.add(`${row.session}\u0000${row.name}`);
    this.pending = this.pending.filter((p) => p.key !== key);
    // A row of a file added to the library is kept by the backend: it is
    // forgotten there, so that a reload does not bring it back.
    if (row?.movedID !== undefined) {
      this.dismissedAdded.add(row.movedID);
      this.api.dismissAdded(row.session, row.movedID).catch((e) => (this.error = parseError(e)));
    }
  }

  /** records of files added to the library whose rows the person dismissed */
  private dismissedAdded = new Set<number>();
  /** conversations whose files added to the library were asked for (once a window: its own rows follow events after) */
  private askedAdded = new Set<string>();

  /**
   * loadAdded makes the rows of the files a conversation added to the
   * library that this window has none of (it was reloaded, or opened after
   * a restart), as the backend keeps them: paused, indexing, in, some of
   * their documents removed, or removed.
   */
  private async loadAdded(sessionID: string): Promise<void> {
    if (this.askedAdded.has(sessionID)) return;
    this.askedAdded.add(sessionID);
    let files: LibraryFile[];
    try {
      files = await this.api.addedToLibrary(sessionID);
    } catch (e) {
      this.askedAdded.delete(sessionID); // asked again at the next load
      this.error = parseError(e);
      return;
    }
    const have = new Set(this.pending.map((p) => p.movedID));
    const rows = files.filter((f) => f.id !== undefined && !have.has(f.id) && !this.dismissedAdded.has(f.id)).map((f) => fromRecord(`m${++this.seq}`, sessionID, f));
    if (rows.length) this.pending = [...rows, ...this.pending];
  }

  /**
   * removeAttached takes a file out of its conversation (its chip's ✕,
   * confirmed): its documents and its copy are deleted, and so is its row,
   * a file still embedding too (the backend stops its import).
   */
  async removeAttached(sessionID: string, doc: KBDocument): Promise<boolean> {
    if (this.removing[doc.source]) return false;
    this.error = null;
    this.removing[doc.source] = true;
    const name = base(doc.source);
    try {
      await this.api.removeAttached(sessionID, doc.source);
    } catch (e) {
      this.error = parseError(e);
      return false;
    } finally {
      delete this.removing[doc.source];
    }
    this.pending = this.pending.filter((p) => !(p.session === sessionID && p.name === name && !p.error));
    await this.load(sessionID);
    return true;
  }

  /**
   * waitsForNewVersion says whether adding a conversation's file to the
   * library waits for a new version of it being read (a row of that name
   * not in yet): the backend takes the new version once it is in, and the
   * button says so meanwhile.
   */
  waitsForNewVersion(sessionID: string, doc: KBDocument): boolean {
    const name = base(doc.source);
    return this.pending.some((p) => p.session === sessionID && p.name === name && !p.moved && !answerable(p));
  }

  /**
   * addToLibrary moves a file from the conversation to the whole library.
   * It acts at once, a file still embedding too (the backend lets its
   * embedding go on in the library), or once a new version being read is
   * in; its button says it is busy, or what it waits for, until the
   * backend answers, and a row then says where the file went, since its
   * chip leaves the conversation's list: until dismissed.
   */
  async addToLibrary(sessionID: string, doc: KBDocument): Promise<boolean> {
    if (this.adding[doc.source]) return false;
    this.error = null;
    this.adding[doc.source] = true;
    const name = base(doc.source);
    let added;
    try {
      added = await this.api.addToLibrary(sessionID, doc.source);
    } catch (e) {
      this.error = parseError(e);
      return false;
    } finally {
      delete this.adding[doc.source];
    }
    // The backend says whether its meaning is still being indexed, in the
    // library now: stopped, handed on or left to the background.
    // A file whose embedding the person stopped stays paused there.
    this.placeMoved({ ...fromRecord(`m${++this.seq}`, sessionID, added), name });
    await this.load(sessionID);
    return true;
  }

  /**
   * placeMoved puts the row of a file that joined the library in place of
   * its conversation's rows of it (its progress, its note), unless the
   * window has the row already: the event (knowledge.added) and the
   * answer to Add to library both make it, in either order, and the one
   * made first may have moved on since (its meaning indexed).
   */
  private placeMoved(row: Pending): void {
    const same = (p: Pending) => p.session === row.session && row.movedID !== undefined && p.movedID === row.movedID;
    const mine = (p: Pending) => p.session === row.session && p.name === row.name && !p.error && !p.moved;
    const rest = this.pending.filter((p) => !mine(p));
    this.pending = rest.some(same) ? rest : [...rest, row];
  }
}

function base(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
