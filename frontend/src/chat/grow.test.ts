// The message box grows with its text up to 240 px, its borders counted:
// with box-sizing: border-box the height set is the border box's, and
// scrollHeight leaves the borders out, so a box of one line was two pixels
// shorter than its text and showed a scrollbar (seen in the desktop window).
import { afterEach, describe, expect, it } from "vitest";
import { $, cleanup, fill, start } from "../testing/ui";

afterEach(cleanup);

/** lay out gives the box the sizes a browser would: its text's height and a 1 px border top and bottom. */
function layOut(box: HTMLElement, text: number): void {
  Object.defineProperty(box, "scrollHeight", { configurable: true, get: () => text });
  Object.defineProperty(box, "clientHeight", { configurable: true, get: () => text });
  Object.defineProperty(box, "offsetHeight", { configurable: true, get: () => text + 2 });
}

describe("the message box's height", () => {
  const cases = [
    { name: "one line", text: 42, want: "44px" },
    { name: "five lines", text: 150, want: "152px" },
    { name: "past the limit: it scrolls", text: 900, want: "240px" },
  ];
  for (const c of cases) {
    it(`fits its text and its borders: ${c.name}`, async () => {
      await start();
      const box = $("#composer-input");
      layOut(box, c.text);
      fill(box, `text of ${c.name}`);
      expect(box.style.height).toBe(c.want);
    });
  }
});
