// A file attached in a chat, stopped or added to the library while it
// embeds, in the window, in English and Korean. The embedding is held by
// the fake Ollama (a hang that lasts until the app gives up on it: the
// stop, or Add to library, ends it), never by a sleep.
//
// Stopped: the file stays attached and found by its words, and its row
// says so, with no bar, until dismissed: its meaning indexing is paused,
// N of M passages left. While it is paused, Ollama answers freely and the
// background embedding indexes another file (the one added to the library
// below) to the end, and the stopped file's count does not move, after a
// reload too; Resume, and the row says its meaning comes, then that it is
// found by its meaning too. Two files attached at once, the first held in its
// embedding: Add to library takes it at once (its button busy until the
// backend answers), a row says where it went, and the Knowledge screen
// lists it, found by its words, its meaning being indexed — N of M
// passages, then found by its meaning too, without a reload (and so does
// the row); a file attached next goes in. Reopened, the conversation shows its
// own file only, with no stale rows: the one row is the file added to the
// library, kept with it until dismissed. A file removed from the
// conversation, after a yes, is gone after a reload too. A file attached
// while another embeds goes in without waiting for it, and the other's row
// says its meaning comes in the background. A file imported on the
// Knowledge screen and stopped while it embeds: its line says its meaning
// indexing is paused, N of M passages left, and the count does not move
// while Ollama answers freely; Resume, and it is found by its meaning too.
// Screenshots:
// attachstop-{1-embedding,2-stopped,4-added,7-remove,8-handed-on,9-library-paused}-{en,ko}-{1280,800}.png,
// attachstop-{3-embedded,5-library,5-library-embedded,5-moved-embedded,6-reopened,9-library-resumed}-{en,ko}-1280.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fail, openPage, resetFake, screenshot, screenshotSizes, settled, withWorld } from "./harness.ts";

const w = withWorld();

const words = {
  en: {
    big: "annual-report.md",
    second: "meeting-notes.md",
    other: "policy.md",
    third: "budget.md",
    fourth: "lunch.md",
    handedOn: "Ready for questions · found by its words now; its meaning is indexed in the background so that your next file could be read at once",
    embedding: "Ready for questions · indexing its meaning",
    stopped: /^Ready for questions · found by its words; indexing its meaning is paused — ([\d,]+) of ([\d,]+) passages left$/,
    resume: "Resume",
    fifth: "manual.md",
    meaningPaused: /^Meaning indexing paused — ([\d,]+) of ([\d,]+) passages left · Resume$/,
    embedded: "Ready for questions · now found by its meaning too: the background embedding is done",
    toLibrary: "Add to library",
    added: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    addedEmbedded: "Added to your library: every conversation finds it by its words and by its meaning",
    addedBefore: "Added to your library: every conversation finds it by its words and by its meaning",
    meaningPending: /^Found by its words; meaning being indexed — [\d,]+ of [\d,]+ passages$/,
    meaningDone: "Found by its meaning too",
    dismiss: "Dismiss",
    removeLabel: (f: string) => `Remove ${f} from this conversation`,
    removeAsk: "Remove it from this conversation? Its copy here is deleted.",
  },
  ko: {
    big: "연간 보고서.md",
    second: "회의록.md",
    other: "규정.md",
    third: "예산.md",
    fourth: "점심.md",
    handedOn: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. 다음 파일을 바로 읽도록 의미 색인은 뒤에서 이어서 합니다",
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    stopped: /^지금 질문할 수 있습니다 · 키워드로 찾습니다\. 의미 색인은 멈춰 두었습니다 — 구절 ([\d,]+)개 중 ([\d,]+)개 남음$/,
    resume: "다시 시작",
    fifth: "설명서.md",
    meaningPaused: /^의미 색인 멈춤 — 구절 ([\d,]+)개 중 ([\d,]+)개 남음 · 다시 시작$/,
    embedded: "지금 질문할 수 있습니다 · 이제 의미로도 찾습니다. 뒤에서 하던 임베딩을 마쳤습니다",
    toLibrary: "지식 베이스에 추가",
    added: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    addedEmbedded: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    addedBefore: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    meaningPending: /^키워드로 찾을 수 있습니다\. 의미 색인 중 — 구절 [\d,]+개 중 [\d,]+개$/,
    meaningDone: "이제 의미로도 찾습니다",
    dismiss: "닫기",
    removeLabel: (f: string) => `이 대화에서 ${f} 삭제`,
    removeAsk: "이 대화에서 삭제할까요? 여기 보관한 사본도 지웁니다.",
  },
} as const;

