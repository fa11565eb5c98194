// Export and import in the window: one conversation as Markdown, every
// conversation as JSON (downloads in the browser), the JSON imported into
// another data folder where the conversation opens as it was, and a file
// that is not an export refused with the reason — in English and Korean,
// at 1280×800 and 800×700.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Page } from "playwright-core";
import { GREETING, lastReply, openPage, screenshotSizes, send, startApp, withWorld } from "./harness.ts";

const w = withWorld();

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent("download"), click()]);
  const path = await dl.path();
  return { name: dl.suggestedFilename(), text: readFileSync(path!, "utf8") };
}

test("export a conversation and every one, import them elsewhere, refuse a bad file", async () => {
  const page = await openPage(w.browser, w.app.url);
  await send(page, "Plan a café video");
  assert.equal((await lastReply(page)).text, GREETING);
  await page.waitForSelector(".sidebar li.current");

  // One conversation, as Markdown.
  await page.click(".sidebar li.current button[aria-label^='Export “']");
  await page.waitForSelector(".sidebar li.current .menu[role='menu']");
  await screenshotSizes(page, "transfer-1-menu-en");
  const md = await download(page, () => page.click(".sidebar li.current .menu button:has-text('As Markdown')"));
  assert.equal(md.name, "Plan-a-café-video.md");
  assert.match(md.text, /^# Plan a café video\n/);
  assert.ok(md.text.includes("## You · ") && md.text.includes("## Wayfinder · ") && md.text.includes(GREETING), md.text);
  await page.waitForSelector("[data-testid='sessions-notice']");

  // Every conversation, as JSON.
  await page.click(".transfer > button");
  await page.waitForSelector(".transfer .menu");
  await screenshotSizes(page, "transfer-2-all-menu-en");
  const json = await download(page, () => page.click(".transfer .menu button:has-text('Export all as JSON')"));
  assert.match(json.name, /^wayfinder-conversations-\d{4}-\d{2}-\d{2}\.json$/);
  const doc = JSON.parse(json.text);
  assert.equal(doc.format, "wayfinder.conversations");
  assert.equal(doc.conversations.length, 1);
  const file = join(tmpdir(), `wayfinder-e2e-${process.pid}.json`);
  writeFileSync(file, json.text);

  // Into another data folder, in Korean: the conversation opens as it was.
  const other = await startApp({ ollamaHost: w.fake.url });
  try {
    const ko = await openPage(w.browser, other.url, "ko-KR");
    await ko.setInputFiles("[data-testid='import-conversations']", file);
    await ko.waitForFunction(() => document.querySelector("[data-testid='sessions-notice'] span")?.textContent === "대화 1개를 가져왔습니다.");
    await ko.waitForFunction((g) => document.querySelector("article[data-role='assistant'] .bubble")?.textContent?.includes(g), GREETING);
    assert.ok((await ko.textContent(".sidebar li.current"))?.includes("Plan a café video"));
    await screenshotSizes(ko, "transfer-3-imported-ko");

    await ko.click(".transfer > button");
    await ko.waitForSelector(".transfer .menu");
    await screenshotSizes(ko, "transfer-4-menu-ko");
    await ko.keyboard.press("Escape");
    await ko.waitForSelector(".transfer .menu", { state: "detached" });

    // A Markdown export is for reading: importing it says so.
    const mdFile = join(tmpdir(), `wayfinder-e2e-${process.pid}.md`);
    writeFileSync(mdFile, md.text);
    await ko.setInputFiles("[data-testid='import-conversations']", mdFile);
    await ko.waitForSelector(".toast.error");
    assert.match((await ko.textContent(".toast.error")) ?? "", /not a Wayfinder conversation export|가져올 수 없/);
    await screenshotSizes(ko, "transfer-5-refused-ko");
    assert.equal(await ko.locator(".sidebar li").count(), 1, "the refused file added nothing");
  } finally {
    await other.stop();
  }
});
