// With Ollama unreachable, the window explains it in plain words with the
// exact command to run.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { closedPortURL, launchBrowser, openPage, screenshot, startApp, type App } from "./harness.ts";

let app: App;
let browser: Browser;

before(async () => {
  app = await startApp({ ollamaHost: await closedPortURL() });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

test("Ollama unreachable shows the onboarding message", async () => {
  const page = await openPage(browser, app.url);
  await page.waitForSelector("section.onboarding[data-problem='unreachable']", { timeout: 15_000 });
  const text = await page.innerText("section.onboarding");
  assert.match(text, /can.t reach Ollama/);
  assert.match(text, /ollama serve/);
  assert.match(text, /ollama\.com\/download/);
  assert.equal(await page.locator("#composer-input").count(), 0, "no chat box while Ollama is down");
  await screenshot(page, "onboarding-unreachable");
});

test("the onboarding is in Korean for a Korean locale", async () => {
  const page = await openPage(browser, app.url.replace(/\?.*$/, "") + "?token=" + new URL(app.url).searchParams.get("token"), "ko-KR");
  await page.waitForSelector("section.onboarding[data-problem='unreachable']", { timeout: 15_000 });
  const text = await page.innerText("section.onboarding");
  assert.match(text, /Ollama에 연결할 수 없습니다/);
  assert.match(text, /ollama serve/);
  await screenshot(page, "onboarding-unreachable-ko");
});
