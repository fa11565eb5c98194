// What stays where it is while a person works. Measured in Chromium at
// 1280×800 and 800×700, in English and Korean.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { lastReply, openPage, screenshot, script, send, SIZES, withWorld } from "./harness.ts";

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

/** planBox is where the plan dialog is, where its feedback box is, and the part of the dialog that shows it (between its scrolled area's top and the footer's top). */
function planBox(page: Page): Promise<{ top: number; fbTop: number; fbBottom: number; shownTop: number; shownBottom: number }> {
  return page.evaluate(() => {
    const dialog = document.querySelector("dialog.plan")!;
    const fb = document.querySelector("#plan-feedback")!.getBoundingClientRect();
    const footer = dialog.querySelector("footer")!.getBoundingClientRect();
    let scroller: Element | null = document.querySelector("#plan-feedback")!.parentElement;
    while (scroller && scroller !== dialog && !/auto|scroll/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
    const area = (scroller ?? dialog).getBoundingClientRect();
    return { top: dialog.getBoundingClientRect().top, fbTop: fb.top, fbBottom: fb.bottom, shownTop: area.top, shownBottom: Math.min(area.bottom, footer.top) };
  });
}

const PLAN = {
  sub_tasks: [
    { id: "s1", title: "Write the script", detail: "A 30-second script with a hook in the first two seconds" },
    { id: "s2", title: "Film the clips", detail: "Vertical clips of the counter, the coffee and the room" },
    { id: "s3", title: "Edit the video", detail: "Cut to the beat, with subtitles in Korean and English" },
    { id: "s4", title: "Make a thumbnail", detail: "An eye-catching cover with the café's name" },
  ],
};

// The plan dialog was centred: each step added or removed moved it up or
// down under the pointer. At 800×700 its sticky footer covered part of the
// feedback box, and a click on the part still shown left it so.
for (const locale of ["en-US", "ko-KR"] as const) {
  test(`the plan dialog stays where it is as steps come and go, and its feedback box shows whole when focused (${locale})`, async () => {
    await script(w.fake, [{ json: { route: "complex", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a task" } }, { json: PLAN }]);
    const page = await openPage(w.browser, w.app.url, locale);
    const lang = locale.slice(0, 2);
    await page.click("button.new");
    await send(page, lang === "ko" ? "카페 홍보용 쇼츠 영상 만들기" : "Make a YouTube Shorts video about my café");
    await page.waitForSelector("dialog.plan[open]");
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await frames(page);
      const at = (await planBox(page)).top;
      await page.click("dialog.plan button.add");
      await frames(page);
      assert.equal((await planBox(page)).top, at, `${size.width} px: a step added moved the dialog`);
      await screenshot(page, `steady-plan-added-${lang}-${size.width}`);
      await page.click("dialog.plan li[data-step='4'] button.remove");
      await page.click("dialog.plan li[data-step='0'] button.remove");
      await frames(page);
      assert.equal((await planBox(page)).top, at, `${size.width} px: a step removed moved the dialog`);
      await page.click("dialog.plan button.add");
      await frames(page);

      // Focused from the keyboard (Tab, or the focus moved there).
      await page.focus("dialog.plan li[data-step='0'] input.title");
      await page.focus("#plan-feedback");
      await frames(page);
      let b = await planBox(page);
      assert.ok(b.fbTop >= b.shownTop - 0.5 && b.fbBottom <= b.shownBottom + 0.5, `${size.width} px: focused, the box is at ${b.fbTop}–${b.fbBottom}, the dialog shows ${b.shownTop}–${b.shownBottom}`);

      // Clicked where it shows, a few pixels of it above the footer.
      await page.evaluate(() => {
        const dialog = document.querySelector("dialog.plan")!;
        const fb = document.querySelector("#plan-feedback")!;
        let scroller: Element | null = fb.parentElement;
        while (scroller && scroller !== dialog && !/auto|scroll/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
        const footer = dialog.querySelector("footer")!.getBoundingClientRect();
        (scroller ?? dialog).scrollTop += fb.getBoundingClientRect().top - (footer.top - 12);
        (document.activeElement as HTMLElement | null)?.blur();
      });
      await frames(page);
      b = await planBox(page);
      assert.ok(b.fbTop > b.shownTop && b.fbTop < b.shownBottom - 4, `${size.width} px: the box's top is not shown above the footer (${b.fbTop}, ${b.shownTop}–${b.shownBottom})`);
      await page.mouse.click(size.width / 2, b.fbTop + 4);
      assert.equal(await page.evaluate(() => document.activeElement?.id), "plan-feedback");
      await frames(page);
      b = await planBox(page);
      assert.ok(b.fbTop >= b.shownTop - 0.5 && b.fbBottom <= b.shownBottom + 0.5, `${size.width} px: clicked, the box is at ${b.fbTop}–${b.fbBottom}, the dialog shows ${b.shownTop}–${b.shownBottom}`);
      await screenshot(page, `steady-plan-feedback-${lang}-${size.width}`);
    }
    await page.keyboard.press("Escape");
    await page.click("dialog.plan .confirm-cancel");
    await page.waitForSelector("dialog.plan", { state: "detached" });
    await page.context().close();
  });
}
