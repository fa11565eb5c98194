// The lines Wayfinder writes itself (a plan's introduction, a tool call's
// question, a cancelled plan, ...) are shown from their key
// (TurnResult.text_key) in the language chosen now, not as stored in the
// language of the moment they were written; a plan or tool call that was
// decided says so instead of asking still. The model's words are shown as
// written. Replies stored before lines had keys are recognised by their
// words, which the catalogs keep identical to the agent's (a Go test,
// TestWindowHasTheLines, holds them together).
import type { ApprovalAction, Message } from "../api/gotypes.gen";
import { everyLang, isKey, t, type MessageKey } from "../i18n/i18n.svelte";
import { toolLabel } from "../trace/labels";

/** The agent's lines without blanks (backend/agent/textkey.go), which words alone identify. */
const LINE_KEYS = ["plan_intro", "plan_fallback", "plan_again", "cancelled", "no_answer", "empty", "out_of_scope", "remember_failed"] as const;

/** The agent's lines with a blank, which their words around it identify. */
const BLANK_KEYS = ["tool_ask", "tool_again", "remembered"] as const;

/** pattern matches a line with {blanks} in it, capturing each blank. */
function pattern(words: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const src = words
    .split(/(\{\w+\})/)
    .map((part) => {
      const blank = /^\{(\w+)\}$/.exec(part);
      if (!blank) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(blank[1]!);
      return "([\\s\\S]+?)";
    })
    .join("");
  return { re: new RegExp(`^${src}$`), names };
}

/**
 * legacyKey recognises a line stored without a key by its words in either
 * language, with what fills its blanks (a tool's name, what to remember).
 */
function legacyKey(text: string): { key: MessageKey; args?: Record<string, string> } | undefined {
  for (const k of LINE_KEYS) {
    const key = `line.${k}` as MessageKey;
    if (everyLang(key).includes(text)) return { key };
  }
  for (const k of BLANK_KEYS) {
    const key = `line.${k}` as MessageKey;
    for (const words of everyLang(key)) {
      const { re, names } = pattern(words);
      const m = re.exec(text);
      if (m) return { key, args: Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])) };
    }
  }
  return undefined;
}

const decidedKeys: Record<string, MessageKey> = {
  approve: "line.plan_approved",
  revise: "line.plan_revised",
  cancel: "line.plan_cancelled",
};

/** decidedLine says what became of a plan that no longer waits. */
function decidedLine(decided: ApprovalAction | undefined): string {
  return t(decidedKeys[decided ?? ""] ?? "line.plan_closed");
}

/**
 * shownText is a reply's text as the window shows it: its app line
 * rendered now, in the current language. pending says whether the reply is
 * the question the conversation waits on.
 */
export function shownText(m: Message, pending: boolean): string {
  if (m.role !== "assistant" || m.status === "streaming") return m.content;
  const r = m.result;
  const said = r?.response || m.content;
  let line: string | undefined;
  if (r?.plan && !pending) line = decidedLine(r.plan.decided);
  else if (r?.tool_call && !pending) line = t("line.tool_decided", { tool: toolLabel(r.tool_call.tool) });
  else {
    const found = r?.text_key ? { key: `line.${r.text_key}`, args: r.text_args ?? undefined } : legacyKey(said);
    // A built-in tool by its name in words (파일 읽기), as the trace names it.
    const args = found?.args?.tool ? { ...found.args, tool: toolLabel(found.args.tool) } : found?.args;
    if (found && isKey(found.key)) line = t(found.key, args);
  }
  if (line === undefined) return m.content;
  if (!m.content || m.content === said) return line;
  // A reply offered again after a cut keeps what it had written before
  // its line (chat.Recover): only the line is the app's.
  if (said && m.content.endsWith(said)) return m.content.slice(0, m.content.length - said.length) + line;
  return m.content;
}

/** planTag is the state a plan card shows beside its title, if any. */
export function planTag(m: Message, pending: boolean, after: Message | undefined): MessageKey | undefined {
  const plan = m.result?.plan;
  if (!plan) return undefined;
  if (pending) return "plan.waiting";
  switch (plan.decided) {
    case "approve":
      if (after?.result?.plan?.again) return "plan.stoppedTag"; // its work was cut, and it is offered again
      if (!after || after.status === "streaming" || after.status === "awaiting_approval") return "plan.running";
      return after.status === "complete" ? "plan.done" : "plan.stoppedTag";
    case "cancel":
      return "plan.cancelledTag";
    case "revise":
      return "plan.revisedTag";
  }
  return undefined;
}

/** planSummary is the plan card's title key. */
export function planSummary(m: Message, pending: boolean): MessageKey {
  if (pending) return "plan.summary";
  return m.result?.plan?.decided === "approve" ? "plan.summaryApproved" : "plan.summaryClosed";
}
