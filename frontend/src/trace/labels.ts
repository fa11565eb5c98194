// Words for the nodes of the workflow and the kinds of trace steps.
import { mcpReason, unreadableForm } from "../lib/mcpReason";
import type { TraceCode, TraceKind } from "../api/gotypes.gen";
import type { TraceStep } from "./reduce";
import { isKey, lang, t, type MessageKey } from "../i18n/i18n.svelte";

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
export function stepText(s: Pick<TraceStep, "text" | "code" | "args"> & { kind?: TraceKind; tool?: string }): string {
  let key = `trace.say.${s.code}`;
  if (!s.code && s.kind === "tool_selected") return callArgs(s.text, s.tool ?? "");
  if (!s.code || !isKey(key)) return s.text;
  // mcp.json not read at all: where it is not JSON, and the servers kept.
  if (s.code === "mcp_unreadable" && isKey(key + unreadableForm(s.args))) key += unreadableForm(s.args);
  const args: Record<string, string> = {};
  for (const [name, value] of Object.entries(s.args ?? {})) args[name] = argText(name, value);
  // An MCP server that did not start: why, worded from its parts, not
  // the backend's English error (which the step's detail keeps).
  if (s.code === "mcp_failed") args.error = mcpReason(s.args?.reason, s.args) || t("mcp.reason.failed");
  if (s.code === "time_told") args.time = clockTime(s.args?.time ?? "");
  // A failed model call's cause comes as an error code (stream_dropped):
  // worded, never the code itself on screen.
  if (s.code === "model_retry") args.error = failWhy(s.args?.error);
  if (s.code === "model_fallback") args.reason = failWhy(s.args?.reason);
  return t(key as MessageKey, args);
}

/**
 * failWhy words the error code of a failed model call ("the reply was cut
 * off" for stream_dropped), or says "an error" for a code without words,
 * so that no raw code reaches the screen.
 */
function failWhy(code: string | undefined): string {
  const key = `trace.why.${code ?? ""}`;
  return t(isKey(key) ? key : "trace.why.other");
}

/**
 * toolLabel names a built-in tool in the UI's language ("문서 검색" for
 * retrieve_docs); another (an MCP server's) keeps its own name.
 */
export function toolLabel(name: string): string {
  const key = `trace.tool.${name}`;
  return isKey(key) ? t(key) : name;
}

/**
 * callArgs words a tool call's arguments, which the backend sends as the
 * JSON the model wrote ({"query":"서울"}), one "name: value" a line, with
 * the names of the arguments in the UI's language: what a name means for
 * one built-in tool ("language", search_wikipedia's edition; "lang",
 * get_time's language of the answer; "path", read_file's file) is said
 * for that tool alone ("trace.arg.<tool>.<name>"), since an MCP tool's
 * "language" may be a program's and its "path" a folder; the common
 * words ("query", "path") for any tool. Text that is not a JSON object
 * (a search's query) is shown as it is.
 */
function callArgs(text: string, tool: string): string {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return text;
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) return text;
  if (!Object.keys(args).length) return t("trace.noArgs");
  return Object.entries(args)
    .map(([name, value]) => {
      const key = [`trace.arg.${tool}.${name}`, `trace.arg.${name}`].find(isKey);
      return `${key ? t(key) : name}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    })
    .join("\n");
}

/**
 * clockTime is get_time's answer (RFC 3339, in the zone asked for) as the
 * UI's language writes a date and a time of day ("2026년 11월 28일 14:05"),
 * read from the text itself so the wall clock of that zone is shown
 * whatever the zone of this computer; the backend's text when it is not
 * such a time.
 */
function clockTime(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!m) return iso;
  const [year, month, day, hour, minute] = m.slice(1, 6) as [string, string, string, string, string];
  // Korean numbers the month (11월); English names it (28 November 2026).
  const name = new Intl.DateTimeFormat("en-GB", { month: "long", timeZone: "UTC" }).format(Date.UTC(2000, Number(month) - 1, 1));
  return t("trace.clock", { year, month: lang() === "ko" ? Number(month) : name, day: Number(day), hour, minute });
}

/**
 * argText words a route or a router's reason ("simple", "short follow-up")
 * and a built-in tool's name in the UI's language; other arguments (step
 * titles, recommended tools, the model's own reasons) are shown as they are.
 */
function argText(name: string, value: string): string {
  if (name === "tool") return toolLabel(value);
  if (name !== "route" && name !== "reason") return value;
  const key = `trace.${name}.${value.replace(/[\s-]+/g, "_")}`;
  return isKey(key) ? t(key) : value;
}

/**
 * stepCause is the raw cause behind a worded step, shown muted under it
 * as errors are elsewhere (worded message first, raw cause apart): an MCP
 * server's own start error, or the mistakes of its entry in mcp.json (or
 * of the whole file), or why a tool call failed, in the words Go or the
 * server gave them. "" for a step without one.
 */
export function stepCause(s: Pick<TraceStep, "code" | "args">): string {
  if (s.code !== "mcp_failed" && s.code !== "mcp_invalid" && s.code !== "mcp_unreadable" && s.code !== "tool_failed") return "";
  return s.args?.error?.trim() ?? "";
}
