// The model picker against `wayfinder serve` and the fake Ollama: the
// conversation's model in the chat header (tools-capable models first),
// switched midway and kept after a reload, each answer naming its model;
// Settings lists the installed models, deletes one after a confirmation,
// and a download can be cancelled.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { installModels, lastReply, openPage, pullDelay, screenshotSizes, send, waitReady, withWorld } from "./harness.ts";

const w = withWorld();

async function detailsModel(page: Page): Promise<string> {
  return page.evaluate(() => {
    const all = document.querySelectorAll("article[data-role='assistant']");
    return all[all.length - 1]?.querySelector("details dd.model")?.textContent ?? "";
  });
}

test("pick a model per conversation, switch it midway, delete one, cancel a download", async () => {
  await installModels(w.fake, [
    { name: "qwen3:4b", capabilities: ["completion", "tools", "thinking"], size: 2_600_000_000 },
    { name: "gemma3:1b", capabilities: ["completion"], size: 815_000_000 },
  ]);
  const page = await openPage(w.browser, w.app.url);
  await page.waitForFunction(() => (document.querySelector("#model-picker") as HTMLSelectElement | null)?.options.length === 3);
  const groups = await page.$$eval("#model-picker optgroup", (gs) => gs.map((g) => [...g.querySelectorAll("option")].map((o) => o.value)));
  assert.deepEqual(groups, [["llama3.2:3b", "qwen3:4b"], ["gemma3:1b"]], "tools-capable models first");

  // A new chat with qwen3:4b.
  await page.selectOption("#model-picker", "qwen3:4b");
  await send(page, "Hello there");
  await lastReply(page);
  assert.equal(await detailsModel(page), "qwen3:4b");
  await page.click("article[data-role='assistant'] details summary");
  await screenshotSizes(page, "models-picker-en");

  // Switched midway; kept after a reload.
  await page.selectOption("#model-picker", "llama3.2:3b");
  await page.waitForFunction(() => document.querySelector("nav li.current") !== null);
  await send(page, "And now?");
  await page.waitForFunction(() => document.querySelectorAll("article[data-role='assistant'][data-status='complete']").length === 2);
  assert.equal(await detailsModel(page), "llama3.2:3b");
  await page.reload();
  await waitReady(page);
  await page.waitForFunction(() => (document.querySelector("#model-picker") as HTMLSelectElement | null)?.value === "llama3.2:3b");
  const writers = await page.$$eval("article[data-role='assistant'] details dd.model", (els) => els.map((e) => e.textContent));
  assert.deepEqual(writers, ["qwen3:4b", "llama3.2:3b"], "each answer names the model that wrote it");

  // Settings: delete gemma3:1b after confirming.
  await page.click("button[aria-label='Settings']");
  await page.waitForSelector("li[data-model='gemma3:1b'] .delete-model");
  await page.click("li[data-model='gemma3:1b'] .delete-model");
  await page.waitForSelector("li[data-model='gemma3:1b'] .confirm");
  await screenshotSizes(page, "models-delete-confirm-en");
  await page.click("li[data-model='gemma3:1b'] .delete-yes");
  await page.waitForSelector("li[data-model='gemma3:1b']", { state: "detached" });

  // A slow download, cancelled.
  await pullDelay(w.fake, 2000);
  await page.fill("#set-pull", "phi4-mini");
  await page.click("#set-pull + button");
  await page.waitForSelector("dialog button.cancel-pull");
  await screenshotSizes(page, "models-pull-en");
  await page.click("dialog button.cancel-pull");
  await page.waitForSelector("dialog button.cancel-pull", { state: "detached" });
  assert.equal(await page.locator("li[data-model='phi4-mini:latest'], li[data-model='phi4-mini']").count(), 0, "a cancelled download installs nothing");
  await pullDelay(w.fake, 150);
  await page.keyboard.press("Escape");

  // The same screens in Korean.
  const ko = await openPage(w.browser, w.app.url + new URL(page.url()).hash, "ko-KR");
  await ko.waitForFunction(() => (document.querySelector("#model-picker") as HTMLSelectElement | null)?.value === "llama3.2:3b");
  const label = await ko.$eval("#model-picker optgroup", (g) => (g as HTMLOptGroupElement).label);
  assert.equal(label, "도구를 쓸 수 있는 모델");
  await ko.click("article[data-role='assistant'] details summary");
  await screenshotSizes(ko, "models-picker-ko");
  await ko.click("button[aria-label='설정']");
  await ko.waitForSelector("li[data-model='qwen3:4b'] .delete-model");
  await ko.click("li[data-model='qwen3:4b'] .delete-model");
  await screenshotSizes(ko, "models-delete-confirm-ko");
});
