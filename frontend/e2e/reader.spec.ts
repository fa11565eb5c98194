// The Knowledge screen's reader on a long document, in English and in
// Korean: a search hit opens in its document (not a snippet), scrolled to
// the hit with the query's words marked and the page's heading shown; the
// person reads on and more of the document pages in, the window staying
// bounded. Screenshots at 1280×800: reader-en-1280.png, reader-ko-1280.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { belowLabel, cutLines, hitPlace, importFile, labelStrips, longDoc, openPage, overlappingPlaces, screenshot, stillScroll, withWorld } from "./harness.ts";

const w = withWorld();

/** readHit searches, opens the hit holding needle and waits for its document around it. */
async function readHit(page: Page, query: string, needle: string): Promise<void> {
  await page.click("#kb-tab-search");
  await page.fill("#kb-search", query);
  await page.press("#kb-search", "Enter");
  await page.waitForSelector(".hit");
  const i = await page.$$eval(".hit", (els, n) => els.findIndex((e) => (e.textContent ?? "").includes(n)), needle);
  assert.ok(i >= 0, `a hit holds "${needle}"`);
  await page.click(`.hit >> nth=${i} >> button.read-hit`);
  await page.waitForFunction(() => document.querySelectorAll("dialog.reader [data-seq]").length > 10);
}

/** seqs are the chunk numbers the reader holds. */
const seqs = (page: Page) => page.$$eval("dialog.reader [data-seq]", (els) => els.map((e) => Number((e as HTMLElement).dataset.seq)));

/** hitInView says whether the hit's chunk is inside the reader's visible box. */
const hitInView = (page: Page) =>
  page.$eval("dialog.reader [data-testid=reader-body]", (body) => {
    const hit = body.querySelector("[data-part=hit]");
    if (!hit) return false;
    const b = body.getBoundingClientRect();
    const r = hit.getBoundingClientRect();
    return r.bottom > b.top && r.top < b.bottom;
  });

for (const lang of [
  {
    code: "en", locale: "en-US", file: "lighthouse-manual.md", query: "lighthouse keeper ships",
    needle: "The lighthouse keeper counts forty-two ships every night.",
    heading: (n: number) => `Section ${n}: harbour duties`,
    para: (n: number) => `Rule ${n} of the harbour: ropes are coiled, lamps are trimmed and the log is written before the tide turns. `.repeat(6),
    start: "Start of the document", later: "Show the text after",
  },
  {
    code: "ko", locale: "ko-KR", file: "등대-규정집.md", query: "등대지기는 배를",
    needle: "등대지기는 매일 밤 배 마흔두 척을 셉니다.",
    heading: (n: number) => `제${n}조 항구의 일`,
    para: (n: number) => `항구 규정 ${n}조: 밧줄은 감아 두고 등불은 손질하며 물때가 바뀌기 전에 일지를 씁니다. `.repeat(6),
    start: "문서의 처음", later: "뒷부분 더 보기",
  },
]) {
  test(`a hit opens in its whole long document, ${lang.code}`, async () => {
    const page = await openPage(w.browser, w.app.url, lang.locale, { width: 1280, height: 800 });
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    await importFile(page, longDoc(lang.file, 400, 200, lang.heading, lang.para, lang.needle));
    await readHit(page, lang.query, lang.needle);

    // A page of the document around the hit, not the whole 300 chunks.
    const held = await seqs(page);
    assert.ok(held.length === 17 && held[0]! > 0, `a page around the hit: ${held.join(",")}`);
    assert.ok(await page.isVisible(`dialog.reader button.more[data-more=below]:text("${lang.later}")`));
    const hit = (await page.textContent("dialog.reader [data-part=hit]")) ?? "";
    assert.ok(hit.includes(lang.needle), `the hit's chunk: ${hit}`);
    const marks = await page.$$eval("dialog.reader [data-part=hit] mark", (els) => els.map((e) => e.textContent));
    assert.ok(marks.length >= 2, `the query's words are marked: ${marks.join(",")}`);
    assert.ok(await hitInView(page), "the reader opens scrolled to the hit");
    const places = await page.$$eval("dialog.reader .place", (els) => els.map((e) => e.textContent ?? ""));
    assert.ok(places.some((p) => p.includes(lang.heading(200))), `the hit's heading is shown: ${places.join(" | ")}`);
    // How far in: section 200 of 400.
    const at = (await page.textContent("dialog.reader [data-testid=reader-position]")) ?? "";
    assert.match(at, lang.code === "en" ? /^About (4\d|5\d)% into the document$/ : /^문서의 약 (4\d|5\d)% 지점$/);
    await screenshot(page, `reader-${lang.code}-1280`);
    // Each heading label scrolls out before the next one reaches it: none is drawn over another.
    const over = await overlappingPlaces(page, "reader");
    assert.deepEqual(over.slice(0, 5), [], `heading labels drawn over one another (${over.length})`);

    // Reading on: scrolled to the bottom, the next page comes in by itself.
    const last = held.at(-1)!;
    await page.$eval("dialog.reader [data-testid=reader-body]", (b) => (b.scrollTop = b.scrollHeight));
    await page.waitForFunction((n) => {
      const els = document.querySelectorAll<HTMLElement>("dialog.reader [data-seq]");
      return Number(els[els.length - 1]?.dataset.seq) > n;
    }, last);
    // Scrolling up to the start: pages come in above, the view staying on the text read.
    for (let i = 0; i < 40 && !(await page.$("dialog.reader [data-edge=start]")); i++) {
      const first = (await seqs(page))[0]!;
      await page.$eval("dialog.reader [data-testid=reader-body]", (b) => (b.scrollTop = 0));
      await page.waitForFunction(
        (n) => !!document.querySelector("dialog.reader [data-edge=start]") || Number(document.querySelector<HTMLElement>("dialog.reader [data-seq]")?.dataset.seq) < n,
        first,
      );
    }
    assert.equal(await page.textContent("dialog.reader [data-edge=start]"), lang.start);
    const now = await seqs(page);
    assert.ok(now[0] === 0 && now.length <= 96, `from the start, bounded: ${now[0]}…${now.at(-1)} (${now.length})`);
    await page.$eval("dialog.reader [data-testid=reader-body]", (b) => (b.scrollTop = 0));
    await page.waitForFunction((want) => document.querySelector("dialog.reader [data-testid=reader-position]")?.textContent === want, lang.code === "en" ? "About 0% into the document" : "문서의 약 0% 지점");
    await screenshot(page, `reader-${lang.code}-start-1280`);
    await page.close();
  });
}

