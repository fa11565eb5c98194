// A chat's rows of the files it added to the library tell the truth
// across a reload, a restart of the backend and a removal on the
// Knowledge screen, in English and Korean, on the real backend (serve)
// and the fake Ollama; its embedding is held by a hang that lasts until
// the app gives up on it (the Stop), never by a sleep.
//
// A file of three records (three documents) goes in and joins the
// library; a long file is stopped while it embeds (paused) and joins the
// library paused, its row saying so, N of M passages left, with Resume.
// Reloaded, the window shows both rows again as the backend keeps them.
// One record removed on the Knowledge screen: back in the chat, its row
// says 1 of its 3 documents were removed, and the Knowledge screen lists
// the other two. The backend restarts on the same address while the
// window is open: the token is kept in the data folder, so the new start
// prints the same address and the window, reloaded, opens the conversation with both rows, the
// paused file's pause ended by the restart (its meaning indexed in the
// background, no Resume), the records' count kept. The other two records
// removed: the row says the file was removed from the library.
// Screenshots: attachkept-{1-added,2-reloaded,3-one-removed,4-restarted,5-removed}-{en,ko}-{1280,800}.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { fail, launchBrowser, openPage, resetFake, screenshotSizes, settled, startApp, startFakeOllama, waitReady, type App, type FakeOllama } from "./harness.ts";

const words = {
  en: {
    big: "annual-report.md",
    records: "fruit.jsonl",
    embedding: "Ready for questions · indexing its meaning",
    added: "Added to your library: every conversation finds it by its words and by its meaning",
    addedPaused: /^Added to your library: every conversation finds it by its words now; indexing its meaning is paused — ([\d,]+) of ([\d,]+) passages left$/,
    addedEmbedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    addedRemoved: "Added to your library, then removed from it: no conversation finds it any more",
    oneOfThree: "1 of its 3 documents were removed from the library since",
    resume: "Resume",
  },
  ko: {
    big: "연간 보고서.md",
    records: "과일.jsonl",
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    added: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    addedPaused: /^지식 베이스에 추가했습니다\. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 멈춰 두었습니다 — 구절 ([\d,]+)개 중 ([\d,]+)개 남음$/,
    addedEmbedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    addedRemoved: "지식 베이스에 추가했다가 지웠습니다. 이제 어느 대화에서도 찾지 않습니다",
    oneOfThree: "그 뒤 문서 3개 중 1개를 지식 베이스에서 지웠습니다",
    resume: "다시 시작",
  },
} as const;

const pending = "[data-testid='attachments'] .pending li";
const rowOf = (name: string) => `${pending}:has(.name[title="${name}"])`;
const chipOf = (name: string) => `[data-testid='attachments'] .files li:has(.name[title$="${name}"])`;
/** The Knowledge screen's rows of a file's documents. */
const docsOf = (name: string) => `tr[data-doc]:has(td.title[title$="/${name}"])`;

/** A long file, its text its own in each language (embeddings are cached by text). */
function longFile(lang: string): Buffer {
  const parts = [`# Report kept (${lang})`];
  for (let i = 0; i < 60; i++) parts.push(`## Section ${i}\n\nThe kept figures of section ${i}, ${lang}: revenue rose by ${i} percent. 매출이 ${i}퍼센트 늘었습니다.`);
  return Buffer.from(parts.join("\n\n"));
}

/** Three records, three documents of one file. */
function records(lang: string): Buffer {
  return Buffer.from(["귤은 겨울 과일", "석류는 가을 과일", "수박은 여름 과일"].map((text, i) => JSON.stringify({ _id: `r${i + 1}`, text: `${text} (${lang})` })).join("\n") + "\n");
}

const textOf = async (page: Page, sel: string) => (await page.textContent(sel))?.trim();
const stageIs = (page: Page, row: string, text: string) =>
  page.waitForFunction(([sel, want]) => document.querySelector(`${sel} .stage`)?.textContent === want, [row, text] as const, { timeout: 60_000 });

/** removeDocs removes n of a file's documents on the Knowledge screen, as a person does, and goes back to the conversation. */
async function removeDocs(page: Page, name: string, n: number, shot?: string) {
  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");
  await page.waitForSelector(docsOf(name));
  const before = await page.locator(docsOf(name)).count();
  for (let i = 0; i < n; i++) {
    await page.click(`${docsOf(name)} >> nth=0 >> button.remove`);
    await page.click(`${docsOf(name)} >> nth=0 >> button.confirm-remove`);
    await page.waitForFunction(([sel, k]) => document.querySelectorAll(sel).length === k, [docsOf(name), before - i - 1] as const, { timeout: 30_000 });
  }
  if (shot) await screenshotSizes(page, shot);
  await page.click(".sidebar li button.open >> nth=0");
  await page.waitForSelector(pending, { timeout: 30_000 });
}

