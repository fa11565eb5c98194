// Pure state transitions for the chat: backend events and Send replies are
// folded into per-session message lists. Kept free of Svelte so the tricky
// ordering cases (tokens before TurnStarted, a reload mid-stream, events for
// a session the window is not showing) are tested directly.
import type {
  ApprovalDecision,
  ApprovalRequired,
  Awaiting,
  Message,
  MessageUpdated,
  PlanApproval,
  ToolApproval,
  ToolApprovalRequired,
  SendAck,
  TurnResult,
  TokenBatch,
  TurnFailed,
  TurnFinished,
  TurnStarted,
} from "../api/gotypes.gen";

export interface Thread {
  messages: Message[];
  /** loaded is true once Messages() answered for this session. */
  loaded: boolean;
}

export type Threads = Record<string, Thread>;

function thread(threads: Threads, sessionID: string): Thread {
  let th = threads[sessionID];
  if (!th) {
    th = { messages: [], loaded: false };
    threads[sessionID] = th;
  }
  return th;
}

function upsert(th: Thread, msg: Message): void {
  const i = th.messages.findIndex((m) => m.id === msg.id);
  if (i >= 0) th.messages[i] = msg;
  else th.messages.push(msg);
}

function placeholder(sessionID: string, id: string): Message {
  return {
    id,
    session_id: sessionID,
    role: "assistant",
    content: "",
    status: "streaming",
    created_at: new Date().toISOString(),
  };
}

/**
 * applyAck records the person's message and an empty streaming reply. A
 * reply to a message already shown (Regenerate) keeps the answers it had
 * as the new reply's variants, as the backend stores them.
 */
export function applyAck(threads: Threads, ack: SendAck): void {
  const th = thread(threads, ack.session_id);
  const at = th.messages.findIndex((m) => m.id === ack.user_message.id);
  let earlier: Message[] = [];
  if (at >= 0) {
    const after = th.messages.slice(at + 1);
    earlier = after.filter((m) => m.role === "assistant" && m.id !== ack.assistant_message_id);
    if (earlier.length) th.messages = th.messages.filter((m) => !earlier.includes(m));
  }
  upsert(th, ack.user_message);
  if (!th.messages.some((m) => m.id === ack.assistant_message_id)) {
    const reply = placeholder(ack.session_id, ack.assistant_message_id);
    if (earlier.length) reply.variants = asVariants(earlier);
    th.messages.push(reply);
  }
}

