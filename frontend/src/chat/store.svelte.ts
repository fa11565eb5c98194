// ChatStore holds the conversation the window shows and folds backend
// events into it (see reduce.ts for the rules).
import type { ChatApi } from "../api/chat";
import { parseError } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { ApprovalAction, ApprovalDecision, AttachmentImage, Message, PlanApproval, SendAck, Session, SubTask, ToolApproval } from "../api/gotypes.gen";
import { applyTrace, finishTrace, newTrace, type TraceOutcome, type TurnTrace } from "../trace/reduce";
import { applyProgress, newProgress, type Progress } from "./progress";
import { draftFrom, type PlanDecision, type PlanDraft } from "../plan/edit";
import type { ErrorInfo } from "../api/errors";
import type { Transport } from "../api/transport";
import { checkMessage } from "./input";
import {
  applyAck,
  applyApproval,
  applyAwaiting,
  applyToolApproval,
  applyFailed,
  applyRerun,
  lastTurn,
  pendingApproval,
  pendingToolCall,
  settleApproval,
  applyFinished,
  applyLoaded,
  applyTokens,
  applyTurnStarted,
  applyUpdated,
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
  /** progress of the replies being written, by assistant message id. */
  progress = $state<Record<string, Progress>>({});
  /** now is the clock (tests replace it). */
  now: () => number = () => Date.now();
  /** traces of turns seen live in this window, by assistant message id. */
  traces = $state<Record<string, TurnTrace>>({});
  /** deciding is true while a plan decision is on its way. */
  deciding = $state(false);
  decideError = $state<ErrorInfo | null>(null);

  /** planDrafts keep the person's edits of each pending plan (by message id). */
  planDrafts = $state<Record<string, PlanDraft>>({});
  /**
   * approvedSteps: the list the person approved, by session, so cards and
   * exports name the steps as edited (the stored plan is the proposal).
   */
  approvedSteps = $state<Record<string, SubTask[]>>({});
  /** newChatModel is the model picked for the new chat before its first message ("" = default). */
  newChatModel = $state("");
  /** modelError is a model switch the backend refused. */
  modelError = $state<ErrorInfo | null>(null);

  /** planHidden: plans the person put aside with "Decide later". */
  planHidden = $state<Record<string, boolean>>({});
  /** toolHidden: tool calls the person put aside with "Decide later". */
  toolHidden = $state<Record<string, boolean>>({});

  private turnToMessage = new Map<string, string>();

  /** ensureDraft creates the editable copy of a plan once. */
  ensureDraft(messageID: string, plan: PlanApproval): PlanDraft {
    return (this.planDrafts[messageID] ??= draftFrom(plan));
  }

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

  /** pending is the plan the open session waits on, if any. */
  get pending(): { message: Message; plan: PlanApproval } | undefined {
    return this.currentID ? pendingApproval(this.threads[this.currentID]) : undefined;
  }

  /** pendingTool is the tool call the open session waits on, if any. */
  get pendingTool(): { message: Message; call: ToolApproval } | undefined {
    return this.currentID ? pendingToolCall(this.threads[this.currentID]) : undefined;
  }

  /** last is the newest person message and its reply (regenerate, edit). */
  get last(): { user?: Message; reply?: Message } {
    return this.currentID ? lastTurn(this.threads[this.currentID]) : {};
  }

  /** liveTrace is the trace of the open session's newest reply. */
  get liveTrace(): TurnTrace | undefined {
    const id = this.last.reply?.id;
    return id ? this.traces[id] : undefined;
  }

  private startTrace(turnID: string, messageID: string): void {
    this.turnToMessage.set(turnID, messageID);
    if (!this.traces[messageID] || this.traces[messageID].turnID !== turnID) {
      this.traces[messageID] = newTrace(turnID);
      this.progress[messageID] = newProgress(this.now());
    }
  }

  private endTrace(turnID: string, outcome: TraceOutcome): void {
    const id = this.turnToMessage.get(turnID);
    const tr = id ? this.traces[id] : undefined;
    if (tr) finishTrace(tr, outcome);
  }

  listen(t: Transport): void {
    this.unsubs.push(
      subscribe(t, Events.TurnStarted, (ev) => {
        applyTurnStarted(this.threads, ev);
        this.startTrace(ev.turn_id, ev.assistant_message_id);
      }),
      subscribe(t, Events.Trace, (ev) => {
        let id = this.turnToMessage.get(ev.turn_id);
        if (!id) {
          // The trace started before this window saw the turn: attach it to
          // the reply that is streaming in that session.
          const streaming = streamingMessage(this.threads[ev.session_id]);
          if (!streaming) return;
          id = streaming.id;
          this.startTrace(ev.turn_id, id);
        }
        const tr = this.traces[id];
        if (tr) applyTrace(tr, ev);
        const p = this.progress[id];
        if (p) applyProgress(p, ev, this.now());
      }),
      subscribe(t, Events.Approval, (ev) => {
        this.coalescer.flush();
        applyApproval(this.threads, ev);
        this.endTrace(ev.turn_id, "waiting");
      }),
      subscribe(t, Events.ToolApproval, (ev) => {
        this.coalescer.flush();
        applyToolApproval(this.threads, ev);
        this.endTrace(ev.turn_id, "waiting");
      }),
      subscribe(t, Events.Token, (b) => this.coalescer.push(b)),
      subscribe(t, Events.TurnFinished, (ev) => {
        this.coalescer.flush();
        applyFinished(this.threads, ev);
        const waiting = ev.message.status === "awaiting_approval";
        this.endTrace(ev.turn_id, waiting ? "waiting" : ev.message.status === "interrupted" ? "stopped" : "complete");
        this.onTurnEnded();
      }),
      subscribe(t, Events.MessageUpdated, (ev) => applyUpdated(this.threads, ev)),
      subscribe(t, Events.TurnFailed, (ev) => {
        this.coalescer.flush();
        applyFailed(this.threads, ev);
        this.endTrace(ev.turn_id, "failed");
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
    this.decideError = null;
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

  /**
   * conversation returns the open conversation's id, first making one
   * (with the model picked for the new chat) when a new chat has none
   * yet: files attached before the first message need one to belong to.
   * It returns null, saying why, when it cannot be made.
   */
  async conversation(): Promise<string | null> {
    if (this.currentID) return this.currentID;
    this.creating ??= this.create().finally(() => (this.creating = null));
    return this.creating;
  }

  /** creating: the conversation being made for files attached to a new chat; Send waits for it. */
  private creating: Promise<string | null> | null = null;

  private async create(): Promise<string | null> {
    this.sendError = null;
    try {
      const s = await this.api.create(this.newChatModel);
      if (this.currentID) return this.currentID; // a first message made one meanwhile
      applyLoaded(this.threads, s.id, []);
      this.currentID = s.id;
      this.newChatModel = "";
      return s.id;
    } catch (e) {
      this.sendError = parseError(e);
      return null;
    }
  }

  newChat(): void {
    this.currentID = null;
    this.newChatModel = "";
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
      // Files attached to a new chat are making its conversation: the
      // message joins it rather than starting a second one.
      if (!this.currentID && this.creating) await this.creating;
      const opts = !this.currentID && this.newChatModel ? { model: this.newChatModel } : {};
      const ack = await this.api.send(this.currentID ?? "", text, opts);
      this.accepted(ack);
      this.currentID = ack.session_id;
      if (this.draft === text) this.draft = "";
      return true;
    } catch (e) {
      this.sendError = parseError(e);
      // Something waits that this window did not know of (decided
      // elsewhere, asked by `wayfinder ask`): show it, to decide on.
      const sid = this.currentID;
      if (sid && (this.sendError.code === "plan_waiting" || this.sendError.code === "tool_call_waiting")) void this.reload(sid);
      return false;
    } finally {
      this.sending = false;
    }
  }

  /** accepted shows a turn the backend took: its messages and its trace. */
  private accepted(ack: SendAck, rerun = false, replaced?: string): void {
    if (rerun) applyRerun(this.threads, ack, replaced);
    else applyAck(this.threads, ack);
    const th = this.threads[ack.session_id];
    if (th) th.loaded = true;
    this.startTrace(ack.turn_id, ack.assistant_message_id);
  }

  /**
   * decide answers the pending plan, naming the version it answers. The
   * dialog stays open (and everything typed in it stays) until the backend
   * accepted the decision.
   */
  async decide(decision: PlanDecision): Promise<boolean> {
    const p = this.pending;
    if (!p) return false;
    const ok = await this.sendDecision(p.message, { ...decision, version: p.plan.version });
    if (ok && decision.action === "approve" && this.currentID) this.approvedSteps[this.currentID] = decision.sub_tasks ?? p.plan.sub_tasks;
    return ok;
  }

  /** decideTool answers the pending tool call: run once, always, or deny. */
  decideTool(action: ApprovalAction): Promise<boolean> {
    const p = this.pendingTool;
    if (!p) return Promise.resolve(false);
    return this.sendDecision(p.message, { action, version: p.call.id });
  }

  /**
   * sendDecision sends a decision for what message asks. A refusal
   * because it no longer waits (another window or a re-plan was first)
   * brings what waits now: it replaces what this window showed, and the
   * session is reloaded, so the person decides on what is really there.
   */
  private async sendDecision(message: Message, decision: ApprovalDecision): Promise<boolean> {
    const sid = this.currentID;
    if (!sid || this.deciding) return false;
    this.deciding = true;
    this.decideError = null;
    try {
      const ack = await this.api.decide(sid, decision);
      settleApproval(this.threads, sid, message.id, decision);
      this.accepted(ack);
      return true;
    } catch (e) {
      const err = parseError(e);
      this.decideError = err;
      if (err.code === "plan_changed" || err.code === "tool_call_changed") {
        applyAwaiting(this.threads, sid, err.awaiting);
        void this.reload(sid);
      }
      return false;
    } finally {
      this.deciding = false;
    }
  }

  /**
   * setModel picks the chat model of the open conversation (kept with it;
   * its next turns use it) or of the new chat about to start. It returns
   * the updated conversation, or null for a new chat or a refusal.
   */
  async setModel(model: string): Promise<Session | null> {
    this.modelError = null;
    if (!this.currentID) {
      this.newChatModel = model;
      return null;
    }
    try {
      return await this.api.setModel(this.currentID, model);
    } catch (e) {
      this.modelError = parseError(e);
      return null;
    }
  }

  /** showVariant shows another answer to a message; the window's copy follows the backend's. */
  async showVariant(messageID: string, variantID: string): Promise<boolean> {
    if (!this.currentID || this.sending || this.streaming) return false;
    const id = this.currentID;
    try {
      const shown = await this.api.showVariant(id, messageID, variantID);
      const th = this.threads[id];
      const i = th?.messages.findIndex((m) => m.id === shown.id) ?? -1;
      if (th && i >= 0) th.messages[i] = shown;
      return true;
    } catch (e) {
      this.sendError = parseError(e);
      return false;
    }
  }

  /** reload fetches a session's messages again, keeping what is shown. */
  private async reload(id: string): Promise<void> {
    try {
      applyLoaded(this.threads, id, await this.api.messages(id));
    } catch {
      // What the refusal said is shown already; a later open reloads.
    }
  }

  /** regenerate answers the last person message again; the earlier answers stay as variants. */
  regenerate(): Promise<boolean> {
    return this.rerun((id) => this.api.regenerate(id));
  }

  /** editLast replaces the last person message with text and reruns it. */
  editLast(text: string): Promise<boolean> {
    if (!checkMessage(text).ok) return Promise.resolve(false);
    const replaced = this.currentID ? lastTurn(this.threads[this.currentID]).user?.id : undefined;
    return this.rerun((id) => this.api.editLast(id, text), replaced);
  }

  /** rerun replaces the current conversation's last turn by what call starts; replaced: the message an edit replaces. */
  private async rerun(call: (sessionID: string) => Promise<SendAck>, replaced?: string): Promise<boolean> {
    if (!this.currentID || this.sending || this.streaming) return false;
    this.sending = true;
    this.sendError = null;
    try {
      this.accepted(await call(this.currentID), true, replaced);
      return true;
    } catch (e) {
      this.sendError = parseError(e);
      return false;
    } finally {
      this.sending = false;
    }
  }

  /**
   * retry asks the person's message of a failed turn again. The last turn
   * is asked again in its place (editLast with the same words), so the
   * question is not shown twice; an older failed turn, with others after
   * it, is asked again at the end.
   */
  async retry(failed: Message): Promise<void> {
    const msgs = this.messages;
    const i = msgs.findIndex((m) => m.id === failed.id);
    // A decision is not a message to send again: the question before it is.
    const user = msgs.slice(0, i < 0 ? msgs.length : i).findLast((m) => m.role === "user" && !m.decision);
    if (!user) return;
    const last = this.currentID ? lastTurn(this.threads[this.currentID]) : {};
    if (last.user?.id === user.id && last.reply?.id === failed.id) await this.editLast(user.content);
    else await this.send(user.content);
  }

  /** attachment loads a tool's picture of the open conversation (an MCP tool's image). */
  attachment(name: string): Promise<AttachmentImage> {
    if (!this.currentID) return Promise.reject(new Error("no conversation is open"));
    return this.api.attachment(this.currentID, name);
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
