// A page of `wayfinder serve` opened without its token, or with a stale one
// (issue 22.8), says so and how to get the address again — not "Ollama is
// not reachable" and "No conversations yet". Screenshots in en and ko at
// 1280×800 and 800×700.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage, screenshot, withWorld } from "./harness.ts";

const w = withWorld();

test("a page without the token says so and how to get the address", async () => {
  const bare = new URL(w.app.url);
  bare.search = "";
  const stale = new URL(w.app.url);
  stale.searchParams.set("token", "0123456789abcdef");
  for (const [reason, url] of [["missing", bare.toString()], ["rejected", stale.toString()]] as const) {
    for (const locale of ["en-US", "ko-KR"]) {
      for (const size of [{ width: 1280, height: 800 }, { width: 800, height: 700 }]) {
        const page = await openPage(w.browser, url, locale, size);
        assert.equal(await page.getAttribute("[data-access]", "data-access"), reason);
        const text = await page.innerText("body");
        assert.match(text, /wayfinder serve/);
        assert.match(text, /\?token=/);
        assert.match(text, locale === "ko-KR" ? /주소를 다시 얻는 방법/ : /How to get the address again/);
        assert.doesNotMatch(text, /Ollama|No conversations|대화가 없/);
        await screenshot(page, `access-${reason}-${locale.slice(0, 2)}-${size.width}x${size.height}`);
        await page.context().close();
      }
    }
  }
  // The right address still opens the app.
  const page = await openPage(w.browser, w.app.url, "en-US", { width: 1280, height: 800 });
  assert.equal(await page.$("[data-access]"), null);
  await page.waitForSelector("#composer-input");
  await page.context().close();
});
