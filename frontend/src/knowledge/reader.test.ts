import { describe, expect, it } from "vitest";
import type { DocumentSpan, Passage } from "../api/gotypes.gen";
import { chunkRoom, MAX_PARTS, MAX_ROOM, PAGE, placeOf, ReaderWindow, sectionsOf, seqOfRoom, WHOLE } from "./reader.svelte";

/** doc is a loader over a document of total chunks, recording what was asked. */
function doc(total: number) {
  const asked: [number, number][] = [];
  const load = async (_id: string, from: number, count: number): Promise<DocumentSpan> => {
    asked.push([from, count]);
    const parts = [];
    for (let seq = from; seq < Math.min(from + count, total); seq++) parts.push({ seq, text: `c${seq} ` });
    return { doc_id: "d", from, total, parts };
  };
  return { asked, load };
}

const passage = (seq: number, chunks: number): Passage => ({ chunk_id: `d:${seq}`, doc_id: "d", title: "", kind: "text", before: "", text: "", after: "", seq, chunks });

/** deferred is a loader whose answers come when the test says. */
function deferred() {
  const waiting: { from: number; resolve: (s: DocumentSpan) => void; reject: (e: Error) => void }[] = [];
  const load = (_id: string, from: number) => new Promise<DocumentSpan>((resolve, reject) => waiting.push({ from, resolve, reject }));
  return { waiting, load };
}

