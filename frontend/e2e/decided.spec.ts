// Issue 21's leftovers in the browser against `wayfinder serve`: a plan
// approved with edits stops asking at once (card and sidebar), its edits
// survive a reload, and Wayfinder's own lines written in English read in
// Korean after the person switches the language in Settings; a broken JSON
// upload says once, in words, that it is not valid JSON and where; a
// search hit opens in a reader with the query's words marked. Screenshots
// at 1280×800 and 800×700 in English and Korean.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { belowLabel, hitPlace, openPage, screenshotSizes, script, send, waitReady, withWorld } from "./harness.ts";

const w = withWorld();

const TASK = "Help me make a YouTube Shorts video to promote my café";
const review = (tool: string, url: string) => ({ json: { sufficient: true, missing: "", tool, why: `${tool} fits this step`, url, pricing: "free", alternatives: [] } });

const cardTitles = (page: Page) => page.$$eval("article .plan-card li", (els) => els.map((e) => e.textContent));
const planBubble = (page: Page) => page.textContent("article:has(.plan-card) .bubble");

/** switchLanguage picks a language in Settings ("" follows the browser) and waits for the page to speak lang. */
async function switchLanguage(page: Page, setting: "ko" | "en" | "", lang: "ko" | "en"): Promise<void> {
  await page.click(".topbar .tools button >> nth=-1");
  await page.waitForSelector("dialog[open] #set-lang");
  await page.selectOption("#set-lang", setting);
  await page.click("dialog[open] button[type=submit]");
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  await page.waitForSelector("dialog[open]", { state: "detached" });
}