// A long hit in the middle of a long section whose label wraps to two lines: the reader opens with the hit's first
// line under the label, not behind it, at 1280×800 and 800×700 and after the window changes size;
// and as a label is pushed out by the next one no strip of it stays at the top. Screenshots
// reader-label-{en,ko}-{1280,800,800-resized,640-then-1280}.png and reader-push-{en,ko}-800.png.
for (const lang of [
  {
    code: "en", locale: "en-US", file: "fog-log.md", query: "foghorn midnight",
    needle: "The foghorn sounds nine times at midnight.",
    heading: (n: number) => `Section ${n}: what the keeper of the harbour light writes in the night log when the fog comes in, the ships wait outside the breakwater and the pilot boat cannot go out`,
    rule: (n: string) => `Rule ${n} of the harbour: ropes are coiled, lamps are trimmed and the log is written before the tide turns. `,
    rules: 16, // two chunks: 1,000 characters, and the hit, 780 more
  },
  {
    code: "ko", locale: "ko-KR", file: "안개-일지.md", query: "무적은 자정에",
    needle: "무적은 자정에 아홉 번 울립니다.",
    heading: (n: number) => `제${n}조 안개가 끼어 배들이 방파제 밖에서 기다리고 도선선이 나갈 수 없을 때 등대지기가 밤의 일지에 적는 것과 항구 관리인에게 알리는 순서`,
    rule: (n: string) => `항구 규정 ${n}조: 밧줄은 감아 두고 등불은 손질하며 물때가 바뀌기 전에 일지를 씁니다. `,
    rules: 32, // two chunks: 1,000 characters, and the hit, 750 more
  },
]) {
  test(`a long hit opens under its two-line label, and labels go out without a strip, ${lang.code}`, async () => {
    // Sections of a few chunks each; the needle ends section 30, in a chunk that is not its section's first, so the
    // label is stuck over it, with the query's words at the chunk's end: a long hit. Each sentence is numbered: the
    // reader shows a chunk without what it repeats of the one before, and text repeated word for word would be
    // taken for that far beyond the real overlap.
    const para = (n: number) => Array.from({ length: n === 30 ? lang.rules : 24 }, (_, i) => lang.rule(`${n}.${i + 1}`)).join("");
    const file = longDoc(lang.file, 60, 30, lang.heading, para, lang.needle);
    const checkOpen = async (page: Page, what: string, lines?: number) => {
      const p = await hitPlace(page, "reader");
      assert.equal(belowLabel(p, lines), "", `${what}: ${p.label}`);
    };
    /** open opens the Knowledge screen at a size and the hit in its reader (the file imported first, once). */
    const open = async (size: { width: number; height: number }, importing = false) => {
      const page = await openPage(w.browser, w.app.url, lang.locale, size);
      await page.click(".views button >> nth=0");
      await page.waitForSelector("#kb-title");
      if (importing) await importFile(page, file);
      await readHit(page, lang.query, lang.needle);
      return page;
    };

    const wide = await open({ width: 1280, height: 800 }, true);
    await checkOpen(wide, "opened at 1280×800", 2);
    await screenshot(wide, `reader-label-${lang.code}-1280`);
    // The window made lower before the person scrolls (the screenshots of decided.spec do that): still under the label.
    await wide.setViewportSize({ width: 800, height: 700 });
    await checkOpen(wide, "1280×800 made 800×700", 2);
    await screenshot(wide, `reader-label-${lang.code}-800-resized`);
    await wide.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual((await labelStrips(wide, "reader")).slice(0, 5), [], "labels pushed out at 1280×800");
    await wide.close();

    const narrow = await open({ width: 800, height: 700 });
    await checkOpen(narrow, "opened at 800×700", 2);
    await screenshot(narrow, `reader-label-${lang.code}-800`);
    assert.deepEqual((await labelStrips(narrow, "reader")).slice(0, 5), [], "labels pushed out at 800×700");
    // A push half done, to look at: the next label 12 px under the top.
    await narrow.$eval("dialog.reader [data-testid=reader-body]", (body) => {
      const next = body.querySelector("[data-part=hit]")!.closest(".section")!.nextElementSibling!;
      body.scrollTop += next.getBoundingClientRect().top - body.getBoundingClientRect().top - 12;
    });
    await narrow.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await screenshot(narrow, `reader-push-${lang.code}-800`);
    await narrow.close();

    // Opened in a window narrower than the reader, then made wide before the person scrolls: the text above the hit
    // takes fewer lines and would carry it up under the label; it is placed again.
    const rewrap = await open({ width: 640, height: 700 });
    await checkOpen(rewrap, "opened at 640×700");
    await rewrap.setViewportSize({ width: 1280, height: 800 });
    await checkOpen(rewrap, "640×700 made 1280×800", 2);
    await screenshot(rewrap, `reader-label-${lang.code}-640-then-1280`);
    // Once the person has scrolled elsewhere, a change of size leaves the view where they took it.
    const reader = "dialog.reader [data-testid=reader-body]";
    const read = await rewrap.$eval(reader, (body) => (body.scrollTop -= 150));
    await rewrap.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await rewrap.setViewportSize({ width: 800, height: 700 });
    await rewrap.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await rewrap.$eval(reader, (body) => body.scrollTop), read, "the view stays where the person scrolled it");
    await rewrap.close();
  });
}

