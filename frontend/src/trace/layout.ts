// A small layered layout for the workflow drawing: each node goes to the
// layer of its shortest distance from start, nodes of a layer side by side,
// edges that point back up (loops like tools → answer) drawn as side arcs.
import type { Workflow } from "../api/gotypes.gen";

export interface PlacedNode {
  id: string;
  type: string;
  x: number;
  y: number;
  /** w is the node's width: the nodes of a row share the drawing's width. */
  w: number;
  layer: number;
  /** label is the node's name; lines, the one or two lines drawn of it (cut with "…" when longer). */
  label: string;
  lines: string[];
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
  /** nodeH is every node's height: one line of label, or two when a name needed them. */
  nodeH: number;
}

/**
 * The drawing is never scaled down to fit its panel, which made its labels
 * about 7 px: it is laid out for the width it has (WIDTH, the panel's
 * inside at 19rem, when unmeasured), its labels at FONT px, and the nodes
 * of a wide row narrower instead. A row that cannot fit even at MIN_W
 * scrolls sideways rather than shrink the words.
 */
export const WIDTH = 278;
export const FONT = 12;
export const LINE = 13;
const MAX_W = 104;
const MIN_W = 52;
const NODE_H1 = 22;
const GAP_X = 8;
const GAP_Y = 14;
const PAD = 4;
/** TEXT_PAD is the room left and right of a label inside its node. */
const TEXT_PAD = 4;

/**
 * textWidth estimates a label's width in px at FONT (the layout runs
 * before anything is drawn, and in tests with no fonts): Hangul and other
 * wide letters a full em, capitals and digits about 0.7, narrow letters
 * and spaces a third, the rest 0.6 — a little over the system fonts, so
 * that a label judged to fit does.
 */
export function textWidth(text: string, font = FONT): number {
  let em = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x1100 && c <= 0x11ff) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef)) em += 1;
    else if (/[A-Z0-9MW]/.test(ch) || /[mw]/.test(ch)) em += 0.72;
    else if (/[ il.,:;'|!()\[\]ftj]/.test(ch)) em += 0.34;
    else em += 0.6;
  }
  return em * font;
}

/** cut is text shortened with "…" to fit room px. */
function cut(text: string, room: number): string {
  if (textWidth(text) <= room) return text;
  const chars = [...text];
  while (chars.length > 1 && textWidth(chars.join("") + "…") > room) chars.pop();
  return chars.join("").trimEnd() + "…";
}

/**
 * lines breaks a label into the lines that fit room px: one when it fits,
 * else two at the space that balances them best (or at the room, for a
 * name without spaces), the second cut with "…" when still too long.
 */
export function lines(label: string, room: number): string[] {
  if (textWidth(label) <= room) return [label];
  const words = label.split(" ");
  let best: [string, string] | null = null;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(" "), b = words.slice(i).join(" ");
    if (textWidth(a) > room) break;
    if (!best || Math.max(textWidth(a), textWidth(b)) < Math.max(textWidth(best[0]), textWidth(best[1]))) best = [a, b];
  }
  if (best) return [best[0], cut(best[1], room)];
  const chars = [...label];
  let n = chars.length;
  while (n > 1 && textWidth(chars.slice(0, n).join("")) > room) n--;
  return [chars.slice(0, n).join(""), cut(chars.slice(n).join(""), room)];
}

/** label names a node in the drawing (nodeLabel in the panel; the id alone in a test). */
export type Label = (id: string, type: string) => string;

export function layout(wf: Workflow, opts: { width?: number; label?: Label } = {}): Layout {
  const room = Math.max(opts.width || WIDTH, 2 * PAD + MIN_W);
  const name = opts.label ?? ((id: string) => id);
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
  const layers = [...rows.keys()].sort((a, b) => a - b);
  const row = new Map<string, number>();
  layers.forEach((l, i) => rows.get(l)!.forEach((id) => row.set(id, i)));
  // Loops (edges back up) arc out on the right: room for the widest arc.
  let loop = 0;
  for (const e of wf.edges) {
    const a = row.get(e.source), b = row.get(e.target);
    if (a !== undefined && b !== undefined && b < a) loop = Math.max(loop, 12 + 6 * (a - b) + 4);
  }
  const inner = room - 2 * PAD - loop;
  const rowW = (k: number) => Math.max(MIN_W, Math.min(MAX_W, Math.floor((inner - (k - 1) * GAP_X) / k)));
  const widest = Math.max(0, ...layers.map((l) => { const k = rows.get(l)!.length; return k * rowW(k) + (k - 1) * GAP_X; }));
  const contentW = Math.max(inner, widest);
  const nodes: PlacedNode[] = [];
  layers.forEach((l, r) => {
    const members = rows.get(l)!;
    const w = rowW(members.length);
    const span = members.length * w + (members.length - 1) * GAP_X;
    const x0 = PAD + (contentW - span) / 2;
    members.forEach((id, i) => {
      const type = wf.nodes.find((n) => n.id === id)!.type;
      const label = name(id, type);
      nodes.push({ id, type, layer: r, x: x0 + i * (w + GAP_X), y: 0, w, label, lines: lines(label, w - 2 * TEXT_PAD) });
    });
  });
  const NODE_H = NODE_H1 + (Math.max(1, ...nodes.map((n) => n.lines.length)) - 1) * LINE;
  for (const n of nodes) n.y = PAD + n.layer * (NODE_H + GAP_Y);
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
      const x1 = leftToRight ? a.x + a.w : a.x, x2 = leftToRight ? b.x : b.x + b.w;
      const y = a.y + NODE_H / 2;
      path = `M${x1},${y} L${x2},${y}`;
    } else if (!back) {
      const x1 = a.x + a.w / 2, y1 = a.y + NODE_H, x2 = b.x + b.w / 2, y2 = b.y;
      const my = (y1 + y2) / 2;
      path = `M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`;
    } else {
      // Loop back: leave from the right side, arc out and come in from the right.
      const x1 = a.x + a.w, y1 = a.y + NODE_H / 2, x2 = b.x + b.w, y2 = b.y + NODE_H / 2;
      const bulge = Math.max(x1, x2) + 12 + 6 * (a.layer - b.layer);
      path = `M${x1},${y1} C${bulge},${y1} ${bulge},${y2} ${x2},${y2}`;
    }
    edges.push({ source: e.source, target: e.target, port: e.port ?? "", path, back });
  }
  const height = PAD * 2 + layers.length * NODE_H + Math.max(0, layers.length - 1) * GAP_Y;
  return { nodes, edges, width: 2 * PAD + contentW + loop, height, nodeH: NODE_H };
}