describe("ReaderWindow", () => {
  it.each([
    ["a short document whole", 1, 20, [0, WHOLE], 0, 20],
    ["a page around a hit in the middle", 250, 500, [242, PAGE + 1], 242, 259],
    ["a page that ends at the document's end", 499, 500, [483, PAGE + 1], 483, 500],
    ["a page from the start", 2, 500, [0, PAGE + 1], 0, 17],
  ])("opens %s", async (_name, seq, total, ask, from, to) => {
    const d = doc(total);
    const w = new ReaderWindow(d.load);
    expect(await w.open(passage(seq, total))).toBe(true);
    expect(d.asked).toEqual([ask]);
    expect([w.from, w.to, w.total]).toEqual([from, to, total]);
    expect(w.atStart).toBe(from === 0);
    expect(w.atEnd).toBe(to === total);
  });

  it("pages both ways, holds at most MAX_PARTS and stops at the ends", async () => {
    const d = doc(200);
    const w = new ReaderWindow(d.load);
    await w.open(passage(100, 200));
    while (!w.atEnd) await w.more("below");
    expect(w.to).toBe(200);
    expect(w.parts).toHaveLength(MAX_PARTS);
    const asked = d.asked.length;
    await w.more("below");
    expect(d.asked).toHaveLength(asked);
    while (!w.atStart) await w.more("above");
    expect([w.from, w.to]).toEqual([0, MAX_PARTS]);
    expect(w.parts.map((p) => p.seq)).toEqual(Array.from({ length: MAX_PARTS }, (_, i) => i));
  });

  it("drops an answer for a document no longer open", async () => {
    const d = deferred();
    const w = new ReaderWindow(d.load);
    const first = w.open(passage(1, 10));
    w.close();
    d.waiting[0]!.resolve({ doc_id: "d", from: 0, total: 10, parts: [{ seq: 0, text: "stale" }] });
    expect(await first).toBe(false);
    expect(w.parts).toEqual([]);
  });

  it("says when paging failed, keeps what it holds and tries again", async () => {
    const d = deferred();
    const w = new ReaderWindow(d.load);
    const opened = w.open(passage(100, 500));
    d.waiting[0]!.resolve({ doc_id: "d", from: 92, total: 500, parts: Array.from({ length: 17 }, (_, i) => ({ seq: 92 + i, text: "x" })) });
    expect(await opened).toBe(true);
    const more = w.more("below");
    expect(w.busy).toBe("below");
    d.waiting[1]!.reject(new Error("offline"));
    await more;
    expect([w.failed, w.busy, w.parts.length]).toEqual([true, "", 17]);
    // A document re-imported meanwhile: chunks that do not follow on are not joined.
    const again = w.more("below");
    expect(w.failed).toBe(false);
    d.waiting[2]!.resolve({ doc_id: "d", from: 109, total: 3, parts: [] });
    await again;
    expect([w.failed, w.parts.length]).toEqual([true, 17]);
    const third = w.more("above");
    d.waiting[3]!.resolve({ doc_id: "d", from: 76, total: 500, parts: [{ seq: 80, text: "gap" }] });
    await third;
    expect([w.failed, w.from]).toEqual([true, 92]);
  });

  it.each([
    ["far below what is held", 300, 300 - PAGE / 2, true],
    ["far above what is held", 10, 2, true],
    ["at the document's end", 499, 500 - PAGE - 1, true],
    ["at its start", 0, 0, true],
  ])("jumps %s: lets what is held go and loads a page around the chunk", async (_name, seq, from, found) => {
    const d = doc(500);
    const w = new ReaderWindow(d.load);
    await w.open(passage(100, 500));
    expect(await w.jump(seq)).toBe(found);
    expect(d.asked.at(-1)).toEqual([from, PAGE + 1]);
    expect([w.from, w.to, w.busy, w.failed]).toEqual([from, from + PAGE + 1, "", false]);
  });

  it("drops a jump's answer once another document is open, and says when a jump failed", async () => {
    const d = deferred();
    const w = new ReaderWindow(d.load);
    const opened = w.open(passage(100, 500));
    d.waiting[0]!.resolve({ doc_id: "d", from: 92, total: 500, parts: Array.from({ length: 17 }, (_, i) => ({ seq: 92 + i, text: "x" })) });
    await opened;
    const jumped = w.jump(400);
    expect(w.busy).toBe("below");
    // Nothing else moves while it is on its way.
    expect(await w.jump(10)).toBe(false);
    d.waiting[1]!.reject(new Error("offline"));
    expect(await jumped).toBe(false);
    expect([w.failed, w.busy, w.from]).toEqual([true, "", 92]);
    const stale = w.jump(400);
    w.close();
    d.waiting[2]!.resolve({ doc_id: "d", from: 392, total: 500, parts: [{ seq: 392, text: "stale" }] });
    expect(await stale).toBe(false);
    expect(w.parts).toEqual([]);
  });

  it.each([
    ["a chunk as high as those held", 40, 500, 40],
    ["not measured yet", 0, 500, 0],
    ["a huge document, within MAX_ROOM", 40, 1_000_000, MAX_ROOM / 1_000_000],
  ])("gives the chunks not held room: %s", (_name, perChunk, total, want) => {
    expect(chunkRoom(perChunk, total)).toBe(want);
  });

  it.each([
    ["just below what is held", "below", 10, 117],
    ["three chunks and a half below", "below", 140, 120],
    ["past the document's end", "below", 1e9, 499],
    ["just above", "above", 10, 99],
    ["three chunks and a half above", "above", 140, 96],
    ["before its start", "above", 1e9, 0],
  ] as const)("finds the chunk the view's top is at in the room %s", (_name, side, past, want) => {
    expect(seqOfRoom(side, past, 40, 100, 117, 500)).toBe(want);
  });

  it("labels a part by page and heading when they change", () => {
    const page = (n: number) => `p${n}`;
    expect(placeOf({ seq: 0, page: 1, heading: "A", text: "" }, undefined, page)).toBe("p1 · A");
    expect(placeOf({ seq: 1, page: 1, heading: "A", text: "" }, { seq: 0, page: 1, heading: "A", text: "" }, page)).toBe("");
    expect(placeOf({ seq: 1, page: 2, heading: "A", text: "" }, { seq: 0, page: 1, heading: "A", text: "" }, page)).toBe("p2 · A");
    expect(placeOf({ seq: 1, heading: "B", text: "" }, { seq: 0, heading: "A", text: "" }, page)).toBe("B");
    expect(placeOf({ seq: 0, text: "" }, undefined, page)).toBe("");
  });

  it.each([
    ["one section per heading", [[1, "A"], [1, "A"], [1, "B"], [2, "B"]], [["p1 · A", 0, 1], ["p1 · B", 2], ["p2 · B", 3]]],
    ["parts before the first label in a section of their own", [[0, ""], [0, ""], [0, "A"]], [["", 0, 1], ["A", 2]]],
    ["a label only when it changes", [[0, "A"], [0, "A"], [0, "A"]], [["A", 0, 1, 2]]],
    ["nothing held", [], []],
  ] as [string, [number, string][], (string | number)[][]][])("cuts the parts held into sections: %s", (_, given, want) => {
    const parts = given.map(([page, heading], seq) => ({ seq, page: page || undefined, heading: heading || undefined, text: "" }));
    const got = sectionsOf(parts, (n) => `p${n}`).map((s) => [s.place, ...s.parts.map((p) => p.seq)]);
    expect(got).toEqual(want);
  });
});
