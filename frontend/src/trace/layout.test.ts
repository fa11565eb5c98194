import { describe, expect, it } from "vitest";
import { FAKE_WORKFLOW } from "../testing/fake/settings";
import { setLang } from "../i18n/i18n.svelte";
import { nodeLabel } from "./labels";
import { FONT, layout, lines, textWidth, WIDTH } from "./layout";

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
    expect(Math.abs(a.x - p.x)).toBeGreaterThanOrEqual(a.w);
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

// The drawing is laid out for the panel's width and never scaled down, so
// its labels keep FONT px (they were drawn 104 px wide and shrunk to about
// 7 px): the app's workflow, in English and Korean, in the panel beside the
// chat (WIDTH, 1280×800) and over it (312 px inside at 800×700).
describe("the workflow drawing in the trace panel", () => {
  it.each([
    ["en", WIDTH],
    ["en", 312],
    ["ko", WIDTH],
    ["ko", 312],
  ] as const)("%s at %i px: as wide as the panel at most, every label whole inside its node", (lang, width) => {
    setLang(lang);
    const l = layout(FAKE_WORKFLOW, { width, label: nodeLabel });
    setLang("en");
    expect(FONT).toBeGreaterThanOrEqual(11);
    expect(l.width).toBeLessThanOrEqual(width);
    for (const n of l.nodes) {
      expect(n.lines.join(" ")).toBe(n.label);
      for (const line of n.lines) expect(textWidth(line), `${n.id}: ${line}`).toBeLessThanOrEqual(n.w - 8);
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.x + n.w).toBeLessThanOrEqual(l.width);
    }
    // Nodes of a row do not overlap, nor do rows.
    const byRow = new Map<number, typeof l.nodes>();
    for (const n of l.nodes) byRow.set(n.layer, [...(byRow.get(n.layer) ?? []), n]);
    for (const row of byRow.values()) for (let i = 1; i < row.length; i++) expect(row[i]!.x).toBeGreaterThanOrEqual(row[i - 1]!.x + row[i - 1]!.w);
    expect(l.height).toBeLessThanOrEqual(byRow.size * (l.nodeH + 14) + 8);
  });

  it("breaks a long name on two lines, and cuts one that is longer still", () => {
    expect(lines("Your approval", 60)).toEqual(["Your", "approval"]);
    expect(lines("Recommend", 200)).toEqual(["Recommend"]);
    const cut = lines("a_custom_node_with_a_very_long_name", 60);
    expect(cut).toHaveLength(2);
    expect(cut[1]).toMatch(/…$/);
    for (const line of cut) expect(textWidth(line)).toBeLessThanOrEqual(60);
  });

  it("a row too wide for the panel keeps the labels' size and is wider than the panel (it scrolls)", () => {
    const wide = { nodes: [{ id: "start", type: "start" }, ...Array.from({ length: 8 }, (_, i) => ({ id: `n${i}`, type: "custom" }))], edges: Array.from({ length: 8 }, (_, i) => ({ source: "start", target: `n${i}` })) };
    const l = layout(wide, { width: WIDTH });
    expect(l.width).toBeGreaterThan(WIDTH);
    expect(Math.min(...l.nodes.map((n) => n.w))).toBeGreaterThanOrEqual(52);
  });
});
