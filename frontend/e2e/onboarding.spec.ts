// Read-only mode against `wayfinder serve`: with Ollama unreachable a new
// chat shows the setup steps, an old conversation still opens with its
// messages, and only sending waits, with the reason and the fix beside the
// message box; when Ollama comes back the draft is sent as usual.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { GREETING, closedPortURL, lastReply, launchBrowser, openPage, screenshotSizes, send, startApp, startFakeOllama, type App, type FakeOllama } from "./harness.ts";

let app: App;
let browser: Browser;
let fake: FakeOllama | undefined;
let fakeAddr = "";

before(async () => {
  // The app talks to an address where the fake runs first, then nothing.
  const url = await closedPortURL();
  fakeAddr = new URL(url).host;
  fake = await startFakeOllama("default", fakeAddr);
  app = await startApp({ ollamaHost: url });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await fake?.stop();
});

test("an old conversation stays readable while Ollama is down; only sending waits", async () => {
  let page = await openPage(browser, app.url);
  await send(page, "What is our leave policy?");
  assert.equal((await lastReply(page)).text, GREETING);
  // The page drops the token from its address once loaded: keep the hash.
  const conversation = app.url + new URL(page.url()).hash;
  await page.context().close();

  await fake!.stop();
  fake = undefined;
  for (const locale of ["en-US", "ko-KR"]) {
    page = await openPage(browser, conversation, locale);
    await page.waitForSelector("#composer-held[data-problem='unreachable']", { timeout: 15_000 });
    assert.equal(await page.locator("article[data-role]").count(), 2, "both messages of the old conversation are shown");
    assert.match(await page.innerText("article[data-role='assistant'] .bubble"), /Wayfinder's test model/);
    assert.equal(await page.locator("section.onboarding").count(), 0, "the chat is not replaced by the setup screen");
    const held = await page.innerText("#composer-held");
    assert.match(held, /ollama serve/);
    assert.match(held, locale === "ko-KR" ? /보내기를 잠시 멈췄습니다/ : /Sending is paused/);
    await page.fill("#composer-input", "And sick days?");
    assert.equal(await page.isDisabled("button.send"), true, "Send waits");
    await page.press("#composer-input", "Enter");
    assert.equal(await page.locator("article[data-role]").count(), 2, "nothing was sent");
    await screenshotSizes(page, `readonly-conversation-${locale.slice(0, 2)}`);
    // The knowledge base and memory open as usual.
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    await page.click(".views button >> nth=1");
    await page.waitForSelector("section.mem");
    await page.click("nav li button.open");
    await page.waitForSelector("#composer-held");
    if (locale === "ko-KR") break;
    // A new chat shows the setup steps above the (held) message box.
    await page.click("button.new");
    await page.waitForSelector("section.onboarding[data-problem='unreachable']");
    assert.match(await page.innerText("section.onboarding"), /ollama\.com\/download/);
    assert.equal(await page.locator("#composer-input").count(), 1);
    await screenshotSizes(page, "readonly-new-chat-en");
    await page.context().close();
  }

  // Ollama comes back: within a few seconds the draft can be sent.
  fake = await startFakeOllama("default", fakeAddr);
  await page.click("nav li button.open");
  await page.waitForSelector("#composer-held", { state: "detached", timeout: 15_000 });
  await page.fill("#composer-input", "And sick days?");
  await page.press("#composer-input", "Enter");
  await page.waitForFunction(() => document.querySelectorAll("article[data-role]").length === 4);
  assert.equal((await lastReply(page)).text, GREETING);
});
