// FakeBackend is an in-memory stand-in for the Go services, used by unit
// tests and by the visual harness (mock.html). It implements Transport, so
// everything above the transport runs exactly as in the app.
import type { Transport } from "../api/transport";
import { ApiError } from "../api/errors";
import type {
  AppInfo,
  Message,
  ModelInfo,
  OllamaStatus,
  ErrorInfo,
  SendAck,
  Session,
  Settings,
} from "../api/gotypes.gen";

type Handler = (payload: unknown) => void;

export interface FakeOptions {
  reachable?: boolean;
  modelInstalled?: boolean;
  /** reply produces the assistant's text for a prompt. */
  reply?: (text: string) => string;
  /** tokenDelayMs between streamed chunks; 0 streams synchronously-ish. */
  tokenDelayMs?: number;
  settings?: Partial<Settings>;
  /** failWith ends every turn with this error after half the reply. */
  failWith?: ErrorInfo;
}

export class FakeBackend implements Transport {
  sessions: Session[] = [];
  messages = new Map<string, Message[]>();
  deleted = new Map<string, Session>();
  calls: Array<{ service: string; method: string; args: unknown[] }> = [];
  private handlers = new Map<string, Set<Handler>>();
  private seq = 0;
  private stopped = new Set<string>();
  settings: Settings;
  status: OllamaStatus;

  constructor(private readonly opts: FakeOptions = {}) {
    this.settings = {
      ollama_host: "http://127.0.0.1:11434",
      chat_model: "llama3.2:3b",
      embed_model: "bge-m3",
      language: "",
      theme: "system",
      max_iterations: 5,
      context_tokens: 8192,
      web_search_enabled: false,
      web_search_url: "",
      folders: [],
      ...opts.settings,
    };
    this.status = {
      host: this.settings.ollama_host,
      reachable: opts.reachable ?? true,
      version: "0.34.4",
      chat_model: { name: this.settings.chat_model, installed: opts.modelInstalled ?? true, capabilities: ["completion", "tools"] },
      embed_model: { name: this.settings.embed_model, installed: true, capabilities: ["embedding"] },
    };
  }

