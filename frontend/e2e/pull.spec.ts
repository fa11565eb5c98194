// A chat model that is not installed: the window says so, offers the exact
// command and a "Pull model" button whose progress bar fills, then recovers
// into the chat by itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage, screenshot, withWorld } from "./harness.ts";

const MISSING = "qwen3:0.6b";

const w = withWorld("default", { model: MISSING });

// The header at the narrowest window and a common one, in both languages:
// the picker's "not installed" badge left the title "Wayfi…" at 800 px.
test("the header's title and the model's badge both read whole", async () => {
  for (const locale of ["en-US", "ko-KR"]) {
    for (const viewport of [{ width: 800, height: 700 }, { width: 1280, height: 800 }]) {
      const page = await openPage(w.browser, w.app.url, locale, viewport);
      await page.waitForSelector("#model-picker-state");
      const cut = await page.$$eval(".topbar .title, #model-picker-state", (els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent),
      );
      assert.deepEqual(cut, [], `cut at ${viewport.width} px in ${locale}`);
      await screenshot(page, `header-badge-${locale}-${viewport.width}`);
      await page.context().close();
    }
  }
});

test("a missing model is pulled with a progress bar and the chat appears", async () => {
  const page = await openPage(w.browser, w.app.url);
  await page.waitForSelector("section.onboarding[data-problem='model_missing']", { timeout: 15_000 });
  const text = await page.innerText("section.onboarding");
  assert.match(text, new RegExp(`ollama pull ${MISSING.replace(".", "\\.")}`));

  // Record the progress values the bar shows.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __progress: string[] }).__progress = seen;
    new MutationObserver(() => {
      const v = document.querySelector("[role=progressbar]")?.getAttribute("aria-valuenow");
      if (v && seen.at(-1) !== v) seen.push(v);
    }).observe(document.body, { subtree: true, attributes: true, childList: true });
  });
  await page.click("text=Pull model");
  await page.waitForSelector("[role=progressbar]");
  await screenshot(page, "pull-progress");
  await page.waitForSelector("section.onboarding", { state: "detached", timeout: 30_000 });
  assert.equal(await page.isDisabled("button.send"), true, "nothing typed yet");
  await page.fill("#composer-input", "hello");
  assert.equal(await page.isDisabled("button.send"), false, "sending is no longer held");
  const progress = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress.map(Number));
  assert.ok(progress.length >= 2, `the bar moved (saw ${progress.join(", ")})`);
  assert.deepEqual(progress, [...progress].sort((a, b) => a - b), "progress never goes back");
  await screenshot(page, "pull-done");
});
