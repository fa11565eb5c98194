// Typed client for the Go ChatService (bound in the desktop app, served
// under /api/ChatService/* by `wayfinder serve`).
import type { Transport } from "./transport";
import type { ApprovalDecision, AttachmentImage, ConversationSettings, ExportFile, ImportResult, Message, SendAck, SendOptions, Session } from "./gotypes.gen";

const S = "ChatService";

export interface ChatApi {
  listSessions(query: string): Promise<Session[]>;
  messages(sessionID: string): Promise<Message[]>;
  /** create starts an empty conversation (files attached in a new chat); its first message titles it. */
  create(model: string): Promise<Session>;
  /** send starts a turn; sessionID "" creates a new session (with opts.model as its model). */
  send(sessionID: string, text: string, opts?: SendOptions): Promise<SendAck>;
  /** setSettings sets a conversation's own settings (unset fields follow the global ones). */
  setSettings(sessionID: string, settings: ConversationSettings): Promise<Session>;
  /** setModel sets the chat model of a conversation ("" for the default). */
  setModel(sessionID: string, model: string): Promise<Session>;
  /**
   * decide answers the plan or tool call the session is waiting on (the
   * decision's version names which); it starts a turn.
   */
  decide(sessionID: string, decision: ApprovalDecision): Promise<SendAck>;
  /** showVariant shows another answer to a message in its place; later turns continue from it. */
  showVariant(sessionID: string, messageID: string, variantID: string): Promise<Message>;
  /** regenerate answers the last user message again; the earlier answers become variants. */
  regenerate(sessionID: string): Promise<SendAck>;
  /** editLast replaces the last user message and reruns it. */
  editLast(sessionID: string, text: string): Promise<SendAck>;
  stop(sessionID: string): Promise<void>;
  rename(sessionID: string, title: string): Promise<Session>;
  /** delete is soft: restore undoes it. */
  delete(sessionID: string): Promise<void>;
  restore(sessionID: string): Promise<Session>;
  /** exportConversations writes conversations (all of them when ids is empty) as Markdown ("md") or JSON ("json"). */
  exportConversations(ids: string[], format: "md" | "json", lang: string): Promise<ExportFile>;
  /** importConversations stores the conversations of a JSON export. */
  importConversations(content: string): Promise<ImportResult>;
  /**
   * attachment is a tool's picture in a conversation as a data: URL; the
   * backend gives only PNG/JPEG/GIF/WebP images, sniffed, of at most 8 MB.
   */
  attachment(sessionID: string, name: string): Promise<AttachmentImage>;
}

export function chatApi(t: Transport): ChatApi {
  return {
    // Go encodes a nil slice as null; the UI always wants an array.
    listSessions: async (query) => (await t.call<Session[] | null>(S, "ListSessions", [query])) ?? [],
    messages: async (id) => (await t.call<Message[] | null>(S, "Messages", [id])) ?? [],
    create: (model) => t.call<Session>(S, "Create", [model]),
    send: (id, text, opts = {}) => t.call<SendAck>(S, "Send", [id, text, opts]),
    setModel: (id, model) => t.call<Session>(S, "SetModel", [id, model]),
    setSettings: (id, cs) => t.call<Session>(S, "SetSettings", [id, cs]),
    decide: (id, decision) => t.call<SendAck>(S, "Decide", [id, decision]),
    regenerate: (id) => t.call<SendAck>(S, "Regenerate", [id]),
    showVariant: (id, messageID, variantID) => t.call<Message>(S, "ShowVariant", [id, messageID, variantID]),
    editLast: (id, text) => t.call<SendAck>(S, "EditLast", [id, text]),
    stop: (id) => t.call<void>(S, "Stop", [id]),
    rename: (id, title) => t.call<Session>(S, "Rename", [id, title]),
    delete: (id) => t.call<void>(S, "Delete", [id]),
    restore: (id) => t.call<Session>(S, "Restore", [id]),
    exportConversations: (ids, format, lang) => t.call<ExportFile>(S, "Export", [ids, format, lang]),
    importConversations: (content) => t.call<ImportResult>(S, "Import", [content]),
    attachment: (id, name) => t.call<AttachmentImage>(S, "Attachment", [id, name]),
  };
}