// A hit taller than the view whose searched words come only at its end (a list of short lines, each a line of its
// own): the reader opens with the first marked word in view under the label, the hit's first lines scrolled out
// above, at 800×700; from its first line the word was below the view. Screenshots reader-mark-{en,ko}-800.png.
for (const lang of [
  {
    code: "en", locale: "en-US", file: "buoy-list.md", query: "anchor barnacles",
    needle: "The anchor rope has barnacles at its end.",
    heading: (n: number) => `Section ${n}: buoys`,
    item: (n: string) => `- Buoy ${n}: painted, lit, chained.`,
  },
  {
    code: "ko", locale: "ko-KR", file: "부표-목록.md", query: "닻줄 조개껍데기",
    needle: "닻줄 끝에 조개껍데기가 붙었습니다.",
    heading: (n: number) => `제${n}조 부표`,
    item: (n: string) => `- 부표 ${n}: 칠함, 등 켬, 사슬 맴.`,
  },
]) {
  test(`a hit taller than the view opens at its first marked word, ${lang.code}`, async () => {
    // Section 30's list is one chunk of 25 lines, the needle its last: taller than the view at 800×700.
    const para = (n: number) => Array.from({ length: 24 }, (_, i) => lang.item(`${n}.${i + 1}`)).join("\n");
    const file = longDoc(lang.file, 60, 30, lang.heading, (n) => para(n) + (n === 30 ? "\n" : ""), lang.needle);
    const page = await openPage(w.browser, w.app.url, lang.locale, { width: 800, height: 700 });
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    await importFile(page, file);
    await readHit(page, lang.query, lang.needle);
    const p = await hitPlace(page, "reader");
    assert.equal(belowLabel(p), "", `opened at 800×700: ${p.label}`);
    assert.ok(p.markBottom > 0, "the hit's words are marked");
    assert.ok(p.firstLineTop < p.labelBottom, `the hit is taller than the view: its first line is scrolled out (${p.firstLineTop} < ${p.labelBottom})`);
    const mark = await page.textContent("dialog.reader [data-part=hit] mark");
    assert.ok(mark && lang.needle.includes(mark), `the first marked word is the needle's: ${mark}`);
    await screenshot(page, `reader-mark-${lang.code}-800`);
    await page.close();
  });
}

