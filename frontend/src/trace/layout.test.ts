import { describe, expect, it } from "vitest";
import { layout } from "./layout";

const wf = {
  nodes: [
    { id: "start", type: "start" },
    { id: "load_context", type: "load_context" },
    { id: "router", type: "router" },
    { id: "answer", type: "answer" },
    { id: "tools", type: "tools" },
    { id: "planner", type: "planner" },
    { id: "approve_plan", type: "approve_plan" },
    { id: "finish", type: "finish" },
    { id: "end", type: "end" },
    { id: "orphan", type: "custom" },
  ],
  edges: [
    { source: "start", target: "load_context" },
    { source: "load_context", target: "router" },
    { source: "router", target: "answer", port: "simple" },
    { source: "router", target: "planner", port: "complex" },
    { source: "answer", target: "tools", port: "tools" },
    { source: "tools", target: "answer" },
    { source: "answer", target: "finish", port: "done" },
    { source: "planner", target: "approve_plan" },
    { source: "approve_plan", target: "planner", port: "revise" },
    { source: "approve_plan", target: "finish", port: "cancel" },
    { source: "finish", target: "end" },
  ],
};

describe("workflow layout", () => {
  const l = layout(wf);
  const node = (id: string) => l.nodes.find((n) => n.id === id)!;

  it("layers nodes by distance from start and keeps end last", () => {
    expect(node("start").layer).toBe(0);
    expect(node("router").layer).toBe(2);
    expect(node("answer").layer).toBe(node("planner").layer);
    expect(node("end").layer).toBe(Math.max(...l.nodes.map((n) => n.layer)));
    expect(l.nodes).toHaveLength(10);
  });

  it("places nodes of a layer side by side without overlap", () => {
    const a = node("answer"), p = node("planner");
    expect(a.y).toBe(p.y);
    expect(Math.abs(a.x - p.x)).toBeGreaterThanOrEqual(104);
  });

  it("marks loops as back edges and keeps ports", () => {
    const back = l.edges.filter((e) => e.back).map((e) => `${e.source}>${e.target}`);
    expect(back).toEqual(["tools>answer", "approve_plan>planner"]);
    expect(l.edges.find((e) => e.target === "planner" && !e.back)?.port).toBe("complex");
    expect(l.width).toBeGreaterThan(0);
    expect(l.height).toBeGreaterThan(0);
  });

  it("copes with an empty workflow", () => {
    expect(layout({ nodes: [], edges: [] }).nodes).toEqual([]);
  });
});
