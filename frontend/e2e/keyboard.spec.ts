// The keyboard against `wayfinder serve` in Chromium: Ctrl+↑/↓ between
// conversations, the Ctrl+K palette, Ctrl+B to hide the sidebar, and the
// help overlay listing the shortcuts, in English and Korean.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { GREETING, lastReply, openPage, screenshotSizes, send, withWorld } from "./harness.ts";

const w = withWorld();

const openTitle = (page: Page) => page.evaluate(() => document.querySelector("nav li [aria-current='page'] .title")?.textContent ?? "");

test("switch conversations with Ctrl+arrows and the Ctrl+K palette; the help overlay lists the keys", async () => {
  const page = await openPage(w.browser, w.app.url);
  await send(page, "Ideas for a trip to Busan");
  assert.equal((await lastReply(page)).text, GREETING);
  await page.keyboard.press("Control+n");
  await send(page, "Edit a video with subtitles");
  await lastReply(page);
  await page.waitForFunction(() => document.querySelectorAll("nav li").length === 2);
  assert.equal(await openTitle(page), "Edit a video with subtitles");

  await page.keyboard.press("Control+ArrowDown");
  await page.waitForFunction(() => document.querySelector("nav li [aria-current='page'] .title")?.textContent === "Ideas for a trip to Busan");
  await page.keyboard.press("Control+ArrowUp");
  await page.waitForFunction(() => document.querySelector("nav li [aria-current='page'] .title")?.textContent === "Edit a video with subtitles");

  await page.keyboard.press("Control+k");
  await page.waitForSelector("dialog.palette[open] [role=option]");
  await page.keyboard.type("Busan");
  await page.waitForFunction(() => document.querySelectorAll("dialog.palette [role=option]").length === 1);
  await screenshotSizes(page, "keyboard-palette-en");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("nav li [aria-current='page'] .title")?.textContent === "Ideas for a trip to Busan");

  await page.keyboard.press("Control+b");
  await page.waitForFunction(() => !document.querySelector("nav #session-search"));
  await page.click("body");
  await page.keyboard.press("Shift+?");
  await page.waitForSelector("dialog[open] #shortcuts-title");
  const rows = await page.locator("dialog[open] tr").allTextContents();
  assert.ok(rows.includes("Ctrl+KFind a conversation and open it"), rows.join("\n"));
  assert.ok(rows.includes("Alt+RRegenerate the last answer"), rows.join("\n"));
  await screenshotSizes(page, "keyboard-help-en");

  const ko = await openPage(w.browser, w.app.url, "ko-KR");
  await ko.keyboard.press("Control+/");
  await ko.waitForSelector("dialog[open] #shortcuts-title");
  assert.equal(await ko.textContent("#shortcuts-title"), "단축키");
  await screenshotSizes(ko, "keyboard-help-ko");
  await ko.keyboard.press("Escape");
  await ko.keyboard.press("Control+k");
  await ko.waitForSelector("dialog.palette[open] [role=option]");
  await screenshotSizes(ko, "keyboard-palette-ko");
});
