// A file attached in a new chat while the embedding model does not answer,
// in the window, in English and Korean: the conversation is named after the
// file and shows questions about it as soon as the file is found by its
// words, not when its embedding ends; while another conversation's answer
// is being written, the file's row says its embedding waits for it (the
// backend's pace), then that it indexes its meaning; when Ollama does not
// answer the embedding in time (about a minute), the row says the file is
// found by its words now and by its meaning later, with no bar left
// looking stuck; a question then titles the conversation, which the
// file's import does not rename. Ollama then fails the background
// embedding for a while: the window reloaded shows the file's row again,
// its meaning still to come; once Ollama answers, the row says the file is
// found by its meaning too. Screenshots at 1280×800 and 800×700:
// attachwait-{1-waiting,2-embedding,3-later}-{en,ko}-{1280,800}.png,
// attachwait-{4-asked,6-reloaded,7-embedded}-{en,ko}-1280.png. On the Knowledge screen, a file's
// row says its embedding waits while an answer is written, then goes on:
// attachwait-5-knowledge-{en,ko}-{1280,800}.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fail, GREETING, lastReply, openPage, resetFake, screenshot, screenshotSizes, send, settled, withWorld } from "./harness.ts";

const w = withWorld();

const words = {
  en: {
    hello: "hello",
    file: "travel-rules.md",
    empty: "Ask about your files",
    summary: "Summarise travel-rules.md in a few bullet points",
    waiting: "Ready for questions · waiting for your question to finish",
    embedding: "Ready for questions · indexing its meaning",
    later: "Ready for questions · found by its words now; Ollama did not answer in time, so search by meaning comes later, in the background",
    pending: "Ready for questions · found by its words now; search by meaning comes later, in the background",
    embedded: "Ready for questions · now found by its meaning too: the background embedding is done",
    question: "How much is the daily travel allowance?",
  },
  ko: {
    hello: "안녕",
    file: "출장 규정.md",
    empty: "첨부한 파일에 대해 물어보세요",
    summary: "출장 규정.md 내용을 몇 줄로 요약해 줘",
    waiting: "지금 질문할 수 있습니다 · 질문에 답하는 동안 잠시 멈춤",
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    later: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. Ollama가 제때 답하지 않아 의미 검색은 나중에 뒤에서 준비합니다",
    pending: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. 의미 검색은 나중에 뒤에서 준비합니다",
    embedded: "지금 질문할 수 있습니다 · 이제 의미로도 찾습니다. 뒤에서 하던 임베딩을 마쳤습니다",
    question: "출장비는 하루 얼마까지 지원하나요?",
  },
} as const;

const row = "[data-testid='attachments'] .pending li";

