// Typed client for the Go ChatService (bound in the desktop app, served
// under /api/ChatService/* by `wayfinder serve`).
import type { Transport } from "./transport";
import type { Message, SendAck, Session } from "./gotypes.gen";

const S = "ChatService";

export interface ChatApi {
  listSessions(query: string): Promise<Session[]>;
  messages(sessionID: string): Promise<Message[]>;
  /** send starts a turn; sessionID "" creates a new session. */
  send(sessionID: string, text: string): Promise<SendAck>;
  stop(sessionID: string): Promise<void>;
  rename(sessionID: string, title: string): Promise<Session>;
  /** delete is soft: restore undoes it. */
  delete(sessionID: string): Promise<void>;
  restore(sessionID: string): Promise<Session>;
}

export function chatApi(t: Transport): ChatApi {
  return {
    // Go encodes a nil slice as null; the UI always wants an array.
    listSessions: async (query) => (await t.call<Session[] | null>(S, "ListSessions", [query])) ?? [],
    messages: async (id) => (await t.call<Message[] | null>(S, "Messages", [id])) ?? [],
    send: (id, text) => t.call<SendAck>(S, "Send", [id, text]),
    stop: (id) => t.call<void>(S, "Stop", [id]),
    rename: (id, title) => t.call<Session>(S, "Rename", [id, title]),
    delete: (id) => t.call<void>(S, "Delete", [id]),
    restore: (id) => t.call<Session>(S, "Restore", [id]),
  };
}