  private id(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  emit(event: string, payload: unknown): void {
    for (const h of this.handlers.get(event) ?? []) h(payload);
  }

  on<T>(event: string, handler: (payload: T) => void): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler as Handler);
    return () => set.delete(handler as Handler);
  }

  async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
    this.calls.push({ service, method, args });
    const fn = (this as unknown as Record<string, (...a: unknown[]) => unknown>)[`${service}.${method}`];
    if (!fn) throw new ApiError({ code: "internal", message: `no ${service}.${method}` });
    return (await fn.apply(this, args)) as T;
  }

  // --- ChatService ---
  "ChatService.ListSessions"(query: string): Session[] {
    const q = query.toLowerCase();
    return this.sessions
      .filter((s) => !q || s.title.toLowerCase().includes(q))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  }
  "ChatService.Messages"(id: string): Message[] {
    if (!this.messages.has(id)) throw new ApiError({ code: "not_found", message: "session not found" });
    return structuredClone(this.messages.get(id)!);
  }
  "ChatService.Send"(sessionID: string, text: string): SendAck {
    if (!text.trim()) throw new ApiError({ code: "empty_message", message: "message is empty" });
    if (!this.status.reachable)
      throw new ApiError({ code: "ollama_unreachable", message: "ollama is not reachable", hint: "ollama serve" });
    const now = new Date().toISOString();
    let sid = sessionID;
    if (!sid) {
      sid = this.id("s");
      this.sessions.push({ id: sid, title: text.slice(0, 40), created_at: now, updated_at: now, message_count: 0, pending_approval: false });
      this.messages.set(sid, []);
    }
    const user: Message = { id: this.id("m"), session_id: sid, role: "user", content: text, status: "complete", created_at: now };
    const asst: Message = { id: this.id("m"), session_id: sid, role: "assistant", content: "", status: "streaming", created_at: now };
    this.messages.get(sid)!.push(user, asst);
    const turn = this.id("t");
    const ack: SendAck = { session_id: sid, turn_id: turn, user_message: user, assistant_message_id: asst.id };
    setTimeout(() => this.stream(sid, turn, asst, text), 0);
    return ack;
  }
  "ChatService.Stop"(id: string): void {
    this.stopped.add(id);
  }
  "ChatService.Rename"(id: string, title: string): Session {
    const s = this.sessions.find((x) => x.id === id);
    if (!s) throw new ApiError({ code: "not_found", message: "session not found" });
    s.title = title;
    return { ...s };
  }
  "ChatService.Delete"(id: string): void {
    const s = this.sessions.find((x) => x.id === id);
    if (!s) throw new ApiError({ code: "not_found", message: "session not found" });
    this.sessions = this.sessions.filter((x) => x.id !== id);
    this.deleted.set(id, s);
  }
  "ChatService.Restore"(id: string): Session {
    const s = this.deleted.get(id);
    if (!s) throw new ApiError({ code: "not_found", message: "session not found" });
    this.deleted.delete(id);
    this.sessions.push(s);
    return { ...s };
  }

  // --- SettingsService ---
  "SettingsService.Get"(): Settings {
    return { ...this.settings };
  }
  "SettingsService.Save"(s: Settings): Settings {
    this.settings = { ...s };
    return { ...s };
  }
  "SettingsService.Status"(): OllamaStatus {
    return structuredClone(this.status);
  }
  "SettingsService.Models"(): ModelInfo[] {
    return [
      { name: "llama3.2:3b", size: 2_000_000_000, capabilities: ["completion", "tools"] },
      { name: "gemma3:1b", size: 800_000_000, capabilities: ["completion"] },
      { name: "bge-m3", size: 1_200_000_000, capabilities: ["embedding"] },
    ];
  }
  "SettingsService.Pull"(model: string): void {
    const total = 2_000_000_000;
    let done = 0;
    const tick = () => {
      done = Math.min(total, done + total / 5);
      const finished = done >= total;
      if (finished) this.status.chat_model.installed = true;
      this.emit("models.pull_progress", { model, status: finished ? "success" : "pulling manifest", completed: done, total, done: finished });
      if (!finished) setTimeout(tick, this.opts.tokenDelayMs ?? 20);
    };
    setTimeout(tick, 20);
  }
  "SettingsService.Info"(): AppInfo {
    return { version: "0.1.0-dev", data_dir: "/home/you/.local/share/wayfinder", mode: "serve", locale: "en" };
  }
  "SettingsService.Ready"(): void {
    this.readyCalls++;
  }
  /** How often the page reported Ready (it must, once, after mounting). */
  readyCalls = 0;

  private stream(sid: string, turn: string, asst: Message, prompt: string): void {
    const text = (this.opts.reply ?? ((p: string) => `You said: **${p}**`))(prompt);
    const user = this.messages.get(sid)!.at(-2)!;
    this.emit("chat.turn_started", { session_id: sid, turn_id: turn, user_message: user, assistant_message_id: asst.id });
    const parts = text.match(/.{1,12}/gs) ?? [];
    let i = 0;
    const next = () => {
      if (this.stopped.delete(sid)) return this.finish(sid, turn, asst, "interrupted");
      if (this.opts.failWith && i >= parts.length / 2) return this.fail(sid, turn, asst, this.opts.failWith);
      const part = parts[i++];
      if (part === undefined) return this.finish(sid, turn, asst, "complete");
      asst.content += part;
      this.emit("chat.token", { session_id: sid, turn_id: turn, message_id: asst.id, text: part });
      setTimeout(next, this.opts.tokenDelayMs ?? 0);
    };
    next();
  }

  private fail(sid: string, turn: string, asst: Message, error: ErrorInfo): void {
    asst.status = "error";
    asst.error = error;
    this.emit("chat.turn_failed", { session_id: sid, turn_id: turn, message: structuredClone(asst), error });
    this.emit("chat.sessions", { session_id: sid });
  }

  private finish(sid: string, turn: string, asst: Message, status: "complete" | "interrupted"): void {
    asst.status = status;
    const result = { response: asst.content, session_id: sid, tools_used: [], sources: [], llm_calls: 1, prompt_tokens: 42, completion_tokens: 17, execution_ms: 830 };
    asst.result = result;
    const s = this.sessions.find((x) => x.id === sid);
    if (s) {
      s.updated_at = new Date().toISOString();
      s.message_count = this.messages.get(sid)!.length;
    }
    this.emit("chat.turn_finished", { session_id: sid, turn_id: turn, message: structuredClone(asst), result });
    this.emit("chat.sessions", { session_id: sid });
  }
}
