// Stop ends a streaming reply, keeps what was written, and leaves the chat
// usable.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lastReply, openPage, screenshot, send, withWorld } from "./harness.ts";

const w = withWorld("slow");

test("Escape stops a streaming reply and keeps the partial text", async () => {
  const page = await openPage(w.browser, w.app.url);
  await send(page, "Tell me a long story");
  await page.waitForFunction(() => {
    const a = document.querySelector("article[data-role='assistant'][data-status='streaming'] .md");
    return (a?.textContent?.length ?? 0) > 20;
  }, null, { timeout: 20_000 });
  await page.keyboard.press("Escape");
  const reply = await lastReply(page);
  assert.equal(reply.status, "interrupted");
  assert.match(reply.text, /This reply streams slowly/);
  assert.ok(reply.text.length < 1200, "it stopped before the end");
  await screenshot(page, "stopped");

  // The box works again after a stop.
  await page.fill("#composer-input", "again");
  assert.equal(await page.isEnabled("button.send"), true);
});
