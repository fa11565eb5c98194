// ChatStore holds the conversation the window shows and folds backend
// events into it (see reduce.ts for the rules).
import type { ChatApi } from "../api/chat";
import { parseError } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { Message } from "../api/gotypes.gen";
import type { ErrorInfo } from "../api/errors";
import type { Transport } from "../api/transport";
import { checkMessage } from "./input";
import {
  applyAck,
  applyFailed,
  applyFinished,
  applyLoaded,
  applyTokens,
  applyTurnStarted,
  streamingMessage,
  TokenCoalescer,
  type Threads,
} from "./reduce";

export class ChatStore {
  threads = $state<Threads>({});
  /** currentID is null for a new chat that has no session yet. */
  currentID = $state<string | null>(null);
  draft = $state("");
  sending = $state(false);
  /** sendError is a Send that was refused; the draft is kept. */
  sendError = $state<ErrorInfo | null>(null);
  loading = $state(false);
  loadError = $state<ErrorInfo | null>(null);

  private coalescer: TokenCoalescer;
  private unsubs: Array<() => void> = [];

  constructor(
    private readonly api: ChatApi,
    private readonly onTurnEnded: (err?: ErrorInfo) => void = () => {},
    schedule: (fn: () => void) => void = (fn) => requestAnimationFrame(() => fn()),
  ) {
    this.coalescer = new TokenCoalescer((batches) => {
      for (const b of batches) applyTokens(this.threads, b);
    }, schedule);
  }

  get messages(): Message[] {
    return this.currentID ? (this.threads[this.currentID]?.messages ?? []) : [];
  }

  get streaming(): Message | undefined {
    return this.currentID ? streamingMessage(this.threads[this.currentID]) : undefined;
  }

  listen(t: Transport): void {
    this.unsubs.push(
      subscribe(t, Events.TurnStarted, (ev) => applyTurnStarted(this.threads, ev)),
      subscribe(t, Events.Token, (b) => this.coalescer.push(b)),
      subscribe(t, Events.TurnFinished, (ev) => {
        this.coalescer.flush();
        applyFinished(this.threads, ev);
        this.onTurnEnded();
      }),
      subscribe(t, Events.TurnFailed, (ev) => {
        this.coalescer.flush();
        applyFailed(this.threads, ev);
        this.onTurnEnded(ev.error);
      }),
      // Events sent while the stream was down are lost: reload what is shown.
      subscribe(t, Reconnected, () => {
        if (this.currentID) void this.open(this.currentID);
      }),
    );
  }

  close(): void {
    for (const u of this.unsubs.splice(0)) u();
  }

  /** open shows a stored session and loads its history. */
  async open(id: string): Promise<void> {
    this.currentID = id;
    this.sendError = null;
    this.loadError = null;
    this.loading = true;
    try {
      const stored = await this.api.messages(id);
      applyLoaded(this.threads, id, stored);
    } catch (e) {
      if (this.currentID === id) this.loadError = parseError(e);
    } finally {
      if (this.currentID === id) this.loading = false;
    }
  }

  newChat(): void {
    this.currentID = null;
    this.sendError = null;
    this.loadError = null;
  }

  /**
   * send starts a turn. The draft is cleared only once the backend accepted
   * the message, so nothing typed is lost when Send is refused.
   */
  async send(text: string = this.draft): Promise<boolean> {
    if (!checkMessage(text).ok || this.sending || this.streaming) return false;
    this.sending = true;
    this.sendError = null;
    try {
      const ack = await this.api.send(this.currentID ?? "", text);
      applyAck(this.threads, ack);
      const th = this.threads[ack.session_id];
      if (th) th.loaded = true;
      this.currentID = ack.session_id;
      if (this.draft === text) this.draft = "";
      return true;
    } catch (e) {
      this.sendError = parseError(e);
      return false;
    } finally {
      this.sending = false;
    }
  }

  /** retry resends the person's message of a failed turn. */
  async retry(failed: Message): Promise<void> {
    const msgs = this.messages;
    const i = msgs.findIndex((m) => m.id === failed.id);
    const user = msgs.slice(0, i < 0 ? msgs.length : i).findLast((m) => m.role === "user");
    if (user) await this.send(user.content);
  }

  async stop(): Promise<void> {
    if (!this.currentID || !this.streaming) return;
    try {
      await this.api.stop(this.currentID);
    } catch (e) {
      this.sendError = parseError(e);
    }
  }

  /** forget drops a deleted session from memory and leaves it if shown. */
  forget(id: string): void {
    delete this.threads[id];
    if (this.currentID === id) this.newChat();
  }
}
