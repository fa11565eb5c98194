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
import { GREETING, lastReply, openPage, screenshotSizes, script, send, startApp, withWorld } from "./harness.ts";

const w = withWorld();

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent("download"), click()]);
  const path = await dl.path();
  return { name: dl.suggestedFilename(), text: readFileSync(path!, "utf8") };
}

test("export a conversation and every one, import them elsewhere, refuse a bad file", async () => {
  const page = await openPage(w.browser, w.app.url);
  await send(page, "Ideas for a café video");
  assert.equal((await lastReply(page)).text, GREETING);
  await page.waitForSelector(".sidebar li.current");
  // A second answer: the export keeps both (‹ 1/2 ›).
  await script(w.fake, [
    { json: { route: "simple", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a question" } },
    { text: "Film the morning light on the counter." },
  ]);
  await page.click("button.regenerate");
  await page.waitForFunction(() => document.querySelector("article[data-role='assistant'] .variants .count")?.textContent === "2/2");
  await lastReply(page);

  // One conversation, as Markdown.
  await page.click(".sidebar li.current button[aria-label^='Export “']");
  await page.waitForSelector(".sidebar li.current .menu[role='menu']");
  await screenshotSizes(page, "transfer-1-menu-en");
  const md = await download(page, () => page.click(".sidebar li.current .menu button:has-text('As Markdown')"));
  assert.equal(md.name, "Ideas-for-a-café-video.md");
  assert.match(md.text, /^# Ideas for a café video\n/);
  assert.ok(md.text.includes("## You · ") && md.text.includes("## Wayfinder · ") && md.text.includes(GREETING), md.text);
  assert.ok(md.text.includes(" · answer 2 of 2\n") && md.text.includes("### Other answers") && md.text.includes("#### Answer 1 of 2 · "), md.text);
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
  assert.equal(doc.version, 2);
  assert.equal(doc.conversations[0].messages[1].variants?.[0]?.content, GREETING, "the earlier answer goes with the export");
  const file = join(tmpdir(), `wayfinder-e2e-${process.pid}.json`);
  writeFileSync(file, json.text);

  // Into another data folder, in Korean: the conversation opens as it was.
  const other = await startApp({ ollamaHost: w.fake.url });
  try {
    const ko = await openPage(w.browser, other.url, "ko-KR");
    await ko.setInputFiles("[data-testid='import-conversations']", file);
    await ko.waitForFunction(() => document.querySelector("[data-testid='sessions-notice'] span")?.textContent === "대화 1개를 가져왔습니다.");
    await ko.waitForFunction(() => document.querySelector("article[data-role='assistant'] .variants .count")?.textContent === "2/2");
    await ko.click(".variants .prev-variant");
    await ko.waitForFunction((g) => document.querySelector("article[data-role='assistant'] .bubble")?.textContent?.includes(g), GREETING);
    assert.ok((await ko.textContent(".sidebar li.current"))?.includes("Ideas for a café video"));
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
    // In Korean, with what to do, and no English left.
    const refused = (await ko.textContent(".toast.error")) ?? "";
    assert.match(refused, /Wayfinder 대화 내보내기 파일이 아니어서 아무것도 가져오지 않았습니다\./);
    assert.match(refused, /Markdown 내보내기는 읽기용이라 가져올 수 없습니다/);
    assert.doesNotMatch(refused, /cannot be imported|not a Wayfinder/);
    // Toasts shown at once stack; none covers another.
    const boxes = (await Promise.all((await ko.locator(".toast").all()).map((t) => t.boundingBox()))).filter((b) => b !== null);
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        assert.ok(a.y + a.height <= b.y || b.y + b.height <= a.y, `toasts overlap: ${JSON.stringify([a, b])}`);
      }
    }
    // Below the header, in the page's flow: the page moves down, nothing is covered.
    const [bar, page, err] = await Promise.all(["header.topbar", ".content", ".toast.error"].map((s) => ko.locator(s).boundingBox()));
    assert.ok(bar && page && err && err.y >= bar.y + bar.height && err.y + err.height <= page.y, `the error covers the header or the page: ${JSON.stringify({ bar, page, err })}`);
    await screenshotSizes(ko, "transfer-5-refused-ko");
    assert.equal(await ko.locator(".sidebar li").count(), 1, "the refused file added nothing");

    // An export edited by hand, a role Wayfinder does not know: what and
    // where in Korean, and no English under it (it was Check's own words).
    const edited = JSON.parse(json.text);
    edited.conversations[0].messages[0].role = "system";
    const editedFile = join(tmpdir(), `wayfinder-e2e-${process.pid}-role.json`);
    writeFileSync(editedFile, JSON.stringify(edited));
    await ko.setInputFiles("[data-testid='import-conversations']", editedFile);
    const roleSaid = '1번째 대화에서 1번째 메시지의 역할(role)이 "system"입니다. Wayfinder는 user와 assistant만 압니다.';
    await ko.waitForFunction((s) => [...document.querySelectorAll(".toast.error")].some((t) => t.textContent?.includes(s)), roleSaid);
    const roleToast = (await ko.locator(".toast.error", { hasText: "역할(role)" }).textContent()) ?? "";
    assert.doesNotMatch(roleToast, /cannot be imported|is not user or assistant|message 1|conversation 1/);
    await screenshotSizes(ko, "transfer-6-refused-role-ko");
    assert.equal(await ko.locator(".sidebar li").count(), 1, "the refused file added nothing");
  } finally {
    await other.stop();
  }
});
