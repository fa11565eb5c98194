// Typed client for the Go ChatService (bound in the desktop app, served
// under /api/ChatService/* by `wayfinder serve`).
import type { Transport } from "./transport";
import type { ApprovalDecision, Message, SendAck, Session } from "./gotypes.gen";

const S = "ChatService";

export interface ChatApi {
  listSessions(query: string): Promise<Session[]>;
  messages(sessionID: string): Promise<Message[]>;
  /** send starts a turn; sessionID "" creates a new session. */
  send(sessionID: string, text: string): Promise<SendAck>;
  /** decide answers the plan the session is waiting on; it starts a turn. */
  decide(sessionID: string, decision: ApprovalDecision): Promise<SendAck>;
  /** regenerate reruns the last user message, replacing the reply. */
  regenerate(sessionID: string): Promise<SendAck>;
  /** editLast replaces the last user message and reruns it. */
  editLast(sessionID: string, text: string): Promise<SendAck>;
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
    decide: (id, decision) => t.call<SendAck>(S, "Decide", [id, decision]),
    regenerate: (id) => t.call<SendAck>(S, "Regenerate", [id]),
    editLast: (id, text) => t.call<SendAck>(S, "EditLast", [id, text]),
    stop: (id) => t.call<void>(S, "Stop", [id]),
    rename: (id, title) => t.call<Session>(S, "Rename", [id, title]),
    delete: (id) => t.call<void>(S, "Delete", [id]),
    restore: (id) => t.call<Session>(S, "Restore", [id]),
  };
}