/** asVariants flattens answers (and the variants they had) into one list, oldest first. */
function asVariants(answers: Message[]): Message[] {
  const all = answers.flatMap((m) => [...(m.variants ?? []), { ...m, variants: undefined }]);
  return all.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** keepVariants: a final message from an event does not repeat the variants the window holds. */
function keepVariants(th: Thread, msg: Message): Message {
  if (msg.variants) return msg;
  const prev = th.messages.find((m) => m.id === msg.id);
  return prev?.variants ? { ...msg, variants: prev.variants } : msg;
}

/** variantsInOrder are a reply and its variants, oldest first, and where the reply is among them. */
export function variantsInOrder(m: Message): { all: Message[]; at: number } {
  if (!m.variants?.length) return { all: [m], at: 0 };
  const all = [...m.variants, m].sort((a, b) => a.created_at.localeCompare(b.created_at));
  return { all, at: all.indexOf(m) };
}

export function applyTurnStarted(threads: Threads, ev: TurnStarted): void {
  applyAck(threads, ev);
}

/** applyTokens appends streamed text; unknown message ids get a placeholder. */
export function applyTokens(threads: Threads, batch: TokenBatch): void {
  const th = thread(threads, batch.session_id);
  let msg = th.messages.find((m) => m.id === batch.message_id);
  if (!msg) {
    msg = placeholder(batch.session_id, batch.message_id);
    th.messages.push(msg);
  }
  if (msg.status !== "streaming") return; // a late batch after the final message
  msg.content += batch.text;
}

/** applyFinished replaces the streamed text with the stored message. */
export function applyFinished(threads: Threads, ev: TurnFinished): void {
  const th = thread(threads, ev.session_id);
  upsert(th, keepVariants(th, { ...ev.message, result: ev.message.result ?? ev.result }));
}

/**
 * applyUpdated takes a stored message that changed after its turn (the
 * model calls made after the answer, added to its result). A session this
 * window has not loaded is left alone: it reads the message when it does.
 */
export function applyUpdated(threads: Threads, ev: MessageUpdated): void {
  const th = threads[ev.session_id];
  const i = th ? th.messages.findIndex((m) => m.id === ev.message.id) : -1;
  if (th && i >= 0 && th.messages[i]!.status !== "streaming") th.messages[i] = ev.message;
}

/** applyFailed keeps any partial reply and attaches the error to it. */
export function applyFailed(threads: Threads, ev: TurnFailed): void {
  const th = thread(threads, ev.session_id);
  const prev = th.messages.find((m) => m.id === ev.message.id);
  const content = ev.message.content || prev?.content || "";
  upsert(th, keepVariants(th, { ...ev.message, content, status: "error", error: ev.message.error ?? ev.error }));
}

/**
 * applyLoaded installs the stored history. A reply still streaming keeps
 * whichever text is longer: batches may have arrived before the fetch did.
 */
export function applyLoaded(threads: Threads, sessionID: string, stored: Message[]): void {
  const th = thread(threads, sessionID);
  const live = new Map(th.messages.map((m) => [m.id, m]));
  const merged = stored.map((m) => {
    const l = live.get(m.id);
    if (l && m.status === "streaming" && l.status === "streaming" && l.content.length > m.content.length) {
      return { ...m, content: l.content };
    }
    if (l && l.status !== "streaming" && m.status === "streaming") return l;
    return m;
  });
  const storedIDs = new Set(stored.map((m) => m.id));
  for (const m of th.messages) if (!storedIDs.has(m.id)) merged.push(m);
  th.messages = merged;
  th.loaded = true;
}

/** streamingMessage is the reply still being written, if any. */
export function streamingMessage(th: Thread | undefined): Message | undefined {
  return th?.messages.findLast((m) => m.role === "assistant" && m.status === "streaming");
}

/**
 * TokenCoalescer merges token batches that arrive within one frame into one
 * state update, so a fast stream re-renders Markdown at most once per frame.
 */
export class TokenCoalescer {
  private pending = new Map<string, TokenBatch>();
  private scheduled = false;

  constructor(
    private readonly flushTo: (batches: TokenBatch[]) => void,
    private readonly schedule: (fn: () => void) => void,
  ) {}

  push(b: TokenBatch): void {
    const prev = this.pending.get(b.message_id);
    if (prev) prev.text += b.text;
    else this.pending.set(b.message_id, { ...b });
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** flush applies everything pending now (also before a final message). */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const batches = [...this.pending.values()];
    this.pending.clear();
    this.flushTo(batches);
  }
}

/**
 * applyApproval marks the reply that carries a proposed plan as waiting for
 * the person (the event can arrive before or after turn_finished).
 */
export function applyApproval(threads: Threads, ev: ApprovalRequired): void {
  const th = thread(threads, ev.session_id);
  let msg = th.messages.find((m) => m.id === ev.message_id);
  if (!msg) {
    msg = placeholder(ev.session_id, ev.message_id);
    th.messages.push(msg);
  }
  msg.status = "awaiting_approval";
  msg.result = { ...emptyResult(ev.session_id), ...msg.result, plan: ev.approval, tool_call: null };
}

/** applyToolApproval marks the reply that asks to run a tool call as waiting. */
export function applyToolApproval(threads: Threads, ev: ToolApprovalRequired): void {
  const th = thread(threads, ev.session_id);
  let msg = th.messages.find((m) => m.id === ev.message_id);
  if (!msg) {
    msg = placeholder(ev.session_id, ev.message_id);
    th.messages.push(msg);
  }
  msg.status = "awaiting_approval";
  msg.result = { ...emptyResult(ev.session_id), ...msg.result, tool_call: ev.tool_call, plan: null };
}

/**
 * applyAwaiting installs what a refused decision says the session waits for
 * now, so the dialog shows the current plan or call at once; nothing
 * waiting closes what this window still showed as waiting.
 */
export function applyAwaiting(threads: Threads, sessionID: string, aw: Awaiting | null | undefined): void {
  const th = thread(threads, sessionID);
  if (!aw) {
    for (const m of th.messages) if (m.status === "awaiting_approval") m.status = "complete";
    return;
  }
  if (aw.plan) applyApproval(threads, { session_id: sessionID, turn_id: "", message_id: aw.message_id, approval: aw.plan });
  else if (aw.tool_call) applyToolApproval(threads, { session_id: sessionID, turn_id: "", message_id: aw.message_id, tool_call: aw.tool_call });
}

function emptyResult(sessionID: string): TurnResult {
  return { response: "", session_id: sessionID, tools_used: [], sources: [], llm_calls: 0, prompt_tokens: 0, completion_tokens: 0, execution_ms: 0 };
}

/** pendingToolCall is the tool call the session waits on, in its newest reply. */
export function pendingToolCall(th: Thread | undefined): { message: Message; call: ToolApproval } | undefined {
  const last = th?.messages.findLast((m) => m.role === "assistant");
  if (!last || last.status !== "awaiting_approval" || !last.result?.tool_call) return undefined;
  return { message: last, call: last.result.tool_call };
}

/** pendingApproval is the plan the session waits on: only the newest reply can hold one. */
export function pendingApproval(th: Thread | undefined): { message: Message; plan: PlanApproval } | undefined {
  const last = th?.messages.findLast((m) => m.role === "assistant");
  if (!last || last.status !== "awaiting_approval" || !last.result?.plan) return undefined;
  return { message: last, plan: last.result.plan };
}

/**
 * settleApproval closes a plan or tool call once a decision was accepted.
 * A plan keeps the decision and the steps as approved, edits included, as
 * the backend stores them, so its card shows what is carried out.
 */
export function settleApproval(threads: Threads, sessionID: string, messageID: string, decision?: ApprovalDecision): void {
  const msg = threads[sessionID]?.messages.find((m) => m.id === messageID);
  if (!msg || msg.status !== "awaiting_approval") return;
  msg.status = "complete";
  const plan = msg.result?.plan;
  if (plan && decision && msg.result) {
    const edited = decision.action === "approve" && decision.sub_tasks?.length;
    msg.result = { ...msg.result, plan: { ...plan, decided: decision.action, sub_tasks: edited ? [...decision.sub_tasks!] : plan.sub_tasks } };
  }
}

/**
 * applyRerun installs the ack of Regenerate or EditLast: a new answer to
 * the last message, or a new last message and its answer. replaced is the
 * message an edit replaces (the last person message when the edit was
 * asked for): the backend deleted it and what followed, so the window
 * drops them too. The turn's own announcement (chat.turn_started) comes
 * before the ack — the backend sends it while the call is still open — so
 * the new message may be the last one already: "the last person message"
 * at ack time is not the one replaced.
 */
export function applyRerun(threads: Threads, ack: SendAck, replaced?: string): void {
  const th = thread(threads, ack.session_id);
  const i = replaced ? th.messages.findIndex((m) => m.id === replaced) : th.messages.findLastIndex((m) => m.role === "user");
  // Regenerate answers the same message again (its answers become
  // variants, see applyAck); EditLast replaces it.
  if (i >= 0 && th.messages[i]!.id !== ack.user_message.id) {
    const ours = new Set([ack.user_message.id, ack.assistant_message_id]);
    th.messages = [...th.messages.slice(0, i), ...th.messages.slice(i).filter((m) => ours.has(m.id))];
  }
  applyAck(threads, ack);
}

/** lastTurn is the newest person message and the reply after it, if any. */
export function lastTurn(th: Thread | undefined): { user?: Message; reply?: Message } {
  const msgs = th?.messages ?? [];
  const i = msgs.findLastIndex((m) => m.role === "user");
  if (i < 0) return {};
  return { user: msgs[i], reply: msgs.slice(i + 1).findLast((m) => m.role === "assistant") };
}
