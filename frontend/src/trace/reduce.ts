// Folds chat.trace events into what the live trace panel shows: the steps
// in order, the node running now (lit up in the workflow drawing) and the
// nodes already visited. Pure, so the ordering rules are unit-tested.
import type { Source, TraceCode, TraceEvent, TraceKind } from "../api/gotypes.gen";

export interface TraceStep {
  kind: TraceKind;
  node: string;
  text: string;
  /** code and args, when set, say text in the UI's language (labels.ts). */
  code?: TraceCode;
  args?: Record<string, string>;
  tool: string;
  sources: number;
}

export interface TurnTrace {
  turnID: string;
  steps: TraceStep[];
  /** active is the node running now; null between nodes and at the end. */
  active: string | null;
  visited: string[];
  sources: Source[];
  done: boolean;
  /** outcome says how a done turn ended: it did not always finish. */
  outcome?: TraceOutcome;
}

/** How a turn ended: answered, stopped by the person, failed, or waiting for a decision. */
export type TraceOutcome = "complete" | "stopped" | "failed" | "waiting";

/** Node boundaries light the drawing; they are not listed as steps. */
const boundary: ReadonlySet<TraceKind> = new Set(["node_started", "node_finished"]);

/** A turn keeps at most this many steps (a runaway loop must not grow forever). */
export const MAX_STEPS = 300;

export function newTrace(turnID: string): TurnTrace {
  return { turnID, steps: [], active: null, visited: [], sources: [], done: false };
}

export function applyTrace(tr: TurnTrace, ev: TraceEvent): void {
  if (ev.node && !tr.visited.includes(ev.node)) tr.visited.push(ev.node);
  if (ev.kind === "node_started") tr.active = ev.node;
  else if (ev.kind === "node_finished") {
    if (tr.active === ev.node) tr.active = null;
  } else if (ev.node) tr.active = ev.node;
  if (ev.sources?.length) {
    for (const s of ev.sources) if (!tr.sources.some((x) => x.id === s.id)) tr.sources.push(s);
  }
  if (boundary.has(ev.kind)) return;
  const last = tr.steps.at(-1);
  // "generating" arrives once per streamed section; one line is enough.
  if (last && ev.kind === "generating" && last.kind === "generating" && last.node === ev.node) return;
  const step: TraceStep = { kind: ev.kind, node: ev.node, text: ev.text ?? "", tool: ev.tool ?? "", sources: ev.sources?.length ?? 0 };
  if (ev.code) {
    step.code = ev.code;
    step.args = ev.args ?? {};
  }
  tr.steps.push(step);
  if (tr.steps.length > MAX_STEPS) tr.steps.splice(0, tr.steps.length - MAX_STEPS);
}

export function finishTrace(tr: TurnTrace, outcome: TraceOutcome = "complete"): void {
  tr.active = null;
  tr.done = true;
  tr.outcome = outcome;
}
