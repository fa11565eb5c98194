// A reply's numbered source opens in the Knowledge reader, in English and
// in Korean: the whole document (a long one paged as the reader pages),
// scrolled to the cited chunk, which is labelled as the one cited; the
// title keeps its [n] and the line its file. The same source opened after
// its file was imported again with other words there says so and shows the
// passage as cited, then the document now; after its document was removed,
// the cited passage with a line saying why — no error. A source from a file
// attached to the conversation opens whole like a library document.
// Screenshots at 1280×800: cite-{en,ko}-1280.png (and -dark-), cite-changed-{en,ko}-1280.png (and
// cite-changed-long-: a passage as cited longer than half the window; and at 1024×600), cite-moved-{en,ko}-1280.png (sections
// added before the cited one),
// cite-removed-{en,ko}-1280.png, cite-attached-{en,ko}-1280.png; cite-next-heading-{en,ko}-{1280,1024x600}.png: scrolled
// so that the next section's heading label meets the one before (the labels are measured too: never drawn over one another).
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { answer, importFile, lastReply, longDoc, openPage, overlappingPlaces, screenshot, script, send, withWorld } from "./harness.ts";

const w = withWorld();

/** reimport uploads the file again with other words, and waits until the library holds the new version (a new id). */
async function reimport(path: string, content: string, oldID: string): Promise<void> {
  const name = path.split("/").pop()!;
  await w.api("KnowledgeService/Upload", [name, Buffer.from(content).toString("base64")]);
  for (let i = 0; i < 600; i++) {
    const docs = (await w.api("KnowledgeService/Documents", [])) as Array<{ id: string; source: string }>;
    if (docs.some((d) => d.source.endsWith(name) && d.id !== oldID)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} was not imported again`);
}

/** openCite clicks the last reply's [1] and waits for the source dialog. */
async function openCite(page: Page): Promise<void> {
  await page.click("article[data-role='assistant']:last-of-type .md button.cite >> nth=0");
  await page.waitForSelector("dialog.source[open] #source-title");
}

async function closeSource(page: Page): Promise<void> {
  await page.click("dialog.source button.primary");
  await page.waitForSelector("dialog.source[open]", { state: "detached" });
}

/** citedInView says whether the cited chunk is inside the reader's visible box. */
const citedInView = (page: Page) =>
  page.$eval("dialog.source [data-testid=reader-body]", (body) => {
    const hit = body.querySelector("[data-part=hit]");
    if (!hit) return false;
    const b = body.getBoundingClientRect();
    const r = hit.getBoundingClientRect();
    return r.bottom > b.top && r.top < b.bottom;
  });

/**
 * wasBox measures the box of the passage as cited: whether it shows the passage whole (no scrolling), its share of
 * the dialog's height, the height left to the document below it, and whether the dialog itself has to scroll.
 */
const wasBox = (page: Page) =>
  page.$eval("dialog.source [data-testid=reader-was]", (was) => {
    const box = was.closest("dialog")!;
    const dialog = box.getBoundingClientRect();
    const body = was.parentElement!.querySelector("[data-testid=reader-body]")!.getBoundingClientRect();
    return { whole: was.scrollHeight <= was.clientHeight + 1, share: was.getBoundingClientRect().height / dialog.height, body: body.height, dialogScrolls: box.scrollHeight > box.clientHeight + 1 };
  });

/** placesApart fails when any two page/heading labels of the reader overlap, where it opened or scrolled a screen either way. */
async function placesApart(page: Page, where: string): Promise<void> {
  const over = await overlappingPlaces(page, "source");
  assert.deepEqual(over.slice(0, 5), [], `${where}: heading labels drawn over one another (${over.length})`);
}

/**
 * toNextHeading scrolls the reader so that the first heading label below the cited chunk sits a few pixels under the
 * reader's top edge: where the label before it, kept in view while its section is read, would be drawn over it.
 */
const toNextHeading = (page: Page) =>
  page.$eval("dialog.source [data-testid=reader-body]", (body) => {
    const hit = body.querySelector("[data-part=hit]")!.getBoundingClientRect();
    const next = [...body.querySelectorAll<HTMLElement>(".place")].find((el) => el.getBoundingClientRect().top > hit.bottom);
    if (next) body.scrollTop += next.getBoundingClientRect().top - body.getBoundingClientRect().top - 8;
    return next?.textContent ?? "";
  });

for (const lang of [
  {
    code: "en", locale: "en-US", file: "harbour-manual.md",
    needle: "The harbour master rings the copper bell at seven.",
    question: "When does the harbour master ring the copper bell?",
    reply: "The harbour master rings the copper bell at seven [1].",
    heading: (n: number) => `Section ${n}: harbour duties`,
    para: (n: number) => `Rule ${n} of the harbour: ropes are coiled, lamps are trimmed and the log is written before the tide turns. `.repeat(5),
    newNeedle: "The harbour master rings the brass bell at eight.",
    cited: "Cited as [1]", removed: /no longer in the library/, changed: /changed since the reply/, now: "The closest passage in the document now",
    attachName: "crew-notes.md", attachText: "# Crew notes\n\nThe galley kettle is descaled every Thursday.\n",
    attachQuestion: "When is the galley kettle descaled?", attachReply: "Every Thursday [1].",
  },
  {
    code: "ko", locale: "ko-KR", file: "항구-규정집.md",
    needle: "항만장은 일곱 시에 구리 종을 울립니다.",
    question: "항만장은 구리 종을 언제 울리나요?",
    reply: "항만장은 일곱 시에 구리 종을 울립니다 [1].",
    heading: (n: number) => `제${n}조 항구의 일`,
    para: (n: number) => `항구 규정 ${n}조: 밧줄은 감아 두고 등불은 손질하며 물때가 바뀌기 전에 일지를 씁니다. `.repeat(5),
    newNeedle: "항만장은 여덟 시에 놋쇠 종을 울립니다.",
    cited: "인용한 구절 [1]", removed: /지식 베이스에 없습니다/, changed: /답변 뒤에 이 문서가 바뀌었습니다/, now: "지금 문서에서 가장 비슷한 구절",
    attachName: "선원-메모.md", attachText: "# 선원 메모\n\n조리실 주전자는 매주 목요일에 석회를 닦아 냅니다.\n",
    attachQuestion: "조리실 주전자는 언제 닦나요?", attachReply: "매주 목요일입니다 [1].",
  },
]) {
  test(`a cited source opens in its whole document, ${lang.code}`, async () => {
    const page = await openPage(w.browser, w.app.url, lang.locale, { width: 1280, height: 800 });
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    const file = longDoc(lang.file, 120, 60, lang.heading, lang.para, lang.needle);
    await importFile(page, file);

    await page.click("button.new");
    await script(w.fake, answer(lang.reply));
    await send(page, lang.question);
    assert.equal((await lastReply(page)).status, "complete");
    await w.settle();
    await openCite(page);
    // The document around the cited chunk, paged: not the passage alone, not all 90 chunks.
    await page.waitForFunction(() => document.querySelectorAll("dialog.source [data-seq]").length > 10);
    const held = await page.$$eval("dialog.source [data-seq]", (els) => els.map((e) => Number((e as HTMLElement).dataset.seq)));
    assert.ok(held.length === 17 && held[0]! > 0, `a page around the cited chunk: ${held.join(",")}`);
    const cited = (await page.textContent("dialog.source [data-part=hit]")) ?? "";
    assert.ok(cited.includes(lang.needle), `the cited chunk: ${cited}`);
    assert.equal(await page.$$eval("dialog.source [data-part=hit]", (els) => els.length), 1);
    assert.equal(await page.textContent("dialog.source [data-testid=reader-cited]"), lang.cited);
    assert.ok(await citedInView(page), "the reader opens scrolled to the cited chunk");
    assert.match((await page.textContent("#source-title")) ?? "", /^\[1\] /);
    assert.match((await page.textContent("dialog.source .where")) ?? "", new RegExp(lang.file.replace(".", "\\.")));
    assert.equal(await page.$("dialog.source [data-testid=reader-note]"), null);
    const citedSeq = await page.$eval("dialog.source [data-part=hit]", (e) => Number((e as HTMLElement).dataset.seq));
    await placesApart(page, "the cited chunk");
    await screenshot(page, `cite-${lang.code}-1280`);
    // The cited box reads on the dark theme too.
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, `cite-${lang.code}-dark-1280`);
    await page.emulateMedia({ colorScheme: "light" });
    // Scrolled on to the next section: its heading takes the place of the one before, never drawn over it.
    assert.ok(await toNextHeading(page), "a heading below the cited chunk");
    await screenshot(page, `cite-next-heading-${lang.code}-1280`);
    await placesApart(page, "scrolled to the next heading");
    await page.setViewportSize({ width: 1024, height: 600 });
    await placesApart(page, "the cited chunk in a low window");
    assert.ok(await toNextHeading(page), "a heading below the cited chunk");
    await screenshot(page, `cite-next-heading-${lang.code}-1024x600`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await closeSource(page);

    const listed = async () => {
      const docs = (await w.api("KnowledgeService/Documents", [])) as Array<{ id: string; source: string }>;
      const doc = docs.find((d) => d.source.endsWith(lang.file));
      assert.ok(doc, `the document is listed: ${docs.map((d) => d.source).join(", ")}`);
      return doc;
    };

    // Imported again with sections added before the cited one: the
    // passage opens where it is now, as cited, with nothing to say.
    const added: string[] = [];
    for (let n = 201; n <= 203; n++) added.push(`## ${lang.heading(n)}`, "", lang.para(n), "");
    await reimport(file, [...added, readFileSync(file, "utf8")].join("\n"), (await listed()).id);
    await w.settle();
    await openCite(page);
    await page.waitForFunction(() => document.querySelectorAll("dialog.source [data-seq]").length > 10);
    const moved = await page.$eval("dialog.source [data-part=hit]", (e) => ({ seq: Number((e as HTMLElement).dataset.seq), text: e.textContent ?? "" }));
    assert.ok(moved.text.includes(lang.needle) && moved.seq === citedSeq + 3, `the cited passage where it is now: ${JSON.stringify(moved)} (cited at ${citedSeq})`);
    assert.equal(await page.textContent("dialog.source [data-testid=reader-cited]"), lang.cited);
    assert.equal(await page.$("dialog.source [data-testid=reader-note]"), null);
    assert.equal(await page.$("dialog.source [data-testid=reader-was]"), null);
    assert.ok(await citedInView(page), "the reader opens scrolled to the cited passage where it is now");
    await placesApart(page, "the cited passage where it is now");
    await screenshot(page, `cite-moved-${lang.code}-1280`);
    await closeSource(page);

    // Imported again with other words at the cited place: said, the
    // passage as cited first, then the document as it is now.
    const first = await listed();
    const lines: string[] = [];
    for (let n = 1; n <= 120; n++) lines.push(`## ${lang.heading(n)}`, "", lang.para(n) + (n === 60 ? ` ${lang.newNeedle}` : ""), "");
    await reimport(file, lines.join("\n"), first.id);
    await w.settle();
    await openCite(page);
    await page.waitForSelector("dialog.source [data-testid=reader-note]");
    assert.match((await page.textContent("dialog.source [data-testid=reader-note]")) ?? "", lang.changed);
    await page.waitForFunction(() => document.querySelectorAll("dialog.source [data-seq]").length > 10);
    assert.ok(((await page.textContent("dialog.source [data-testid=reader-was]")) ?? "").includes(lang.needle), "the passage as cited");
    assert.equal(await page.textContent("dialog.source [data-testid=reader-cited]"), lang.cited);
    const now = (await page.textContent("dialog.source [data-testid=reader-body] [data-part=hit]")) ?? "";
    assert.ok(now.includes(lang.newNeedle) && !now.includes(lang.needle), `the same place now: ${now}`);
    assert.equal(await page.textContent("dialog.source [data-testid=reader-now]"), lang.now);
    assert.ok(await citedInView(page), "the reader opens scrolled to the closest passage now");
    // The passage as cited reads whole, in a box as high as it, the document below still a few lines high.
    const boxes = await wasBox(page);
    assert.ok(boxes.whole && boxes.share <= 0.6 && boxes.body >= 100, `the passage as cited, whole: ${JSON.stringify(boxes)}`);
    await placesApart(page, "the closest passage now");
    await screenshot(page, `cite-changed-${lang.code}-1280`);
    // A passage longer than half the window scrolls in a box of that height.
    await page.$eval("dialog.source [data-part=was]", (el) => void (el.textContent = (el.textContent ?? "").repeat(6)));
    const long = await wasBox(page);
    assert.ok(!long.whole && long.share >= 0.45 && long.share <= 0.6 && long.body >= 100, `a long passage as cited: ${JSON.stringify(long)}`);
    await screenshot(page, `cite-changed-long-${lang.code}-1280`);
    // In a low window both boxes still fit the dialog, the document a few lines high; the dialog does not scroll.
    await page.setViewportSize({ width: 1024, height: 600 });
    const low = await wasBox(page);
    assert.ok(!low.dialogScrolls && low.body >= 100, `a long passage as cited in a low window: ${JSON.stringify(low)}`);
    await placesApart(page, "the closest passage now in a low window");
    await screenshot(page, `cite-changed-long-${lang.code}-1024x600`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await closeSource(page);

    // Removed from the library since: the passage as cited, and why.
    await w.api("KnowledgeService/Remove", [(await listed()).id]);
    await openCite(page);
    await page.waitForSelector("dialog.source [data-testid=reader-note]");
    assert.match((await page.textContent("dialog.source [data-testid=reader-note]")) ?? "", lang.removed);
    assert.ok(((await page.textContent("dialog.source [data-part=hit]")) ?? "").includes(lang.needle));
    assert.equal(await page.textContent("dialog.source [data-testid=reader-cited]"), lang.cited);
    assert.doesNotMatch((await page.textContent("dialog.source")) ?? "", /not_found|knowledge base\.|Refresh/);
    await screenshot(page, `cite-removed-${lang.code}-1280`);
    await closeSource(page);

    // A file attached to the conversation opens whole, from this conversation.
    await page.click("button.new");
    await page.setInputFiles("[data-testid='attach-input']", [{ name: lang.attachName, mimeType: "text/markdown", buffer: Buffer.from(lang.attachText) }]);
    await page.waitForSelector(`[data-testid='attachments'] .files li[data-source$='${lang.attachName}']`);
    await script(w.fake, answer(lang.attachReply));
    await send(page, lang.attachQuestion);
    assert.equal((await lastReply(page)).status, "complete");
    await w.settle();
    await openCite(page);
    await page.waitForSelector("dialog.source [data-testid=reader-body] [data-seq]");
    const attached = (await page.textContent("dialog.source [data-part=hit]")) ?? "";
    assert.ok(attached.includes(lang.attachText.split("\n")[2]!), `the attached file's cited chunk: ${attached}`);
    assert.equal(await page.textContent("dialog.source [data-testid=reader-cited]"), lang.cited);
    assert.equal(await page.$("dialog.source [data-testid=reader-note]"), null);
    assert.ok(await page.$("dialog.source [data-edge=start]"), "the whole file, from its start");
    assert.ok(await page.$("dialog.source [data-edge=end]"), "the whole file, to its end");
    assert.match((await page.textContent("dialog.source .where")) ?? "", new RegExp(lang.attachName.replace(".", "\\.")));
    await screenshot(page, `cite-attached-${lang.code}-1280`);
    await closeSource(page);
    await page.close();
  });
}
