// The reader's window on a document. A search hit opens in its whole
// document: a small one is loaded whole, a large one a page of chunks
// around the hit, and more is paged in above or below as the person reads
// on (KnowledgeService.Span). At most MAX_PARTS chunks are held: past
// that the far end is let go (and paged in again if the person goes
// back), so a 500 MB file costs the window about as much as a short one.

import type { DocumentSpan, Passage, SpanPart } from "../api/gotypes.gen";

/** Chunks asked for at a time when paging. */
export const PAGE = 16;
/** A document of at most this many chunks opens whole (the backend's MaxSpan). */
export const WHOLE = 64;
/** The most chunks held at once (about 100 KB of text). */
export const MAX_PARTS = 96;
/**
 * The most room, in px, the chunks not held take in the reader on either
 * side of those held (room): a browser lays out no box much taller than
 * about 16 million px, so past about 100 px a chunk for a huge document the
 * chunks are drawn smaller there.
 */
export const MAX_ROOM = 4_000_000;

/** SpanLoader reads count chunks of a document from the chunk numbered from. */
export type SpanLoader = (docID: string, from: number, count: number) => Promise<DocumentSpan>;

export type Side = "above" | "below";

export class ReaderWindow {
  /** the chunks held, in order and without gaps */
  parts = $state<SpanPart[]>([]);
  /** how many chunks the document has */
  total = $state(0);
  /** the side being paged in, "" when none */
  busy = $state<"" | Side>("");
  /** paging failed: the person can try again */
  failed = $state(false);
  private docID = "";
  /** counts opens, so that an answer for a document no longer open is dropped */
  private gen = 0;

  constructor(private readonly load: SpanLoader) {}

  /** from is the number of the first chunk held; to is one past the last. */
  get from(): number {
    return this.parts[0]?.seq ?? 0;
  }
  get to(): number {
    return this.from + this.parts.length;
  }
  get atStart(): boolean {
    return this.parts.length > 0 && this.from === 0;
  }
  get atEnd(): boolean {
    return this.parts.length > 0 && this.to >= this.total;
  }

  /**
   * open loads the document around the passage's chunk: all of it when it
   * is small. It resolves true when the chunk is among the parts (false
   * when it failed or another document was opened meanwhile).
   */
  async open(p: Passage): Promise<boolean> {
    const gen = ++this.gen;
    this.docID = p.doc_id;
    this.parts = [];
    this.total = p.chunks;
    this.failed = false;
    this.busy = "";
    const whole = p.chunks <= WHOLE;
    const from = whole ? 0 : Math.max(0, Math.min(p.seq - PAGE / 2, p.chunks - PAGE - 1));
    try {
      const s = await this.load(p.doc_id, from, whole ? WHOLE : PAGE + 1);
      if (gen !== this.gen) return false;
      const parts = s.parts ?? [];
      if (!inOrder(parts, from)) throw new Error("the document changed");
      this.parts = parts;
      this.total = s.total;
      return parts.some((x) => x.seq === p.seq);
    } catch {
      if (gen === this.gen) this.failed = true;
      return false;
    }
  }

  /**
   * jump lets go what is held and loads a page around the chunk seq (the
   * person dragged the scroll bar far past what is held). It resolves true
   * when seq is among the parts; nothing happens while a page is on its
   * way.
   */
  async jump(seq: number): Promise<boolean> {
    if (this.busy || !this.parts.length) return false;
    const gen = ++this.gen;
    const from = Math.max(0, Math.min(seq - PAGE / 2, this.total - PAGE - 1));
    this.busy = seq < this.from ? "above" : "below";
    this.failed = false;
    try {
      const s = await this.load(this.docID, from, PAGE + 1);
      if (gen !== this.gen) return false;
      const parts = s.parts ?? [];
      if (s.total !== this.total || !parts.length || !inOrder(parts, from)) throw new Error("the document changed");
      this.parts = parts;
      return parts.some((x) => x.seq === seq);
    } catch {
      if (gen === this.gen) this.failed = true;
      return false;
    } finally {
      if (gen === this.gen) this.busy = "";
    }
  }

