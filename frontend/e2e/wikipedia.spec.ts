// search_wikipedia in the window, against `wayfinder serve` and the
// scripted fake Ollama: Settings → Wikipedia takes the test ZIM file
// (backend/zim/testdata/wiki.zim, made with zim-tools), the model's call
// reads 서울 from it and the call with its result is in the reply's
// details; a file that is not a ZIM file is refused on save, in Korean,
// beside the file's field.
// At 1280×800 and 800×700.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { lastReply, openPage, repoRoot, screenshotSizes, script, send, withWorld } from "./harness.ts";

const w = withWorld();
const ZIM = join(repoRoot, "backend", "zim", "testdata", "wiki.zim");

test("search an offline Wikipedia chosen in Settings", async () => {
  const page = await openPage(w.browser, w.app.url);
  await page.click("button[aria-label='Settings']");
  await page.waitForSelector("dialog[open] #set-wiki");
  await page.check("#set-wiki");
  await page.fill("#set-wiki-zim", ZIM);
  await page.locator("#set-wiki-online").scrollIntoViewIfNeeded();
  await screenshotSizes(page, "wikipedia-1-settings-en");
  await page.click("dialog[open] button[type='submit']");
  await page.waitForSelector("dialog[open]", { state: "detached" });

  await script(w.fake, [
    { json: { route: "simple", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "encyclopedia" } },
    { tool_calls: [{ name: "search_wikipedia", args: { query: "서울" } }] },
    { text: "서울은 대한민국의 수도입니다 (위키백과)." },
    { json: { memories: [] } },
  ]);
  await send(page, "서울에 대해 위키백과에서 찾아 줘");
  assert.equal((await lastReply(page)).text, "서울은 대한민국의 수도입니다 (위키백과).");
  await w.settle();
  await page.click("article[data-role='assistant']:last-of-type details summary");
  const call = page.locator("article[data-role='assistant']:last-of-type .calls li").first();
  // A built-in tool is named in the window's language, its code name in the title.
  assert.equal(await call.locator("[title='search_wikipedia']").textContent(), "Wikipedia search");
  const result = (await call.locator("pre.result").textContent()) ?? "";
  assert.match(result, /\[1\] 서울 — offline Wikipedia \(wiki\.zim\)/);
  assert.match(result, /서울특별시는 대한민국의 수도이다\./);
  assert.doesNotMatch(result, /alert|<p>/);
  await call.scrollIntoViewIfNeeded();
  await screenshotSizes(page, "wikipedia-2-details-en");

  // In Korean: a file that is not a ZIM file is refused, and said so.
  const ko = await openPage(w.browser, w.app.url, "ko-KR");
  await ko.click(".topbar .tools button:last-of-type");
  await ko.waitForSelector("dialog[open] #set-wiki");
  assert.ok(await ko.isChecked("#set-wiki"));
  assert.equal(await ko.inputValue("#set-wiki-zim"), ZIM);
  await ko.fill("#set-wiki-zim", join(repoRoot, "README.md"));
  await ko.click("dialog[open] button[type='submit']");
  // Said beside the file's field, which takes the focus; the summary counts it.
  await ko.waitForSelector("#set-wiki-zim-refusal");
  const said = (await ko.textContent("#set-wiki-zim-refusal")) ?? "";
  assert.match(said, /그 파일은 ZIM 파일이 아닙니다\./);
  assert.match(said, /Kiwix에서 내려받은 \.zim 파일/);
  assert.equal(await ko.getAttribute("#set-wiki-zim", "aria-invalid"), "true");
  assert.equal(await ko.evaluate(() => document.activeElement?.id), "set-wiki-zim");
  assert.match((await ko.textContent("dialog[open] [role='alert']")) ?? "", /고칠 값이 1개 있습니다/);
  await screenshotSizes(ko, "wikipedia-3-not-a-zim-ko");
  await ko.fill("#set-wiki-zim", "위키.zim");
  assert.match((await ko.textContent("#set-wiki-zim-help")) ?? "", /전체 경로/);
  assert.ok(await ko.isDisabled("dialog[open] button[type='submit']"));
});
