// FakeMemory adds the MemoryService: what Wayfinder remembers.
import type { Memory, MemoryKind } from "../../api/gotypes.gen";
import { ApiError } from "../../api/errors";
import { FakeSettings } from "./settings";

export class FakeMemory extends FakeSettings {
  memories: Memory[] = [];

  "MemoryService.List"(): Memory[] {
    return structuredClone(this.memories);
  }
  "MemoryService.Add"(text: string, kind: MemoryKind): Memory {
    const now = new Date().toISOString();
    const m: Memory = { id: this.id("mem"), text, kind, origin: "edited", created_at: now, updated_at: now };
    this.memories.push(m);
    return { ...m };
  }
  "MemoryService.Edit"(id: string, text: string, kind: MemoryKind): Memory {
    const m = this.memories.find((x) => x.id === id);
    if (!m) throw new ApiError({ code: "not_found", message: "memory not found" });
    Object.assign(m, { text, kind, origin: "edited", updated_at: new Date().toISOString() });
    return { ...m };
  }
  "MemoryService.Delete"(id: string): void {
    this.memories = this.memories.filter((x) => x.id !== id);
  }
  "MemoryService.DeleteAll"(): void {
    this.memories = [];
  }
}
