// A Save the backend refuses, in the window against `wayfinder serve`:
// an Ollama address the page lets through but the backend cannot read and
// a file that is not a ZIM file are each said beside their own field
// (aria-invalid, aria-describedby), the first of them takes the focus, and
// the summary at the bottom counts them — in English and in Korean, at
// 1280×800 (refusals-{en,ko}-1280.png: the address at the top;
// refusals-zim-{en,ko}-1280.png: the file further down;
// refusals-summary-{en,ko}-1280.png: the summary under the fields).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openPage, repoRoot, screenshot, withWorld } from "./harness.ts";

const w = withWorld();
const notZim = join(repoRoot, "README.md");

for (const [locale, lang, host, file, summary] of [
  ["en-US", "en", /^Not an address like http:\/\/127\.0\.0\.1:11434: "?http:\/\/\[::1/, /^That file is not a ZIM file\./, "2 values need correcting; each is marked beside its field."],
  ["ko-KR", "ko", /^http:\/\/127\.0\.0\.1:11434 같은 주소가 아닙니다: "?http:\/\/\[::1/, /^그 파일은 ZIM 파일이 아닙니다\./, "고칠 값이 2개 있습니다. 항목마다 옆에 표시했습니다."],
] as const) {
  test(`a refused Save says why beside each field (${lang})`, async () => {
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    await page.click(".topbar .tools button:last-of-type");
    await page.waitForSelector("dialog[open] #set-wiki");
    const before = await page.inputValue("#set-host");
    await page.fill("#set-host", "http://[::1");
    await page.check("#set-wiki");
    await page.fill("#set-wiki-zim", notZim);
    // Save with Enter in the file's field, far below the address.
    await page.press("#set-wiki-zim", "Enter");
    await page.waitForSelector("#set-host-refusal");
    await page.waitForSelector("#set-wiki-zim-refusal");

    assert.match((await page.textContent("#set-host-refusal")) ?? "", host);
    assert.match((await page.textContent("#set-wiki-zim-refusal")) ?? "", file);
    for (const [field, own] of [["set-host", "set-host-status"], ["set-wiki-zim", "set-wiki-zim-help"]]) {
      assert.equal(await page.getAttribute(`#${field}`, "aria-invalid"), "true", field);
      const by = ((await page.getAttribute(`#${field}`, "aria-describedby")) ?? "").split(" ");
      assert.deepEqual(by, [own, `${field}-refusal`], field);
    }
    assert.equal(await page.evaluate(() => document.activeElement?.id), "set-host");
    const banner = page.locator("dialog[open] [role='alert']");
    assert.equal(await banner.locator(".detail").textContent(), summary);
    if (lang === "ko") {
      const beside = `${await page.textContent("#set-host-refusal")} ${await page.textContent("#set-wiki-zim-refusal")}`;
      assert.doesNotMatch(beside, /is not|cannot|must|address like/);
    }
    await screenshot(page, `refusals-${lang}-1280`);
    // Further down, the file's refusal beside its field; then the summary under the fields.
    await page.evaluate(() => document.querySelector("#set-wiki-zim-refusal")!.scrollIntoView({ block: "center" }));
    await screenshot(page, `refusals-zim-${lang}-1280`);
    await page.locator("dialog[open] [role='alert']").scrollIntoViewIfNeeded();
    await screenshot(page, `refusals-summary-${lang}-1280`);

    // Put right, the marks go and Save goes through.
    await page.fill("#set-host", before);
    assert.equal(await page.locator("#set-host-refusal").count(), 0);
    await page.fill("#set-wiki-zim", "");
    await page.uncheck("#set-wiki");
    await page.click("dialog[open] button[type='submit']");
    await page.waitForSelector("dialog[open]", { state: "detached" });
    await page.context().close();
  });
}
