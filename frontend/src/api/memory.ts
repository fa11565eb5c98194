// Typed client for the Go MemoryService: everything Wayfinder remembers,
// visible and removable by the person.
import type { Transport } from "./transport";
import type { Memory, MemoryKind } from "./gotypes.gen";

const S = "MemoryService";

export interface MemoryApi {
  list(): Promise<Memory[]>;
  add(text: string, kind: MemoryKind): Promise<Memory>;
  edit(id: string, text: string, kind: MemoryKind): Promise<Memory>;
  remove(id: string): Promise<void>;
  removeAll(): Promise<void>;
}

export function memoryApi(t: Transport): MemoryApi {
  return {
    list: async () => (await t.call<Memory[] | null>(S, "List", [])) ?? [],
    add: (text, kind) => t.call<Memory>(S, "Add", [text, kind]),
    edit: (id, text, kind) => t.call<Memory>(S, "Edit", [id, text, kind]),
    remove: (id) => t.call<void>(S, "Delete", [id]),
    removeAll: () => t.call<void>(S, "DeleteAll", []),
  };
}
