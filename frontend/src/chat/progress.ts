// What the assistant's message says while the model works: the phase
// (routing, planning, recommending, writing the guide), each sub-task
// being worked on ("Step 2 of 4: finding a tool for “Edit the video”…"),
// the time since it started, and the cards of the sub-tasks done so far.
// It is folded from the backend's trace events (their codes, see
// api.TraceCode), never guessed from timing. Several sub-tasks may be in
// flight at once (they are keyed by id), so a backend that recommends them
// in parallel needs no change here.
import type { Recommendation, TraceEvent } from "../api/gotypes.gen";
import { isKey, t } from "../i18n/i18n.svelte";
import { mcpReason, unreadableForm } from "../lib/mcpReason";
import { toolLabel } from "../trace/labels";

/** retryReason words a retried call's error code (model_retry's "error") in the person's language. */
function retryReason(code: string): string {
  const key = `error.${code}`;
  return isKey(key) ? t(key).replace(/[.。]$/, "") : code;
}

export type Phase = "starting" | "routing" | "planning" | "revising" | "answering" | "tool" | "recommending" | "guide";

export interface StepProgress {
  id: string;
  number: number;
  title: string;
  startedAt: number;
  /** missing: what the reviewer asked the scout to look for next. */
  missing?: string;
  /** doneAt is set once the step's card is in. */
  doneAt?: number;
}

export interface Progress {
  startedAt: number;
  phase: Phase;
  phaseAt: number;
  /** total is the number of sub-tasks of the approved plan (0 before). */
  total: number;
  steps: StepProgress[];
  /** cards of the finished sub-tasks, in the order they finished. */
  recommendations: Recommendation[];
  /** tool is the tool the answer is using now. */
  tool?: string;
  /** retry says the last model call failed and is being made again. */
  retry?: { error: string; at: number };
  /**
   * servers are the MCP servers starting for this turn (the first turn
   * that needs tools may wait up to 30 s for them), and those that did not
   * start, with why: the turn goes on without their tools.
   */
  servers: { server: string; at: number; error?: string; reason?: string; args?: Record<string, string>; invalid?: boolean }[];
  /**
   * unreadable: mcp.json could not be read at all (said once a turn): its
   * args (case, line, column, the servers kept from before the edit, and
   * the English error for the tooltip).
   */
  unreadable?: { args: Record<string, string>; at: number };
}

export function newProgress(startedAt: number): Progress {
  return { startedAt, phase: "starting", phaseAt: startedAt, total: 0, steps: [], recommendations: [], servers: [] };
}

function enter(p: Progress, phase: Phase, now: number): void {
  if (p.phase !== phase) {
    p.phase = phase;
    p.phaseAt = now;
  }
  p.retry = undefined;
}

function step(p: Progress, a: Record<string, string>, now: number): StepProgress {
  const id = a.id || `#${a.number}`;
  let s = p.steps.find((x) => x.id === id);
  if (!s) {
    s = { id, number: Number(a.number) || p.steps.length + 1, title: a.step ?? "", startedAt: now };
    p.steps.push(s);
    p.steps.sort((x, y) => x.number - y.number);
  }
  if (a.total) p.total = Number(a.total) || p.total;
  return s;
}

/** applyProgress folds one trace event into the progress. */
export function applyProgress(p: Progress, ev: TraceEvent, now: number): void {
  const a = ev.args ?? {};
  switch (ev.code) {
    case "routing":
      return enter(p, "routing", now);
    case "plan_splitting":
      return enter(p, "planning", now);
    case "plan_revising":
      return enter(p, "revising", now);
    case "plan_approved":
      p.total = Number(a.count) || p.total;
      return enter(p, "recommending", now);
    case "tool_finding":
      enter(p, "recommending", now);
      step(p, a, now);
      return;
    case "step_missing":
      step(p, a, now).missing = a.missing;
      return;
    case "step_recommend": {
      const s = step(p, a, now);
      s.doneAt = now;
      s.missing = undefined;
      const card = ev.recommendation;
      if (card && !p.recommendations.some((r) => r.subtask_id === card.subtask_id)) p.recommendations.push(card);
      return;
    }
    case "guide_writing":
      return enter(p, "guide", now);
    case "model_retry":
      p.retry = { error: a.error ?? "", at: now };
      return;
    case "mcp_starting":
      p.servers = [...p.servers.filter((s) => s.server !== a.server), { server: a.server ?? "", at: now }];
      return;
    case "mcp_started":
      p.servers = p.servers.filter((s) => s.server !== a.server);
      return;
    case "mcp_failed":
      // The reason in parts, worded when shown (in the language of then);
      // error: the backend's own text, for the tooltip.
      p.servers = p.servers.map((s) => (s.server === a.server ? { ...s, error: a.error ?? "", reason: a.reason, args: a, at: now } : s));
      return;
    case "mcp_unreadable":
      p.unreadable = { args: a, at: now };
      return;
    case "mcp_invalid":
      // Not started for the mistakes of its entry in mcp.json (said once a
      // turn); error: them in English, for the tooltip.
      p.servers = [...p.servers.filter((s) => s.server !== a.server), { server: a.server ?? "", error: a.error ?? "", invalid: true, at: now }];
      return;
  }
  if (ev.kind === "node_started" && (ev.node === "answer" || ev.node === "retrieve")) {
    p.tool = undefined;
    enter(p, "answering", now);
  } else if (ev.kind === "tool_selected" && ev.tool && !ev.code && p.phase !== "recommending") {
    p.tool = ev.tool;
    enter(p, "tool", now);
  }
}

