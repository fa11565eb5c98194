// Pure editing rules for the plan approval dialog: the person renames,
// rewrites, reorders, adds and removes sub-tasks; the result becomes an
// ApprovalDecision. Kept free of Svelte so every rule is unit-tested.
import type { ApprovalDecision, PlanApproval, SubTask } from "../api/gotypes.gen";

/** The agent accepts between these many sub-tasks (backend/agent validates too). */
export const MIN_STEPS = 1;
export const MAX_STEPS = 10;
export const MAX_TITLE = 200;
export const MAX_DETAIL = 2000;

/**
 * PlanDecision is what the dialog decides; the chat store adds the version
 * of the plan it answers before it sends it.
 */
export type PlanDecision = Omit<ApprovalDecision, "version">;

/** A DraftStep is a sub-task being edited; key is stable for the UI list. */
export interface DraftStep {
  key: string;
  /** id is the planner's id, "" for a step the person added. */
  id: string;
  title: string;
  detail: string;
}

export interface PlanDraft {
  steps: DraftStep[];
  feedback: string;
  /** next numbers keys of added steps. */
  next: number;
}

export function draftFrom(plan: PlanApproval): PlanDraft {
  const steps = (plan.sub_tasks ?? []).map((s, i) => ({ key: `k${i}`, id: s.id, title: s.title, detail: s.detail }));
  return { steps, feedback: "", next: steps.length };
}

/** move puts the step at index from at index to (clamped); returns the new index. */
export function move(d: PlanDraft, from: number, to: number): number {
  if (from < 0 || from >= d.steps.length) return from;
  const target = Math.max(0, Math.min(d.steps.length - 1, to));
  if (target === from) return from;
  const [step] = d.steps.splice(from, 1);
  d.steps.splice(target, 0, step!);
  return target;
}

/** add appends an empty step (or after index at) and returns its index. */
export function add(d: PlanDraft, at = d.steps.length - 1): number {
  const i = Math.max(0, Math.min(d.steps.length, at + 1));
  d.steps.splice(i, 0, { key: `k${d.next++}`, id: "", title: "", detail: "" });
  return i;
}

export function remove(d: PlanDraft, i: number): void {
  if (i >= 0 && i < d.steps.length) d.steps.splice(i, 1);
}

export type Problem =
  | { kind: "too_few" }
  | { kind: "too_many" }
  | { kind: "empty_title"; index: number }
  | { kind: "title_too_long"; index: number }
  | { kind: "detail_too_long"; index: number };

/** validate lists what keeps the edited plan from being approved. */
export function validate(d: PlanDraft): Problem[] {
  const out: Problem[] = [];
  if (d.steps.length < MIN_STEPS) out.push({ kind: "too_few" });
  if (d.steps.length > MAX_STEPS) out.push({ kind: "too_many" });
  d.steps.forEach((s, index) => {
    if (!s.title.trim()) out.push({ kind: "empty_title", index });
    else if (s.title.length > MAX_TITLE) out.push({ kind: "title_too_long", index });
    if (s.detail.length > MAX_DETAIL) out.push({ kind: "detail_too_long", index });
  });
  return out;
}

function sameSteps(a: SubTask[], b: SubTask[]): boolean {
  return a.length === b.length && a.every((s, i) => s.id === b[i]!.id && s.title === b[i]!.title && s.detail === b[i]!.detail);
}

/** edited is the draft as sub-tasks, trimmed; added steps carry id "". */
export function edited(d: PlanDraft): SubTask[] {
  return d.steps.map((s) => ({ id: s.id, title: s.title.trim(), detail: s.detail.trim() }));
}

/** changed says whether the person touched the list. */
export function changed(d: PlanDraft, plan: PlanApproval): boolean {
  return !sameSteps(edited(d), plan.sub_tasks ?? []);
}

/**
 * approval builds the approve decision: the edited list only when the
 * person changed something, so the backend keeps the plan as proposed
 * otherwise.
 */
export function approval(d: PlanDraft, plan: PlanApproval): PlanDecision {
  return changed(d, plan) ? { action: "approve", sub_tasks: edited(d) } : { action: "approve" };
}

/** revision asks the planner again with the feedback (required). */
export function revision(d: PlanDraft): PlanDecision | null {
  const feedback = d.feedback.trim();
  return feedback ? { action: "revise", feedback } : null;
}

export const cancellation: PlanDecision = { action: "cancel" };