const pending = "[data-testid='attachments'] .pending li";
const rowOf = (name: string) => `${pending}:has(.name[title="${name}"])`;
const chipOf = (name: string) => `[data-testid='attachments'] .files li:has(.name[title$="${name}"])`;

/** A long file, its text its own in each language and round (embeddings are cached by text). */
function longFile(lang: string, round: string): Buffer {
  const parts = [`# Report ${round} (${lang})`];
  for (let i = 0; i < 60; i++) parts.push(`## Section ${i}\n\nThe ${round} figures of section ${i}, ${lang}: revenue rose by ${i} percent. 매출이 ${i}퍼센트 늘었습니다.`);
  return Buffer.from(parts.join("\n\n"));
}

const textOf = async (page: import("playwright-core").Page, sel: string) => (await page.textContent(sel))?.trim();

test("a file stopped while it embeds stays, and says so; one added to the library while it embeds goes at once", async () => {
  for (const [locale, lang] of [["en-US", "en"], ["ko-KR", "ko"]] as const) {
    const say = words[lang];
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    await settled(w.fake, "/api/embed", lang === "ko"); // the catalog's, and the round before: the hang below is the file's

    // The file's first embedding batch hangs; after it Ollama fails the
    // background embedding until resetFake.
    await fail(w.fake, "/api/embed", 1, { kind: "hang" });
    await fail(w.fake, "/api/embed", -1, { kind: "http_500" });
    await page.click(".sidebar button.new");
    await page.setInputFiles("[data-testid='attach-input']", [{ name: say.big, mimeType: "text/markdown", buffer: longFile(lang, "stopped") }]);
    const big = rowOf(say.big);
    await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .stage`)?.textContent === text, [big, say.embedding] as const, { timeout: 60_000 });
    // Found by its words: listed at once, and it can join the library.
    await page.waitForSelector(chipOf(say.big));
    await screenshotSizes(page, `attachstop-1-embedding-${lang}`);

    // Stopped: it stays, found by its words; its row says so until
    // dismissed: its meaning indexing is paused, with Resume.
    await page.click(`${big} button.stop`);
    await page.waitForSelector(`${big}[data-meaning='stopped']`, { timeout: 60_000 });
    // The count comes with the list of its files, loaded as its import ends.
    await page.waitForFunction(([sel, re]) => new RegExp(re).test(document.querySelector(`${sel} .stage`)?.textContent ?? ""), [big, say.stopped.source] as const, { timeout: 30_000 });
    const pausedAt = await textOf(page, `${big} .stage`);
    const [, left, total] = say.stopped.exec(pausedAt ?? "")!;
    assert.ok(Number(left!.replace(/,/g, "")) > 0 && Number(left!.replace(/,/g, "")) <= Number(total!.replace(/,/g, "")), `passages left: ${pausedAt}`);
    assert.equal(await textOf(page, `${big} button.resume`), say.resume);
    assert.equal(await page.locator(`${big} progress`).count(), 0, "no bar left");
    assert.equal(await page.locator(`${big} button.stop`).count(), 0, "nothing to stop");
    assert.ok(await page.isVisible(chipOf(say.big)), "still attached");
    await page.fill("#composer-input", "?");
    assert.ok(!(await page.isDisabled("button.send")), "it holds no question up");
    await page.fill("#composer-input", "");
    await screenshotSizes(page, `attachstop-2-stopped-${lang}`);

    // Ollama answers again, freely: the paused file's passages wait (the
    // file added to the library below is embedded meanwhile).
    await resetFake(w.fake);

    // A file held in its embedding: Add to library takes it at once. Its
    // meaning waits in the library (Ollama fails the background embedding)
    // until resetFake.
    await settled(w.fake, "/api/embed", true);
    await fail(w.fake, "/api/embed", 1, { kind: "hang" });
    await fail(w.fake, "/api/embed", -1, { kind: "http_500" });
    await page.setInputFiles("[data-testid='attach-input']", [{ name: say.second, mimeType: "text/markdown", buffer: longFile(lang, "added") }]);
    const second = rowOf(say.second);
    await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .stage`)?.textContent === text, [second, say.embedding] as const, { timeout: 60_000 });
    await page.waitForSelector(chipOf(say.second));
    // Add to library: at once, though Ollama still hangs on its embedding.
    await page.click(`${chipOf(say.second)} button`);
    await page.waitForSelector(`${rowOf(say.second)}[data-stage='library']`, { timeout: 60_000 });
    assert.equal(await textOf(page, `${second} .stage`), say.added);
    assert.equal(await page.locator(second).count(), 1, "one row for it: where it went");
    await page.waitForFunction((sel) => !document.querySelector(sel), chipOf(say.second)); // no longer the conversation's own
    await screenshotSizes(page, `attachstop-4-added-${lang}`);
    const conversation = decodeURIComponent(new URL(page.url()).hash.replace(/^#s=/, ""));

    // The Knowledge screen lists it, found by its words, its meaning being
    // indexed (its passages moved with it, pending); once Ollama answers,
    // found by its meaning too, without a reload.
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    const doc = `tr:has(td.title[title$="/${say.second}"])`;
    await page.waitForSelector(`${doc} .meaning[data-meaning='pending']`, { timeout: 30_000 });
    assert.match((await textOf(page, `${doc} .meaning`)) ?? "", say.meaningPending);
    await screenshot(page, `attachstop-5-library-${lang}-1280`);
    await resetFake(w.fake);
    await page.waitForSelector(`${doc} .meaning[data-meaning='embedded']`, { timeout: 180_000 });
    assert.equal(await textOf(page, `${doc} .meaning`), say.meaningDone);
    await screenshot(page, `attachstop-5-library-embedded-${lang}-1280`);
    // Back in the conversation, the row that says where it went says so too.
    await page.click(".sidebar li.current button.open");
    await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .stage`)?.textContent === text, [second, say.addedEmbedded] as const, { timeout: 30_000 });
    await page.waitForSelector("#empty-title"); // the conversation is shown again, not still loading
    await screenshot(page, `attachstop-5-moved-embedded-${lang}-1280`);

    // The background embedding indexed that file to the end while Ollama
    // answered freely; the stopped file's count did not move: its meaning
    // indexing is still paused, as a reload says too.
    assert.equal(await textOf(page, `${big} .stage`), pausedAt);
    await page.reload();
    await page.waitForSelector(`${big}[data-meaning='stopped']`, { timeout: 30_000 });
    assert.equal(await textOf(page, `${big} .stage`), pausedAt);
    // Resume: its meaning comes in the background, and then the row says it is found by it too.
    await page.click(`${big} button.resume`);
    await page.waitForSelector(`${big}[data-meaning='embedded']`, { timeout: 180_000 });
    assert.equal(await textOf(page, `${big} .stage`), say.embedded);
    await screenshot(page, `attachstop-3-embedded-${lang}-1280`);
    await page.click(`${big} button[aria-label='${say.dismiss}']`);
    assert.equal(await page.locator(big).count(), 0);

    // Another file attached then goes in.
    await page.setInputFiles("[data-testid='attach-input']", [
      { name: say.other, mimeType: "text/markdown", buffer: Buffer.from(`# ${say.other}\n\nThe office opens at nine (${lang}). 사무실은 9시에 엽니다.\n`) },
    ]);
    await page.waitForSelector(chipOf(say.other), { timeout: 60_000 });
    await page.waitForFunction((sel) => !document.querySelector(sel), rowOf(say.other), { timeout: 60_000 });

    // Reopened: its own files only, no stale rows.
    await page.goto(`${w.app.url}#s=${encodeURIComponent(conversation)}`);
    await page.reload();
    await page.waitForSelector(chipOf(say.other), { timeout: 30_000 });
    assert.equal(await page.locator(chipOf(say.second)).count(), 0);
    assert.ok(await page.isVisible(chipOf(say.big)));
    // The one row left is the file added to the library, kept with it
    // until dismissed (a reload used to lose it). Its row comes from a call
    // of its own (loadAdded), which may answer after the chips'.
    await page.waitForSelector(`${rowOf(say.second)}[data-stage='library']`, { timeout: 30_000 });
    assert.equal(await page.locator(pending).count(), 1, "no rows left over but the library's");
    assert.equal(await textOf(page, `${rowOf(say.second)}[data-stage='library'] .stage`), say.addedBefore);
    await screenshot(page, `attachstop-6-reopened-${lang}-1280`);

    // Removed from the conversation, after a yes: gone after a reload too.
    await page.click(`${chipOf(say.other)} button[aria-label='${say.removeLabel(say.other)}']`);
    assert.equal(await textOf(page, `${chipOf(say.other)} .ask`), say.removeAsk);
    await screenshotSizes(page, `attachstop-7-remove-${lang}`);
    await page.click(`${chipOf(say.other)} button.remove-yes`);
    await page.waitForFunction((sel) => !document.querySelector(sel), chipOf(say.other));
    await page.reload();
    await page.waitForSelector(chipOf(say.big), { timeout: 30_000 });
    assert.equal(await page.locator(chipOf(say.other)).count(), 0, "removed for good");

    // A file attached while another embeds does not wait for it: the first
    // hands its embedding on to the background (which fails here until
    // Ollama answers again), and its row says so.
    await settled(w.fake, "/api/embed", true);
    await fail(w.fake, "/api/embed", 1, { kind: "hang" });
    await fail(w.fake, "/api/embed", -1, { kind: "http_500" });
    await page.setInputFiles("[data-testid='attach-input']", [{ name: say.third, mimeType: "text/markdown", buffer: longFile(lang, "handed") }]);
    const third = rowOf(say.third);
    await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .stage`)?.textContent === text, [third, say.embedding] as const, { timeout: 60_000 });
    await page.setInputFiles("[data-testid='attach-input']", [{ name: say.fourth, mimeType: "text/markdown", buffer: Buffer.from(`# ${say.fourth}\n\nLunch is at noon (${lang}). 점심은 12시입니다.\n`) }]);
    await page.waitForSelector(chipOf(say.fourth), { timeout: 60_000 }); // in, though the first's embedding still hangs
    await page.waitForSelector(`${third}[data-meaning='handedOn']`, { timeout: 60_000 });
    assert.equal(await textOf(page, `${third} .stage`), say.handedOn);
    assert.ok(await page.isVisible(chipOf(say.third)), "still attached");
    await screenshotSizes(page, `attachstop-8-handed-on-${lang}`);
    await resetFake(w.fake);
    await page.waitForSelector(`${third}[data-meaning='embedded']`, { timeout: 180_000 });
    await resetFake(w.fake);

    // Imported on the Knowledge screen and stopped while it embeds: its
    // line says its meaning indexing is paused, N of M passages left, with
    // Resume. Ollama answers freely after the hang, and the count does not
    // move once the app has stopped calling it; Resume, and it goes down to
    // found by its meaning too.
    await settled(w.fake, "/api/embed", true);
    await fail(w.fake, "/api/embed", 1, { kind: "hang" });
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    await page.setInputFiles("#kb-file-input", [{ name: say.fifth, mimeType: "text/markdown", buffer: longFile(lang, "paused") }]);
    await page.waitForSelector(".progress li.file[data-stage='embedding'] button.stop", { timeout: 60_000 });
    await page.click(".progress li.file[data-stage='embedding'] button.stop");
    const fifth = `tr:has(td.title[title$="/${say.fifth}"])`;
    await page.waitForSelector(`${fifth} .meaning[data-meaning='paused']`, { timeout: 60_000 });
    const line = async () => (await textOf(page, `${fifth} .meaning`))?.replace(/\s+/g, " ");
    const paused = await line();
    assert.match(paused ?? "", say.meaningPaused);
    await screenshotSizes(page, `attachstop-9-library-paused-${lang}`);
    await settled(w.fake, "/api/embed");
    assert.equal(await line(), paused, "the count does not move while paused");
    await page.click(`${fifth} .meaning button.resume`);
    await page.waitForSelector(`${fifth} .meaning[data-meaning='embedded']`, { timeout: 180_000 });
    assert.equal(await textOf(page, `${fifth} .meaning`), say.meaningDone);
    await screenshot(page, `attachstop-9-library-resumed-${lang}-1280`);
    await resetFake(w.fake);
    await page.context().close();
  }
});
