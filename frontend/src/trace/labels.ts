// Words for the nodes of the workflow and the kinds of trace steps.
import type { TraceKind } from "../api/gotypes.gen";
import { t, type MessageKey } from "../i18n/i18n.svelte";

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