// Away from the hit, the person scrolls with the wheel and the keys: wherever they stop, the line of text under the
// label stuck at the top (two lines of a long heading at 800 px) is whole, not cut by the label's edge (cutLines).
// Screenshots reader-cut-{en,ko}-800.png.
for (const lang of [
  {
    code: "en", locale: "en-US", file: "tide-log.md", query: "copper gong",
    needle: "The copper gong is struck by hand.",
    heading: (n: number) => `Section ${n}: what the keeper of the harbour light writes in the night log when the fog comes in, the ships wait outside the breakwater and the pilot boat cannot go out`,
    rule: (n: string) => `Rule ${n} of the harbour: ropes are coiled, lamps are trimmed and the log is written before the tide turns. `,
  },
  {
    code: "ko", locale: "ko-KR", file: "물때-일지.md", query: "물때 종은",
    needle: "물때 종은 손으로 칩니다.",
    heading: (n: number) => `제${n}조 안개가 끼어 배들이 방파제 밖에서 기다리고 도선선이 나갈 수 없을 때 등대지기가 밤의 일지에 적는 것과 항구 관리인에게 알리는 순서`,
    rule: (n: string) => `항구 규정 ${n}조: 밧줄은 감아 두고 등불은 손질하며 일지를 씁니다. `,
  },
]) {
  test(`a line under the stuck label is never cut where the person stops scrolling, ${lang.code}`, async () => {
    const para = (n: number) => Array.from({ length: 30 }, (_, i) => lang.rule(`${n}.${i + 1}`)).join("");
    const page = await openPage(w.browser, w.app.url, lang.locale, { width: 800, height: 700 });
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    await importFile(page, longDoc(lang.file, 60, 30, lang.heading, para, lang.needle));
    await readHit(page, lang.query, lang.needle);
    const reader = "dialog.reader [data-testid=reader-body]";
    const box = (await page.$eval(reader, (b) => { const r = b.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }));
    await page.mouse.move(box.x, box.y);
    // Away from the hit, then steps of the wheel that stop anywhere in a line, and the keys.
    const labelLines = await page.$eval(reader, (b) => {
      const label = b.querySelector("[data-part=hit]")!.closest(".section")!.querySelector(":scope > .place")!;
      const range = document.createRange();
      range.selectNodeContents(label);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    assert.equal(labelLines, 2, "the label takes two lines");
    for (const [i, step] of ([400, 37, 61, -29, 113, -90, "PageDown", 250, "ArrowDown", "PageUp"] as const).entries()) {
      if (typeof step === "number") await page.mouse.wheel(0, step);
      else {
        await page.focus(reader);
        await page.keyboard.press(step);
      }
      await stillScroll(page, "reader");
      assert.deepEqual(await cutLines(page, "reader"), [], `after step ${i + 1} (${step})`);
      if (i === 4) await screenshot(page, `reader-cut-${lang.code}-800`);
    }
    await page.close();
  });
}
