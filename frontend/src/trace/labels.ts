// Words for the nodes of the workflow and the kinds of trace steps.
import { mcpReason, unreadableForm } from "../lib/mcpReason";
import type { TraceCode, TraceKind } from "../api/gotypes.gen";
import type { TraceStep } from "./reduce";
import { isKey, t, type MessageKey } from "../i18n/i18n.svelte";

const nodeKeys: Record<string, MessageKey> = {
  start: "trace.nodeStart",
  end: "trace.nodeEnd",
  load_context: "trace.nodeLoadContext",
  router: "trace.nodeRouter",
  retrieve: "trace.nodeRetrieve",
  answer: "trace.nodeAnswer",
  tools: "trace.nodeTools",
  planner: "trace.nodePlanner",
  approve_plan: "trace.nodeApprove",
  recommend: "trace.nodeRecommend",
  evaluate: "trace.nodeEvaluate",
  guide: "trace.nodeGuide",
  finish: "trace.nodeFinish",
};

/** nodeLabel names a node by its id, else its type, else shows the id. */
export function nodeLabel(id: string, type = ""): string {
  const key = nodeKeys[id] ?? nodeKeys[type] ?? (id.endsWith("_tools") ? nodeKeys.tools : undefined);
  return key ? t(key) : id;
}

const kindKeys: Record<TraceKind, MessageKey> = {
  node_started: "trace.kindNodeStarted",
  node_finished: "trace.kindNodeFinished",
  planning: "trace.kindPlanning",
  tool_selected: "trace.kindToolSelected",
  tool_result: "trace.kindToolResult",
  evaluation_result: "trace.kindEvaluation",
  generating: "trace.kindGenerating",
  sources: "trace.kindSources",
  retry: "trace.kindRetry",
};

export function kindLabel(kind: TraceKind): string {
  return t(kindKeys[kind] ?? "trace.kindPlanning");
}

/**
 * Where a kind of step happens: said again beside it, the node's name only
 * repeats the kind ("Tool · Tools read_file", "검토 검토"), so it is left out.
 */
const kindHome: Partial<Record<TraceKind, string>> = {
  tool_selected: "tools",
  tool_result: "tools",
  evaluation_result: "evaluate",
};

/**
 * stepPlace names the node a step happened at, or "" when that adds
 * nothing to the kind beside it: the kind's own node, or a node whose name
 * reads the same as the kind in the UI's language.
 */
export function stepPlace(s: Pick<TraceStep, "kind" | "node">): string {
  const place = nodeLabel(s.node);
  const home = kindHome[s.kind];
  if (home && (s.node === home || s.node.endsWith(`_${home}`))) return "";
  return place === kindLabel(s.kind) ? "" : place;
}

// Every code the backend can send has a sentence "trace.say.<code>": a new
// Go constant without one in the catalogs fails `npm run check`.
const everyCodeSaid: `trace.say.${TraceCode}` extends MessageKey ? true : never = true;
void everyCodeSaid;

/**
 * stepText is a step's detail in the UI's language: its coded sentence, or
 * the backend's text when it has no code (tool arguments and results) or a
 * code this build does not know yet.
 */
export function stepText(s: Pick<TraceStep, "text" | "code" | "args">): string {
  let key = `trace.say.${s.code}`;
  if (!s.code || !isKey(key)) return s.text;
  // mcp.json not read at all: where it is not JSON, and the servers kept.
  if (s.code === "mcp_unreadable" && isKey(key + unreadableForm(s.args))) key += unreadableForm(s.args);
  const args: Record<string, string> = {};
  for (const [name, value] of Object.entries(s.args ?? {})) args[name] = argText(name, value);
  // An MCP server that did not start: why, worded from its parts, not
  // the backend's English error (which the step's detail keeps).
  if (s.code === "mcp_failed") args.error = mcpReason(s.args?.reason, s.args) || t("mcp.reason.failed");
  return t(key as MessageKey, args);
}

/**
 * argText words a route or a router's reason ("simple", "short follow-up")
 * in the UI's language; other arguments (step titles, tool names, the
 * model's own reasons) are shown as they are.
 */
function argText(name: string, value: string): string {
  if (name !== "route" && name !== "reason") return value;
  const key = `trace.${name}.${value.replace(/[\s-]+/g, "_")}`;
  return isKey(key) ? t(key) : value;
}

/**
 * stepCause is the raw cause behind a worded step, shown muted under it
 * as errors are elsewhere (worded message first, raw cause apart): an MCP
 * server's own start error, or the mistakes of its entry in mcp.json (or
 * of the whole file), in the words Go or the server gave them. "" for a step without one.
 */
export function stepCause(s: Pick<TraceStep, "code" | "args">): string {
  if (s.code !== "mcp_failed" && s.code !== "mcp_invalid" && s.code !== "mcp_unreadable") return "";
  return s.args?.error?.trim() ?? "";
}