let fake: FakeOllama;
let app: App;
let browser: Browser;
let dataDir: string;

before(async () => {
  fake = await startFakeOllama();
  dataDir = mkdtempSync(join(tmpdir(), "wayfinder-e2e-kept-"));
  app = await startApp({ ollamaHost: fake.url, dataDir });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await fake?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a chat's rows of files added to the library come back after a reload and a restart, and follow the Knowledge screen", async () => {
  for (const [locale, lang] of [["en-US", "en"], ["ko-KR", "ko"]] as const) {
    const say = words[lang];
    const page = await openPage(browser, app.url, locale, { width: 1280, height: 800 });
    await settled(fake, "/api/embed", lang === "ko");
    await page.click(".sidebar button.new");

    // Three records go in, and join the library.
    await page.setInputFiles("[data-testid='attach-input']", [{ name: say.records, mimeType: "application/x-ndjson", buffer: records(lang) }]);
    await page.waitForSelector(chipOf(say.records), { timeout: 60_000 });
    await page.waitForFunction((sel) => !document.querySelector(sel), rowOf(say.records), { timeout: 60_000 });
    await page.click(`${chipOf(say.records)} button >> nth=0`);
    await stageIs(page, rowOf(say.records), say.added);
    await settled(fake, "/api/embed", true);

    // A long file, stopped while it embeds (paused), joins the library paused.
    await fail(fake, "/api/embed", 1, { kind: "hang" });
    await fail(fake, "/api/embed", -1, { kind: "http_500" });
    await page.setInputFiles("[data-testid='attach-input']", [{ name: say.big, mimeType: "text/markdown", buffer: longFile(lang) }]);
    const big = rowOf(say.big);
    await stageIs(page, big, say.embedding);
    await page.click(`${big} button.stop`);
    await page.waitForSelector(`${big}[data-meaning='stopped']`, { timeout: 60_000 });
    await page.waitForSelector(chipOf(say.big));
    await page.click(`${chipOf(say.big)} button >> nth=0`);
    await page.waitForSelector(`${big}[data-stage='library']`, { timeout: 60_000 });
    const paused = (await textOf(page, `${big} .stage`)) ?? "";
    assert.match(paused, say.addedPaused);
    await screenshotSizes(page, `attachkept-1-added-${lang}`);

    // Reloaded: both rows, as they were, from the backend.
    await page.reload();
    await waitReady(page);
    await page.waitForSelector(`${big}[data-stage='library']`, { timeout: 30_000 });
    assert.equal(await textOf(page, `${big} .stage`), paused);
    assert.equal(await textOf(page, `${big} button.resume`), say.resume);
    assert.equal(await textOf(page, `${rowOf(say.records)} .stage`), say.added);
    assert.equal(await page.locator(pending).count(), 2, "one row a file");
    await screenshotSizes(page, `attachkept-2-reloaded-${lang}`);

    // One record removed on the Knowledge screen: the row counts it; the rest are listed there.
    await removeDocs(page, say.records, 1, `attachkept-3-knowledge-${lang}`);
    await page.waitForFunction(([sel, want]) => document.querySelector(`${sel} .gone`)?.textContent === want, [rowOf(say.records), say.oneOfThree] as const, { timeout: 30_000 });
    assert.equal(await textOf(page, `${rowOf(say.records)} .stage`), say.added);
    await screenshotSizes(page, `attachkept-3-one-removed-${lang}`);

    // The backend restarts on the same address while the window is open.
    const sid = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("s"));
    assert.ok(sid, "the conversation is in the address");
    const addr = new URL(app.url).host;
    const before = app.url;
    await app.stop();
    app = await startApp({ ollamaHost: fake.url, dataDir, addr });
    // serve keeps its token in the data folder: the same address, and the
    // open window, reloaded, opens the conversation again.
    assert.equal(app.url, before, "a restart keeps the address");
    await page.reload();
    await waitReady(page);
    await stageIs(page, big, say.addedEmbedding); // a restart ends a pause
    assert.equal(await page.locator(`${big} button.resume`).count(), 0, "nothing to resume");
    assert.equal(await textOf(page, `${rowOf(say.records)} .stage`), say.added);
    assert.equal(await textOf(page, `${rowOf(say.records)} .gone`), say.oneOfThree);
    await screenshotSizes(page, `attachkept-4-restarted-${lang}`);

    // The other two removed: the file is gone from the library, and its row says so.
    await removeDocs(page, say.records, 2);
    await stageIs(page, rowOf(say.records), say.addedRemoved);
    assert.equal(await page.locator(`${rowOf(say.records)} .gone`).count(), 0);
    await screenshotSizes(page, `attachkept-5-removed-${lang}`);

    await resetFake(fake);
    await page.context().close();
  }
});