/** elapsed is m:ss since a moment, for "· 0:12". */
export function elapsed(since: number, now: number): string {
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** inFlight are the sub-tasks started and not done, in plan order. */
export function inFlight(p: Progress): StepProgress[] {
  return p.steps.filter((s) => s.doneAt === undefined);
}

export interface ProgressLine {
  text: string;
  /** detail is the backend's own words behind the line (an MCP server's error), for its tooltip. */
  detail?: string;
  /** since is when what the line describes started, for its clock. */
  since: number;
}

/**
 * progressLines are the sentences the message shows now, in the UI's
 * language: one per sub-task in flight, else the phase's own; the count of
 * steps done while recommending; a retry when one is under way.
 */
export function progressLines(p: Progress | undefined, startedAt: number): ProgressLine[] {
  if (!p) return [{ text: t("chat.thinking"), since: startedAt }];
  const lines: ProgressLine[] = [];
  const total = String(p.total || p.steps.length);
  const running = inFlight(p);
  if (p.phase === "recommending" && running.length) {
    for (const s of running) {
      const args = { number: String(s.number), total, step: s.title, missing: s.missing ?? "" };
      lines.push({ text: s.missing ? t("progress.stepMissing", args) : t("progress.step", args), since: s.startedAt });
    }
  } else {
    lines.push({ text: phaseText(p), since: p.phaseAt });
  }
  const done = p.steps.length - running.length;
  if (p.total && done > 0 && p.phase === "recommending") {
    lines.push({ text: t("progress.stepsDone", { done: String(done), total }), since: p.startedAt });
  }
  if (p.retry) lines.push({ text: t("progress.retry", { error: retryReason(p.retry.error) }), since: p.retry.at });
  if (p.unreadable) {
    const key = `progress.mcpUnreadable${unreadableForm(p.unreadable.args)}`;
    const args = { line: "", column: "", servers: "", ...p.unreadable.args };
    lines.push({ text: t(isKey(key) ? key : "progress.mcpUnreadable", args), detail: p.unreadable.args.error, since: p.unreadable.at });
  }
  for (const s of p.servers) {
    if (s.invalid) {
      lines.push({ text: t("progress.mcpInvalid", { server: s.server }), detail: s.error, since: s.at });
      continue;
    }
    if (s.error === undefined) {
      lines.push({ text: t("progress.mcpStarting", { server: s.server }), since: s.at });
      continue;
    }
    // The English error never goes inside the sentence: the reason in
    // words does, and the error is the line's detail.
    lines.push({ text: t("progress.mcpFailed", { server: s.server, error: mcpReason(s.reason, s.args) || t("mcp.reason.failed") }), detail: s.error, since: s.at });
  }
  return lines;
}

function phaseText(p: Progress): string {
  switch (p.phase) {
    case "routing":
      return t("progress.routing");
    case "planning":
      return t("progress.planning");
    case "revising":
      return t("progress.revising");
    case "answering":
      return t("progress.answering");
    case "tool": {
      // A built-in tool says what it does, or else is named as the trace
      // names it (도구 목록 검색, not search_catalog); an MCP server's keeps its name.
      const key = `progress.using.${p.tool ?? ""}`;
      return isKey(key) ? t(key) : t("progress.tool", { tool: toolLabel(p.tool ?? "") });
    }
    case "guide":
      return t("progress.guide");
    case "recommending":
      return t("progress.recommending");
    default:
      return t("chat.thinking");
  }
}