test("a file attached while embeddings hang: named and asked about at once, its rows say it waits, and that its meaning comes later", async () => {
  for (const [locale, lang] of [["en-US", "en"], ["ko-KR", "ko"]] as const) {
    const say = words[lang];
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    await settled(w.fake); // the catalog's, and the last round's: the hang below is the file's

    // Another conversation's answer is being written (it hangs until stopped).
    await fail(w.fake, "/api/chat", 1, { kind: "hang" });
    await send(page, say.hello);
    await page.waitForSelector("button.stop");
    const asking = decodeURIComponent(new URL(page.url()).hash.replace(/^#s=/, ""));
    assert.ok(asking, "the asking conversation's id in the address");
    await settled(w.fake);
    await fail(w.fake, "/api/embed", 1, { kind: "hang" });
    // After it, the background embedding fails until resetFake below.
    await fail(w.fake, "/api/embed", -1, { kind: "http_500" });

    // A new chat with a file: it is in and named after its file while its
    // embedding waits for that answer.
    await page.click(".sidebar button.new");
    await page.setInputFiles("[data-testid='attach-input']", [
      { name: say.file, mimeType: "text/markdown", buffer: Buffer.from(`# 출장 규정 / Travel rules (${lang})\n\n출장비는 하루 10만원까지 지원합니다. The daily travel allowance is 100,000 won.\n`) },
      // (its text its own in each language: embeddings are cached by text,
      // and the round before embedded that of the other language)
    ]);
    await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .stage`)?.textContent === text, [row, say.waiting] as const, { timeout: 60_000 });
    await page.waitForFunction((t) => document.querySelector("header .title")?.textContent === t, say.file);
    await page.waitForFunction((t) => [...document.querySelectorAll(".sidebar li .title")].some((e) => e.textContent === `📎${t}`), say.file);
    assert.equal(await page.textContent("#empty-title"), say.empty);
    assert.equal(await page.textContent(".empty .example >> nth=0"), say.summary);
    assert.ok(await page.isVisible(`${row} progress`), "its bar, where it was");
    assert.ok(await page.isVisible(`${row} button.stop`), "it can still be stopped");
    await page.fill("#composer-input", say.question);
    assert.ok(!(await page.isDisabled("button.send")), "a question can be sent already");
    await screenshotSizes(page, `attachwait-1-waiting-${lang}`);

    // The answer is stopped: the embedding goes on, and Ollama hangs on it.
    await w.api("ChatService/Stop", [asking]);
    await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .stage`)?.textContent === text, [row, say.embedding] as const, { timeout: 30_000 });
    await screenshotSizes(page, `attachwait-2-embedding-${lang}`);

    // Ollama does not answer in time (about a minute): found by its words
    // now, by its meaning later, in words and without a bar.
    await page.waitForSelector(`${row}[data-stage='done']`, { timeout: 180_000 });
    assert.equal(await page.textContent(`${row} .stage`), say.later);
    assert.equal(await page.locator(`${row} progress`).count(), 0, "no bar left to look stuck");
    assert.equal(await page.locator(`${row} button.stop`).count(), 0, "nothing to stop");
    await page.waitForFunction((t) => document.querySelector("[data-testid='attachments'] .files li")?.textContent?.includes(t), say.file);
    assert.equal(await page.textContent("header .title"), say.file);
    await screenshotSizes(page, `attachwait-3-later-${lang}`);

    // A question titles the conversation; the file's import, ended, does
    // not name it after the file again.
    await page.press("#composer-input", "Enter");
    assert.equal((await lastReply(page)).text, GREETING);
    await page.waitForFunction((t) => document.querySelector("header .title")?.textContent === t, say.question);
    await page.waitForFunction((t) => [...document.querySelectorAll(".sidebar li .title")].some((e) => e.textContent === t), say.question);
    assert.equal(await page.locator(".sidebar li .title", { hasText: `📎${say.file}` }).count(), 0, "no conversation named after the file any more");
    assert.equal(await page.textContent(`${row} .stage`), say.later, "said until dismissed");
    await screenshot(page, `attachwait-4-asked-${lang}-1280`);

    // The window reloaded while the background embedding still fails: the
    // file's row is back, its meaning still to come (why is not said: the
    // window no longer knows).
    await page.reload();
    await page.waitForSelector(`${row}[data-meaning='pending']`, { timeout: 30_000 });
    assert.equal(await page.textContent(`${row} .stage`), say.pending);
    assert.equal(await page.locator(row).count(), 1);
    assert.equal(await page.locator(`${row} progress`).count(), 0, "no bar");
    await screenshot(page, `attachwait-6-reloaded-${lang}-1280`);

    // Ollama answers again: the background embedding catches up and the
    // row says so, rather than "later" for good.
    await resetFake(w.fake);
    await page.waitForSelector(`${row}[data-meaning='embedded']`, { timeout: 180_000 });
    assert.equal(await page.textContent(`${row} .stage`), say.embedded);
    await screenshot(page, `attachwait-7-embedded-${lang}-1280`);
    await page.context().close();
  }
});

test("the Knowledge screen: an import's row says its embedding waits while an answer is written, and it goes on after", async () => {
  for (const [locale, lang] of [["en-US", "en"], ["ko-KR", "ko"]] as const) {
    const name = lang === "en" ? "handbook.md" : "안내서.md";
    const waiting = lang === "en" ? /^Waiting for your question to finish/ : /^질문에 답하는 동안 잠시 멈춤/;
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    // The last answer's reflection: the hang below is this answer's (the
    // test before reset the fake).
    await settled(w.fake, "/api/chat", true);
    await fail(w.fake, "/api/chat", 1, { kind: "hang" });
    await send(page, words[lang].hello);
    await page.waitForSelector("button.stop");
    const asking = decodeURIComponent(new URL(page.url()).hash.replace(/^#s=/, ""));
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    await page.setInputFiles("#kb-file-input", [{ name, mimeType: "text/markdown", buffer: Buffer.from(`# ${name}\n\nThe office opens at nine. 사무실은 9시에 엽니다.\n`) }]);
    const fileRow = `.progress li.file:has(.name[title$="${name}"])`;
    await page.waitForSelector(`${fileRow}[data-stage='embedding']`, { timeout: 60_000 });
    await page.waitForFunction(([sel, re]) => new RegExp(re).test(document.querySelector(`${sel} .stage`)?.textContent ?? ""), [fileRow, waiting.source] as const);
    assert.ok(await page.isVisible(`${fileRow} button.stop`), "it can still be stopped");
    await screenshotSizes(page, `attachwait-5-knowledge-${lang}`);
    await w.api("ChatService/Stop", [asking]);
    await page.waitForSelector(`${fileRow}[data-stage='done']`, { timeout: 60_000 });
    assert.doesNotMatch((await page.textContent(`${fileRow} .stage`)) ?? "", waiting);
    await page.context().close();
  }
});
