// The memory screen against the real MemoryService: add, edit (text and
// kind), delete one, forget everything; what is shown survives a reload.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { lastReply, openPage, screenshot, send, waitReady, withWorld } from "./harness.ts";

const w = withWorld();

async function texts(page: Page): Promise<string[]> {
  return page.$$eval(".mem .item .text", (els) => els.map((e) => e.textContent ?? ""));
}

async function remember(page: Page, text: string, kind: string): Promise<void> {
  await page.fill("#mem-new", text);
  await page.selectOption("#mem-new-kind", kind);
  await page.click("form.add button[type=submit]");
  await page.waitForFunction((t) => [...document.querySelectorAll(".mem .item .text")].some((e) => e.textContent === t), text);
}

test("add, edit, delete a memory, and forget everything", async () => {
  const page = await openPage(w.browser, w.app.url);
  await page.click(".views button >> nth=1");
  await page.waitForSelector("#mem-title");
  await remember(page, "Prefers free tools", "preference");
  await remember(page, "카페를 운영함", "fact");
  await screenshot(page, "memory-1-list");

  // Edit the first one: new text and a new kind.
  const id = await page.$eval(".mem .item:has(.text:text-is('Prefers free tools'))", (li) => li.getAttribute("data-memory"));
  await page.click(`li[data-memory='${id}'] button.edit`);
  await page.fill(`#mem-edit-${id}`, "Prefers free and open-source tools");
  await page.selectOption(`#mem-edit-kind-${id}`, "feedback");
  await screenshot(page, "memory-2-editing");
  await page.click(`li[data-memory='${id}'] button.save`);
  await page.waitForSelector(`li[data-memory='${id}'] .kind[data-kind='feedback']`);
  assert.ok((await texts(page)).includes("Prefers free and open-source tools"));

  // The edit is stored: it is still there after a reload.
  await page.reload();
  await waitReady(page);
  await page.click(".views button >> nth=1");
  await page.waitForSelector(`li[data-memory='${id}'] .kind[data-kind='feedback']`);

  // Delete one, after confirming.
  await page.click(`li[data-memory='${id}'] button.delete`);
  await page.click(`li[data-memory='${id}'] button.confirm-delete`);
  await page.waitForSelector(`li[data-memory='${id}']`, { state: "detached" });
  assert.deepEqual(await texts(page), ["카페를 운영함"]);

  // Forget everything, after confirming.
  await remember(page, "Lives in Busan", "fact");
  await page.click("button.forget-all");
  await page.waitForSelector(".mem .confirm");
  await screenshot(page, "memory-3-forget-confirm");
  await page.click("button.confirm-forget");
  await page.waitForSelector(".mem .item", { state: "detached" });
  await page.reload();
  await waitReady(page);
  await page.click(".views button >> nth=1");
  await page.waitForSelector(".mem .empty");
  assert.deepEqual(await texts(page), []);
  await screenshot(page, "memory-4-empty");
});

test("“remember that …” in the chat is stored at once and shown in an open Memory screen", async () => {
  // One window shows the Memory screen; the person talks in another.
  const memoryPage = await openPage(w.browser, w.app.url);
  await memoryPage.setViewportSize({ width: 1280, height: 800 });
  await memoryPage.click(".views button >> nth=1");
  await memoryPage.waitForSelector("#mem-title");
  const chatPage = await openPage(w.browser, w.app.url);
  await chatPage.setViewportSize({ width: 1280, height: 800 });

  await send(chatPage, "Please remember that I prefer free tools.");
  const reply = await lastReply(chatPage);
  assert.equal(reply.status, "complete");
  assert.match(reply.text, /I'll remember: “I prefer free tools”/);
  await screenshot(chatPage, "memory-5-remember-chat");
  // No reload: the event brings it to the open screen, marked as said.
  const said = ".mem .item:has(.text:text-is('I prefer free tools'))";
  await memoryPage.waitForSelector(`${said} .origin[data-origin='said']`, { timeout: 15_000 });
  assert.equal(await memoryPage.textContent(`${said} .origin`), "You asked to remember this");
  await screenshot(memoryPage, "memory-6-remembered");

  // The same in Korean, in a Korean window, at the narrow size.
  const ko = await openPage(w.browser, w.app.url, "ko-KR");
  await ko.setViewportSize({ width: 800, height: 700 });
  await send(ko, "나는 맥에서 영상을 편집한다는 걸 기억해 줘");
  assert.match((await lastReply(ko)).text, /기억해 둘게요: “나는 맥에서 영상을 편집한다”/);
  await screenshot(ko, "memory-7-remember-ko-chat");
  await ko.click(".views button >> nth=1");
  const item = ".mem .item:has(.text:text-is('나는 맥에서 영상을 편집한다'))";
  await ko.waitForSelector(`${item} .origin[data-origin='said']`);
  assert.equal(await ko.textContent(`${item} .origin`), "직접 기억해 달라고 하신 내용");
  await screenshot(ko, "memory-8-remembered-ko");
});
