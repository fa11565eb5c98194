// What people tune, in the window: a system prompt, the temperature and the
// context size in Settings, and a conversation's own in its settings dialog
// (the header shows what it tunes, and a reload keeps it) — in English and
// Korean, at 1280×800 and 800×700. That the values reach Ollama is
// checked against the fake in Go (backend/app TestTuningReachesOllama).
import { test } from "node:test";
import assert from "node:assert/strict";
import { GREETING, lastReply, openPage, screenshotSizes, send, withWorld } from "./harness.ts";

const w = withWorld();

test("tune the replies in Settings and for one conversation", async () => {
  const page = await openPage(w.browser, w.app.url);

  // Settings: for every conversation.
  await page.click("button[aria-label='Settings']");
  await page.waitForSelector("dialog[open] #set-tune-prompt");
  await page.fill("#set-tune-prompt", "Answer briefly, in a friendly tone.");
  await page.locator("#set-tune-temp").locator("xpath=..").locator("input[type='checkbox']").check();
  await page.fill("#set-tune-temp", "0.4");
  // At 800×700 Save stays in view at the dialog's foot, however far the
  // fields go; Escape asks before it drops what was typed.
  const before = page.viewportSize();
  await page.setViewportSize({ width: 800, height: 700 });
  const save = await page.locator("dialog[open] button[type='submit']").boundingBox();
  assert.ok(save && save.y >= 0 && save.y + save.height <= 700, `Save is in view at 800x700: ${JSON.stringify(save)}`);
  await page.keyboard.press("Escape");
  await page.waitForSelector("dialog[open] .discard");
  await screenshotSizes(page, "tuning-1-discard-en");
  await page.click("dialog[open] .discard .keep");
  assert.equal(await page.inputValue("#set-tune-prompt"), "Answer briefly, in a friendly tone.");
  if (before) await page.setViewportSize(before);
  await page.locator("#set-tune-ctx").scrollIntoViewIfNeeded();
  await screenshotSizes(page, "tuning-1-settings-en");
  await page.click("dialog[open] button[type='submit']");
  await page.waitForSelector("dialog[open]", { state: "detached" });

  await send(page, "Ideas for a café video");
  assert.equal((await lastReply(page)).text, GREETING);

  // One conversation's own: it follows Settings until told otherwise.
  await page.click("[data-testid='conv-settings']");
  await page.waitForSelector("dialog[open] #conv-tune-prompt");
  assert.equal(await page.textContent("#conv-tune-prompt"), "Answer briefly, in a friendly tone.");
  assert.equal(await page.textContent("#conv-tune-temp"), "0.4");
  await page.locator("#conv-tune-prompt").locator("xpath=..").locator("input[type='checkbox']").check();
  await page.fill("#conv-tune-prompt", "Talk like a film director.");
  await page.locator("#conv-tune-ctx").locator("xpath=..").locator("input[type='checkbox']").check();
  await page.fill("#conv-tune-ctx", "16384");
  await screenshotSizes(page, "tuning-2-conversation-en");
  await page.click("dialog[open] button[type='submit']");
  await page.waitForSelector("dialog[open]", { state: "detached" });
  await page.waitForFunction(() => document.querySelector("[data-testid='conv-settings']")?.textContent?.includes("own prompt · 16,384 tokens"));
  await screenshotSizes(page, "tuning-3-header-en");

  // In Korean, after a reload: kept, and a wrong value is pointed at.
  const ko = await openPage(w.browser, w.app.url, "ko-KR");
  await ko.click(".sidebar li button.open");
  await ko.waitForSelector("[data-testid='conv-settings'] .chip");
  assert.equal(await ko.textContent("[data-testid='conv-settings'] .chip"), "전용 프롬프트 · 16,384 토큰");
  await ko.click("[data-testid='conv-settings']");
  await ko.waitForSelector("dialog[open] #conv-tune-prompt");
  assert.equal(await ko.inputValue("#conv-tune-prompt"), "Talk like a film director.");
  await ko.locator("#conv-tune-temp").locator("xpath=..").locator("input[type='checkbox']").check();
  await ko.fill("#conv-tune-temp", "3");
  assert.equal(await ko.textContent("#conv-tune-temp-help"), "0에서 2 사이의 숫자를 입력하세요.");
  assert.ok(await ko.isDisabled("dialog[open] button[type='submit']"));
  await screenshotSizes(ko, "tuning-4-conversation-invalid-ko");
  await ko.fill("#conv-tune-temp", "1.2");
  await ko.click("dialog[open] button[type='submit']");
  await ko.waitForFunction(() => document.querySelector("[data-testid='conv-settings'] .chip")?.textContent === "전용 프롬프트 · 온도 1.2 · 16,384 토큰");
  await screenshotSizes(ko, "tuning-5-header-ko");

  // Back to the global settings.
  await ko.click("[data-testid='conv-settings']");
  await ko.click("dialog[open] button:has-text('전체 설정 사용')");
  await ko.waitForSelector("[data-testid='conv-settings'] .chip", { state: "detached" });
  await ko.click("button[aria-label='설정']");
  await ko.waitForSelector("dialog[open] #set-tune-prompt");
  assert.equal(await ko.inputValue("#set-tune-prompt"), "Answer briefly, in a friendly tone.");
  await ko.locator("#set-tune-ctx").scrollIntoViewIfNeeded();
  await screenshotSizes(ko, "tuning-6-settings-ko");
});
