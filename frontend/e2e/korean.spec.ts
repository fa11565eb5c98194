// The whole UI in Korean: a browser whose locale is ko-KR gets every
// screen (chat, plan dialog, trace, knowledge, memory, settings, help)
// with no English UI string left over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openPage, repoRoot, screenshot, script, send, withWorld } from "./harness.ts";

const i18n = join(repoRoot, "frontend", "src", "i18n");
const en = JSON.parse(readFileSync(join(i18n, "en.json"), "utf8")) as Record<string, string>;
const ko = JSON.parse(readFileSync(join(i18n, "ko.json"), "utf8")) as Record<string, string>;
const koText = Object.values(ko).join("\n");
// English UI strings that never occur in Korean ones (placeholders cut out).
const english = [...new Set(Object.values(en).flatMap((v) => v.split(/\{\w+\}/)).map((s) => s.trim()))].filter(
  (s) => s.length >= 6 && /[a-z]{3}/.test(s) && !koText.includes(s),
);

const w = withWorld();

/** leftovers lists English UI strings visible on the page (model text excluded). */
async function leftovers(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    // Model output and the person's own text may be in any language; the
    // trace's own sentences may not.
    for (const el of clone.querySelectorAll(".md, .user-text, .snippet, .hit, .tool .desc, .tool .tool-head, [data-testid=trace-steps] .text[data-free], code, .dir, textarea, input")) el.remove();
    return clone.innerText + " " + [...document.querySelectorAll("[aria-label], [placeholder], [title]")].map((e) => `${e.getAttribute("aria-label") ?? ""} ${e.getAttribute("placeholder") ?? ""} ${e.getAttribute("title") ?? ""}`).join(" ");
  });
  return english.filter((s) => text.includes(s));
}

test("every screen speaks Korean", async () => {
  assert.ok(english.length > 100, `checking ${english.length} English strings`);
  const page = await openPage(w.browser, w.app.url, "ko-KR");
  assert.equal(await page.getAttribute("html", "lang"), "ko");
  assert.deepEqual(await leftovers(page), [], "empty chat");
  await screenshot(page, "ko-1-empty");

  await script(w.fake, [
    { json: { route: "complex", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "작업" } },
    { json: { sub_tasks: [{ id: "s1", title: "대본 작성", detail: "30초 분량" }, { id: "s2", title: "영상 편집", detail: "자막 포함" }] } },
  ]);
  await send(page, "카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어");
  await page.waitForSelector("dialog.plan[open]");
  assert.equal(await page.textContent("dialog.plan .round"), "1번째 계획");
  assert.match((await page.textContent("[data-testid=trace-steps]")) ?? "", /작업을 단계로 나누는 중/, "the trace's sentences in Korean");
  assert.deepEqual(await leftovers(page), [], "plan dialog");
  await screenshot(page, "ko-2-plan");
  await page.keyboard.press("Escape");
  await page.waitForSelector("dialog.plan .confirm");
  assert.deepEqual(await leftovers(page), [], "cancel confirmation");
  await page.click("dialog.plan .confirm-cancel");
  await page.waitForSelector("dialog.plan", { state: "detached" });

  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");
  assert.deepEqual(await leftovers(page), [], "knowledge");
  await page.click("#kb-tab-search");
  assert.deepEqual(await leftovers(page), [], "knowledge search");
  await page.click("#kb-tab-catalog");
  await page.waitForSelector(".catalog .tool");
  assert.deepEqual(await leftovers(page), [], "catalog");
  await screenshot(page, "ko-3-catalog");

  await page.click(".views button >> nth=1");
  await page.waitForSelector("#mem-title");
  assert.deepEqual(await leftovers(page), [], "memory");

  await page.click(".topbar button[aria-label='설정']");
  await page.waitForSelector("dialog[open] #set-host");
  assert.deepEqual(await leftovers(page), [], "settings");
  await screenshot(page, "ko-4-settings");
  await page.keyboard.press("Escape");

  await page.keyboard.press("Control+/");
  await page.waitForSelector("dialog[open] kbd");
  assert.deepEqual(await leftovers(page), [], "shortcuts");
  await screenshot(page, "ko-5-help");
});

// Korean is written with spaces between words, and a line may break only
// there (word-break: keep-all). An English window shows Korean too — the
// person's messages, replies, documents — and must break it the same way,
// not in the middle of a word.
test("Korean text in an English window breaks between words", async () => {
  const page = await openPage(w.browser, w.app.url, "en-US", { width: 800, height: 700 });
  assert.equal(await page.getAttribute("html", "lang"), "en");
  const text = "다음 주 월요일 오전 열 시에 회의실에서 분기별 예산 검토 회의를 진행하려고 하는데 참석자 명단과 안건을 정리해 주실 수 있을까요 그리고 회의록 양식도 함께 보내 주세요";
  await send(page, text);
  await page.waitForSelector(".user-text");
  // Every place where a line of the bubble ends, at several window
  // widths (at one width the lines may happen to end at spaces anyway):
  // the characters either side of the break.
  const breaks: string[] = [];
  for (let width = 760; width <= 900; width += 20) {
    await page.setViewportSize({ width, height: 700 });
    breaks.push(...(await page.evaluate(() => {
      const el = [...document.querySelectorAll(".user-text")].at(-1)!;
      const node = el.firstChild as Text;
      const s = node.data;
      const range = document.createRange();
      const out: string[] = [];
      let top: number | undefined;
      for (let i = 0; i < s.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getClientRects()[0];
        if (!r || s[i] === " ") continue;
        if (top !== undefined && r.top > top + 2) out.push(s.slice(Math.max(0, i - 1), i + 1));
        top = r.top;
      }
      return out;
    })));
  }
  assert.ok(breaks.length >= 8, `the message wraps at these widths (${breaks.length} breaks)`);
  for (const b of breaks) assert.equal(b[0], " ", `a line broke inside a word: "${b}"`);
  await page.setViewportSize({ width: 800, height: 700 });
  await screenshot(page, "ko-in-en-wrap-800");
  await page.context().close();
});
