// SessionsStore is the sidebar: the list, the search box, rename, and
// delete with a few seconds to undo (the backend deletes softly).
import type { ChatApi } from "../api/chat";
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

  async rename(id: string, title: string): Promise<void> {
    const clean = title.trim();
    if (!clean) return;
    try {
      const s = await this.api.rename(id, clean);
      this.list = this.list.map((x) => (x.id === id ? s : x));
    } catch (e) {
      this.error = parseError(e);
    }
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
