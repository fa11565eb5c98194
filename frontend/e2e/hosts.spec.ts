// Several Ollama hosts against `wayfinder serve`: Settings lists each host
// (up with its models, or down since when and why), a model is pulled on
// every host under one bar that names the host at work (a host that is
// down is passed over and named), and with every host down Settings says
// once that none answers and what to do. Two fake
// Ollama processes are the hosts; a port nothing listens on is a third
// that is down.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { closedPortURL, installModels, launchBrowser, openPage, pullDelay, screenshot, startApp, startFakeOllama, type App, type FakeOllama } from "./harness.ts";

let app: App;
let browser: Browser;
let a: FakeOllama;
let b: FakeOllama;
let down = "";

const VIEWPORT = { width: 1280, height: 800 };

before(async () => {
  a = await startFakeOllama();
  b = await startFakeOllama();
  await installModels(b, [{ name: "qwen3:4b", capabilities: ["completion", "tools"] }]);
  down = await closedPortURL();
  app = await startApp({ ollamaHost: [a.url, b.url, down].join(",") });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await a?.stop();
  await b?.stop();
});

/** openSettings opens the window in locale and its Settings dialog, with the host list shown. */
async function openSettings(locale: string, hosts: number, on: App = app): Promise<Page> {
  const page = await openPage(browser, on.url, locale, VIEWPORT);
  await page.click(`.topbar button[aria-label='${locale === "ko-KR" ? "설정" : "Settings"}']`);
  await page.waitForSelector("dialog[open] #set-host");
  await page.waitForFunction((n) => document.querySelectorAll("dialog[open] .hosts > li").length === n, hosts, { timeout: 15_000 });
  return page;
}

test("Settings lists each host: up with its models, or down since when and why", async () => {
  for (const locale of ["en-US", "ko-KR"]) {
    const page = await openSettings(locale, 3);
    const ko = locale === "ko-KR";
    const up = page.locator(`.hosts li[data-host='${a.url}']`);
    assert.equal(await up.getAttribute("data-up"), "1");
    assert.equal(await up.locator(".state").innerText(), ko ? "정상" : "up");
    assert.match(await up.locator(".models").innerText(), ko ? /^모델: .*llama3\.2:3b/ : /^models: .*llama3\.2:3b/);
    assert.match(await page.locator(`.hosts li[data-host='${b.url}'] .models`).innerText(), /qwen3:4b/, "each host's own models");
    const gone = page.locator(`.hosts li[data-host='${down}']`);
    assert.equal(await gone.getAttribute("data-up"), "0");
    assert.match(await gone.locator(".state").innerText(), ko ? /부터 응답 없음, .+부터 다시 시도$/ : /^down since .+, tried again from .+$/);
    assert.match(await gone.locator(".why").innerText(), ko ? /이 주소에서 연결을 받는 곳이 없습니다/ : /^Nothing listens at this address/);
    assert.match((await gone.locator(".why").getAttribute("title")) ?? "", /connection refused/, "the error itself on hover");
    assert.equal(await page.locator(".none-up").count(), 0, "two hosts answer: nothing says none does");
    // The dialog checks the status again as it opens: wait for that check.
    await page.waitForFunction((said) => document.querySelector("#set-host-status")?.textContent?.includes(said), ko ? "연결" : "Connected", { timeout: 15_000 });
    await screenshot(page, `hosts-settings-${locale.slice(0, 2)}-1280`);
    await page.context().close();
  }
});

