// MemoryStore: every long-term memory, so the person sees and controls
// all Wayfinder remembers (edit, delete one, forget everything).
import { parseError, type ErrorInfo } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { Memory, MemoryKind } from "../api/gotypes.gen";
import type { MemoryApi } from "../api/memory";
import type { Transport } from "../api/transport";

export const KINDS: MemoryKind[] = ["preference", "fact", "feedback"];
/** The backend's limit (backend/memory MaxTextLen): a sentence, not a document. */
export const MAX_MEMORY_CHARS = 500;

export function checkMemory(text: string): "ok" | "empty" | "too_long" {
  const s = text.trim();
  if (!s) return "empty";
  if (s.length > MAX_MEMORY_CHARS) return "too_long";
  return "ok";
}

export class MemoryStore {
  items = $state<Memory[]>([]);
  loading = $state(false);
  loaded = $state(false);
  error = $state<ErrorInfo | null>(null);
  busy = $state(false);

  constructor(private readonly api: MemoryApi) {}

  listen(t: Transport): () => void {
    const offs = [
      subscribe(t, Events.Memories, () => void this.load()),
      subscribe(t, Reconnected, () => void this.load()),
    ];
    return () => offs.forEach((o) => o());
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const list = await this.api.list();
      this.items = [...list].sort((a, b) => (b.updated_at || b.created_at).localeCompare(a.updated_at || a.created_at));
      this.error = null;
      this.loaded = true;
    } catch (e) {
      this.error = parseError(e);
    } finally {
      this.loading = false;
    }
  }

  private async run(fn: () => Promise<void>): Promise<boolean> {
    this.busy = true;
    try {
      await fn();
      this.error = null;
      return true;
    } catch (e) {
      this.error = parseError(e);
      return false;
    } finally {
      this.busy = false;
    }
  }

  add(text: string, kind: MemoryKind): Promise<boolean> {
    return this.run(async () => {
      const m = await this.api.add(text.trim(), kind);
      this.items = [m, ...this.items.filter((x) => x.id !== m.id)];
    });
  }

  edit(id: string, text: string, kind: MemoryKind): Promise<boolean> {
    return this.run(async () => {
      const m = await this.api.edit(id, text.trim(), kind);
      this.items = this.items.map((x) => (x.id === id ? m : x));
    });
  }

  remove(id: string): Promise<boolean> {
    return this.run(async () => {
      await this.api.remove(id);
      this.items = this.items.filter((x) => x.id !== id);
    });
  }

  removeAll(): Promise<boolean> {
    return this.run(async () => {
      await this.api.removeAll();
      this.items = [];
    });
  }
}
