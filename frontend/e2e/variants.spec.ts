// Regenerate against `wayfinder serve`: the earlier answer is kept as a
// variant (‹ 1/2 ›), the newest is shown, the person moves between them,
// and both the answers and the choice survive a reload.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { GREETING, fail, lastReply, openPage, resetFake, screenshot, screenshotSizes, script, send, waitReady, withWorld } from "./harness.ts";

const w = withWorld();

async function shownAnswer(page: Page): Promise<{ text: string; count: string }> {
  return page.evaluate(() => {
    const all = document.querySelectorAll("article[data-role='assistant']");
    const last = all[all.length - 1]!;
    return { text: last.querySelector(".md")?.textContent?.trim() ?? "", count: last.querySelector(".variants .count")?.textContent ?? "" };
  });
}

test("regenerate keeps the earlier answer as a variant, kept after a reload", async () => {
  const page = await openPage(w.browser, w.app.url);
  await send(page, "Suggest a name for my café");
  assert.equal((await lastReply(page)).text, GREETING);
  await script(w.fake, [
    { json: { route: "simple", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a question" } },
    { text: "How about “Morning Lantern”?", chunk_delay_ms: 30 },
  ]);
  await page.click("button.regenerate");
  await page.waitForFunction(() => document.querySelector("article[data-role='assistant'] .variants .count")?.textContent === "2/2");
  await lastReply(page);
  assert.deepEqual(await shownAnswer(page), { text: "How about “Morning Lantern”?", count: "2/2" }, "the newest is shown");
  assert.equal(await page.locator("article").count(), 2, "one question, one answer shown");

  await page.reload();
  await waitReady(page);
  await page.waitForSelector(".variants .count");
  assert.deepEqual(await shownAnswer(page), { text: "How about “Morning Lantern”?", count: "2/2" });
  await page.click(".variants .prev-variant");
  await page.waitForFunction(() => document.querySelector(".variants .count")?.textContent === "1/2");
  assert.equal((await shownAnswer(page)).text, GREETING);
  await screenshotSizes(page, "variants-en");

  // The choice is kept: the next turn continues from it, a reload shows it.
  await page.reload();
  await waitReady(page);
  await page.waitForSelector(".variants .count");
  assert.deepEqual(await shownAnswer(page), { text: GREETING, count: "1/2" });

  const ko = await openPage(w.browser, w.app.url + new URL(page.url()).hash, "ko-KR");
  await ko.waitForSelector(".variants .count");
  assert.equal(await ko.getAttribute(".variants .prev-variant", "aria-label"), "이전 답변 보기");
  await screenshotSizes(ko, "variants-ko");
});

// Save and resend replaces the last question and its answer on screen at
// once, as stored: the turn's announcement reaches the page before the
// call returns, which once left the old pair above the new one.
test("an edited last message replaces the old question and answer on screen", async () => {
  const page = await openPage(w.browser, w.app.url, "ko-KR", { width: 800, height: 700 });
  await page.click("button.new");
  await send(page, "서울 인구는?");
  assert.equal((await lastReply(page)).text, GREETING);
  await page.click("button.edit-last");
  await page.fill("article[data-role='user'] textarea", "부산 인구는?");
  await page.click("button.save-edit");
  await page.waitForFunction(() => document.querySelector("article[data-role='user'] .user-text")?.textContent === "부산 인구는?");
  assert.equal((await lastReply(page)).text, GREETING);
  const shown = () => page.$$eval("article", (els) => els.map((e) => `${e.getAttribute("data-role")}: ${(e.querySelector(".user-text, .md") as HTMLElement | null)?.innerText.trim() ?? ""}`));
  assert.deepEqual(await shown(), ["user: 부산 인구는?", `assistant: ${GREETING}`], "the old question and answer are gone, as stored");
  await screenshotSizes(page, "edited-ko");
  await page.reload();
  await waitReady(page);
  await page.waitForSelector("article[data-role='assistant'] .md");
  assert.deepEqual(await shown(), ["user: 부산 인구는?", `assistant: ${GREETING}`], "the same after a reload");
});

// A failed reply offers one way to ask again: its error's "다시 시도" (what
// the advice says to do), not a "다시 생성" beside it doing the same.
test("a failed reply offers one action, the error's own Try again", async () => {
  const page = await openPage(w.browser, w.app.url, "ko-KR", { width: 800, height: 700 });
  await page.click("button.new");
  await fail(w.fake, "/api/chat", -1, { kind: "http_500" });
  try {
    await page.fill("#composer-input", "오늘 일정을 정리해 줘");
    await page.press("#composer-input", "Enter");
    await page.waitForSelector("article[data-role='assistant'][data-status='error'] [role=alert] button", { timeout: 60_000 });
  } finally {
    await resetFake(w.fake);
  }
  const failed = page.locator("article[data-role='assistant'][data-status='error']");
  assert.equal(await failed.locator("[role=alert] button").textContent(), "다시 시도");
  assert.equal(await page.locator("button.regenerate").count(), 0, "no second button doing the same");
  await screenshotSizes(page, "failed-reply-ko");
  await failed.locator("[role=alert] button").click();
  await page.waitForFunction((g) => [...document.querySelectorAll("article[data-role='assistant'][data-status='complete'] .md")].some((m) => m.textContent?.trim() === g), GREETING, { timeout: 60_000 });
  // Asked again in its place: one question, one answer, the failed one gone.
  assert.equal(await page.locator("article[data-role='user']").count(), 1, "the question is shown once");
  assert.equal(await page.locator("article[data-role='assistant']").count(), 1, "the failed reply is replaced");
});

// The switcher appears after the first Regenerate. In front of the answer's
// buttons it pushed Copy, Export and Regenerate sideways, and the pointer
// that pressed Regenerate was then over another button: the buttons stay
// where they were, the switcher comes after them.
for (const locale of ["en-US", "ko-KR"]) {
  test(`the answer's buttons stay under the pointer when the switcher appears (${locale})`, async () => {
    await resetFake(w.fake);
    const page = await openPage(w.browser, w.app.url, locale);
    await page.click("button.new");
    await send(page, locale === "ko-KR" ? "카페 이름을 지어 줘" : "Name my café");
    await lastReply(page);
    const last = "article[data-role='assistant']:last-of-type";
    await page.waitForSelector(`${last} button.regenerate`);
    const places = () => page.evaluate(() => {
      const art = [...document.querySelectorAll("article[data-role='assistant']")].at(-1)!;
      const at = (sel: string) => { const r = art.querySelector(sel)!.getBoundingClientRect(); return [Math.round(r.x), Math.round(r.width)]; };
      return { copy: at("button.copy-msg"), export: at("button.export"), regenerate: at("button.regenerate") };
    });
    const before = await places();
    await script(w.fake, [
      { json: { route: "simple", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a question" } },
      { text: "How about “Morning Lantern”?" },
    ]);
    const box = (await page.locator(`${last} button.regenerate`).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => [...document.querySelectorAll("article[data-role='assistant']")].at(-1)?.querySelector(".variants .count")?.textContent === "2/2");
    await page.waitForSelector(`${last} button.regenerate`);
    assert.deepEqual(await places(), before, "Copy, Export and Regenerate where they were");
    const under = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest("button")?.className ?? "", [box.x + box.width / 2, box.y + box.height / 2]);
    assert.match(under, /\bregenerate\b/, "the pointer is still over Regenerate");
    await screenshot(page, `variants-place-${locale.slice(0, 2)}`);
  });
}
