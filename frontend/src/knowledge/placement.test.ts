import { describe, expect, it } from "vitest";
import { hitScrollTop, lineShift, type Placement } from "./placement";

describe("hitScrollTop", () => {
  // A reader 500 px high over 10,000 px of a document, the hit 2,000 px down.
  const at = (p: Partial<Placement>): Placement => ({ top: 2000, height: 100, view: 500, cover: 0, max: 9500, ...p });

  it.each([
    // name, placement, scrollTop, where the hit's top is in the view
    ["a short hit without a label is centred", at({}), 1800, 200],
    ["a short hit is centred below a one-line label", at({ cover: 30 }), 1785, 215],
    ["a two-line label puts it lower", at({ cover: 54 }), 1773, 227],
    ["a hit taller than the view starts just under the label", at({ height: 800, cover: 54 }), 1946, 54],
    ["a hit as tall as the view below the label fills it", at({ height: 446, cover: 54 }), 1946, 54],
    ["a hit one pixel taller than that still starts under it", at({ height: 447, cover: 54 }), 1946, 54],
    ["near the document's start the reader cannot scroll back further", at({ top: 40, cover: 30 }), 0, 40],
    ["near its end it cannot scroll further", at({ top: 9900, cover: 30 }), 9500, 400],
    ["a document shorter than the view does not scroll", at({ top: 100, max: -200 }), 0, 100],
    ["fractions round so that the hit is lower, not under the label", at({ top: 2000.6, height: 100.3, cover: 30.4 }), 1785, 215.6],
    // A tall hit's first marked word: where the hit starts under the label when that shows it, else a third of the
    // way down the view under the label, the hit's first lines scrolled out above.
    ["a tall hit whose first marked word shows from its first line starts there", at({ height: 800, cover: 54, mark: { top: 300, bottom: 325 } }), 1946, 54],
    ["a marked word on the view's last line still shows from the hit's first line", at({ height: 800, cover: 54, mark: { top: 421, bottom: 446 } }), 1946, 54],
    ["a marked word a pixel below the view brings its line into it", at({ height: 800, cover: 54, mark: { top: 422, bottom: 447 } }), 2227, -227],
    ["a marked word far down a tall hit is a third of the way down the view", at({ height: 800, cover: 54, mark: { top: 600, bottom: 625 } }), 2405, -405],
    ["without a label it is a third of the way down the whole view", at({ height: 800, mark: { top: 600, bottom: 625 } }), 2441, -441],
    ["a mark taller than the view under the label starts under the label", at({ height: 1800, cover: 54, mark: { top: 600, bottom: 1100 } }), 2546, -546],
    ["near the document's end the reader cannot scroll further", at({ top: 9000, height: 800, cover: 54, mark: { top: 700, bottom: 725 } }), 9500, -500],
  ])("%s", (_name, p, want, hitAt) => {
    const got = hitScrollTop(p);
    expect(got).toBe(want);
    expect(p.top - got).toBeCloseTo(hitAt, 5);
    if (p.mark) {
      // The first marked word's line is in the view, below the label.
      expect(p.top + p.mark.top - got).toBeGreaterThanOrEqual(p.cover);
      if (p.mark.bottom - p.mark.top <= p.view - p.cover) expect(p.top + p.mark.bottom - got).toBeLessThanOrEqual(p.view);
    } else {
      // Whatever else holds, the hit's first line is never under the label.
      expect(p.top - got).toBeGreaterThanOrEqual(Math.min(p.cover, p.top));
    }
  });
});

describe("lineShift", () => {
  // A line of letters 20 px high, the label's bottom edge 54 px down the view.
  it.each([
    ["a line below the label stays", { top: 60, bottom: 80 }, 0],
    ["a line right under the label stays", { top: 54, bottom: 74 }, 0],
    ["a line wholly under the label stays", { top: 30, bottom: 54 }, 0],
    ["half a pixel of rounding is not a cut", { top: 53.6, bottom: 73.6 }, 0],
    ["a line mostly shown is shown whole: the view goes up", { top: 50, bottom: 70 }, -4],
    ["exactly half shown is shown whole", { top: 44, bottom: 64 }, -10],
    ["a line mostly hidden is hidden whole: the view goes down", { top: 40, bottom: 60 }, 6],
    ["fractions: shown whole, the line's top not above the label's edge", { top: 49.3, bottom: 69.3 }, -5],
    ["fractions: hidden whole, its bottom not below the edge", { top: 36.7, bottom: 56.7 }, 3],
  ])("%s", (_name, line, want) => {
    const got = lineShift(line, 54);
    expect(got).toBe(want);
    // After the shift the line is below the edge or under the label, whole.
    const [top, bottom] = [line.top - got, line.bottom - got];
    expect(top >= 54 - 0.5 || bottom <= 54 + 0.5).toBe(true);
  });
});
