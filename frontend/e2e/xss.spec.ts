// A model reply full of XSS payloads renders as inert text: no dialog, no
// handler attribute, no script, no javascript: link.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lastReply, openPage, screenshot, send, watchDialogs, withWorld } from "./harness.ts";

const w = withWorld("xss");

test("an XSS reply never executes", async () => {
  const page = await openPage(w.browser, w.app.url);
  const dialogs = watchDialogs(page);

  // The person's own text is shown as plain text too.
  await send(page, "Show me <img src=x onerror=alert('mine')> please");
  const reply = await lastReply(page);
  assert.equal(reply.status, "complete");
  assert.match(reply.text, /Here you go/);

  // Let any image error handler have its chance to run.
  await page.waitForTimeout(500);
  const found = await page.evaluate(() => {
    const all = [...document.querySelectorAll("#app *")];
    return {
      handlers: all.filter((el) => el.getAttributeNames().some((a) => a.startsWith("on"))).map((el) => el.outerHTML),
      scripts: document.querySelectorAll("#app script").length,
      jsLinks: [...document.querySelectorAll("#app a")].filter((a) => /^\s*javascript:/i.test(a.getAttribute("href") ?? "")).length,
      images: document.querySelectorAll("#app img").length,
    };
  });
  assert.deepEqual(dialogs, [], "no alert() ran");
  assert.deepEqual(found.handlers, [], "no element carries an event handler");
  assert.equal(found.scripts, 0);
  assert.equal(found.jsLinks, 0);
  assert.equal(found.images, 0, "the remote <img> is not rendered");
  await screenshot(page, "xss-inert");
});
