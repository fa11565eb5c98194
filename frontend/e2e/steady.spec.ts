// What stays where it is while a person works. Measured in Chromium at
// 1280×800 and 800×700, in English and Korean.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { lastReply, openPage, screenshot, send, SIZES, withWorld } from "./harness.ts";

const w = withWorld();

const frames = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** header is the header's height and the parts of it that stick out of it. */
function header(page: Page): Promise<{ height: number; outside: string[] }> {
  return page.$eval(".topbar", (bar) => {
    const box = bar.getBoundingClientRect();
    const parts = [...bar.querySelectorAll<HTMLElement>(".sidebar-toggle, .title, .tools > *")].filter((e) => e.offsetParent);
    const outside = parts.filter((p) => {
      const r = p.getBoundingClientRect();
      return r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
    });
    return { height: box.height, outside: outside.map((p) => p.className.split(" ")[0] || p.tagName) };
  });
}

const SCREENS = [
  ["chat", "nav li button.open", "#model-picker"],
  ["knowledge", ".views button >> nth=0", "#kb-title"],
  ["memory", ".views button >> nth=1", "#mem-title"],
] as const;

// The last session saw the header 55 px high on Chat and 49 px on Knowledge
// and Memory in WebKitGTK, which draws the model picker's select taller than
// Chromium: the header grew with its tallest part. Here the picker is drawn
// as tall as WebKitGTK drew it (38 px) the second time round.
for (const locale of ["en-US", "ko-KR"] as const) {
  test(`the header is one height on Chat, Knowledge and Memory, however tall its parts are drawn (${locale})`, async () => {
    const page = await openPage(w.browser, w.app.url, locale);
    const lang = locale.slice(0, 2);
    await send(page, "Hello");
    await lastReply(page);
    for (const tall of [false, true]) {
      if (tall) await page.addStyleTag({ content: "#model-picker { min-height: 38px; }" });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const seen: Record<string, number> = {};
        for (const [name, open, shown] of SCREENS) {
          await page.click(open);
          await page.waitForSelector(shown);
          await frames(page);
          const h = await header(page);
          seen[name] = h.height;
          if (!tall) {
            assert.deepEqual(h.outside, [], `${name} at ${size.width} px: parts outside the header`);
            await screenshot(page, `steady-header-${name}-${lang}-${size.width}`);
          }
        }
        assert.equal(new Set(Object.values(seen)).size, 1, `${tall ? "a tall picker, " : ""}${size.width} px: ${JSON.stringify(seen)}`);
      }
    }
    await page.context().close();
  });
}

// The memory screen's box moved down 21 px when the first memory was added.
// It is measured with none, one and none again, in both languages and sizes.
for (const locale of ["en-US", "ko-KR"] as const) {
  test(`the memory screen's box stays where it is as the first memory comes and goes (${locale})`, async () => {
    await w.api("MemoryService/DeleteAll", []);
    const page = await openPage(w.browser, w.app.url, locale);
    const lang = locale.slice(0, 2);
    await page.click(".views button >> nth=1");
    await page.waitForSelector(".mem .empty");
    const top = () => page.$eval("#mem-new", (el) => el.getBoundingClientRect().top);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await frames(page);
      const empty = await top();
      await screenshot(page, `steady-memory-none-${lang}-${size.width}`);
      await page.fill("#mem-new", lang === "ko" ? "무료 도구를 선호함" : "Prefers free tools");
      await page.click("form.add button[type=submit]");
      await page.waitForSelector(".mem .item");
      await frames(page);
      const one = await top();
      await screenshot(page, `steady-memory-one-${lang}-${size.width}`);
      assert.equal(one, empty, `${size.width} px: the box moved from ${empty} to ${one} px`);
      await page.click(".mem .item button.delete");
      await page.click(".mem .item button.confirm-delete");
      await page.waitForSelector(".mem .empty");
      await frames(page);
      assert.equal(await top(), empty, `${size.width} px: the box moved back`);
    }
    await page.context().close();
  });
}