test("an approved plan stops asking, keeps its edits after a reload, and reads in Korean after switching", async () => {
  await script(w.fake, [
    { json: { route: "complex", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a task" } },
    { json: { sub_tasks: [
      { id: "s1", title: "Write the script", detail: "A 30-second script" },
      { id: "s2", title: "Edit the video", detail: "Vertical clips with subtitles" },
      { id: "s3", title: "Make a thumbnail", detail: "An eye-catching cover" },
    ] } },
  ]);
  const page = await openPage(w.browser, w.app.url);
  await page.click(".views button >> nth=0"); // opens the knowledge base before the turn (see complex.spec)
  await page.waitForSelector("#kb-title");
  await page.click("button.new");
  await send(page, TASK);
  await page.waitForSelector("dialog.plan[open]");
  assert.match((await planBubble(page)) ?? "", /approve, edit or revise it/);
  await page.waitForSelector("nav li [data-pending]");

  // Rename a step, move the thumbnail first, remove the video step.
  await page.fill("dialog.plan li[data-step='0'] input.title", "Write a 30-second script");
  await page.focus("dialog.plan li[data-step='2'] .handle");
  await page.keyboard.press("Home");
  await page.click("dialog.plan li[data-step='2'] button.remove");
  const want = ["Make a thumbnail", "Write a 30-second script"];
  await script(w.fake, [
    review("Canva", "https://canva.com"),
    review("ChatGPT", "https://chatgpt.com"),
    { chunks: ["# Café Shorts guide\n\n", "1. Thumbnail in Canva\n", "2. Script with ChatGPT\n"], chunk_delay_ms: 300 },
    { json: { memories: [] } },
  ]);
  await page.click("dialog.plan button.approve");
  await page.waitForSelector("dialog.plan", { state: "detached" });
  // At once, while the work goes on: nothing waits in the sidebar or the card.
  await page.waitForSelector("nav li [data-pending]", { state: "detached", timeout: 5000 });
  assert.doesNotMatch((await planBubble(page)) ?? "", /approve, edit or revise/);
  assert.match((await planBubble(page)) ?? "", /You approved this plan\./);
  assert.deepEqual(await cardTitles(page), want);
  await page.waitForFunction(() => document.querySelector("article .plan-card [data-tag]")?.textContent === "done", undefined, { timeout: 60_000 });
  assert.equal(await page.textContent("article .plan-card strong"), "Approved plan (round 1)");
  await screenshotSizes(page, "decided-plan-en");

  // A reload reads the conversation back from the store: the edited plan.
  await page.reload();
  await waitReady(page);
  await page.waitForSelector("article .plan-card");
  assert.deepEqual(await cardTitles(page), want);
  assert.match((await planBubble(page)) ?? "", /You approved this plan\./);
  assert.equal(await page.textContent("article .plan-card [data-tag]"), "done");

  // Korean from Settings: the lines Wayfinder wrote in English read in Korean.
  await switchLanguage(page, "ko", "ko");
  assert.match((await planBubble(page)) ?? "", /이 계획을 승인했습니다\./);
  assert.equal(await page.textContent("article .plan-card strong"), "승인한 계획 (1번째)");
  assert.equal(await page.textContent("article .plan-card [data-tag]"), "완료");
  const decision = await page.textContent("article .user-text[data-decision='approve']");
  assert.match(decision ?? "", /계획을 고쳐서 승인했습니다/);
  await screenshotSizes(page, "decided-plan-ko");
  await switchLanguage(page, "", "en"); // the other tests follow their browser's language again
  await page.context().close();
});

test("a broken JSON upload says once that it is not valid JSON and where; a hit opens with its words marked", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-decided-"));
  const broken = join(dir, "contacts.json");
  writeFileSync(broken, '{\n  "name": "Kim",\n  "phone": \n}\n');
  const notes = join(dir, "leave-notes.md");
  // Long enough for several chunks: the reader shows the hit's chunk in the whole document.
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `Office note ${i + 1}: desks are cleaned on Fridays and the printer is on the second floor.`).join(" ");
  writeFileSync(notes, `# Leave\n\n${filler(20)}\n\nAnnual leave is 15 days a year. <img src=x onerror=alert(1)>\n\n연차 휴가는 1년에 15일입니다. 휴가 신청은 2주 전에 하세요.\n\n${filler(20)}\n`);
  for (const [locale, lang] of [["en-US", "en"], ["ko-KR", "ko"]] as const) {
    const page = await openPage(w.browser, w.app.url, locale);
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    await page.setInputFiles("#kb-file-input", broken);
    await page.waitForSelector(".progress li.file[data-stage='failed']", { timeout: 60_000 });
    const panel = (await page.textContent("#kb-panel-docs")) ?? (await page.textContent(".kb")) ?? "";
    const said = lang === "en" ? "This file is not valid JSON: the first mistake is on line 4." : "올바른 JSON 파일이 아닙니다. 처음 잘못된 곳은 4번째 줄입니다.";
    assert.equal(panel.split(said).length - 1, 1, `said once in ${lang}: ${panel}`);
    assert.doesNotMatch(panel, /uploads[\\/]|\.incoming|That input was not accepted|encrypt|암호/, "no internal path nor unrelated advice");
    await screenshotSizes(page, `decided-json-${lang}`);

    if (lang === "en") {
      await page.setInputFiles("#kb-file-input", notes);
      await page.waitForSelector(".progress li.file[data-stage='done']", { timeout: 60_000 });
    }
    await page.click("#kb-tab-search");
    await page.fill("#kb-search", lang === "en" ? "annual leave" : "휴가를 신청");
    await page.press("#kb-search", "Enter");
    await page.waitForSelector(".hit:has-text('leave-notes.md') .snippet mark", { timeout: 30_000 });
    await page.click(".hit:has-text('leave-notes.md') button.read-hit");
    await page.waitForSelector("dialog.reader[open]");
    // The whole document around the hit (a short one opens whole).
    await page.waitForSelector("dialog.reader [data-part=doc]");
    await page.waitForSelector("dialog.reader [data-edge=start]");
    await page.waitForSelector("dialog.reader [data-edge=end]");
    const marks = await page.$$eval("dialog.reader [data-part=hit] mark", (els) => els.map((e) => e.textContent));
    const words = lang === "en" ? ["annual", "leave"] : ["휴가", "신청"];
    assert.deepEqual([...new Set(marks.map((m) => m?.toLowerCase()))].sort(), words.sort(), `marked ${JSON.stringify(marks)}`);
    assert.equal(await page.$("dialog.reader img"), null, "document text stays text");
    // The hit is long and its first marked word near its end: it opens with its first line under the label "Leave"
    // stuck at the top, not behind it, and stays so as the window changes size for the screenshots.
    assert.equal(belowLabel(await hitPlace(page, "reader")), "", "where the hit opens");
    await screenshotSizes(page, `decided-reader-${lang}`);
    assert.equal(belowLabel(await hitPlace(page, "reader")), "", "where the hit is after the screenshots");
    await page.click("dialog.reader form button");
    await page.context().close();
  }
});
