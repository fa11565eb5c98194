// A small layered layout for the workflow drawing: each node goes to the
// layer of its shortest distance from start, nodes of a layer side by side,
// edges that point back up (loops like tools → answer) drawn as side arcs.
import type { Workflow } from "../api/gotypes.gen";

export interface PlacedNode {
  id: string;
  type: string;
  x: number;
  y: number;
  layer: number;
}

export interface PlacedEdge {
  source: string;
  target: string;
  port: string;
  path: string;
  back: boolean;
}

export interface Layout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export const NODE_W = 104;
export const NODE_H = 24;
const GAP_X = 14;
const GAP_Y = 22;
const PAD = 8;

export function layout(wf: Workflow): Layout {
  const ids = wf.nodes.map((n) => n.id);
  const out = new Map<string, string[]>();
  for (const e of wf.edges) out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
  const startNode = wf.nodes.find((n) => n.type === "start" || n.id === "start")?.id ?? ids[0];
  const layer = new Map<string, number>();
  if (startNode !== undefined) {
    layer.set(startNode, 0);
    const queue = [startNode];
    while (queue.length) {
      const id = queue.shift()!;
      for (const next of out.get(id) ?? []) {
        if (!layer.has(next)) {
          layer.set(next, layer.get(id)! + 1);
          queue.push(next);
        }
      }
    }
  }
  // Unreachable nodes (a custom workflow may have them) go below the rest.
  let deepest = Math.max(0, ...layer.values());
  for (const id of ids) if (!layer.has(id)) layer.set(id, ++deepest);
  // "end" always sits at the bottom.
  const endNode = wf.nodes.find((n) => n.type === "end" || n.id === "end")?.id;
  const maxLayer = Math.max(0, ...layer.values());
  if (endNode !== undefined) {
    const others = [...layer.entries()].filter(([id]) => id !== endNode).map(([, l]) => l);
    layer.set(endNode, Math.max(layer.get(endNode)!, Math.max(0, ...others) + 1, maxLayer));
  }
  const rows = new Map<number, string[]>();
  for (const id of ids) rows.set(layer.get(id)!, [...(rows.get(layer.get(id)!) ?? []), id]);
  const widest = Math.max(1, ...[...rows.values()].map((r) => r.length));
  const width = PAD * 2 + widest * NODE_W + (widest - 1) * GAP_X;
  const layers = [...rows.keys()].sort((a, b) => a - b);
  const nodes: PlacedNode[] = [];
  layers.forEach((l, row) => {
    const members = rows.get(l)!;
    const rowW = members.length * NODE_W + (members.length - 1) * GAP_X;
    const x0 = (width - rowW) / 2;
    members.forEach((id, i) => {
      const type = wf.nodes.find((n) => n.id === id)!.type;
      nodes.push({ id, type, layer: row, x: x0 + i * (NODE_W + GAP_X), y: PAD + row * (NODE_H + GAP_Y) });
    });
  });
  const at = new Map(nodes.map((n) => [n.id, n]));
  const edges: PlacedEdge[] = [];
  for (const e of wf.edges) {
    const a = at.get(e.source);
    const b = at.get(e.target);
    if (!a || !b) continue;
    const back = b.layer < a.layer;
    let path: string;
    if (b.layer === a.layer) {
      const leftToRight = a.x < b.x;
      const x1 = leftToRight ? a.x + NODE_W : a.x, x2 = leftToRight ? b.x : b.x + NODE_W;
      const y = a.y + NODE_H / 2;
      path = `M${x1},${y} L${x2},${y}`;
    } else if (!back) {
      const x1 = a.x + NODE_W / 2, y1 = a.y + NODE_H, x2 = b.x + NODE_W / 2, y2 = b.y;
      const my = (y1 + y2) / 2;
      path = `M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`;
    } else {
      // Loop back: leave from the right side, arc out and come in from the right.
      const x1 = a.x + NODE_W, y1 = a.y + NODE_H / 2, x2 = b.x + NODE_W, y2 = b.y + NODE_H / 2;
      const bulge = Math.max(x1, x2) + 12 + 6 * (a.layer - b.layer);
      path = `M${x1},${y1} C${bulge},${y1} ${bulge},${y2} ${x2},${y2}`;
    }
    edges.push({ source: e.source, target: e.target, port: e.port ?? "", path, back });
  }
  const height = PAD * 2 + layers.length * NODE_H + Math.max(0, layers.length - 1) * GAP_Y;
  return { nodes, edges, width: width + 40, height };
}
