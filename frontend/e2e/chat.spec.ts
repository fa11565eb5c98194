// A first chat against `wayfinder serve` and the fake Ollama: the reply
// streams in, and after a reload the history is still there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GREETING, lastReply, openPage, screenshot, script, send, waitReady, withWorld } from "./harness.ts";

const w = withWorld();

test("send a message, see the reply stream in, reload, the history is still there", async () => {
  const page = await openPage(w.browser, w.app.url);
  assert.ok(!page.url().includes("token="), "the token is removed from the address bar");
  await page.waitForSelector("#empty-title");

  // Record every state and length the reply goes through, to see it stream.
  await page.evaluate(() => {
    const seen: Array<{ status: string | null; len: number }> = [];
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      const a = document.querySelector("article[data-role='assistant']");
      if (a) seen.push({ status: a.getAttribute("data-status"), len: a.textContent?.length ?? 0 });
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });

  // A pure greeting goes straight to the answer (no router call), which
  // streams in slow chunks: several batches reach the page even when the
  // machine is busy.
  await script(w.fake, [{ chunks: ["Hello! ", "I am ", "Wayfinder's ", "test ", "model."], chunk_delay_ms: 150 }]);
  await send(page, "안녕하세요");
  await page.waitForSelector("article[data-role='user']");
  const reply = await lastReply(page);
  assert.equal(reply.status, "complete");
  assert.equal(reply.text, GREETING);
  assert.equal(await page.inputValue("#composer-input"), "", "the box is cleared after sending");

  const seen = await page.evaluate(() => (window as unknown as { __seen: Array<{ status: string | null; len: number }> }).__seen);
  const streamingLens = new Set(seen.filter((s) => s.status === "streaming" && s.len > 0).map((s) => s.len));
  assert.ok(streamingLens.size >= 2, `the reply grew while streaming (saw lengths ${[...streamingLens].join(", ")})`);
  await screenshot(page, "chat-reply");

  // The session appears in the sidebar.
  await page.waitForSelector("nav li button.open");

  await page.reload();
  await waitReady(page);
  const user = await page.textContent("article[data-role='user'] .user-text");
  assert.equal(user?.trim(), "안녕하세요");
  const again = await lastReply(page);
  assert.equal(again.text, GREETING);
  assert.equal(again.status, "complete");
  await screenshot(page, "chat-after-reload");
});
