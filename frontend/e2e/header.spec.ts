// The chat header at the narrowest window and a common one, in both
// languages, with a conversation whose title is long: the title held at
// 6rem showed six letters at 800 px ("카페 홍보용 유…", "Help me m…")
// beside the model picker and the header's buttons.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { lastReply, openPage, screenshot, send, withWorld } from "./harness.ts";

const w = withWorld();

const TITLES = {
  "ko-KR": "카페 홍보용 유튜브 쇼츠 영상을 대본부터 편집까지 만들고 싶어요",
  "en-US": "Help me make a YouTube Shorts video to promote my café",
};

/** shownLetters counts the title's letters that are drawn inside its box (not cut off or clamped away). */
function shownLetters(page: Page): Promise<number> {
  return page.$eval(".topbar .title", (el) => {
    const box = el.getBoundingClientRect();
    const node = el.firstChild as Text;
    const range = document.createRange();
    let n = 0;
    for (let i = 0; i < node.data.length; i++) {
      if (node.data[i] === " ") continue;
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getClientRects()[0];
      // The ellipsis takes the place of the letters it stands for.
      if (r && r.right <= box.right - 12 && r.bottom <= box.bottom + 1) n++;
    }
    return n;
  });
}

/** overlaps names the header's parts that lie over one another or outside it. */
function overlaps(page: Page): Promise<string[]> {
  return page.$eval(".topbar", (bar) => {
    const outer = bar.getBoundingClientRect();
    const parts = [...bar.querySelectorAll<HTMLElement>(".sidebar-toggle, .title, .tools > *")].filter((e) => e.offsetParent);
    const out: string[] = [];
    const name = (e: Element) => e.className || e.id || e.tagName;
    parts.forEach((a, i) => {
      const ra = a.getBoundingClientRect();
      if (ra.left < outer.left || ra.right > outer.right || ra.top < outer.top || ra.bottom > outer.bottom) out.push(`${name(a)} outside`);
      for (const b of parts.slice(i + 1)) {
        const rb = b.getBoundingClientRect();
        if (ra.left < rb.right - 0.5 && rb.left < ra.right - 0.5 && ra.top < rb.bottom && rb.top < ra.bottom) out.push(`${name(a)} over ${name(b)}`);
      }
    });
    return out;
  });
}

for (const locale of ["ko-KR", "en-US"] as const) {
  test(`the header shows a long title and every button at 800 and 1280 px (${locale})`, async () => {
    const page = await openPage(w.browser, w.app.url, locale, { width: 800, height: 700 });
    await page.click("button.new");
    await send(page, TITLES[locale]);
    await lastReply(page);
    await page.waitForFunction((t) => document.querySelector(".topbar .title")?.textContent === t, TITLES[locale]);
    const letters = TITLES[locale].replace(/ /g, "").length;
    for (const [width, height, least] of [[800, 700, 18], [1280, 800, letters]] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const shown = await shownLetters(page);
      assert.ok(shown >= Math.min(least, letters), `${width} px: ${shown} of the title's ${letters} letters shown, want ${least}`);
      assert.deepEqual(await overlaps(page), [], `${width} px`);
      // The model's name reads whole in the picker.
      const fits = await page.$eval("#model-picker", (el) => {
        const s = el as HTMLSelectElement;
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.font = getComputedStyle(s).font;
        return ctx.measureText(s.value).width + 28 <= s.clientWidth;
      });
      assert.ok(fits, `${width} px: the model's name is cut in the picker`);
      await screenshot(page, `header-long-title-${locale}-${width}`);
    }
    await page.context().close();
  });
}
