// Folder grants in Settings against the real SettingsService (issue 22.1):
// a folder is granted by its path, listed with what it allows, changed and
// revoked; the grant survives a reload. Screenshots in en and ko at
// 1280×800 and 800×700.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openPage, screenshot, SIZES, waitReady, withWorld } from "./harness.ts";

const w = withWorld();

async function openSettings(page: Page): Promise<void> {
  await page.click(".topbar .tools button:last-child");
  await page.waitForSelector("dialog[open] [data-testid='folder-grants']");
}

test("grant a folder, see what it allows, change it, revoke it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wayfinder-folder-"));
  mkdirSync(join(dir, "메모"));
  writeFileSync(join(dir, "메모", "plan.md"), "# plan");
  try {
    const page = await openPage(w.browser, w.app.url, "en-US", SIZES[0]!);
    await openSettings(page);
    assert.match((await page.textContent("[data-testid='folder-grants']")) ?? "", /No folder yet/);

    // A path that is not a folder is refused with its reason.
    await page.fill("#folder-path", join(dir, "메모", "plan.md"));
    await page.click("button.grant");
    await page.waitForSelector("[data-testid='folder-grants'] [role='alert']");
    assert.match((await page.textContent("[data-testid='folder-grants'] [role='alert']")) ?? "", /file, not a folder/);

    await page.fill("#folder-path", dir);
    await page.click("button.grant");
    const row = `li[data-folder='${dir}']`;
    await page.waitForSelector(row);
    assert.equal(await page.isChecked(`${row} .hidden-toggle`), false);
    assert.equal(await page.isChecked(`${row} .secrets-toggle`), false);
    await page.check(`${row} .hidden-toggle`);
    await page.waitForFunction((sel) => !(document.querySelector(sel) as HTMLInputElement | null)?.disabled, `${row} .hidden-toggle`);

    // The grant is the backend's: a reload shows it with what it allows.
    await page.reload();
    await waitReady(page);
    await openSettings(page);
    await page.waitForSelector(row);
    assert.equal(await page.isChecked(`${row} .hidden-toggle`), true);
    assert.equal(await page.isChecked(`${row} .secrets-toggle`), false);

    for (const locale of ["en-US", "ko-KR"]) {
      for (const size of SIZES) {
        const p = await openPage(w.browser, w.app.url, locale, size);
        await openSettings(p);
        await p.waitForSelector(row);
        await p.locator("[data-testid='folder-grants']").scrollIntoViewIfNeeded();
        const text = (await p.textContent("[data-testid='folder-grants']")) ?? "";
        assert.match(text, locale === "ko-KR" ? /숨김 파일/ : /Hidden files/);
        await screenshot(p, `folders-${locale.slice(0, 2)}-${size.width}x${size.height}`);
        await p.context().close();
      }
    }

    await page.click(`${row} button.revoke`);
    await page.waitForSelector(row, { state: "detached" });
    await page.reload();
    await waitReady(page);
    await openSettings(page);
    assert.match((await page.textContent("[data-testid='folder-grants']")) ?? "", /No folder yet/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