test("a model is pulled on every host under one bar that names the host at work", async (t) => {
  // The two that answer only, in an app of their own (a host that is down
  // stops a pull; --ollama-host wins over a saved address).
  const two = await startApp({ ollamaHost: `${a.url},${b.url}` });
  t.after(() => two.stop());
  await pullDelay(a, 150);
  await pullDelay(b, 150);
  const page = await openSettings("en-US", 2, two);
  await page.evaluate(() => {
    const seen: number[] = [];
    const hosts: string[] = [];
    Object.assign(window, { __seen: seen, __hosts: hosts });
    new MutationObserver(() => {
      const v = document.querySelector(".pull [role=progressbar]")?.getAttribute("aria-valuenow");
      if (v && seen.at(-1) !== Number(v)) seen.push(Number(v));
      const at = document.querySelector(".pull .pull-host")?.textContent;
      if (at && hosts.at(-1) !== at) hosts.push(at);
    }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  await page.fill("#set-pull", "phi4-mini:latest");
  await page.click("dialog[open] .inline button");
  await page.waitForFunction(() => /^Host 2 of 2/.test(document.querySelector(".pull .pull-host")?.textContent ?? ""), undefined, { timeout: 30_000 });
  await page.locator(".pull").scrollIntoViewIfNeeded();
  await screenshot(page, "hosts-pull-en-1280");
  await page.waitForFunction(() => document.querySelector(".pull p.muted")?.textContent === "phi4-mini:latest is ready.", undefined, { timeout: 30_000 });
  const { seen, hosts } = await page.evaluate(() => ({ seen: (window as unknown as { __seen: number[] }).__seen, hosts: (window as unknown as { __hosts: string[] }).__hosts }));
  assert.deepEqual(hosts, [`Host 1 of 2: ${a.url}`, `Host 2 of 2: ${b.url}`]);
  assert.deepEqual(seen, [...seen].sort((x, y) => x - y), `the bar never goes back (saw ${seen.join(", ")})`);
  assert.ok(seen.some((v) => v > 0 && v <= 50) && seen.some((v) => v > 50 && v < 100), `the bar moves over both hosts (saw ${seen.join(", ")})`);
  assert.equal(seen.at(-1), 100);
  await page.context().close();
});

test("a pull with one host down gets the model onto the others and names the one missed", async () => {
  await pullDelay(a, 20);
  await pullDelay(b, 20);
  const page = await openSettings("ko-KR", 3);
  await page.fill("#set-pull", "gemma3:1b");
  await page.click("dialog[open] .inline button");
  const said = `gemma3:1b: 다른 호스트에는 준비됐지만, 응답하지 않은 ${down}에는 받지 못했습니다. 다시 켜지면 한 번 더 내려받으세요.`;
  await page.waitForFunction((want) => document.querySelector(".pull p.muted")?.textContent === want, said, { timeout: 30_000 });
  assert.equal(await page.locator("dialog[open] [role=alert]").count(), 0, "not an error: the model works");
  await page.locator(".pull").scrollIntoViewIfNeeded();
  await screenshot(page, "hosts-pull-missed-ko-1280");
  await page.context().close();
});

test("with every host down, Settings says once that none answers and what to do", async (t) => {
  const two = await startApp({ ollamaHost: `${a.url},${b.url}` });
  t.after(() => two.stop());
  await a.stop();
  await b.stop();
  for (const locale of ["en-US", "ko-KR"]) {
    const page = await openSettings(locale, 2, two);
    await page.waitForSelector(".none-up", { timeout: 15_000 });
    assert.equal(await page.locator(".none-up").count(), 1);
    assert.match(
      await page.innerText(".none-up"),
      locale === "ko-KR" ? /응답하는 호스트가 없어 .*주소를 확인하세요/ : /^No host answers, .*Start Ollama on each of them \(open the Ollama app, or run ollama serve there\), or check the addresses\.$/,
    );
    assert.equal(await page.innerText(".none-up code"), "ollama serve");
    assert.equal(await page.locator(".hosts li[data-up='1']").count(), 0);
    await screenshot(page, `hosts-none-up-${locale.slice(0, 2)}-1280`);
    // The first-start page behind it names every address.
    await page.keyboard.press("Escape");
    await page.waitForSelector("dialog[open]", { state: "detached" });
    assert.match(
      await page.innerText("section.onboarding .hosts-none"),
      locale === "ko-KR" ? /^Ollama 주소 2곳 모두 응답하지 않습니다: http/ : /^None of the 2 Ollama addresses answers: http/,
    );
    await screenshot(page, `hosts-none-up-start-${locale.slice(0, 2)}-1280`);
    await page.context().close();
  }
});
