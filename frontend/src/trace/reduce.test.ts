import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../api/gotypes.gen";
import { applyTrace, finishTrace, newTrace, MAX_STEPS } from "./reduce";

const ev = (kind: TraceEvent["kind"], node: string, extra: Partial<TraceEvent> = {}): TraceEvent => ({
  session_id: "s",
  turn_id: "t",
  kind,
  node,
  ...extra,
});

describe("trace reducer", () => {
  it("keeps a step's code and arguments for the UI to word", () => {
    const tr = newTrace("t");
    applyTrace(tr, ev("planning", "router", { text: "Route: simple (greeting)", code: "routed", args: { route: "simple", reason: "greeting" } }));
    expect(tr.steps[0]).toMatchObject({ text: "Route: simple (greeting)", code: "routed", args: { route: "simple", reason: "greeting" } });
  });

  it("lights the running node and lists the steps in order", () => {
    const tr = newTrace("t");
    applyTrace(tr, ev("node_started", "router"));
    expect(tr.active).toBe("router");
    applyTrace(tr, ev("node_finished", "router"));
    expect(tr.active).toBeNull();
    applyTrace(tr, ev("node_started", "planner"));
    applyTrace(tr, ev("planning", "planner", { text: "3 sub-tasks" }));
    applyTrace(tr, ev("node_finished", "planner"));
    applyTrace(tr, ev("node_started", "recommend"));
    applyTrace(tr, ev("tool_selected", "recommend", { tool: "retrieve_docs", text: "Vrew" }));
    applyTrace(tr, ev("sources", "recommend", { sources: [{ id: "a", title: "A", source: "cat", snippet: "", score: 1 }] }));
    applyTrace(tr, ev("sources", "recommend", { sources: [{ id: "a", title: "A", source: "cat", snippet: "", score: 1 }] }));
    expect(tr.active).toBe("recommend");
    expect(tr.visited).toEqual(["router", "planner", "recommend"]);
    expect(tr.steps.map((s) => s.kind)).toEqual(["planning", "tool_selected", "sources", "sources"]);
    expect(tr.steps[1]).toEqual({ kind: "tool_selected", node: "recommend", text: "Vrew", tool: "retrieve_docs", sources: 0 });
    expect(tr.sources).toHaveLength(1);
    finishTrace(tr);
    expect(tr.active).toBeNull();
    expect(tr.done).toBe(true);
  });

  it("does not unlight a node when another node finishes", () => {
    const tr = newTrace("t");
    applyTrace(tr, ev("node_started", "recommend"));
    applyTrace(tr, ev("node_started", "tools"));
    applyTrace(tr, ev("node_finished", "recommend"));
    expect(tr.active).toBe("tools");
  });

  it("folds repeated generating events into one line", () => {
    const tr = newTrace("t");
    applyTrace(tr, ev("generating", "guide"));
    applyTrace(tr, ev("generating", "guide"));
    applyTrace(tr, ev("retry", "guide", { text: "timeout" }));
    applyTrace(tr, ev("generating", "guide"));
    expect(tr.steps.map((s) => s.kind)).toEqual(["generating", "retry", "generating"]);
  });

  it("keeps a bounded number of steps", () => {
    const tr = newTrace("t");
    for (let i = 0; i < MAX_STEPS + 20; i++) applyTrace(tr, ev("tool_result", "tools", { text: String(i) }));
    expect(tr.steps).toHaveLength(MAX_STEPS);
    expect(tr.steps[0]!.text).toBe("20");
  });
});