  /**
   * more pages in the text above or below what is held, letting the far
   * end go past MAX_PARTS. Nothing happens at the document's end or while
   * a page is on its way.
   */
  async more(side: Side): Promise<void> {
    if (this.busy || !this.parts.length || (side === "above" ? this.atStart : this.atEnd)) return;
    const gen = this.gen;
    const from = side === "above" ? Math.max(0, this.from - PAGE) : this.to;
    const count = side === "above" ? this.from - from : PAGE;
    this.busy = side;
    this.failed = false;
    try {
      const s = await this.load(this.docID, from, count);
      if (gen !== this.gen) return;
      const got = s.parts ?? [];
      // A document re-imported meanwhile may have other chunks: nothing
      // is joined that does not follow on.
      if (s.total !== this.total || !inOrder(got, from) || got.length !== Math.min(count, s.total - from)) throw new Error("the document changed");
      if (side === "above") this.parts = [...got, ...this.parts].slice(0, MAX_PARTS);
      else this.parts = [...this.parts, ...got].slice(-MAX_PARTS);
    } catch {
      if (gen === this.gen) this.failed = true;
    } finally {
      if (gen === this.gen) this.busy = "";
    }
  }

  /** close forgets the document; answers still on their way are dropped. */
  close(): void {
    this.gen++;
    this.parts = [];
    this.total = 0;
    this.busy = "";
    this.failed = false;
  }
}

/**
 * chunkRoom is how high a chunk not held is drawn: perChunk, the height of
 * those held on average, so that the reader's scroll bar stands for the
 * whole document (its thumb as far down as the view is into the document,
 * the end of its track the document's end), at most MAX_ROOM for all of
 * them. 0 until the chunks held are measured.
 */
export function chunkRoom(perChunk: number, total: number): number {
  if (!(perChunk > 0) || total < 1) return 0;
  return Math.min(perChunk, MAX_ROOM / total);
}

/**
 * seqOfRoom is the chunk the view's top is at when it is in the room of
 * the chunks not held: `past` px beyond the end of those held (`side`
 * "below"), or before their start ("above"); the view's top is in
 * the chunk, so above it counts up from the chunk's top.
 */
export function seqOfRoom(side: Side, past: number, room: number, from: number, to: number, total: number): number {
  const n = room > 0 ? past / room : 0;
  const seq = side === "below" ? to + Math.floor(n) : from - Math.ceil(n);
  return Math.max(0, Math.min(total - 1, seq));
}

/** inOrder says whether parts are the chunks from, from+1, ... */
function inOrder(parts: SpanPart[], from: number): boolean {
  return parts.every((p, i) => p.seq === from + i);
}

/**
 * placeOf is where a part is (its page and heading) when that differs
 * from the part before it; "" when it does not.
 */
export function placeOf(part: SpanPart, prev: SpanPart | undefined, page: (n: number) => string): string {
  if (prev && prev.page === part.page && prev.heading === part.heading) return "";
  return [part.page ? page(part.page) : "", part.heading ?? ""].filter(Boolean).join(" · ");
}

/** Section is a run of parts under one label (placeOf; "" for the parts before the first label). */
export type Section = { place: string; parts: SpanPart[] };

/**
 * sectionsOf cuts parts where their label changes. The reader keeps a
 * section's label in view while the section is read (sticky): inside a box
 * of its own per section the label scrolls out as the next section comes
 * in. Sticky labels that were all children of the one reader would each
 * stay at its top once passed, drawn over one another and over the next.
 */
export function sectionsOf(parts: SpanPart[], page: (n: number) => string): Section[] {
  const out: Section[] = [];
  parts.forEach((part, i) => {
    const place = placeOf(part, parts[i - 1], page);
    const last = out.at(-1);
    if (place || !last) out.push({ place, parts: [part] });
    else last.parts.push(part);
  });
  return out;
}
