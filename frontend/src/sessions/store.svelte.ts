// SessionsStore is the sidebar: the list, the search box, rename, and
// delete with a few seconds to undo (the backend deletes softly).
import type { ChatApi } from "../api/chat";
import type { SettingsApi } from "../api/settings";
import { saveMarkdown } from "../guide/save";
import { MAX_UPLOAD_BYTES } from "../knowledge/store.svelte";
import { lang, t } from "../i18n/i18n.svelte";
import { parseError } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { Session } from "../api/gotypes.gen";
import type { ErrorInfo } from "../api/errors";
import type { Transport } from "../api/transport";

export const UNDO_MS = 8000;

export class SessionsStore {
  list = $state<Session[]>([]);
  query = $state("");
  error = $state<ErrorInfo | null>(null);
  /** notice says what an export or an import did, for a moment. */
  notice = $state<string | null>(null);
  /** deleted is the session that can still be restored. */
  deleted = $state<Session | null>(null);
  private undoTimer: ReturnType<typeof setTimeout> | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  private seq = 0;

  constructor(private readonly api: ChatApi) {}

  listen(t: Transport): () => void {
    const offs = [
      subscribe(t, Events.Sessions, () => void this.refresh()),
      subscribe(t, Reconnected, () => void this.refresh()),
    ];
    return () => offs.forEach((off) => off());
  }

  async refresh(): Promise<void> {
    const mine = ++this.seq;
    try {
      const list = await this.api.listSessions(this.query.trim());
      if (mine === this.seq) {
        this.list = list;
        this.error = null;
      }
    } catch (e) {
      if (mine === this.seq) this.error = parseError(e);
    }
  }

  /** search refreshes after the person pauses typing. */
  search(q: string): void {
    this.query = q;
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => void this.refresh(), 200);
  }

  /** replace shows a conversation as the backend returned it (e.g. a new model). */
  replace(s: Session): void {
    this.list = this.list.map((x) => (x.id === s.id ? s : x));
  }

  /** rename titles a conversation; false when the backend refused the title (error says why). */
  async rename(id: string, title: string): Promise<boolean> {
    const clean = title.trim();
    if (!clean) return true;
    try {
      const s = await this.api.rename(id, clean);
      this.list = this.list.map((x) => (x.id === id ? s : x));
      return true;
    } catch (e) {
      this.error = parseError(e);
      return false;
    }
  }

  /**
   * dropIfBare deletes, quietly, a conversation left with nothing in it:
   * no title, no message, no file (made for files attached in a new chat
   * that all failed or were dismissed). keep says the window still has
   * something of it: a message on its way, a file being imported.
   */
  async dropIfBare(id: string, keep: boolean): Promise<void> {
    const s = this.list.find((x) => x.id === id);
    if (!s || keep || s.title || s.message_count > 0 || s.files?.length) return;
    try {
      await this.api.delete(id);
    } catch {
      return; // it stays in the list, as it was
    }
    await this.refresh();
  }

  async remove(id: string): Promise<boolean> {
    const s = this.list.find((x) => x.id === id);
    try {
      await this.api.delete(id);
    } catch (e) {
      this.error = parseError(e);
      return false;
    }
    this.list = this.list.filter((x) => x.id !== id);
    if (s) {
      if (this.undoTimer) clearTimeout(this.undoTimer);
      this.deleted = s;
      this.undoTimer = setTimeout(() => (this.deleted = null), UNDO_MS);
    }
    return true;
  }

  /** exportTo saves conversations (every one when ids is empty) as a file:
   * the save dialog in the desktop app, a download in the browser. */
  async exportTo(settings: SettingsApi, mode: string, ids: string[], format: "md" | "json"): Promise<void> {
    try {
      const file = await this.api.exportConversations(ids, format, lang());
      const r = await saveMarkdown(settings, mode, file.name, file.content, format === "json" ? "application/json" : "text/markdown");
      if (r.kind !== "cancelled") this.say(t("sessions.exported", { name: r.kind === "saved" ? r.path : r.name }));
    } catch (e) {
      this.error = parseError(e);
    }
  }

  /** importFile stores the conversations of a JSON export the person chose
   * and returns the id of the first one, to open it. */
  async importFile(file: File): Promise<string | null> {
    if (file.size > MAX_UPLOAD_BYTES) {
      this.error = { code: "invalid_input", message: t("sessions.importTooLarge", { name: file.name }) };
      return null;
    }
    try {
      const r = await this.api.importConversations(await file.text());
      await this.refresh();
      const parts = [t("sessions.imported", { count: r.conversations })];
      if (r.copies) parts.push(t("sessions.importedCopies", { count: r.copies }));
      if (r.unchanged) parts.push(t("sessions.importedUnchanged", { count: r.unchanged }));
      this.say(parts.join(" "));
      return r.sessions[0] ?? null;
    } catch (e) {
      const err = parseError(e);
      // The backend says what is wrong in English; the sentence around it
      // is the UI's own.
      if (err.code === "invalid_input") {
        const detail = err.message.replace(/^This file cannot be imported: /, "").replace(/\.$/, "");
        err.message = `${t("sessions.importRefused", { name: file.name })} (${detail})`;
      }
      this.error = err;
      return null;
    }
  }

  private noticeTimer: ReturnType<typeof setTimeout> | null = null;

  private say(text: string): void {
    if (this.noticeTimer) clearTimeout(this.noticeTimer);
    this.notice = text;
    this.noticeTimer = setTimeout(() => (this.notice = null), UNDO_MS);
  }

  async undo(): Promise<Session | null> {
    const s = this.deleted;
    if (!s) return null;
    if (this.undoTimer) clearTimeout(this.undoTimer);
    this.deleted = null;
    try {
      const restored = await this.api.restore(s.id);
      await this.refresh();
      return restored;
    } catch (e) {
      this.error = parseError(e);
      return null;
    }
  }
}
